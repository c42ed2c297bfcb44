"""One AppTest run per view, shared by every check that reads that view (issue #17, item 3).

A view is a page, one of its sections opened by its link (``?sec=<title>``), optionally
one preset clicked, in presenter mode or not, in the light or the dark theme. The
snapshot (``test_page_snapshot``), the table (``test_table_style``), chart
(``test_charts_common``) and export (``test_exports``) checks and the common page
checks (``test_pages_common``) each read the same views; :func:`open_view` runs each
one once per pytest process (each xdist worker) and hands the same run to every check.

The run is only read, never clicked on again: a check that goes on from a view (a
second preset, a changed control) opens its own run (``open_page``).

With xdist, every test of one view carries the mark :func:`group` and the suite runs
with ``--dist loadgroup`` (``pyproject.toml``; ``tests/conftest.py`` makes it group on
pytest 9.2, pytest-xdist issue #1386), so one worker runs all of a view's tests and
builds the view once.

Every view is opened in an explicit theme (``st.context.theme``, set through
``AppTest.context``), ``light`` unless a check asks for ``dark``: a browser always
reports one, and the app's only use of it, :func:`ui.style.themed_figure`, draws no
theme (``None``, AppTest's default) as the light one (tested in ``test_style``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import APP
from ui.skeleton import SECTION_KEY

#: A full page run may take this long on a loaded machine (the snapshot's timeout).
TIMEOUT_S = 120
THEMES = ("light", "dark")


@dataclass(frozen=True)
class View:
    """One view: a page file, a section title, and how it is shown."""

    page: str
    section: str
    preset: str | None = None
    present: bool = False
    theme: str = "light"

    def __str__(self) -> str:
        parts = [self.page, f"section {self.section!r}", f"preset {self.preset or '(defaults)'}"]
        if self.present:
            parts.append("presenter mode")
        parts.append(f"{self.theme} theme")
        return " | ".join(parts)


_RUNS: dict[View, AppTest] = {}


def open_view(view: View) -> AppTest:
    """The AppTest run of ``view``: opened once per process, then the same run (read only).

    The view opens as a shared link opens it (``app.py``, then the page, with
    ``sec=<title>`` and ``present=true`` in the link), on Streamlit's caches as the test
    that opens it has them (``tests/conftest.py``): empty in an ordinary test; in a
    module marked ``shared_caches``, what earlier such tests computed, so that one
    section's views in two themes and in presenter mode compute its tables once. A
    preset is then clicked through its button (``preset:<label>``). An exception of
    the page is kept in the run for each check to report, not raised here.
    """
    run = _RUNS.get(view)
    if run is None:
        run = AppTest.from_file(APP, default_timeout=TIMEOUT_S)
        run.context = {"theme": view.theme}
        run.query_params[SECTION_KEY] = view.section
        if view.present:
            run.query_params["present"] = "true"
        run.switch_page(view.page).run()  # the link opens the page itself, as in a browser
        if view.preset is not None:
            run.button(key=f"preset:{view.preset}").click().run()
        _RUNS[view] = run
    return run


def group(view: View) -> pytest.MarkDecorator:
    """The xdist mark that sends every test of ``view`` to the same worker."""
    return pytest.mark.xdist_group(str(view))


def param(view: View, *values: Any, id: str | None = None) -> Any:
    """``pytest.param(*values)`` marked with the group of ``view``."""
    return pytest.param(*values, marks=group(view), id=id)
