"""The single-process setup of deploy/README.md (``python -m ui.serve --server.address
0.0.0.0``, no proxy): Streamlit's ``/_stcore/metrics`` (cached functions' names, sizes,
timings, the session count) answers this machine only, never a visitor (issue #38 item
12). The server is reached over the machine's own non-loopback address, as a visitor
on the network reaches it.
"""

from __future__ import annotations

import socket
import urllib.error
import urllib.request

import pytest

from bench.server import streamlit_servers
from ui import clients, serve

pytestmark = pytest.mark.timeout(300)


def _outside_address() -> str:
    """This machine's address on its network (the route a packet to the world takes)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: no packet is sent by a UDP connect
        address: str = probe.getsockname()[0]
    assert not address.startswith("127."), f"no network address besides loopback: {address}"
    return address


def _status(url: str, headers: dict[str, str] | None = None) -> int:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as refused:
        return refused.code


def test_the_metrics_answer_this_machine_only():
    outside = _outside_address()
    with streamlit_servers(1, extra=("--server.address", "0.0.0.0")) as servers:
        port = servers[0][0].rsplit(":", 1)[1]
        visitor = _status(f"http://{outside}:{port}/_stcore/metrics")
        page = _status(f"http://{outside}:{port}/_stcore/health")
        local = _status(f"http://127.0.0.1:{port}/_stcore/metrics")
        proxied = _status(
            f"http://127.0.0.1:{port}/_stcore/metrics", {clients.REAL_IP_HEADER: "198.51.100.7"}
        )
    assert page == 200  # the visitor reaches the app itself
    assert visitor == 404 and proxied == 404
    assert local == 200


def test_a_local_request_is_a_loopback_peer_without_a_proxys_header():
    assert serve.is_local_request("127.0.0.1", {})
    assert serve.is_local_request("::1", {})
    assert not serve.is_local_request("192.0.2.4", {})
    assert not serve.is_local_request("127.0.0.1", {clients.REAL_IP_HEADER: "198.51.100.7"})
    assert not serve.is_local_request(None, {})
