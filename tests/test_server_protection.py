"""A hostile visitor against a real ``streamlit run app.py`` (issue #18, item 3).

Two of the issue's hidden-visitor cases, over the raw websocket protocol (the client of
``bench/wsclient.py``), against a server started as ``make run`` starts it:

- Streamlit's ``clear_cache`` back message, which any websocket client can send, clears
  nothing outside development mode: what the caches held is still there, as the server's
  own ``/_stcore/metrics`` (cache sizes per cached function, on the app's port; the nginx
  template closes it to the public) shows from outside.
- Sessions that disconnect give their memory back: ten sessions with 64 KiB links, then
  closed; once their TTL (``server.disconnectedSessionTTL``) has passed, what they leave in
  the server's RSS exceeds what the same ten sessions with one-byte links leave by at
  most :data:`RELEASED_MIB`, polled over later visitors, never slept.
"""

from __future__ import annotations

import asyncio
import random
import time
import tomllib
from pathlib import Path

import pytest
from streamlit.proto.BackMsg_pb2 import BackMsg

from bench import load
from bench.server import rss_mib, streamlit_servers
from bench.wsclient import RunResult, Session
from tests.threads import off_loop
from tests.warm import await_warm
from ui.router import REFREEZE_SECONDS

pytestmark = pytest.mark.timeout(600)

ROOT = Path(__file__).resolve().parents[1]
#: A page whose first run fills two st.cache_data functions of its own.
CACHED_PAGE = "janowski"
CACHED_FUNCTIONS = ("ui.janowski.data.cube_points", "ui.janowski.data.equity_curves")
#: Another page, with cached functions of its own (``ui.cube.data``).
OTHER_PAGE = "cube"
OTHER_FUNCTIONS = "ui.cube.data."
#: Sessions and link size of the memory experiment (the issue's was 60 x 512 KiB).
SESSIONS = 10
LINK_BYTES = 64 * 1024
#: A short session TTL for the memory test, so that it runs in about a minute and the
#: later visitors' own stored sessions stay few; the shipped value (config.toml) only
#: lengthens the wait, the mechanism is the same.
TEST_TTL_SECONDS = 1
#: What the long links may leave behind once their sessions have closed, beyond what the
#: same sessions leave with one-byte links: half the links' bytes. A closed session kept
#: by the server holds its link (~1x its size in RSS). The comparison is with a control
#: round because a round of any ten sessions leaves +0.2 to +0.4 MiB in RSS (measured
#: 2026-11-23, with short links as with long ones): against the bare baseline the bound
#: sat inside that noise and the test passed or failed by chance. With the TTL at an hour
#: instead, the long links' round stood at +5.1 MiB after 121 s.
RELEASED_MIB = SESSIONS * LINK_BYTES / 2 / 2**20
#: Later visitors after the sessions close, at the least (each a new session of its own).
LATER_VISITS = 40
#: RSS growth while the sessions are open: the app keeps no link, only its notices (each
#: cut to 160 characters), so ten sessions cost what ten sessions cost. Measured on the
#: build machine (2026-11-23): +1.8 MiB for the ten (0.18 MiB a session; the issue's
#: experiment grew 3 MiB a session when every page kept its full link).
HELD_MIB = 4.0


def _clean(run: RunResult | None) -> RunResult:
    assert run is not None
    assert not (run.timed_out or run.compile_error or run.exceptions or run.wrong_page), run
    return run


async def _clear_cache_then_read_back(base: str) -> tuple[dict[str, float], dict[str, float]]:
    """Fill a page's caches, send ``clear_cache``, and read the caches back: (before, after).

    Session A opens the cached page, sends the message and then switches to Home: a
    session's back messages are handled in the order sent, so once that run has finished
    the message has been handled, and Home calls none of the page's cached functions, so
    it cannot refill them. ``/_stcore/metrics`` keeps its cache-size figures for 5 s
    (Streamlit's ``_METRICS_EXPENSIVE_STATS_TTL_SECONDS``), so a reading counts only once
    it is known to be fresh: session B opens another page, whose own cached functions
    appear in the figures once they are recomputed after both runs; B reruns its page
    (a user moving on) between readings until they do.
    """
    async with Session(base, random.Random(0)) as first:
        _clean(await first.open(CACHED_PAGE))
        before = load.cache_data_bytes(base)
        assert all(before.get(name, 0) > 0 for name in CACHED_FUNCTIONS), before
        back = BackMsg()
        back.clear_cache = True
        for _ in range(3):
            await first.ws.send(back.SerializeToString())
        _clean(await first.switch(""))
    async with Session(base, random.Random(1)) as second:
        _clean(await second.open(OTHER_PAGE))
        deadline = time.monotonic() + 120
        after = load.cache_data_bytes(base)
        while not any(name.startswith(OTHER_FUNCTIONS) for name in after):
            assert time.monotonic() < deadline, f"/{OTHER_PAGE} never showed its caches: {after}"
            _clean(await second.switch(OTHER_PAGE))
            after = load.cache_data_bytes(base)
    return before, after


def test_clear_cache_over_a_raw_websocket_clears_nothing():
    with streamlit_servers(1) as servers:
        before, after = off_loop(asyncio.run, _clear_cache_then_read_back(servers[0][0]))
    for name in CACHED_FUNCTIONS:
        assert after.get(name, 0) == before[name], f"{name}: {before[name]} -> {after.get(name)}"


def test_the_shipped_config_states_the_disconnected_session_ttl():
    """The time a closed tab's session is kept is set explicitly (the README states it)."""
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    ttl = config["server"]["disconnectedSessionTTL"]
    assert isinstance(ttl, int) and 0 < ttl <= 120, ttl
    readme = (ROOT / "deploy" / "README.md").read_text(encoding="utf-8")
    assert f"disconnectedSessionTTL = {ttl}" in readme
    assert f"{ttl + int(REFREEZE_SECONDS)} s" in readme


async def _visit(base: str, page: str = "", query: str = "", keep: bool = False):
    session = Session(base, random.Random(0))
    await session.__aenter__()
    try:
        _clean(await session.open(page, query))
    except BaseException:
        await session.__aexit__()
        raise
    if keep:
        return session
    await session.__aexit__()
    return None


async def _round(base: str, pid: int, query: str) -> tuple[float, float, float]:
    """One round: (baseline, held, residual) in MiB for sessions opened with ``query``.

    The sessions are opened and kept, then closed; later visitors (the traffic that
    drives the cleanup: a disconnect expires the stored sessions whose TTL has passed)
    come until the TTL has passed three times over and :data:`LATER_VISITS` have come.
    The residual is the lowest RSS above the round's baseline seen meanwhile: every
    visitor is a session of its own, and what the server keeps of each creeps up by a
    few KiB, in every round alike.
    """
    baseline = rss_mib(pid)
    sessions = [await _visit(base, CACHED_PAGE, query, keep=True) for _ in range(SESSIONS)]
    held = rss_mib(pid)
    for session in sessions:
        await session.__aexit__()
    closed_at = time.monotonic()
    lowest = rss_mib(pid)
    visits = 0
    while visits < LATER_VISITS or time.monotonic() < closed_at + 3 * TEST_TTL_SECONDS:
        await _visit(base)
        visits += 1
        lowest = min(lowest, rss_mib(pid))
    return baseline, held, lowest - baseline


async def _memory_experiment(
    base: str, pid: int
) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """The control round (one-byte links) and the long links' round; see the module doc.

    Both start once the server's warm-up has built every table (:func:`tests.warm.
    await_warm`): its builds (the two-sided bear-off database peaks at ~260 MiB) free
    and take memory in the background, tens of MiB against the fraction of a MiB the
    rounds compare (seen: -17 MiB over the control round, +0.5 MiB over the other).
    """
    await await_warm(base)
    for page in ("", CACHED_PAGE, "", CACHED_PAGE):  # imports, caches
        await _visit(base, page)
    # a first round of ordinary sessions, not counted: the heap's first full collection
    # after start-up frees what the start left (seen: 17 MiB during the first round),
    # which would hide the few KiB every later visitor leaves in the control round
    await _round(base, pid, "note=a")
    control = await _round(base, pid, "note=a")
    long_links = await _round(base, pid, "note=" + "a" * LINK_BYTES)
    return control, long_links


def test_disconnected_sessions_release_their_memory():
    extra = ("--server.disconnectedSessionTTL", str(TEST_TTL_SECONDS))
    with streamlit_servers(1, extra=extra) as servers:
        base, pid = servers[0]
        control, long_links = off_loop(asyncio.run, _memory_experiment(base, pid))
    baseline, held, residual = long_links
    assert held <= baseline + HELD_MIB, (
        f"RSS {baseline:.1f} MiB before, {held:.1f} MiB with {SESSIONS} sessions of "
        f"{LINK_BYTES // 1024} KiB links"
    )
    # what ordinary sessions leave is never negative: an unrelated collection during the
    # control round can free more than its sessions left (seen: -1.09 MiB)
    ordinary = max(control[2], 0.0)
    assert residual <= ordinary + RELEASED_MIB, (
        f"{SESSIONS} sessions of {LINK_BYTES // 1024} KiB links left +{residual:.2f} MiB "
        f"after they closed (held +{held - baseline:.2f} MiB), the same sessions with "
        f"one-byte links +{control[2]:.2f} MiB"
    )
