"""The board editor takes real clicks, in Debian's Chromium (issue #39 item 1).

A standalone page with the editor alone (``tests/position_editor_app.py``, served as the
app is, by :func:`bench.server.streamlit_servers`): clicks at the screen position of a
point (read from plotly's own axes) add and remove checkers; the same click twice counts
twice; an illegal click shows its message and changes nothing; a click on the tray bears
a checker off. Every wait is on a condition (the text the page prints).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from bench.server import ARTIFACTS, streamlit_servers
from cubecore.position import position_id
from tests.browser import patient_context
from ui import board
from ui.position.editor import START, apply_click

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

#: The screen position of board coordinates (x, y), from plotly's axes on the page.
_TO_SCREEN = """([x, y]) => {
  const gd = document.querySelector('.js-plotly-plot');
  const size = gd._fullLayout._size, box = gd.getBoundingClientRect();
  return [box.left + size.l + gd._fullLayout.xaxis.l2p(x),
          box.top + size.t + gd._fullLayout.yaxis.l2p(y)];
}"""


def _point_x(point: int) -> float:
    (note,) = [
        n for n in board.board_figure(START)["layout"]["annotations"] if n["text"] == str(point)
    ]
    return float(note["x"])


def _click(page, x: float, y: float) -> None:
    page.wait_for_function(  # a board drawn (after a click's rerun, drawn again)
        "() => document.querySelector('.js-plotly-plot')?._fullLayout?.xaxis !== undefined"
    )
    page.mouse.click(*page.evaluate(_TO_SCREEN, [x, y]))


def _shows(page, position) -> None:
    expect(page.get_by_text(f"edited: {position_id(position)}", exact=True)).to_be_visible()


def test_clicks_on_the_board_edit_the_position(browser):
    with streamlit_servers(
        1, script="tests/position_editor_app.py", log_dir=ARTIFACTS if ARTIFACTS.exists() else None
    ) as servers:
        context = patient_context(browser, viewport={"width": 1280, "height": 900})
        page = context.new_page()
        try:
            page.goto(servers[0][0])
            expect(page.get_by_text("edited: none", exact=True)).to_be_visible()
            # the text is there before plotly has drawn the board: wait for its traces
            page.wait_for_function(
                "() => (document.querySelector('.js-plotly-plot')?.data || []).length >= 2"
            )
            colours = page.evaluate(
                "() => document.querySelector('.js-plotly-plot').data.slice(0, 2)"
                ".map(t => t.marker.color)"
            )
            assert colours == [board.ON_ROLL, board.OPPONENT]  # two checker colours

            _click(page, _point_x(6), 0.5)  # a sixteenth checker: refused, with the reason
            expect(page.get_by_text("already has all 15 checkers in play")).to_be_visible()
            expect(page.get_by_text("edited: none", exact=True)).to_be_visible()

            page.get_by_text("Removes a checker", exact=True).click()
            _click(page, _point_x(6), 0.5)
            one = apply_click(START, ("point", 6), "player", False)
            _shows(page, one)
            expect(page.get_by_text("already has all 15 checkers in play")).to_have_count(0)
            _click(page, _point_x(6), 0.5)  # the same click again counts again
            two = apply_click(one, ("point", 6), "player", False)
            _shows(page, two)

            page.get_by_text("Opponent (dark)", exact=True).click()
            _click(page, board.OFF_TRAY, 10.0)  # the tray: the opponent bears one off
            _shows(page, apply_click(two, ("off", 0), "opponent", True))
        finally:
            context.close()
