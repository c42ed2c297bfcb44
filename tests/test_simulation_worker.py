"""A server's simulations run on a worker process (ui.simulation.start_worker).

The worker is a real spawned process (no mock): the same seeded games, and the same
tables (:func:`ui.simulation.on_worker`), give the same numbers there as in the caller,
the run happens in another process, a worker that dies is replaced without losing the
reader's run, and one that gives no answer in time is the same ``ValueError`` as a run
past its budget.
"""

from __future__ import annotations

import os
import platform
import select
import signal
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

from cubecore import match, pgame
from ui import heap, simulation

#: How long a test waits for a killed process to be gone (a bound, not a pause: the
#: wait ends as soon as the process has exited).
GONE_WITHIN_S = 60.0


def _pid(*, time_budget: float) -> int:
    """A stand-in simulator: the process it runs in."""
    return os.getpid()


def _no_answer(*, time_budget: float) -> None:
    """A stand-in simulator that overruns its budget without noticing."""
    time.sleep(time_budget * 4)


@pytest.fixture
def worker():
    simulation.start_worker()
    yield
    simulation.stop_worker()


#: A stand-in server: starts its worker, prints the worker's pid, then waits to be killed.
_SERVER = """
import signal
from tests.test_simulation_worker import _pid
from ui import heap, simulation
simulation.start_worker()
print(simulation.within_budget(5.0, _pid), flush=True)
signal.pause()
"""


def _ends_within(pid: int, seconds: float) -> bool:
    """Whether process ``pid`` has ended or ends within ``seconds``: a wait on its pidfd,
    which becomes readable when the process exits (the wait ends then, not on a clock)."""
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        readable, _, _ = select.select([handle], [], [], seconds)
    finally:
        os.close(handle)
    return bool(readable)


def test_the_same_games_give_the_same_numbers_on_the_worker(worker):
    on_worker = simulation.within_budget(30.0, pgame.take_check, 0.8, 2_000, 11)
    batch = pgame.GameBatch(5_000, seed=4)
    summary, seconds = simulation.timed_within_budget(30.0, pgame.summarize_games, batch)
    simulation.stop_worker()
    assert on_worker == pgame.take_check(0.8, 2_000, 11)
    here = pgame.summarize_games(batch)
    assert summary.points == here.points and summary.cube_values.equals(here.cube_values)
    assert (summary.beavers, summary.raccoons, summary.drops) == (
        here.beavers,
        here.raccoons,
        here.drops,
    )
    assert seconds > 0


def test_the_run_happens_in_another_process(worker):
    assert simulation.within_budget(5.0, _pid) != os.getpid()


def test_a_worker_started_during_a_script_run_does_not_run_the_script(tmp_path, monkeypatch):
    """Streamlit installs each script run as ``__main__`` (the app's main script as its
    ``__file__``); a worker started then, as one replacing a dead worker is, must not run
    that script first (a spawned process runs its parent's main script)."""
    script = tmp_path / "app.py"
    script.write_text("raise SystemExit('the page script ran in the simulation worker')\n")
    page_run = types.ModuleType("__main__")
    page_run.__file__ = str(script)
    monkeypatch.setitem(sys.modules, "__main__", page_run)
    simulation.start_worker()
    try:
        assert simulation.within_budget(5.0, _pid) != os.getpid()
    finally:
        simulation.stop_worker()
    assert sys.modules["__main__"] is page_run


def test_without_a_worker_the_run_happens_in_the_caller():
    assert simulation.within_budget(5.0, _pid) == os.getpid()


def test_a_worker_that_died_is_replaced_and_the_run_still_done(worker):
    dead = simulation.within_budget(5.0, _pid)
    assert dead != os.getpid(), "the run was not on the worker"  # never SIGKILL the runner
    os.kill(dead, signal.SIGKILL)
    assert _ends_within(dead, GONE_WITHIN_S), f"worker {dead} still running after SIGKILL"
    assert simulation.within_budget(30.0, pgame.take_check, 0.8, 2_000, 11) == (
        pgame.take_check(0.8, 2_000, 11)
    )
    replacement = simulation.within_budget(5.0, _pid)
    assert replacement not in (dead, os.getpid())


def test_a_table_computed_on_the_worker_is_the_one_computed_here(worker):
    table = simulation.on_worker(match.match_equity_table, 9, 0.25, cube_efficiency=0.7)
    assert table.equals(match.match_equity_table(9, 0.25, cube_efficiency=0.7))
    assert simulation.on_worker(os.getpid) != os.getpid()
    assert not simulation.slot_busy()


def test_a_table_is_computed_here_without_a_worker_or_when_the_worker_died(worker):
    dead = simulation.on_worker(os.getpid)
    assert dead != os.getpid(), "the run was not on the worker"  # never SIGKILL the runner
    os.kill(dead, signal.SIGKILL)
    assert _ends_within(dead, GONE_WITHIN_S), f"worker {dead} still running after SIGKILL"
    assert simulation.on_worker(os.getpid) == os.getpid()  # the run the death met: here
    assert simulation.on_worker(os.getpid) not in (dead, os.getpid())  # then a new worker
    simulation.stop_worker()
    assert simulation.on_worker(os.getpid) == os.getpid()


def test_ctrl_c_is_left_to_the_server(worker):
    pid = simulation.within_budget(5.0, _pid)
    assert pid != os.getpid(), "the run was not on the worker"  # never interrupt the runner
    os.kill(pid, signal.SIGINT)  # as a terminal's Ctrl-C reaches the whole process group
    assert simulation.within_budget(5.0, _pid) == pid


def test_a_worker_without_an_answer_in_time_is_a_value_error(worker, monkeypatch):
    monkeypatch.setattr(simulation, "WORKER_GRACE_SECONDS", 0.0)
    with pytest.raises(ValueError, match="gave no result within"):
        simulation.within_budget(0.5, _no_answer)
    assert not simulation.slot_busy()  # the slot is given back


def test_the_worker_hands_freed_memory_back_on_glibc():
    assert platform.libc_ver()[0] == "glibc", "this project's machines run glibc"
    assert heap.trim_heap()


def test_a_worker_ends_when_its_server_is_killed_outright():
    root = Path(__file__).resolve().parents[1]
    server = subprocess.Popen(
        [sys.executable, "-c", _SERVER], cwd=root, stdout=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None
        worker = int(server.stdout.readline())
        assert not _ends_within(worker, 0.0)
    finally:
        server.kill()  # SIGKILL: the server cannot stop its worker
        server.wait()
    assert _ends_within(worker, GONE_WITHIN_S), f"worker {worker} outlived its killed server"
