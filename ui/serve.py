"""The app's launcher: ``python -m ui.serve [streamlit run options]``.

The same server as ``streamlit run app.py`` (same options, same ``.streamlit/config.toml``),
warm from its first request (issue #17): before the server listens, every page's code is
imported (numpy, pandas, scipy, plotly and the app: ~3 s that the first visitor of a
plain ``streamlit run`` waits for) and the expensive tables are solved (within
:data:`SOLVE_BUDGET_SECONDS`); a background thread then puts them in Streamlit's caches
and builds the rest (:mod:`ui.warmup`). ``make run``, the systemd unit, the
benches and the browser tests start the app this way; ``python -m bench coldstart``
measures both.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
import time
from pathlib import Path

from streamlit.logger import get_logger
from streamlit.web import cli

from ui.warmup import WARM_UP, import_pages

APP = Path(__file__).resolve().parents[1] / "app.py"

_log = get_logger(__name__)


#: glibc's malloc arenas the process may use (``mallopt(M_ARENA_MAX)``, the tunable that
#: ``MALLOC_ARENA_MAX`` sets). By default glibc gives threads up to 8 per core, and each
#: session's script thread kept its own arena's freed pages: a 5-minute soak of 30
#: sessions grew from 552-583 MiB in its second minute to 729-786 MiB in its last; with
#: 2 arenas, 405-447 and 430-484 MiB (2026-11-24, ``python -m bench soak``).
MALLOC_ARENAS = 2
_M_ARENA_MAX = -8  # glibc's malloc.h

#: How long the launcher may solve tables before the server listens (the rest are built
#: in the background); today's take ~1.5 s on a 2-core machine.
SOLVE_BUDGET_SECONDS = 20.0


def limit_malloc_arenas(arenas: int = MALLOC_ARENAS) -> bool:
    """Cap glibc's malloc arenas (before any thread starts); False where there is no glibc."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return bool(libc.mallopt(_M_ARENA_MAX, arenas))
    except (OSError, AttributeError):  # another C library: its own allocator, left as is
        return False


def main(options: list[str]) -> None:
    """Cap malloc arenas, import every page, solve the tables, start the warm-up, run
    ``streamlit run app.py``."""
    limit_malloc_arenas()
    began = time.monotonic()
    import_pages()
    solved = WARM_UP.solve_ahead(SOLVE_BUDGET_SECONDS)
    _log.info(
        "launcher: pages imported, tables %s solved in %.2f s", solved, time.monotonic() - began
    )
    WARM_UP.start()  # waits for Streamlit's runtime, then builds the tables into its caches
    sys.argv = ["streamlit", "run", str(APP), *options]
    cli.main()  # Streamlit's own command line (the `streamlit` script's entry point)


if __name__ == "__main__":
    main(sys.argv[1:])
