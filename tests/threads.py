"""Run a blocking call that uses ``asyncio.run`` off the main thread.

An xdist worker that has run a browser test keeps Playwright's sync API open for the rest
of its session (the session-scoped ``browser`` fixture in ``tests/conftest.py``), and that
API runs an event loop on the main thread; ``asyncio.run`` then refuses to start ("cannot
be called from a running event loop"). Which worker runs which test is up to the
scheduler, so every test that drives the websocket client (``bench.wsclient``, through
``bench.load``, ``bench.abuse``, ``bench.classroom``) calls it through :func:`off_loop`.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

_P = ParamSpec("_P")
_R = TypeVar("_R")


def off_loop(function: Callable[_P, _R], *args: _P.args, **kwargs: _P.kwargs) -> _R:
    """``function(*args, **kwargs)`` in a fresh thread, where no event loop runs; its
    result, or its exception raised here."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(function, *args, **kwargs).result()
