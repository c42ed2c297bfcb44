"""How fast one client address may start page runs (issue #38): a budget per address.

Every page run a websocket asks for (a page opened, a control moved) takes from its
client address's budget (:data:`BUDGET`, a token bucket: :data:`BURST` runs at once,
refilled at :data:`RUNS_PER_SECOND`; a section's own rerun, a fragment, takes
:data:`FRAGMENT_COST`). A run the budget does not cover waits until it does, on the
server's event loop, without any work: no script runs, no database or table is read.
So a client that opens pages or floods the classroom as fast as it can is slowed to the
budget's rate, and every other address runs as before. A session's newer rerun
replaces its waiting one (as Streamlit replaces a running one). The page that waited
says so (:func:`notice`) and how long; the wait is logged once per address while it
lasts.

The arithmetic: a reader moves a control every few seconds; a class of 30 behind one
school address, each moving one every 15 s, starts 2 runs a second: within the budget.
A client that opens a page as soon as the last one ended gets 2 a second, about what
those 30 readers cost together. The longest wait is bounded by the sessions an address
may hold (:data:`ui.serve.MAX_SESSIONS_PER_ADDRESS`, each with at most one run
waiting): 100 / 2 = 50 s.

The address is the one :func:`ui.clients.client_address` reads for the session counts
(behind the deployed nginx, its ``X-Real-IP``): ``ui.serve`` sets :data:`CLIENT` around
each websocket connection, and its back messages are handled on that connection's task.
A client on this machine itself (a loopback address: the benches, the browser tests)
has no budget; a visitor cannot appear as one, as the app reads the proxy's header
only from a loopback peer and nginx sets it to the address it saw.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

__all__ = [
    "BURST",
    "CLIENT",
    "FRAGMENT_COST",
    "RUNS_PER_SECOND",
    "RunBudget",
    "admit",
    "notice",
]

_log = logging.getLogger(__name__)

#: Page runs an address may start a second, over time.
RUNS_PER_SECOND = 2.0
#: Page runs an address may start at once (a class opening the teacher's link).
BURST = 40.0
#: What a section's own rerun (a fragment: the rest of the page is not run) takes.
FRAGMENT_COST = 0.25
#: Addresses remembered before those with a full budget are forgotten.
MAX_ADDRESSES = 10_000

#: The client address of the websocket connection whose messages are being handled.
CLIENT: ContextVar[str | None] = ContextVar("cubelab_client", default=None)


class RunBudget:
    """A token bucket per client address: ``burst`` runs, refilled at ``rate`` a second."""

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if not rate > 0 or not burst >= 1:
            raise ValueError(f"rate must be positive and burst at least 1, not {rate}, {burst}")
        self.rate, self.burst, self.clock = rate, burst, clock
        self._level: dict[str, tuple[float, float]] = {}  # address -> (tokens, when)

    def reserve(self, address: str, cost: float = 1.0) -> float:
        """Take ``cost`` from ``address``'s budget; seconds until it is covered (0: now).

        A run that has to wait is still taken (the budget goes below zero), so the next
        one waits behind it.
        """
        now = self.clock()
        tokens, when = self._level.get(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - when) * self.rate) - cost
        self._level[address] = (tokens, now)
        if len(self._level) > MAX_ADDRESSES:
            self._forget_full(now)
        return 0.0 if tokens >= 0 else -tokens / self.rate

    def _forget_full(self, now: float) -> None:
        full = [
            address
            for address, (tokens, when) in self._level.items()
            if tokens + (now - when) * self.rate >= self.burst
        ]
        for address in full:
            del self._level[address]


#: The process's budget.
BUDGET = RunBudget(RUNS_PER_SECOND, BURST)
#: Session id -> seconds its page run waited; read (and cleared) by that run's notice.
WAITED: dict[str, float] = {}
#: Session attribute holding the rerun message a session has waiting.
_WAITING = "_cubelab_waiting_rerun"
_warned: set[str] = set()


def admit(session: Any, msg: Any, handle: Callable[[Any, Any], None]) -> bool:
    """Whether ``session``'s rerun ``msg`` runs now; if not, ``handle(session, msg)`` (or a
    newer rerun of the session's in its place) is called once the client's budget covers
    it. Messages from outside a websocket connection (no :data:`CLIENT`) run now."""
    address = CLIENT.get()
    if address is None:
        return True
    waiting: list[Any] | None = session.__dict__.get(_WAITING)
    if waiting is not None:  # the newer rerun replaces the waiting one
        waiting[0] = msg
        return False
    fragment = bool(msg.rerun_script.fragment_id)
    wait = BUDGET.reserve(address, FRAGMENT_COST if fragment else 1.0)
    if wait <= 0:
        _warned.discard(address)
        return True
    if address not in _warned:
        _warned.add(address)
        _log.warning("page runs from %s wait for its budget: %.1f s", address, wait)
    box = [msg]
    session.__dict__[_WAITING] = box

    def run_later() -> None:
        session.__dict__.pop(_WAITING, None)
        from streamlit.runtime import Runtime

        if not Runtime.instance().is_active_session(session.id):
            return  # its client left: nothing to run for
        if not box[0].rerun_script.fragment_id:
            WAITED[session.id] = wait
        handle(session, box[0])

    asyncio.get_running_loop().call_later(wait, run_later)
    return False


def notice() -> None:
    """In a page run: say that the run waited for its address's budget, if it did."""
    import streamlit as st
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    waited = WAITED.pop(ctx.session_id, None) if ctx is not None else None
    if waited is not None:
        st.warning(
            "Many pages were opened or changed from your network address in a short time, "
            f"so this one waited {waited:.1f} s before it ran. Pages run at once again "
            "when they slow down.",
            icon=":material/hourglass_top:",
        )
