"""The launcher's sockets and event loop: each run's reply is sent at once
(``ui.serve.no_delay``), and a run's events reach the event loop in batches
(``ui.serve.hand_over_in_batches``)."""

from __future__ import annotations

import asyncio
import importlib
import logging
import socket
import threading

from streamlit.runtime.app_session import AppSession
from uvicorn.config import WS_PROTOCOLS

from tests.threads import off_loop
from ui import serve


def _accepted_transport_delays() -> tuple[int, int, bool]:
    """A real TCP connection accepted by an asyncio server on a listening socket made as
    Streamlit 1.67 makes its own (``socket.socket(family=...)``, no protocol number), as
    uvicorn accepts the browser's: its ``TCP_NODELAY`` as accepted and after
    :func:`ui.serve.no_delay`."""

    async def scenario() -> tuple[int, int, bool]:
        loop = asyncio.get_running_loop()
        accepted: asyncio.Future[asyncio.BaseTransport] = loop.create_future()

        class Accept(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                accepted.set_result(transport)

        listener = socket.socket(family=socket.AF_INET)
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        server = await loop.create_server(Accept, sock=listener)
        port = listener.getsockname()[1]
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            transport = await asyncio.wait_for(accepted, 30)
            sock = transport.get_extra_info("socket")
            before = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
            done = serve.no_delay(transport)
            after = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
            transport.close()
        finally:
            writer.close()
            server.close()
            await server.wait_closed()
        return before, after, done

    return off_loop(asyncio.run, scenario())


def test_an_accepted_connection_is_sent_without_delay():
    before, after, done = _accepted_transport_delays()
    assert before == 0  # asyncio leaves Nagle's algorithm on: the socket's proto is 0
    assert done and after == 1


def test_a_transport_without_a_tcp_socket_is_left_alone():
    class NoSocket:
        def get_extra_info(self, name: str) -> None:
            return None

    assert serve.no_delay(NoSocket()) is False


def test_every_websocket_protocol_uvicorn_offers_sends_without_delay():
    wrapped = serve.send_without_delay()
    assert wrapped == serve.send_without_delay()  # once per process
    for path in {p for p in WS_PROTOCOLS.values() if p}:
        module_name, _, class_name = path.partition(":")
        try:
            protocol = getattr(importlib.import_module(module_name), class_name)
        except ImportError:
            assert f"{module_name}.{class_name}" not in wrapped
            continue
        assert f"{module_name}.{class_name}" in wrapped
        assert getattr(protocol, serve._NO_DELAY) is True
    # the one Streamlit 1.67 serves with (uvicorn >= 0.44) is among them
    assert "uvicorn.protocols.websockets.websockets_sansio_impl.WebSocketsSansIOProtocol" in wrapped


class _Session:
    """What ``AppSession._call_soon_on_event_loop`` reads of a session: its event loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._event_loop = loop


def _hand_over(events: int, failing: int | None = None) -> tuple[list[int], int]:
    """Hand ``events`` script events (each appends its number; number ``failing`` raises)
    to a session's event loop from this thread while the loop is busy, as a script thread
    does during a run; what ran, in order, and how often the loop was woken."""
    assert serve.hand_over_in_batches()
    loop = asyncio.new_event_loop()
    wakes = 0
    call_soon_threadsafe = loop.call_soon_threadsafe

    def counted(callback, *args):
        nonlocal wakes
        wakes += 1
        return call_soon_threadsafe(callback, *args)

    loop.call_soon_threadsafe = counted  # type: ignore[method-assign]
    session, ran, busy, done = _Session(loop), [], threading.Event(), threading.Event()

    def event(number: int) -> None:
        if number == failing:
            raise RuntimeError(f"event {number} fails")
        ran.append(number)
        if number == events - 1:
            done.set()

    loop_thread = threading.Thread(target=loop.run_forever)
    loop_thread.start()
    try:
        call_soon_threadsafe(busy.wait)  # the loop is busy until every event is handed over
        for number in range(events):
            AppSession._call_soon_on_event_loop(session, lambda n=number: event(n))
        busy.set()
        assert done.wait(60)
    finally:
        busy.set()
        call_soon_threadsafe(loop.stop)
        loop_thread.join()
        loop.close()
    return ran, wakes


def test_a_runs_events_reach_the_event_loop_in_order_with_one_wake_up():
    ran, wakes = _hand_over(500)
    assert ran == list(range(500))
    assert wakes == 1  # Streamlit alone wakes the loop once per event: 500 times


def test_a_failing_event_is_logged_and_the_others_still_run(caplog):
    with caplog.at_level(logging.ERROR):
        ran, _ = _hand_over(20, failing=7)
    assert ran == [n for n in range(20) if n != 7]
    assert "event 7 fails" in caplog.text


def test_the_batches_are_installed_once_per_process():
    assert serve.hand_over_in_batches() and serve.hand_over_in_batches()
    assert getattr(AppSession, serve._BATCHED) is True
    assert AppSession._call_soon_on_event_loop.__wrapped__.__name__ == "_call_soon_on_event_loop"
