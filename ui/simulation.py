"""One Monte Carlo run at a time per process, queued with a timeout, timed, and in a
server run on a worker process.

Pages' data layers run a simulation through :func:`within_budget` (or
:func:`timed_within_budget`), which holds the slot (:func:`simulation_slot`); the
sections wrap the cached call in :func:`queued`, which tells a reader who waits that
they wait and for what, and turns a wait beyond :data:`SLOT_TIMEOUT` into a message.

In a server (the launcher calls :func:`start_worker`) the simulation itself runs in one
worker process. A Monte Carlo run is Python and numpy work that holds the interpreter
lock for up to about 2 s: in the server's own process it slowed every other session's
reruns, which share that lock (issue #17: one process carries a class). On the worker it
runs on the machine's other core while the reader who asked for it waits, and the
others' reruns go on. Elsewhere (tests, scripts, ``AppTest``) it runs in the caller's
thread, as it always did; the results are the same (the same seeded games). The heavier
tables' cache misses run there too (:func:`on_worker`), without the slot.
"""

import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any, TypeVar

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from ui.heap import trim_heap
from ui.internals import not_cached_output

#: Monte Carlo runs hold all their games in memory while they run (a million games
#: peak at 40-50 MB). One runs at a time per process: a class choosing the largest
#: sample together queues for the slot instead of multiplying that memory by the
#: number of sessions (the server's peak memory under load, ``python -m bench
#: soak``). A server's worker (:func:`start_worker`) is one process of this many: the
#: machine's second core, beside the server's own.
SIMULATION_SLOTS = 1
#: Longest wait for the slot, in seconds. Every page's simulation is capped to about
#: 2 s of work before it starts (the rules page: ``SIMULATION_BUDGET``), so a queue of
#: a class's worth of readers drains well within it; beyond it the reader gets a
#: message, not an exception.
SLOT_TIMEOUT = 60.0
#: Wall time one simulation may run once it holds the slot (``time_budget`` of
#: cubecore's simulators): the work caps keep a run near 2 s; this stops one that a
#: loaded server slows far beyond that, with a message, and frees the slot.
SIMULATION_SECONDS = 30.0


class FairSlots:
    """``slots`` simulation slots, granted in turn across clients.

    A plain semaphore serves waiters in no particular order, so a client with thirty
    sessions asking at once took the slot thirty times before another reader's one
    simulation ran (issue #38: 0.3 s became 13.5 s). Here each client (an address, see
    :func:`client_key`) has its own queue, and the queues take turns: the next slot
    goes to the first waiter of the client whose turn it is, and that client moves to
    the back. A waiter's place (:meth:`place`) is the number of simulations that start
    before its own, plus one.
    """

    def __init__(self, slots: int) -> None:
        self._free = slots
        self._slots = slots
        self._changed = threading.Condition()
        #: client -> its waiting tickets, in turn order (the first client's turn is next)
        self._queues: dict[str, list[object]] = {}

    def _order(self) -> list[object]:
        """Every waiting ticket in the order the slots will go to them."""
        queues = list(self._queues.values())
        return [
            queue[turn]
            for turn in range(max((len(q) for q in queues), default=0))
            for queue in queues
            if turn < len(queue)
        ]

    def place(self, ticket: object) -> int:
        """1 for the next waiter to start, 2 for the one after, ... (0: not waiting)."""
        with self._changed:
            order = self._order()
            return order.index(ticket) + 1 if ticket in order else 0

    def acquire(
        self,
        blocking: bool = True,
        timeout: float | None = None,
        client: str = "",
        on_place: Callable[[int], None] | None = None,
    ) -> bool:
        """Take a slot (as ``threading.Semaphore.acquire``), waiting in ``client``'s
        queue at most ``timeout`` seconds; ``on_place(place)`` is called, outside the
        lock, each time the waiter's place changes."""
        ticket = object()
        deadline = None if timeout is None else time.monotonic() + timeout
        shown = 0
        with self._changed:
            if self._free > 0 and not self._queues:
                self._free -= 1
                return True
            if not blocking:
                return False
            self._queues.setdefault(client, []).append(ticket)
        try:
            while True:
                with self._changed:
                    order = self._order()
                    if self._free > 0 and order[0] is ticket:
                        self._free -= 1
                        self._leave(client, ticket, served=True)
                        self._changed.notify_all()
                        return True
                    left = None if deadline is None else deadline - time.monotonic()
                    if left is not None and left <= 0:
                        self._leave(client, ticket, served=False)
                        self._changed.notify_all()
                        return False
                    place = order.index(ticket) + 1
                    if place == shown or on_place is None:
                        self._changed.wait(left if left is not None else None)
                        continue
                shown = place
                on_place(place)
        except BaseException:
            with self._changed:
                if ticket in self._queues.get(client, ()):
                    self._leave(client, ticket, served=False)
                    self._changed.notify_all()
            raise

    def _leave(self, client: str, ticket: object, served: bool) -> None:
        queue = self._queues[client]
        queue.remove(ticket)
        if not queue:
            del self._queues[client]
        elif served:  # its turn is used: to the back of the turn order
            del self._queues[client]
            self._queues[client] = queue

    def release(self) -> None:
        with self._changed:
            if self._free >= self._slots:
                raise ValueError("released more often than acquired")
            self._free += 1
            self._changed.notify_all()


_simulations = FairSlots(SIMULATION_SLOTS)
#: What the script thread's reader is (:func:`queued` sets it for its cached call):
#: the client's key and a callback that shows the reader's place.
_reader = threading.local()
#: How much longer than a simulation's own time budget the server waits for the worker's
#: answer (a worker that crashed is replaced, and a new one imports numpy and cubecore
#: first: about 2 s); past it the reader gets the "stopped" message.
WORKER_GRACE_SECONDS = 30.0
#: How often the worker checks that its server is still there (seconds).
SERVER_CHECK_SECONDS = 1.0
#: The worker process that runs simulations (:func:`start_worker`); None: in the caller.
_worker: ProcessPoolExecutor | None = None
_worker_lock = threading.Lock()
#: What a simulation returns.
_Result = TypeVar("_Result")
_log = logging.getLogger(__name__)


class SimulationBusy(RuntimeError):
    """The simulation slot stayed taken for :data:`SLOT_TIMEOUT` seconds."""


@contextmanager
def simulation_slot(timeout: float | None = None) -> Iterator[None]:
    """Hold one of the process's :data:`SIMULATION_SLOTS` while simulating.

    Waits at most ``timeout`` seconds (default :data:`SLOT_TIMEOUT`) for the slot, in
    its reader's client's queue (:class:`FairSlots`; the reader :func:`queued` names),
    then raises :class:`SimulationBusy` (not cached by ``st.cache_data``: the next run
    tries again).
    """
    timeout = SLOT_TIMEOUT if timeout is None else timeout
    client = getattr(_reader, "client", "")
    on_place = getattr(_reader, "on_place", None)
    if not _simulations.acquire(timeout=timeout, client=client, on_place=on_place):
        raise SimulationBusy(f"the simulation slot stayed busy for {timeout:.0f} s")
    try:
        yield
    finally:
        _simulations.release()


def start_worker() -> None:
    """Run this process's simulations on one worker process from now on (the launcher).

    The worker is started now (a ``spawn``: a fresh interpreter, never a fork of the
    server's threads), so that the first reader's simulation does not wait for it.
    """
    global _worker
    with _worker_lock:
        if _worker is None:
            _worker = ProcessPoolExecutor(
                max_workers=SIMULATION_SLOTS,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_set_up_worker,
            )
            with _no_main_module():
                _worker.submit(time.perf_counter)  # starts the process


@contextmanager
def _no_main_module() -> Iterator[None]:
    """While the worker process starts: no ``__main__`` for it to run first.

    A spawned process runs its parent's main script again (as ``__mp_main__``) before
    its first task. In a server, Streamlit's script runner installs each script run as
    ``sys.modules["__main__"]``, with the app's main script as its ``__file__``: a
    worker started while the server runs (one replacing a worker that died) would run
    the whole app first, and under ``AppTest`` a script that fails outside it, which
    broke the new worker at once. The worker needs no main module (simulators are
    module-level functions of importable modules). A script run that installs its own
    module meanwhile keeps it.
    """
    saved = sys.modules["__main__"]
    stand_in = types.ModuleType("__main__")
    sys.modules["__main__"] = stand_in
    try:
        yield
    finally:
        if sys.modules.get("__main__") is stand_in:
            sys.modules["__main__"] = saved


def _set_up_worker() -> None:
    """In the worker: ignore Ctrl-C, which reaches the whole process group (the server
    stops on it and then stops its worker), and end when the server is gone (a server
    killed outright cannot stop its worker, which would wait for work forever)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    server = os.getppid()
    threading.Thread(
        target=_end_when_orphaned, args=(server,), daemon=True, name="server-watch"
    ).start()


def _end_when_orphaned(server: int) -> None:
    """End this process once its parent ``server`` is gone (checked every
    :data:`SERVER_CHECK_SECONDS`)."""
    while os.getppid() == server:
        time.sleep(SERVER_CHECK_SECONDS)
    os._exit(0)


def stop_worker() -> None:
    """Stop the worker (simulations run in the caller again); waits for a running one."""
    global _worker
    with _worker_lock:
        worker, _worker = _worker, None
    if worker is not None:
        worker.shutdown(wait=True, cancel_futures=True)


def _timed(
    simulate: Callable[..., _Result],
    args: tuple[Any, ...],
    kwargs: Mapping[str, Any],
    seconds: float,
) -> tuple[_Result, float]:
    """``simulate(*args, time_budget=seconds, **kwargs)`` and its wall time in seconds."""
    begin = time.perf_counter()
    result = simulate(*args, time_budget=seconds, **kwargs)
    return result, time.perf_counter() - begin


def _timed_on_worker(
    simulate: Callable[..., _Result],
    args: tuple[Any, ...],
    kwargs: Mapping[str, Any],
    seconds: float,
) -> tuple[_Result, float]:
    """:func:`_timed` on the worker, which then hands the run's freed memory back to the
    system (glibc's ``malloc_trim``): a run's game arrays, tens of MB for a million
    games, would otherwise stay in the worker's heap and its resident memory creep up
    (``python -m bench soak`` counts the worker with the server)."""
    try:
        return _timed(simulate, args, kwargs, seconds)
    finally:
        trim_heap()


def timed_within_budget(
    seconds: float, simulate: Callable[..., _Result], *args: Any, **kwargs: Any
) -> tuple[_Result, float]:
    """``simulate(*args, **kwargs)``, one of cubecore's simulators, holding the slot, and
    how long it ran (seconds, from its start to its result).

    ``seconds`` is its ``time_budget`` (a page passes :data:`SIMULATION_SECONDS`); past
    it, cubecore raises ``ValueError``. On the worker process when there is one
    (:func:`start_worker`): ``simulate`` and its arguments go there by pickle (a
    module-level function, plain values). A worker that died is replaced and this run
    done in the caller; one that gives no answer within the budget and
    :data:`WORKER_GRACE_SECONDS` is a ``ValueError`` like a run past its budget.
    """
    waited = seconds + WORKER_GRACE_SECONDS
    with simulation_slot():
        try:
            return _on_worker_or_here(
                _timed_on_worker, _timed, (simulate, args, kwargs, seconds), waited
            )
        except TimeoutError:
            message = f"the simulation process gave no result within {waited:.0f} s"
            raise ValueError(message) from None


def on_worker(compute: Callable[..., _Result], *args: Any, **kwargs: Any) -> _Result:
    """``compute(*args, **kwargs)``, a pure function of cubecore, on the worker process
    when there is one (:func:`start_worker`), else here.

    For the cache misses of the heavier tables (a race's cube life at every score,
    0.3-0.7 s; a match equity table from its model, ~0.1 s): numpy work in many small
    steps, which holds the interpreter lock the other sessions' reruns need. In a fresh
    server a class's first minute is full of such misses (issue #17's profile: a third
    of the server's busy time). On the worker they use the other core; the caller
    waits, without the simulation slot, for what the worker is already running (at
    most one simulation, and other readers' tables).
    ``compute`` and its arguments go there by pickle (a module-level function, plain
    values, tables). A worker that died is replaced and this run done here, as is one
    that gives no answer within :data:`SIMULATION_SECONDS` and
    :data:`WORKER_GRACE_SECONDS`: the result is the same, only the core differs.
    """
    waited = SIMULATION_SECONDS + WORKER_GRACE_SECONDS
    try:
        return _on_worker_or_here(compute, compute, args, waited, kwargs)
    except TimeoutError:
        _log.warning(
            "the worker gave no result within %.0f s: %s runs in the server",
            waited,
            getattr(compute, "__qualname__", compute),
        )
        return compute(*args, **kwargs)


def _on_worker_or_here(
    there: Callable[..., _Result],
    here: Callable[..., _Result],
    args: tuple[Any, ...],
    timeout: float,
    kwargs: Mapping[str, Any] | None = None,
) -> _Result:
    """``there(*args, **kwargs)`` on the worker, or ``here(*args, **kwargs)`` in this
    process when there is no worker or it died (a new one is started). ``TimeoutError``
    when the worker gives no answer within ``timeout`` seconds."""
    kwargs = kwargs or {}
    worker = _worker
    if worker is None:
        return here(*args, **kwargs)
    try:
        return worker.submit(there, *args, **kwargs).result(timeout=timeout)
    except BrokenProcessPool:
        _log.warning("the simulation worker died: a new one starts; this run in the server")
        _replace_broken(worker)
        return here(*args, **kwargs)


def _replace_broken(broken: ProcessPoolExecutor) -> None:
    global _worker
    with _worker_lock:
        if _worker is not broken:
            return  # another thread replaced it already
        _worker = None
    broken.shutdown(wait=False, cancel_futures=True)
    start_worker()


def within_budget(
    seconds: float, simulate: Callable[..., _Result], *args: Any, **kwargs: Any
) -> _Result:
    """:func:`timed_within_budget` without the time."""
    return timed_within_budget(seconds, simulate, *args, **kwargs)[0]


def slot_busy() -> bool:
    """Whether every simulation slot is taken right now (a new run would wait)."""
    if _simulations.acquire(blocking=False):
        _simulations.release()
        return False
    return True


def client_key() -> str:
    """Who a reader is, for the turns of :class:`FairSlots`: the visitor's address as the
    per-client limits read it (:func:`ui.student.client_address`: the connection's, or
    the one the app's proxy on loopback names), else (a browser on this machine) the
    session: each tab its own client."""
    from ui.clients import LOOPBACK
    from ui.student import client_address

    try:
        address = client_address()
    except Exception:  # outside a session (a test's thread): one anonymous client
        return ""
    if address not in LOOPBACK:
        return address
    context = get_script_run_ctx()
    return f"session {context.session_id}" if context is not None else ""


def _waiting_text(what: str, place: int | None) -> str:
    where = (
        "another reader's simulation is running"
        if place is None
        else f"you are number {place:,} in the queue (readers take turns)"
    )
    return (
        f"Waiting for the simulation slot: {where}, and yours ({what}) starts when it is "
        f"your turn (at most {SLOT_TIMEOUT:.0f} s)."
    )


@contextmanager
def queued(what: str) -> Iterator[None]:
    """Around a cached simulation call: say that the reader waits, for what, and their
    place in the queue.

    While the slot is taken (another reader's simulation), a message names what waits
    (``what``: "2,000 games of the take check"), the reader's place once it is in the
    queue, and the longest wait; it goes when the run is done. Nothing is shown when
    the slot is free or the result is cached. The place is shown from inside the cached
    call, without becoming part of its cached result (:func:`ui.internals.
    not_cached_output`).
    """
    box = st.empty() if slot_busy() else None
    if box is not None:
        box.info(_waiting_text(what, None), icon=":material/hourglass_top:")

    def on_place(place: int) -> None:
        nonlocal box
        with not_cached_output():
            if box is None:
                box = st.empty()
            box.info(_waiting_text(what, place), icon=":material/hourglass_top:")

    _reader.client, _reader.on_place = client_key(), on_place
    try:
        yield
    finally:
        del _reader.client, _reader.on_place
        if box is not None:
            box.empty()


def busy_message(what: str) -> None:
    """The message when the slot stayed taken for :data:`SLOT_TIMEOUT` seconds."""
    st.warning(
        f"The simulation slot stayed busy for {SLOT_TIMEOUT:.0f} s, so {what} did not run: "
        "other readers' simulations are queued. Move any control or reload the page to try "
        "again.",
        icon=":material/hourglass_disabled:",
    )


def simulated(
    what: str, waiting: str, run: Callable[[], _Result], *, icon: str | None = None
) -> _Result | None:
    """``run()``, a cached simulation call, :func:`queued` as ``waiting``; ``None`` if it failed.

    When the slot stays busy, :func:`busy_message` names ``what`` ("the take check"); when
    the run stops past its time budget (cubecore's ``ValueError``), an error says so
    ("The take check stopped: ..."), with ``icon`` if given.
    """
    try:
        with queued(waiting):
            return run()
    except SimulationBusy:
        busy_message(what)
    except ValueError as error:  # past its time budget: nothing to show
        st.error(f"{what[:1].upper()}{what[1:]} stopped: {error}.", icon=icon)
    return None
