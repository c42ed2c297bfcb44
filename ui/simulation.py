"""One Monte Carlo run at a time per process, queued, and timed (pages' data layers)."""

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

#: Monte Carlo runs hold all their games in memory while they run (a million games
#: peak at 40-50 MB). One runs at a time per process: a class choosing the largest
#: sample together queues for the slot instead of multiplying that memory by the
#: number of sessions (the server's peak memory under load, ``python -m bench
#: soak``). The sessions' threads share one core (the GIL), so queueing loses little
#: throughput.
SIMULATION_SLOTS = 1
_simulations = threading.BoundedSemaphore(SIMULATION_SLOTS)


@dataclass
class SimulationRun:
    """Wall time of one simulation, from getting its slot to leaving it."""

    seconds: float = 0.0


@contextmanager
def simulation_slot() -> Iterator[SimulationRun]:
    """Hold one of the process's :data:`SIMULATION_SLOTS` while simulating; time it."""
    run = SimulationRun()
    with _simulations:
        begin = time.perf_counter()
        try:
            yield run
        finally:
            run.seconds = time.perf_counter() - begin
