"""Who a client is, for the per-client limits: the address its requests come from.

One rule for the launcher's session counts and page-run budget (:mod:`ui.serve`,
:mod:`ui.throttle`) and for the limits of the pages' own stores (the classroom, the
simulation worker: :func:`ui.student.client_address`): the connection's peer address,
or, when the peer is a proxy on this host, the proxy's :data:`REAL_IP_HEADER`.
``deploy/nginx.conf.template`` sets that header to nginx's ``$remote_addr``, which the
visitor cannot forge; it is read only from a loopback peer, so a client that reaches the
app directly cannot pick its address.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["LOOPBACK", "REAL_IP_HEADER", "client_address"]

#: The header with the visitor's address set by a proxy on loopback.
REAL_IP_HEADER = "x-real-ip"
#: The peers that are this host (a proxy here, or a local visitor).
LOOPBACK = frozenset({"127.0.0.1", "::1"})
#: The longest address kept (an IPv6 address has at most 45 characters).
_MAX_LENGTH = 64


def client_address(peer: str | None, headers: Mapping[str, Any] | Any) -> str:
    """The client's address: the peer's, or the proxy's :data:`REAL_IP_HEADER` when the
    peer is a proxy on loopback; ``"?"`` when there is no peer address."""
    peer = peer or "?"
    if peer in LOOPBACK:
        forwarded = headers.get(REAL_IP_HEADER)
        if forwarded:
            return str(forwarded).strip()[:_MAX_LENGTH]
    return peer[:_MAX_LENGTH]
