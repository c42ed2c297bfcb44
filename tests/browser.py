"""Helpers for the real-browser tests: a `streamlit run` server and Debian's Chromium.

The server comes from :mod:`bench.server`, which the load tests use too; the browser's
flags and the condition that a page has settled from :mod:`bench.browser`, which the
suite's floor (``python -m bench suitefloor``) uses too."""

from __future__ import annotations

import re
from contextlib import contextmanager

from bench.browser import SETTLED
from bench.server import ARTIFACTS, streamlit_servers

#: How long any one condition may take before a browser test fails (ms). One patience for
#: every wait (Playwright's actions and ``expect``), long enough for a loaded 2-core machine
#: (a cold server's first page with the suite's other worker busy, or ``bench stress``'s
#: two CPU hogs): a wait ends as soon as its condition holds, so a long cap costs nothing
#: when the machine is idle. Playwright's own default (5 s for ``expect``) is the fixed
#: timeout a loaded machine breaks. Each test's outer bound is its ``pytest.mark.timeout``.
PATIENCE_MS = 180_000
#: How long an opened select box's list may take to show before the box is opened again.
_OPEN_MS = 10_000


def patient_context(browser, **options):
    """A fresh browser context whose actions wait up to :data:`PATIENCE_MS`."""
    context = browser.new_context(**options)
    context.set_default_timeout(PATIENCE_MS)
    return context


@contextmanager
def streamlit_server():
    """Start `streamlit run app.py` on a free localhost port; yield its base URL."""
    with streamlit_servers(1, log_dir=ARTIFACTS if ARTIFACTS.exists() else None) as servers:
        yield servers[0][0]


#: How many of the server log's last lines a failed browser test's report shows.
LOG_TAIL_LINES = 60

#: What a failed test's report says about the page (:func:`failure_state`).
_PAGE_STATE = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return {
    script: app === null ? null : app.getAttribute('data-test-script-state'),
    stale: document.querySelectorAll('[data-stale="true"]').length,
    metrics: Array.from(document.querySelectorAll('[data-testid="stMetric"]'))
      .map(m => m.innerText.replace(/\\s+/g, ' ').trim()),
  };
}"""


def failure_state(page, name: str) -> str:
    """What the page shows when a test fails: the app's script state, its address, the
    stale elements and the metrics; a screenshot and the HTML go to
    ``test-artifacts/failures/`` (the test's name made a file name). Never raises: what
    could not be read or saved is said so, and the rest is still reported."""
    try:
        state = page.evaluate(_PAGE_STATE)
    except Exception as error:  # the report must not hide the test's own failure
        return f"the page could not be read: {type(error).__name__}: {error}"
    failures = ARTIFACTS / "failures"
    stem = failures / re.sub(r"[^\w-]+", "_", name)
    try:
        failures.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(stem.with_suffix(".png")), full_page=True)
        stem.with_suffix(".html").write_text(page.content())
        saved = f"screenshot and HTML: {stem}.png, .html"
    except Exception as error:
        saved = f"screenshot and HTML not saved: {type(error).__name__}: {error}"
    return (
        f"url: {page.url}\nscript state: {state['script']}\nstale elements: {state['stale']}\n"
        f"metrics: {state['metrics']}\n{saved}"
    )


def server_log_tail(base_url: str) -> str:
    """The last :data:`LOG_TAIL_LINES` lines of the log of the server at ``base_url``
    (``bench.server`` names it by port)."""
    port = base_url.rsplit(":", 1)[-1]
    log = ARTIFACTS / f"streamlit-{port}.log"
    if not log.exists():
        return f"no log at {log}"
    lines = log.read_text(errors="replace").splitlines()
    return "\n".join(lines[-LOG_TAIL_LINES:]) or "(empty)"


def metric_value(page, label: str):
    """The value element of the first st.metric whose label contains ``label``."""
    metric = page.locator('[data-testid="stMetric"]', has_text=label).first
    return metric.locator('[data-testid="stMetricValue"]')


def select_options(page, label: str) -> list[str]:
    """The options of the select box labelled ``label`` (a regular expression), as its open
    list shows them; the list is closed again before returning.

    The list is opened from the keyboard (focus, then the down arrow): a click on a select
    box in a scrolled sidebar was seen to focus it without opening it. Once the app's run
    has settled; and again while the list has not opened (a run that redraws the box takes
    its focus away: seen once in CI), up to :data:`PATIENCE_MS` in all.
    """
    import time

    from playwright.sync_api import expect

    settled(page)
    box = page.get_by_role("combobox", name=re.compile(label))
    option = page.get_by_role("option").first
    deadline = time.monotonic() + PATIENCE_MS / 1000
    while True:
        box.focus()
        page.keyboard.press("ArrowDown")
        try:
            expect(option).to_be_visible(timeout=_OPEN_MS)
            break
        except AssertionError:
            if time.monotonic() > deadline:
                raise
    options = page.get_by_role("option").all_inner_texts()
    page.keyboard.press("Escape")
    expect(page.get_by_role("listbox")).to_have_count(0)
    return options


def settled(page) -> None:
    """Wait until the app has finished its run and shows its content."""
    page.wait_for_function(SETTLED)
