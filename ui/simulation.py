"""One Monte Carlo run at a time per process, queued with a timeout, and timed.

Pages' data layers hold the slot while they simulate (:func:`simulation_slot`); the
sections wrap the cached call in :func:`queued`, which tells a reader who waits that
they wait and for what, and turns a wait beyond :data:`SLOT_TIMEOUT` into a message.
"""

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import streamlit as st

#: Monte Carlo runs hold all their games in memory while they run (a million games
#: peak at 40-50 MB). One runs at a time per process: a class choosing the largest
#: sample together queues for the slot instead of multiplying that memory by the
#: number of sessions (the server's peak memory under load, ``python -m bench
#: soak``). The sessions' threads share one core (the GIL), so queueing loses little
#: throughput.
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
_simulations = threading.BoundedSemaphore(SIMULATION_SLOTS)
#: What a simulation returns.
_Result = TypeVar("_Result")


class SimulationBusy(RuntimeError):
    """The simulation slot stayed taken for :data:`SLOT_TIMEOUT` seconds."""


@dataclass
class SimulationRun:
    """Wall time of one simulation, from getting its slot to leaving it."""

    seconds: float = 0.0


@contextmanager
def simulation_slot(timeout: float | None = None) -> Iterator[SimulationRun]:
    """Hold one of the process's :data:`SIMULATION_SLOTS` while simulating; time it.

    Waits at most ``timeout`` seconds (default :data:`SLOT_TIMEOUT`) for the slot, then
    raises :class:`SimulationBusy` (not cached by ``st.cache_data``: the next run tries
    again).
    """
    timeout = SLOT_TIMEOUT if timeout is None else timeout
    if not _simulations.acquire(timeout=timeout):
        raise SimulationBusy(f"the simulation slot stayed busy for {timeout:.0f} s")
    run = SimulationRun()
    begin = time.perf_counter()
    try:
        yield run
    finally:
        run.seconds = time.perf_counter() - begin
        _simulations.release()


def within_budget(
    seconds: float, simulate: Callable[..., _Result], *args: Any, **kwargs: Any
) -> _Result:
    """``simulate(*args, **kwargs)``, one of cubecore's simulators, holding the slot.

    ``seconds`` is its ``time_budget`` (a page passes :data:`SIMULATION_SECONDS`); past
    it, cubecore raises ``ValueError``.
    """
    with simulation_slot():
        return simulate(*args, time_budget=seconds, **kwargs)


def slot_busy() -> bool:
    """Whether every simulation slot is taken right now (a new run would wait)."""
    if _simulations.acquire(blocking=False):
        _simulations.release()
        return False
    return True


@contextmanager
def queued(what: str) -> Iterator[None]:
    """Around a cached simulation call: say that the reader waits, and for what.

    While the slot is taken (another reader's simulation), a message names what waits
    (``what``: "2,000 games of the take check") and the longest wait; it goes when the
    run is done. Nothing is shown when the slot is free or the result is cached.
    """
    box = st.empty() if slot_busy() else None
    if box is not None:
        box.info(
            f"Waiting for the simulation slot: another reader's simulation is running, and "
            f"yours ({what}) starts when it ends (at most {SLOT_TIMEOUT:.0f} s).",
            icon=":material/hourglass_top:",
        )
    try:
        yield
    finally:
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
