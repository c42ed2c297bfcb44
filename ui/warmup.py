"""A warm server: the expensive tables built once per process, in the background, from the start.

A fresh process would otherwise make its first visitors wait: the match page's default
tables take ~1.2 s to solve, the race page's exact tables ~0.1 s, and the bear-off
databases are read from the disk cache or, on a new machine, built (issue #17, item 2).
:data:`WARM_UP` lists them (:class:`Table`: a key, what a reader is told, how it is built);
:meth:`WarmUp.start` builds them one after the other in a daemon thread, once per
process; :meth:`WarmUp.need` is what a page calls before it reads one: it returns at once
when the table is there, and otherwise shows a progress bar naming the table while it is
built (by the warm-up, or by this run when no warm-up is running), never a frozen
screen. One lock per table: a table is built once, whoever asks first.

Who starts it: the launcher ``python -m ui.serve`` (``make run``, the systemd unit, the
benches and the browser tests), before the server listens, after importing every page's
code (:func:`import_pages`); ``app.py`` on a process's first script run, for a server
started as ``streamlit run app.py`` (Streamlit Community Cloud). Tables built through
``st.cache_data`` need Streamlit's runtime (its cache storage), so the thread waits for
the runtime before the first one (bounded by :data:`RUNTIME_WAIT_SECONDS`).
"""

from __future__ import annotations

import functools
import importlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import streamlit as st
from streamlit import runtime
from streamlit.logger import get_logger
from streamlit.runtime import Runtime

if TYPE_CHECKING:  # cubecore is imported by import_pages, one thread at a time
    from cubecore.bearoff import Progress

__all__ = [
    "NEED_WAIT_SECONDS",
    "RUNTIME_WAIT_SECONDS",
    "WARM_UP",
    "Table",
    "WarmUp",
    "import_pages",
    "serving",
]

_log = get_logger(__name__)  # Streamlit's format and level (``logger.level``): in the server's log

#: How long the warm-up thread waits for Streamlit's runtime before giving up (the
#: tables are then built by the first page that needs them, with a progress bar).
RUNTIME_WAIT_SECONDS = 120.0
#: How long a page waits for a table another thread is building before it says so
#: and stops (a build is bounded: this is the budget of a wait that went wrong).
NEED_WAIT_SECONDS = 300.0
#: How often a waiting page redraws its progress bar.
_POLL_SECONDS = 0.2


@dataclass(frozen=True)
class Table:
    """One expensive table of the app.

    Attributes
    ----------
    key : str
        Stable name (:meth:`WarmUp.need`).
    label : str
        What it is, for a reader waiting on it ("the match equity tables ...").
    build : callable
        ``build(progress)`` builds it into its cache (``st.cache_resource``,
        ``st.cache_data`` or cubecore's disk cache); ``progress(done)`` takes the share
        done, 0 to 1. Idempotent: a second call reads the cache.
    solve : callable, optional
        ``solve()``: the part of the build that needs no Streamlit runtime (cubecore's
        own caches, ``st.cache_resource``), which the launcher runs before the server
        listens (:meth:`WarmUp.solve_ahead`), so that ``build`` finds it done.
    """

    key: str
    label: str
    build: Callable[[Progress], object]
    solve: Callable[[], object] | None = None


@dataclass
class _State:
    lock: threading.Lock = field(default_factory=threading.Lock)
    done: threading.Event = field(default_factory=threading.Event)
    share: float = 0.0  # of the build in progress, 0 to 1
    seconds: float | None = None  # how long the build took


class WarmUp:
    """The tables of one process, their locks and the background thread that builds them."""

    def __init__(self, tables: tuple[Table, ...], wait_seconds: float = NEED_WAIT_SECONDS) -> None:
        keys = [table.key for table in tables]
        if len(set(keys)) != len(keys):
            raise ValueError(f"tables: keys must be unique, got {keys}")
        if not 0 < wait_seconds <= NEED_WAIT_SECONDS:
            raise ValueError(
                f"wait_seconds must be in (0, {NEED_WAIT_SECONDS:.0f}], got {wait_seconds}"
            )
        self.wait_seconds = wait_seconds
        self.tables = {table.key: table for table in tables}
        self._states = {table.key: _State() for table in tables}
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()

    # ------------------------------------------------------------------ background

    def solve_ahead(self, budget_seconds: float) -> list[str]:
        """Run each table's :attr:`Table.solve` here and now, in order, while the budget
        lasts (a table begun is finished); the keys solved.

        The launcher calls it before the server listens: the first visitors then share
        the two cores with no table build (the background thread's ``build`` of a solved
        table only copies it into Streamlit's cache).
        """
        if not 0 < budget_seconds <= NEED_WAIT_SECONDS:
            raise ValueError(
                f"budget_seconds must be in (0, {NEED_WAIT_SECONDS:.0f}], got {budget_seconds}"
            )
        deadline = time.monotonic() + budget_seconds
        solved = []
        for table in self.tables.values():
            if table.solve is None:
                continue
            if time.monotonic() > deadline:
                break
            table.solve()
            solved.append(table.key)
        return solved

    def start(self, wait_for_runtime: bool = True) -> bool:
        """Start building every table in a daemon thread, once; True if this call started it.

        ``wait_for_runtime``: first wait for Streamlit's runtime (tables kept by
        ``st.cache_data`` need its storage); False only for tables that do not.
        """
        with self._start_lock:
            if self._thread is not None:
                return False
            self._thread = threading.Thread(
                target=self._run, args=(wait_for_runtime,), name="cubelab-warm-up", daemon=True
            )
            self._thread.start()
            return True

    @property
    def running(self) -> bool:
        """Whether the background thread is building tables now."""
        return self._thread is not None and self._thread.is_alive()

    def join(self, timeout: float | None = None) -> None:
        """Wait for the background thread (tests and benches)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self, wait_for_runtime: bool) -> None:
        started = time.monotonic()
        if wait_for_runtime and not _wait_for_runtime(RUNTIME_WAIT_SECONDS):
            _log.warning(
                "warm-up: no Streamlit runtime after %.0f s; stopped", RUNTIME_WAIT_SECONDS
            )
            return
        for key in self.tables:
            try:
                self._build(key, functools.partial(self._set_share, key))
            except Exception:  # a failed table is built again by the page that needs it
                _log.exception("warm-up: %s failed", key)
        _log.info("warm-up: done %.2f s after start", time.monotonic() - started)

    def _set_share(self, key: str, share: float) -> None:
        self._states[key].share = min(max(float(share), 0.0), 1.0)

    def _build(self, key: str, progress: Progress) -> None:
        """Build ``key`` unless it is there; the caller holds nothing (this takes the lock)."""
        state = self._states[key]
        with state.lock:
            if state.done.is_set():
                return
            began = time.monotonic()
            self.tables[key].build(progress)
            state.seconds = time.monotonic() - began
            state.share = 1.0
            state.done.set()
            _log.info("warm-up: %s ready in %.2f s", key, state.seconds)

    # ------------------------------------------------------------------ pages

    def ready(self, key: str) -> bool:
        """Whether ``key`` is built (``ValueError`` for an unknown key)."""
        return self._state(key).done.is_set()

    def seconds(self, key: str) -> float | None:
        """How long ``key``'s build took (None while not built)."""
        return self._state(key).seconds

    def need(self, key: str) -> None:
        """Have ``key`` built before this run reads it, with a progress bar while it is built.

        Returns at once when it is there. Otherwise a progress bar names the table: while
        another thread (the warm-up, another session) builds it, the bar follows that
        build; when nobody does, this run builds it. A wait longer than
        :attr:`wait_seconds` (:data:`NEED_WAIT_SECONDS` by default), or a build that
        raises, is told to the reader in the bar's place, and the run stops there.
        """
        state = self._state(key)
        if state.done.is_set():
            return
        table = self.tables[key]
        slot = st.empty()

        def show(share: float) -> None:
            share = min(max(float(share), 0.0), 1.0)
            slot.progress(
                share, text=f"Preparing {table.label} (once per server start): {share:.0%}"
            )

        def report(share: float) -> None:  # this run builds: other waiters follow it too
            self._set_share(key, share)
            show(share)

        deadline = time.monotonic() + self.wait_seconds
        show(state.share)
        while not state.lock.acquire(timeout=_POLL_SECONDS):
            if time.monotonic() > deadline:
                slot.warning(
                    f"{table.label[:1].upper()}{table.label[1:]} is still being prepared after "
                    f"{self.wait_seconds:g} s; reload the page in a minute."
                )
                st.stop()
            show(state.share)
        state.lock.release()  # the other build finished (or failed: then build it here)
        try:
            self._build(key, report)
        except Exception as error:  # a bug of the build: told, not a traceback
            _log.exception("%s failed", key)
            slot.error(f"Could not prepare {table.label}: {type(error).__name__}: {error}")
            st.stop()
        slot.empty()

    def _state(self, key: str) -> _State:
        if key not in self._states:
            raise ValueError(f"key must be one of {sorted(self._states)}, got {key!r}")
        return self._states[key]


def _wait_for_runtime(seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not runtime.exists():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def serving() -> bool:
    """Whether this process is a Streamlit server (not a test's ``AppTest``, whose runtime
    is a stand-in that exists only during its runs)."""
    return runtime.exists() and type(Runtime.instance()) is Runtime


_imported = threading.Event()
_import_lock = threading.Lock()


def import_pages() -> float:
    """Import every registered page's code, once per process, one thread at a time.

    Its package, sections and their imports: numpy, pandas, scipy, plotly, pyarrow and
    cubecore, whose modules import one another. Thirty sessions opening a fresh
    ``streamlit run`` at once would otherwise import them in thirty threads together,
    and Python's import locks fail on such cycles (a "partially initialized module",
    a deadlock error: ``python -m bench coldstart`` saw 26 errors in 60 first pages).
    ``app.py`` and every page file call it before their other imports (a fresh server's
    first run of a page may skip ``app.py``: :mod:`ui.router`), the launcher before the
    server listens; a thread that arrives meanwhile waits. (Importing it all from
    ``ui/__init__.py`` instead, under the package's own import lock, made it worse: 59
    deadlock errors.) Seconds taken (0 when already done).
    """
    if _imported.is_set():
        return 0.0
    with _import_lock:
        if _imported.is_set():
            return 0.0
        from ui.pages import PAGES

        began = time.monotonic()
        # Before the runtime exists each ``st.cache_data`` decorator logs that it checks its
        # parameters against a stand-in storage: a warning per function, and harmless (each
        # function's cache is made in the runtime's storage on its first call).
        checks = logging.getLogger("streamlit.runtime.caching.cache_data_api")
        level = checks.level
        checks.setLevel(logging.ERROR)
        try:
            for spec in PAGES:
                importlib.import_module(spec.package)
        finally:
            checks.setLevel(level)
        importlib.import_module("pyarrow")  # st.dataframe's, imported by its first table
        _imported.set()
        return time.monotonic() - began


# ---------------------------------------------------------------------- the tables


def _race_tables() -> None:
    from ui.race.data import race_tables

    race_tables()  # st.cache_resource: no runtime needed


def _race(progress: Progress) -> None:
    _race_tables()


def _match_defaults() -> tuple[tuple[float, float], ...]:
    """(gammon rate, cube efficiency) of the match page's default view: its table and the
    dead cube's."""
    from ui.match.controls import EFFICIENCY, GAMMON_RATE

    g = float(GAMMON_RATE.default)
    return (g, float(EFFICIENCY.default)), (g, 0.0)


def _match_solve() -> None:
    from cubecore import match

    for g, x in _match_defaults():
        match.match_equity_table(match.MAX_AWAY, g, x)  # kept by cubecore (lru_cache)


def _match(progress: Progress) -> None:
    from ui.match import data

    for done, (g, x) in enumerate(_match_defaults()):
        progress(done / 2)
        data.equity_table(g, x)


def _one_sided(progress: Progress) -> None:
    from cubecore import bearoff
    from ui.real_race import data

    bearoff.one_sided_database(progress=progress)  # built, or read from the disk cache
    data.one_sided_database()  # into Streamlit's cache: every session's object


def _two_sided(progress: Progress) -> None:
    from cubecore import bearoff
    from ui.real_race import data

    bearoff.two_sided_database(progress=progress)
    data.two_sided_database()


#: The process's tables, in the order the warm-up builds them (the most visited first).
WARM_UP = WarmUp(
    (
        Table("race", "the exact race tables (every pip count to 300)", _race, _race_tables),
        Table("match", "the match equity tables of the default view", _match, _match_solve),
        Table("bearoff-one", "the one-sided bear-off database", _one_sided),
        Table("bearoff-two", "the two-sided 6 x 6 bear-off database", _two_sided),
    )
)
