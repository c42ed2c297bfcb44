"""The launcher's sockets: each run's reply is sent at once (``ui.serve.no_delay``)."""

from __future__ import annotations

import asyncio
import importlib
import socket

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
