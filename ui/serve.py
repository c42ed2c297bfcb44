"""The app's launcher: ``python -m ui.serve [streamlit run options]``.

The same server as ``streamlit run app.py`` (same options, same ``.streamlit/config.toml``),
warm from its first request (issue #17): before the server listens, every page's code is
imported (numpy, pandas, scipy, plotly and the app: ~3 s that the first visitor of a
plain ``streamlit run`` waits for) and the expensive tables are solved (within
:data:`SOLVE_BUDGET_SECONDS`); a background thread then puts them in Streamlit's caches
and builds the rest (:mod:`ui.warmup`). Its websockets send each run's reply at once
(:func:`send_without_delay`), and its Monte Carlo runs go to a worker process
(:func:`ui.simulation.start_worker`). ``make run``, the systemd unit, the
benches and the browser tests start the app this way; ``python -m bench coldstart``
measures both.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import importlib
import socket
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from streamlit.logger import get_logger
from streamlit.web import cli

from ui import simulation, throttle
from ui.clients import LOOPBACK, REAL_IP_HEADER, client_address
from ui.heap import limit_malloc_arenas
from ui.internals import guard_back_messages
from ui.warmup import WARM_UP, import_pages

APP = Path(__file__).resolve().parents[1] / "app.py"

_log = get_logger(__name__)


#: How long the launcher may solve tables before the server listens (the rest are built
#: in the background); today's take ~1.5 s on a 2-core machine.
SOLVE_BUDGET_SECONDS = 20.0


#: Marks a websocket protocol class whose connections are sent without delay.
_NO_DELAY = "_cubelab_no_delay"


def no_delay(transport: Any) -> bool:
    """Send on ``transport``'s TCP socket without Nagle's algorithm (``TCP_NODELAY``).

    asyncio sets it only on a socket whose protocol number says TCP; Streamlit 1.67 makes
    its listening socket with ``socket.socket(family=...)`` (protocol number 0, which
    the sockets it accepts inherit), so its server (uvicorn) sends a run's reply on a
    socket that holds each small write until the browser acknowledges the one before.
    Browsers delay acknowledgements (40 ms on Linux, up to 200 ms on Windows): measured
    on 2026-11-24 with ``bench/baseline_app.py``, a move's run of a few milliseconds
    reached the client after 44-52 ms, and after 6-12 ms with this.
    False for a socket that is not TCP (a Unix socket, a test's stand-in).
    """
    sock = transport.get_extra_info("socket")
    if sock is None or sock.family not in (socket.AF_INET, socket.AF_INET6):
        return False
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return True
    return False


@functools.cache
def send_without_delay() -> tuple[str, ...]:
    """Make every websocket protocol uvicorn offers call :func:`no_delay` on each new
    connection (once per process); the names of the classes that do.

    Streamlit 1.67 serves with uvicorn and picks its websocket protocol by uvicorn's
    version (``websockets-sansio`` from 0.44), so each one uvicorn lists is wrapped.
    """
    from uvicorn.config import WS_PROTOCOLS

    done = []
    for path in sorted({p for p in WS_PROTOCOLS.values() if p}):
        module_name, _, class_name = path.partition(":")
        try:
            with warnings.catch_warnings():
                # importing uvicorn's deprecated ``websockets`` (legacy) implementation to
                # wrap it warns twice that it is deprecated (a DeprecationWarning from
                # websockets, a UserWarning from uvicorn): wrapping is not serving with it
                warnings.filterwarnings("ignore", message=r".*\bdeprecated\b")
                protocol = getattr(importlib.import_module(module_name), class_name)
        except ImportError:  # its websocket library is not installed: uvicorn cannot use it
            continue
        if not getattr(protocol, _NO_DELAY, False):
            _wrap_connection_made(protocol)
        done.append(f"{module_name}.{class_name}")
    return tuple(done)


def _wrap_connection_made(protocol: type) -> None:
    original = protocol.connection_made  # type: ignore[attr-defined]

    @functools.wraps(original)
    def connection_made(self: object, transport: Any) -> None:
        no_delay(transport)
        original(self, transport)

    protocol.connection_made = connection_made  # type: ignore[attr-defined]
    setattr(protocol, _NO_DELAY, True)


#: Websocket sessions one client address may hold open at once; the next is refused.
#: A class behind one school NAT address is one address: room for a class of 100 with
#: a tab each (the nginx template lets an address open 300 connections).
MAX_SESSIONS_PER_ADDRESS = 100
#: Websocket sessions the process holds open at once, whatever their addresses. What a
#: session can hold of its client's bytes is its last message, twice (Streamlit's
#: websocket loop keeps it raw and parsed until the next): at most 2 MB with
#: ``server.maxMessageSize = 1``, measured +2.0 MiB a session for 20 sessions of 900 KB.
#: So all of them hold at most ~400 MiB beside the server's 550-650 MiB: below the
#: systemd unit's ``MemoryMax=1280M`` (deploy/README.md).
MAX_SESSIONS = 200
#: Marks Streamlit's websocket handler factory once it counts sessions per address.
_COUNTED = "_cubelab_counted"


class SessionCounter:
    """Open sessions per client address and in all, with their limits."""

    def __init__(self, per_address: int, in_all: int) -> None:
        self.per_address, self.in_all = per_address, in_all
        self.open: collections.Counter[str] = collections.Counter()
        self.refused = 0

    def enter(self, address: str) -> bool:
        """Count a new session from ``address``; False (and not counted) past a limit."""
        if self.open[address] >= self.per_address or self.open.total() >= self.in_all:
            self.refused += 1
            return False
        self.open[address] += 1
        return True

    def leave(self, address: str) -> None:
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


#: The launcher's session counts (one event loop: no lock needed).
SESSIONS = SessionCounter(MAX_SESSIONS_PER_ADDRESS, MAX_SESSIONS)


@functools.cache
def limit_clients() -> bool:
    """Bound the sessions a client can open (once per process; True once done).

    At most :data:`MAX_SESSIONS_PER_ADDRESS` sessions per client address and
    :data:`MAX_SESSIONS` in all: the next one's handshake is answered 403, as Streamlit
    answers a foreign origin (the browser retries), and logged once per address while it
    stays refused. What one session may hold is bounded by ``server.maxMessageSize``
    (``.streamlit/config.toml``) and :func:`ui.internals.guard_back_messages`. Wraps a
    Streamlit internal, ``starlette_websocket.create_websocket_handler`` (checked by
    ``tests/test_websocket_limits.py``).
    """
    from streamlit.web.server.starlette import starlette_websocket

    create_handler = starlette_websocket.create_websocket_handler
    if getattr(create_handler, _COUNTED, False):
        return True

    @functools.wraps(create_handler)
    def counting_handler(runtime: Any) -> Any:
        endpoint = create_handler(runtime)
        warned: set[str] = set()

        async def counted(websocket: Any) -> None:
            peer = websocket.client.host if websocket.client else None
            address = client_address(peer, websocket.headers)
            if not SESSIONS.enter(address):
                if address not in warned:
                    warned.add(address)
                    _log.warning(
                        "refused a session from %s: %d open from it, %d in all",
                        address,
                        SESSIONS.open[address],
                        SESSIONS.open.total(),
                    )
                await websocket.close(code=1008)  # before accepting: an HTTP 403
                return
            warned.discard(address)
            # its back messages' budget of page runs (ui.throttle); this machine's own
            # clients (the benches, the browser tests, a teacher on the server) have none
            token = throttle.CLIENT.set(None if address in LOOPBACK else address)
            try:
                await endpoint(websocket)
            finally:
                throttle.CLIENT.reset(token)
                SESSIONS.leave(address)

        return counted

    setattr(counting_handler, _COUNTED, True)
    starlette_websocket.create_websocket_handler = counting_handler
    return True


#: Marks Streamlit's metrics routes factory once it answers loopback clients only.
_METRICS_CLOSED = "_cubelab_metrics_closed"


def is_local_request(peer: str | None, headers: Any) -> bool:
    """Whether a request comes from this machine itself: a loopback peer that is not a
    proxy passing on a visitor (no :data:`REAL_IP_HEADER`)."""
    return peer in LOOPBACK and not headers.get(REAL_IP_HEADER)


@functools.cache
def close_metrics_to_strangers() -> bool:
    """Answer ``/_stcore/metrics`` to this machine only (once per process; True once done).

    Streamlit's Prometheus metrics (416 KB: every cached function's name, size and
    timings, the session count) are public on the app's port; the nginx template closes
    them, but the single-process setup (``--server.address 0.0.0.0``, deploy/README.md)
    has no proxy (issue #38). Any other client gets 404, as from nginx: scrape on the
    machine (``curl http://127.0.0.1:8501/_stcore/metrics``) or through an SSH tunnel.
    Wraps a Streamlit internal, ``starlette_app.create_metrics_routes`` (checked by
    ``tests/test_deploy_metrics.py``).
    """
    from starlette.datastructures import Headers
    from starlette.responses import PlainTextResponse
    from streamlit.web.server.starlette import starlette_app

    create_routes = starlette_app.create_metrics_routes
    if getattr(create_routes, _METRICS_CLOSED, False):
        return True

    def local_only(app: Any) -> Any:
        async def guarded(scope: Any, receive: Any, send: Any) -> None:
            client = scope.get("client")
            if is_local_request(client[0] if client else None, Headers(scope=scope)):
                await app(scope, receive, send)
            else:
                await PlainTextResponse("Not Found", status_code=404)(scope, receive, send)

        return guarded

    @functools.wraps(create_routes)
    def local_metrics_routes(*args: Any, **kwargs: Any) -> Any:
        routes = create_routes(*args, **kwargs)
        for route in routes:
            route.app = local_only(route.app)  # type: ignore[attr-defined]  # a Route: BaseRoute has no app
        return routes

    setattr(local_metrics_routes, _METRICS_CLOSED, True)
    starlette_app.create_metrics_routes = local_metrics_routes
    return True


#: Marks Streamlit's ``AppSession`` once its script events reach the event loop in batches.
_BATCHED = "_cubelab_batched"


@functools.cache
def hand_over_in_batches() -> bool:
    """Make each session hand its script thread's events to the event loop in batches
    (once per process); True once done.

    Streamlit 1.67's script thread hands every event of a run to the server's event loop
    one by one (``AppSession._call_soon_on_event_loop``: ``call_soon_threadsafe``), and
    each element a run draws is one event, so each element wakes the event loop through
    its self-pipe: a system call and a switch to the event loop's thread per element. A
    py-spy profile of a section's fragment rerun (69 elements, 2026-11-24) put 8% of the
    run in that wake-up alone. Here the events wait in the session's queue, in their
    order, and one callback on the event loop runs all that are waiting; a callback is
    scheduled only when none is pending. What each event does, and in which order, is
    unchanged.
    """
    from streamlit.runtime.app_session import AppSession

    if getattr(AppSession, _BATCHED, False):
        return True
    hand_over = AppSession._call_soon_on_event_loop

    @functools.wraps(hand_over)
    def in_batches(self: Any, callback: Callable[[], None]) -> None:
        state = self.__dict__
        waiting = state.get("_cubelab_waiting")
        if waiting is None:  # a session's first event (dict.setdefault is atomic)
            waiting = state.setdefault("_cubelab_waiting", collections.deque())
        waiting.append(callback)
        if state.get("_cubelab_scheduled", False):
            return  # the pending callback runs this event too: it has not started yet

        def run_waiting() -> None:
            # cleared before it runs anything: an event that arrives from now on
            # schedules the next callback (at worst one that finds nothing to run)
            state["_cubelab_scheduled"] = False
            while waiting:
                event = waiting.popleft()
                try:
                    event()
                except Exception:  # as asyncio does for a failing callback: log, go on
                    _log.exception("a script event failed on the event loop")

        state["_cubelab_scheduled"] = True
        hand_over(self, run_waiting)

    AppSession._call_soon_on_event_loop = in_batches  # type: ignore[method-assign]
    setattr(AppSession, _BATCHED, True)
    return True


def main(options: list[str]) -> None:
    """Cap malloc arenas, limit the clients, close the metrics, send without delay, import
    every page, solve the tables, start the warm-up and the simulation worker, run
    ``streamlit run app.py``.

    A first option naming a ``.py`` file serves that script instead (a benchmark's own
    page, :mod:`bench.baseline_app`), the same way but without the app's warm-up.
    """
    limit_malloc_arenas()
    limit_clients()
    close_metrics_to_strangers()
    guard_back_messages()  # before the first session's first message, not at its first run
    send_without_delay()
    hand_over_in_batches()
    script = APP
    if options and options[0].endswith(".py"):
        script, options = Path(options[0]).resolve(), options[1:]
    else:
        began = time.monotonic()
        import_pages()
        solved = WARM_UP.solve_ahead(SOLVE_BUDGET_SECONDS)
        _log.info(
            "launcher: pages imported, tables %s solved in %.2f s",
            solved,
            time.monotonic() - began,
        )
        WARM_UP.start()  # waits for Streamlit's runtime, then builds the tables into its caches
        simulation.start_worker()  # Monte Carlo runs go to the other core (ui.simulation)
    sys.argv = ["streamlit", "run", str(script), *options]
    cli.main()  # Streamlit's own command line (the `streamlit` script's entry point)


if __name__ == "__main__":
    main(sys.argv[1:])
