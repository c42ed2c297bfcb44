"""Shared fixtures: AppTest factory with clean caches; the browser-test server and browser.

Also the house rule "never skip", enforced: a skipped or xfailed test fails the run.
"""

import functools
from pathlib import Path

import pytest
import streamlit as st
from streamlit.components.v2 import manifest_scanner
from streamlit.testing.v1 import AppTest

from tests.clusters import close_after, dask_cluster, two_workers  # noqa: F401 (rollouts)
from tests.databases import (  # noqa: F401 (the store tests' fixtures)
    clock,
    data_dir,
    database,
    postgres_url,
)

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")

# Each new AppTest scans every installed distribution's metadata for Streamlit's v2
# components (streamlit.testing.v1.app_test: AppTest._run), about 50 ms of CPU of the
# 70 ms a page's AppTest run takes; a server scans once, when it starts. The installed
# packages do not change during a test run, so each test process scans once too: the
# suite's thousands of AppTests then spend their CPU on the app (measured in
# docs/benchmarks.md, "make check and make test").
manifest_scanner.scan_component_manifests = functools.cache(
    manifest_scanner.scan_component_manifests
)


_skipped: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Note every skipped (or xfailed) test; with xdist this runs in the controller too."""
    if report.skipped:
        _skipped.append(report.nodeid)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    """A failed browser test's report carries what the browser and the server saw then.

    The app's script state, the address, the stale elements, a screenshot and the page's
    HTML (under ``test-artifacts/failures/``), and the tail of its server's log: a
    failure seen once in a full run (a loaded machine) is otherwise hard to tell apart
    from a lost rerun, a stuck run or a test's own mistake.
    """
    report = yield
    funcargs = getattr(item, "funcargs", {})
    if report.when == "call" and report.failed and "page" in funcargs:
        from tests.browser import failure_state, server_log_tail

        report.sections.append(("browser at failure", failure_state(funcargs["page"], item.name)))
        if "server" in funcargs:
            report.sections.append(("server log (tail)", server_log_tail(funcargs["server"])))
    return report


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A run that skipped anything fails: a missing browser or database must not pass."""
    if _skipped and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
        print(f"\n{len(_skipped)} test(s) skipped, which fails the run: {', '.join(_skipped)}")


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """After the last rollout test of the group in this process, close the shared cluster
    (tests/clusters.py); trylast: after the test's own fixtures are torn down."""
    close_after(item, nextitem)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Make ``--dist loadgroup`` group again on pytest 9.2 (pytest-xdist issue #1386).

    xdist's worker tells the scheduler a test's ``xdist_group`` by appending ``@<group>``
    to the node id through ``item._nodeid``, which pytest 9.2 no longer reads (its node
    id is ``item._id``), so every test was scheduled alone and each worker opened the
    shared views (tests/views.py) it happened to get. Where xdist left a grouped test's
    id unsuffixed, the suffix is written where pytest 9.2 reads it; with a fixed xdist
    (or an older pytest) the id already has it and nothing is done.
    """
    if not getattr(config.option, "loadgroup", False):  # set in xdist's workers only
        return
    unsuffixed = [
        (item, mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
        for item in items
        if (mark := item.get_closest_marker("xdist_group")) is not None
        and "@" not in item.nodeid.rpartition("]")[2]
    ]
    if not unsuffixed:  # xdist did it (a fixed xdist, or a pytest before 9.2)
        return
    from _pytest.nodeid import NodeId  # pytest 9.2's private node id (the locked version)

    for item, name in unsuffixed:
        item._id = NodeId.parse(f"{item.nodeid}@{name}")


@pytest.fixture(autouse=True)
def _clear_streamlit_caches(request: pytest.FixtureRequest):
    """Every test starts with Streamlit's caches empty and leaves them empty, except the
    tests marked ``shared_caches``, which keep what the tests before them computed.

    A test may patch what a page computes (a budget, a function that fails) or count
    the computations, and what it cached would then mislead the next test: so each
    unmarked test clears before and after itself. A marked module only reads the pages
    as a visitor would, never patches, and keeps no per-test data directory: it meets
    only what other marked tests computed. Opening pages on warm caches saved about a
    tenth of the suite's CPU (docs/benchmarks.md, "make check and make test").
    """
    shared = request.node.get_closest_marker("shared_caches") is not None
    if not shared:
        st.cache_data.clear()
        st.cache_resource.clear()
    yield
    if not shared:
        st.cache_data.clear()
        st.cache_resource.clear()


@pytest.fixture
def open_page():
    """Open ``page`` (a file under pages/) with the given query parameters."""

    def _open(page: str, **params) -> AppTest:
        at = AppTest.from_file(APP, default_timeout=60)
        for key, value in params.items():
            at.query_params[key] = value
        at.switch_page(page).run()  # the link opens the page itself, as in a browser
        return at

    return _open


@pytest.fixture(scope="session")
def server(browser):
    """A real `streamlit run app.py` on a free localhost port, one per pytest-xdist worker.

    Session scope: each xdist worker is a session, so its browser tests share one server
    (and one Chromium, below); every test gets a fresh browser context (``page``). The
    server's cold start (imports, the first script run) is paid here, once, by opening the
    home page and waiting for its title, so that no test's own timeout absorbs it.
    """
    from tests.browser import ARTIFACTS, patient_context, streamlit_server

    ARTIFACTS.mkdir(exist_ok=True)
    with streamlit_server() as base:
        context = patient_context(browser)
        try:
            warm = context.new_page()
            warm.goto(base)
            warm.locator("h1").first.wait_for()
        finally:
            context.close()
        yield base


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by Playwright; a missing browser fails, never skips.

    Every ``expect`` of the run waits up to :data:`tests.browser.PATIENCE_MS`.
    """
    from playwright.sync_api import expect, sync_playwright

    from bench.browser import CHROMIUM_ARGS, chromium_path
    from tests.browser import PATIENCE_MS

    expect.set_options(timeout=PATIENCE_MS)

    executable = chromium_path()
    if executable is None:
        pytest.fail("Debian's chromium is not installed: run scripts/ensure-system.sh")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    """A fresh browser context and page, 1400x1000, patient (tests.browser.PATIENCE_MS)."""
    from tests.browser import patient_context

    context = patient_context(browser, viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    yield page
    context.close()
