"""The hosting template, run for real: nginx (deploy/nginx.conf.template) before one app process.

What a stranger meets: the security headers on every answer, Streamlit's metrics closed,
a per-address request limit that answers 429 to a flood (issue #18 item 3), and the
client's address passed to the app as nginx saw it, whatever the client claims (the app
counts sessions per address by it, issue #38)."""

from __future__ import annotations

import asyncio
import time
import urllib.error
import urllib.request

import pytest
import websockets
from websockets.exceptions import InvalidStatus
from websockets.typing import Subprotocol

from bench.scale import nginx
from bench.server import streamlit_servers
from tests.threads import off_loop
from ui import clients, serve

# One worker runs the whole module (xdist group), so its module fixture (a server behind nginx) is
# set up once: -n 2 otherwise split the module and each worker built its own.
pytestmark = [pytest.mark.timeout(300), pytest.mark.xdist_group("nginx proxy")]

SECURITY_HEADERS = {
    "Content-Security-Policy": "frame-ancestors 'self'; object-src 'none'; base-uri 'self'",
    "X-Frame-Options": "SAMEORIGIN",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def _get(url: str) -> tuple[int, dict[str, str]]:
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:
            return answer.status, dict(answer.headers)
    except urllib.error.HTTPError as refused:
        return refused.code, dict(refused.headers)


@pytest.fixture(scope="module")
def proxy():
    with streamlit_servers(1) as servers, nginx([servers[0][0].removeprefix("http://")]) as base:
        yield base


@pytest.mark.parametrize("path", ["/", "/_stcore/health", "/_stcore/metrics"])
def test_every_answer_carries_the_security_headers(proxy, path):
    _, headers = _get(proxy + path)
    for name, value in SECURITY_HEADERS.items():
        assert headers.get(name) == value, f"{path}: {name} is {headers.get(name)!r}"
    assert "nginx/" not in headers.get("Server", ""), "the server's version is shown"


def test_the_app_answers_and_sets_the_sticky_cookie(proxy):
    status, headers = _get(proxy + "/")
    assert status == 200
    assert headers.get("Set-Cookie", "").startswith("stroute=")


def test_the_metrics_endpoint_is_closed(proxy):
    assert _get(proxy + "/_stcore/metrics")[0] == 404


def test_a_flood_from_one_address_is_refused(proxy):
    # 50 requests a second with a burst of 500 are allowed; a client asking as fast as
    # it can passes that within a few thousand requests, however loaded the machine.
    # A proxied path: nginx answers its own `return` (the closed metrics) before limits.
    statuses = set()
    for _ in range(5_000):
        statuses.add(_get(proxy + "/_stcore/health")[0])
        if 429 in statuses:
            break
    assert 429 in statuses, f"5,000 requests in a row were all answered: {statuses}"


async def _sessions_with_forged_addresses(base: str) -> tuple[int, int]:
    """Sessions through the proxy, each claiming another address in the app's header,
    until one is refused: (how many were opened, the refusal's HTTP status). nginx's own
    request limit (429, after the flood test of this module) is waited out: polled
    until the handshake reaches the app."""
    opened = []
    try:
        deadline = time.monotonic() + 120
        while len(opened) <= serve.MAX_SESSIONS_PER_ADDRESS:
            try:
                opened.append(
                    await websockets.connect(
                        base.replace("http://", "ws://") + "/_stcore/stream",
                        subprotocols=[Subprotocol("streamlit")],
                        additional_headers={
                            clients.REAL_IP_HEADER: f"198.51.100.{len(opened) % 250}"
                        },
                        open_timeout=60,
                        ping_interval=None,
                    )
                )
            except InvalidStatus as refused:
                status = refused.response.status_code
                if status != 429 or time.monotonic() > deadline:
                    return len(opened), status
                await asyncio.sleep(0.05)  # nginx's 50 requests a second
        return len(opened), 0
    finally:
        for connection in opened:
            await connection.close()


def test_a_client_cannot_pick_the_address_its_sessions_count_against(proxy):
    opened, status = off_loop(asyncio.run, _sessions_with_forged_addresses(proxy))
    assert status == 403 and opened == serve.MAX_SESSIONS_PER_ADDRESS, (opened, status)
