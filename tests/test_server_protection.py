"""A hostile visitor against a real ``streamlit run app.py`` (issue #18, item 3).

Two of the issue's hidden-visitor cases, over the raw websocket protocol (the client of
``bench/wsclient.py``), against a server started as ``make run`` starts it:

- Streamlit's ``clear_cache`` back message, which any websocket client can send, clears
  nothing outside development mode: what the caches held is still there, as the server's
  own ``/_stcore/metrics`` (cache sizes per cached function, on the app's port; the nginx
  template closes it to the public) shows from outside.
- Sessions that disconnect give their memory back: ten sessions with 64 KiB links, then
  closed; the server's RSS returns to within :data:`RELEASED_MIB` of the baseline within
  the stated time (``server.disconnectedSessionTTL`` plus one heap round of
  ``ui.router.freeze_long_lived_heap``), polled with a condition, never slept.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
import tomllib
import urllib.request
from pathlib import Path

import pytest
from streamlit.proto.BackMsg_pb2 import BackMsg

from bench.server import rss_mib, streamlit_servers
from bench.wsclient import RunResult, Session
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
#: RSS above the baseline that counts as released: half the links' bytes. A closed
#: session kept by the server holds its link (~1x its size in RSS). Measured on the build
#: machine: released to +0.1-0.3 MiB within seconds of the TTL; with the TTL at an hour
#: instead, this experiment still stood at +5.1 MiB when its deadline (121 s) passed.
RELEASED_MIB = SESSIONS * LINK_BYTES / 2 / 2**20
#: RSS growth while the sessions are open: the app keeps no link, only its notices (each
#: cut to 160 characters), so ten sessions cost what ten sessions cost. Measured on the
#: build machine (2026-11-23): +1.8 MiB for the ten (0.18 MiB a session; the issue's
#: experiment grew 3 MiB a session when every page kept its full link).
HELD_MIB = 4.0


def _cache_bytes(base: str) -> dict[str, float]:
    """Bytes per ``st.cache_data`` function, read from the server's /_stcore/metrics."""
    with urllib.request.urlopen(f"{base}/_stcore/metrics", timeout=30) as answer:
        text = answer.read().decode()
    sizes: dict[str, float] = {}
    for line in text.splitlines():
        found = re.match(
            r'cache_memory_bytes\{cache_type="st_cache_data",cache="([^"]*)"\} (\S+)', line
        )
        if found:
            sizes[found.group(1)] = sizes.get(found.group(1), 0.0) + float(found.group(2))
    return sizes


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
        before = _cache_bytes(base)
        assert all(before.get(name, 0) > 0 for name in CACHED_FUNCTIONS), before
        back = BackMsg()
        back.clear_cache = True
        for _ in range(3):
            await first.ws.send(back.SerializeToString())
        _clean(await first.switch(""))
    async with Session(base, random.Random(1)) as second:
        _clean(await second.open(OTHER_PAGE))
        deadline = time.monotonic() + 120
        after = _cache_bytes(base)
        while not any(name.startswith(OTHER_FUNCTIONS) for name in after):
            assert time.monotonic() < deadline, f"/{OTHER_PAGE} never showed its caches: {after}"
            _clean(await second.switch(OTHER_PAGE))
            after = _cache_bytes(base)
    return before, after


def test_clear_cache_over_a_raw_websocket_clears_nothing():
    with streamlit_servers(1) as servers:
        before, after = asyncio.run(_clear_cache_then_read_back(servers[0][0]))
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


async def _memory_experiment(base: str, pid: int) -> tuple[float, float, float, float]:
    """(baseline, held, released, seconds to release) in MiB and s; see the module doc."""
    for page in ("", CACHED_PAGE, "", CACHED_PAGE):  # imports, caches, the first heap round
        await _visit(base, page)
    baseline = rss_mib(pid)
    link = "note=" + "a" * LINK_BYTES
    sessions = [await _visit(base, CACHED_PAGE, link, keep=True) for _ in range(SESSIONS)]
    held = rss_mib(pid)
    for session in sessions:
        await session.__aexit__()
    closed_at = time.monotonic()
    # Released within the TTL and one heap round (both need some later traffic to act:
    # a disconnect expires stored sessions, a script run does the heap round), plus room
    # for a loaded machine.
    deadline = closed_at + TEST_TTL_SECONDS + REFREEZE_SECONDS + 60
    released = rss_mib(pid)
    while released > baseline + RELEASED_MIB and time.monotonic() < deadline:
        await _visit(base)  # a later visitor: the traffic that drives the cleanup
        released = rss_mib(pid)
    return baseline, held, released, time.monotonic() - closed_at


def test_disconnected_sessions_release_their_memory():
    extra = ("--server.disconnectedSessionTTL", str(TEST_TTL_SECONDS))
    with streamlit_servers(1, extra=extra) as servers:
        base, pid = servers[0]
        baseline, held, released, seconds = asyncio.run(_memory_experiment(base, pid))
    assert held <= baseline + HELD_MIB, (
        f"RSS {baseline:.1f} MiB before, {held:.1f} MiB with {SESSIONS} sessions of "
        f"{LINK_BYTES // 1024} KiB links"
    )
    assert released <= baseline + RELEASED_MIB, (
        f"RSS {baseline:.1f} MiB before, {held:.1f} MiB with {SESSIONS} sessions of "
        f"{LINK_BYTES // 1024} KiB links, still {released:.1f} MiB {seconds:.0f} s after "
        "they closed"
    )
