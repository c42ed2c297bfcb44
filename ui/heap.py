"""glibc's allocator, as the launcher and the simulation worker tune it.

A long-running server's resident memory is measured by ``python -m bench soak`` (issue
#17: flat over five minutes). Two glibc calls keep it flat: a cap on malloc's arenas in
the server (:func:`limit_malloc_arenas`) and a trim of freed memory in the simulation
worker after each run (:func:`trim_heap`). Elsewhere (another C library, with its own
allocator) both leave memory as it is and say so.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools

#: glibc's malloc arenas the process may use (``mallopt(M_ARENA_MAX)``, the tunable that
#: ``MALLOC_ARENA_MAX`` sets). By default glibc gives threads up to 8 per core, and each
#: session's script thread kept its own arena's freed pages: a 5-minute soak of 30
#: sessions grew from 552-583 MiB in its second minute to 729-786 MiB in its last; with
#: 2 arenas, 405-447 and 430-484 MiB (2026-11-24, ``python -m bench soak``).
MALLOC_ARENAS = 2
_M_ARENA_MAX = -8  # glibc's malloc.h


@functools.cache
def _libc() -> ctypes.CDLL | None:
    """The C library, loaded once; None where it cannot be loaded."""
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None


def limit_malloc_arenas(arenas: int = MALLOC_ARENAS) -> bool:
    """Cap glibc's malloc arenas (before any thread starts); False where there is no glibc."""
    mallopt = getattr(_libc(), "mallopt", None)
    return mallopt is not None and bool(mallopt(_M_ARENA_MAX, arenas))


def trim_heap() -> bool:
    """Hand the heap's free memory back to the system (glibc's ``malloc_trim(0)``);
    False where the C library has no such call."""
    malloc_trim = getattr(_libc(), "malloc_trim", None)
    return malloc_trim is not None and bool(malloc_trim(0))
