"""Cached wrappers around cubecore: scalar/tuple arguments, bounded ``max_entries``.

One module per page. Results are plain data (DataFrames, dicts) so that the
figure builders stay pure and the caches pickle cheaply.
"""

import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: Monte Carlo runs hold all their games in memory while they run (a million games
#: is 40-100 MB). At most this many run at once per process: a class choosing the
#: largest sample together queues for a slot instead of multiplying that memory by
#: the number of sessions (the server's peak memory under load, ``python -m bench
#: soak``). Each session's threads share the GIL anyway, so queueing costs no speed.
SIMULATION_SLOTS = 2
_simulations = threading.BoundedSemaphore(SIMULATION_SLOTS)


@contextmanager
def simulation_slot() -> Iterator[None]:
    """Hold one of the process's :data:`SIMULATION_SLOTS` while simulating."""
    with _simulations:
        yield
