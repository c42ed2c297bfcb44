"""Monte Carlo runs share a per-process limit on how many run at once (ui.simulation)."""

from __future__ import annotations

import threading

import pytest

from cubecore import pgame
from ui import simulation as cached
from ui.keeler_spencer import data as ks_cached


class _Recorder:
    """Stands in for a simulation: records how many run at the same time.

    No wait on the clock: while all the slots are taken (as inside a simulation when
    :data:`SIMULATION_SLOTS` run), the stand-in asks for one more without blocking; a
    slot that lets one more in is recorded in ``extra``, whatever the threads' timing.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.running = 0
        self.most = 0
        self.extra = 0
        self.budgets: list[float | None] = []

    def __call__(self, double_point, n_games, seed, *, time_budget=None):
        with self.lock:
            self.budgets.append(time_budget)
            self.running += 1
            self.most = max(self.most, self.running)
            if self.running == cached.SIMULATION_SLOTS and cached._simulations.acquire(
                blocking=False
            ):
                cached._simulations.release()
                self.extra += 1
        with self.lock:
            self.running -= 1
        estimate = pgame.PointsEstimate(-1.0, 0.0, -1.0, -1.0, n_games, 0.95)
        return pgame.TakeCheck(double_point, -1.0, -1.0, estimate)


def _run_together(count: int, target) -> None:
    threads = [threading.Thread(target=target, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert not any(thread.is_alive() for thread in threads)


def test_slots_bound_the_simulations_running_at_once():
    recorder = _Recorder()

    def simulate(i):
        with cached.simulation_slot():
            recorder(0.8, 10, i)

    _run_together(3 * cached.SIMULATION_SLOTS, simulate)
    assert recorder.most == cached.SIMULATION_SLOTS
    assert recorder.extra == 0, "a slot let one more simulation in than SIMULATION_SLOTS"


def test_cached_take_check_waits_for_a_slot(monkeypatch):
    recorder = _Recorder()
    monkeypatch.setattr(ks_cached.pgame, "take_check", recorder)
    ks_cached.take_check.clear()
    results = []

    def call(i):  # distinct seeds: every call is a cache miss that simulates
        results.append(ks_cached.take_check(0.8, 1000, 1000 + i))

    _run_together(6, call)
    ks_cached.take_check.clear()
    assert sorted(r["take_estimate"]["n_games"] for r in results) == [1000] * 6
    assert recorder.budgets == [cached.SIMULATION_SECONDS] * 6  # each run has a time budget
    assert recorder.most == cached.SIMULATION_SLOTS
    assert recorder.extra == 0, "a slot let one more simulation in than SIMULATION_SLOTS"


def test_a_failed_simulation_gives_its_slot_back():
    for _ in range(cached.SIMULATION_SLOTS + 1):  # would block if a failure kept its slot
        with pytest.raises(RuntimeError), cached.simulation_slot():
            raise RuntimeError("simulation failed")
    acquired = [cached._simulations.acquire(timeout=1) for _ in range(cached.SIMULATION_SLOTS)]
    for _ in acquired:
        cached._simulations.release()
    assert all(acquired)


def test_a_taken_slot_times_out_with_simulation_busy():
    assert not cached.slot_busy()
    with cached.simulation_slot():
        assert cached.slot_busy()
        with pytest.raises(cached.SimulationBusy, match="busy"), cached.simulation_slot(timeout=0):
            pytest.fail("a second run got the only slot")
    assert not cached.slot_busy()


@pytest.mark.parametrize(
    ("page", "params", "what"),
    [
        ("pages/rules.py", {"sec": "Simulation"}, "the simulation"),
        ("pages/keeler_spencer.py", {}, "the take check"),
    ],
)
def test_a_reader_who_waits_too_long_gets_a_message(open_page, monkeypatch, page, params, what):
    monkeypatch.setattr(cached, "SLOT_TIMEOUT", 0.0)
    with cached.simulation_slot():  # another reader's simulation holds the slot
        at = open_page(page, **params)
    assert not at.exception, [e.message for e in at.exception]
    messages = [w.value for w in at.warning]
    assert any(f"so {what} did not run" in m for m in messages), messages


class _Box:
    """Stands in for ``st.empty()``: records what it shows and whether it was cleared."""

    def __init__(self) -> None:
        self.shown: list[str] = []
        self.cleared = False

    def info(self, text: str, icon: str | None = None) -> None:
        self.shown.append(text)

    def empty(self) -> None:
        self.cleared = True


def test_a_waiting_reader_is_told_what_waits_until_the_run_is_done(monkeypatch):
    boxes: list[_Box] = []
    monkeypatch.setattr(cached.st, "empty", lambda: boxes.append(_Box()) or boxes[-1])
    with cached.queued("2,000 games"):  # the slot is free: nothing is shown
        pass
    assert boxes == []
    # another reader's simulation holds the slot
    with cached.simulation_slot(), cached.queued("2,000 games"):
        (box,) = boxes
        assert len(box.shown) == 1 and not box.cleared
        assert "Waiting for the simulation slot" in box.shown[0]
        assert "2,000 games" in box.shown[0] and "60 s" in box.shown[0]
    assert box.cleared


def _waiters(
    slots: cached.FairSlots, clients: list[str]
) -> tuple[list[str], list[threading.Thread]]:
    """A thread per client name, each waiting for a slot of ``slots`` (held by this
    test), started one after another once the one before is in the queue; the order in
    which they get the slot is appended to the returned list."""
    served: list[str] = []
    threads = []
    for index, client in enumerate(clients):

        def wait(client: str = client) -> None:
            assert slots.acquire(timeout=60, client=client)
            served.append(client)
            slots.release()

        thread = threading.Thread(target=wait)
        thread.start()
        threads.append(thread)
        while len(slots._order()) < index + 1:  # it is in the queue
            thread.join(0.001)
    return served, threads


def test_clients_take_turns_for_the_slot():
    slots = cached.FairSlots(1)
    assert slots.acquire(client="first")  # a simulation running
    # one client asks thirty times, then another reader once
    served, threads = _waiters(slots, ["many"] * 30 + ["one"])
    ticket_order = slots._order()
    assert len(ticket_order) == 31
    slots.release()
    for thread in threads:
        thread.join(60)
    assert served.index("one") == 1  # after the first of the thirty, not after all


def test_a_waiter_is_told_its_place():
    slots = cached.FairSlots(1)
    assert slots.acquire(client="a")
    places: list[int] = []
    served, threads = _waiters(slots, ["b", "b"])
    done = threading.Event()

    def wait() -> None:
        assert slots.acquire(timeout=60, client="c", on_place=places.append)
        done.set()
        slots.release()

    waiter = threading.Thread(target=wait)
    waiter.start()
    while not places:
        waiter.join(0.001)
    assert places[0] == 2  # b's first, then c (b's second waits for its next turn)
    slots.release()
    waiter.join(60)
    for thread in threads:
        thread.join(60)
    assert done.is_set() and served == ["b", "b"]


def test_a_waiter_that_gives_up_leaves_the_queue():
    slots = cached.FairSlots(1)
    assert slots.acquire(client="a")
    assert not slots.acquire(timeout=0, client="b")
    assert slots._order() == [] and slots.place(object()) == 0
    slots.release()
    assert slots.acquire(blocking=False) and not slots.acquire(blocking=False)
    slots.release()
