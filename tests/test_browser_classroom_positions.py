"""The class votes on a position, in a real browser (issue #40 item 4's acceptance).

Its own ``streamlit run`` on a fresh data directory (the store is a SQLite file there).
A teacher asks a library position from the library list; three students on their
phones see the board and vote (one with an estimate of the winning chance); the
teacher's live count reaches 3 without a reload; in presenter mode the teacher reveals,
and the slide shows the board, the histogram of the votes and the verdict inside a
1280x720 screen. Every wait is on a condition, never a fixed time.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from bench.server import streamlit_servers
from cubecore import library
from tests.browser import ARTIFACTS, metric_value, patient_context, settled
from ui.classroom.positions import SLIDE_KEY, VERDICT_WORDS, VOTE_WORDS

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PHONE = {"width": 390, "height": 844}
SCREEN = {"width": 1280, "height": 720}
#: A library position the engine doubles and the opponent takes (stored 3-ply verdict).
ASKED = next(item for item in library.library() if library.evaluation(item.id).verdict == "DT")


@pytest.fixture
def classroom_server(tmp_path, monkeypatch):
    monkeypatch.setenv("CUBE_LAB_DATA", str(tmp_path))
    monkeypatch.delenv("CUBE_LAB_DATABASE_URL", raising=False)
    ARTIFACTS.mkdir(exist_ok=True)
    with streamlit_servers(1) as servers:
        yield servers[0][0]


def _student(browser, base: str, code: str, nickname: str):
    context = patient_context(browser, viewport=PHONE)
    page = context.new_page()
    page.goto(f"{base}/classroom?room={code}")
    settled(page)
    form = page.get_by_test_id("stForm")
    expect(form.get_by_role("textbox", name="Room code")).to_have_value(code)
    form.get_by_role("textbox", name="Nickname").fill(nickname)
    page.get_by_role("button", name="Join the room").click()
    expect(page.get_by_text(ASKED.title, exact=False).first).to_be_visible()
    return context, page


def _vote(page, vote: str, estimate: str = "") -> None:
    # the student sees the board before voting
    expect(page.locator(".js-plotly-plot").first).to_be_visible()
    if estimate:
        page.get_by_role("textbox", name=re.compile("Your winning chance")).fill(estimate)
    page.get_by_role("button", name=VOTE_WORDS[vote], exact=True).click()
    expect(page.get_by_text(f"Your vote: {VOTE_WORDS[vote]}")).to_be_visible()


#: Scroll the slide (its key) to the top of the screen, under the app's header bar.
SCROLL_UNDER_HEADER = """key => {
  const slide = document.querySelector('.st-key-' + key);
  const header = document.querySelector('[data-testid="stHeader"]');
  slide.style.scrollMarginTop = header.getBoundingClientRect().height + 'px';
  slide.scrollIntoView({block: 'start'});
}"""


def _inside(box: dict[str, float] | None, what: str) -> None:
    assert box is not None, f"{what} is not drawn"
    assert box["x"] >= 0 and box["y"] >= 0, (what, box)
    assert box["x"] + box["width"] <= SCREEN["width"] + 0.5, (what, box)
    assert box["y"] + box["height"] <= SCREEN["height"] + 0.5, (what, box)


def test_a_teacher_asks_a_library_position_three_students_vote_the_teacher_reveals(
    classroom_server, browser
):
    base = classroom_server
    contexts = []
    try:
        teacher_context = patient_context(browser, viewport=SCREEN)
        contexts.append(teacher_context)
        teacher = teacher_context.new_page()
        teacher.goto(f"{base}/classroom?sec=Present")
        settled(teacher)
        teacher.get_by_role("button", name="Open a new room").click()
        code_box = metric_value(teacher, "Room code")
        expect(code_box).to_have_text(re.compile(r"^[A-HJKMNP-Z2-9]{9}$"))
        code = code_box.inner_text().strip()

        teacher.get_by_text("Pose a position: the class votes on the cube").click()
        picker = teacher.get_by_role("combobox", name="A position from the library")
        picker.click()
        teacher.keyboard.type(ASKED.title)
        teacher.get_by_role("option", name=re.compile(re.escape(ASKED.title))).first.click()
        teacher.get_by_role("button", name="Pose this position").click()
        expect(teacher.get_by_text("Question 1", exact=True)).to_be_visible()
        expect(teacher.get_by_text(f"{ASKED.title}. Money play")).to_be_visible()
        expect(metric_value(teacher, "Votes")).to_have_text("0")

        votes = {"Ann": ("DT", "70"), "Bo": ("DP", ""), "Cy": ("DT", "")}
        for nickname, (vote, estimate) in votes.items():
            context, page = _student(browser, base, code, nickname)
            contexts.append(context)
            _vote(page, vote, estimate)
        # the teacher's live count, without a reload
        expect(metric_value(teacher, "Votes")).to_have_text("3")

        teacher.get_by_test_id("stSidebar").get_by_text("Presenter mode").click()
        teacher.get_by_role("button", name="Reveal the verdict").click()
        slide = teacher.locator(f".st-key-{SLIDE_KEY}")
        verdict = VERDICT_WORDS[library.evaluation(ASKED.id).verdict]
        heading = slide.get_by_role("heading", name=f"Verdict: {verdict}")
        expect(heading).to_be_visible()
        expect(slide).to_contain_text("Right: 2 of 3")
        charts = slide.locator(".js-plotly-plot")
        expect(charts).to_have_count(3)  # the board, the votes, the anatomy
        expect(slide.locator(".js-plotly-plot", has_text="The class's votes")).to_have_count(1)
        # the slide's top just under the app's header bar, as a presenter scrolls to it
        teacher.evaluate(SCROLL_UNDER_HEADER, SLIDE_KEY)
        teacher.screenshot(path=str(ARTIFACTS / "classroom-position-slide.png"))
        header = teacher.get_by_test_id("stHeader").bounding_box()
        assert header is not None
        box = slide.bounding_box()
        _inside(box, "the slide")
        assert box is not None and box["y"] >= header["height"] - 0.5, (box, header)
        _inside(heading.bounding_box(), "the verdict")
        for k, what in enumerate(("the board", "the histogram", "the anatomy")):
            _inside(charts.nth(k).bounding_box(), what)
        expect(charts.nth(0)).to_contain_text("pips")  # the board's title
        expect(charts.nth(1)).to_contain_text("The class's votes")
    finally:
        for context in contexts:
            context.close()
