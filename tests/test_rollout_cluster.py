"""Rollouts on real Dask clusters (rollouts.cluster): a LocalCluster of 1 and of 2 worker
processes, a worker killed mid-rollout, cancel and resume, and a `dask scheduler` with a
`dask worker` started as processes. Nothing here is mocked; a missing `dask` fails.

The cluster of two workers is the session's (``two_workers``, tests/clusters.py); the
one-worker reference starts a cluster of its own."""

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import psutil
import pytest
from distributed import Client

from cubecore import engine
from cubecore import rollout as ro
from cubecore.position import Position
from rollouts import cluster
from store.rollouts import RolloutStore

pytestmark = [pytest.mark.xdist_group("dask"), pytest.mark.timeout(900)]

ROOT = Path(__file__).resolve().parents[1]
DASK = Path(sys.executable).parent / "dask"
#: A short race: each 36-trial batch takes a fraction of a second once the engine is warm.
SHORT_RACE = Position.from_home((0, 0, 2, 0, 3, 0), (0, 2, 0, 1, 2, 0))
SETTINGS = ro.RolloutSettings(trials=36 * 6, batch_trials=36, seed=2026)
WAIT = 600.0


def _descendants() -> list[psutil.Process]:
    """This process's descendants, less the engine child of its own in-process calls and
    multiprocessing's resource tracker (one per process, it ends with this process)."""
    own = engine._WORKER._process
    mine = {own.pid} if own is not None and own.poll() is None else set()
    return [
        p
        for p in psutil.Process().children(recursive=True)
        if p.pid not in mine and "multiprocessing.resource_tracker" not in " ".join(p.cmdline())
    ]


def _assert_all_ended(processes: list[psutil.Process]) -> None:
    _, alive = psutil.wait_procs(processes, timeout=120)
    for process in alive:
        process.kill()
    assert alive == [], f"processes left behind: {alive}"


@pytest.fixture(scope="module")
def one_worker_result():
    """The reference: the rollout on a LocalCluster of one worker process."""
    before = set(_descendants())
    with cluster.connect(workers=1) as client:
        assert len(client.scheduler_info()["workers"]) == 1
        run = cluster.ClusterRollout(client, SHORT_RACE, SETTINGS)
        result = run.result(timeout=WAIT)
        batches = dict(run.results)
    _assert_all_ended([p for p in _descendants() if p not in before])
    return result, batches


def test_one_and_two_workers_give_identical_results(one_worker_result, two_workers):
    reference, batches = one_worker_result
    assert reference.complete and reference.trials == 216 and reference.batches == 6
    run = cluster.ClusterRollout(two_workers, SHORT_RACE, SETTINGS)
    result = run.result(timeout=WAIT)
    assert result == reference
    assert run.results == batches
    # a batch run in this process is the same as on the cluster's processes
    assert ro.run_batch(ro.plan(SHORT_RACE, SETTINGS)[3]) == batches[3]
    assert reference.standard_errors[1] > 0
    assert reference.action in {"Double, take", "Double, pass", "No double, take", "Too good"}


#: The killed-worker test's rollout: 36 batches, so that after the first has finished the
#: workers still hold many (a short race's batch takes about 20 ms on a warm engine: with
#: 6 batches, all could be done before the test looks for a busy worker).
KILL_SETTINGS = ro.RolloutSettings(trials=36 * 36, batch_trials=36, seed=2026)


def test_a_killed_worker_loses_nothing(two_workers):
    reference = cluster.ClusterRollout(two_workers, SHORT_RACE, KILL_SETTINGS).result(timeout=WAIT)
    assert reference.complete and reference.batches == 36
    run = cluster.ClusterRollout(two_workers, SHORT_RACE, KILL_SETTINGS)
    run.next_batch(timeout=WAIT)
    busy = {w: keys for w, keys in two_workers.processing().items() if keys}
    assert busy, "no batch was running after the first finished"
    victim = sorted(busy)[0]
    pid = two_workers.run(os.getpid, workers=[victim])[victim]
    engine_children = psutil.Process(pid).children(recursive=True)
    os.kill(pid, signal.SIGKILL)
    result = run.result(timeout=WAIT)
    assert result == reference
    assert victim not in two_workers.scheduler_info()["workers"]
    # the killed worker's engine child ends with it (its input closes)
    _assert_all_ended(engine_children)
    two_workers.wait_for_workers(2, timeout=WAIT)  # the nanny started another


def test_cancel_then_resume_completes_with_the_same_result(one_worker_result, two_workers):
    reference, _ = one_worker_result
    first = cluster.ClusterRollout(two_workers, SHORT_RACE, SETTINGS)
    first.next_batch(timeout=WAIT)
    done = first.cancel()
    assert 1 <= len(done) < 6 and first.pending == 0
    partial = ro.combine(first.tasks, done)
    assert not partial.complete and partial.trials == 36 * len(done)
    resumed = cluster.ClusterRollout(two_workers, SHORT_RACE, SETTINGS, done=done)
    assert resumed.pending == 6 - len(done)
    assert resumed.result(timeout=WAIT) == reference


def test_a_stored_rollout_resumes_from_its_batches_and_is_never_repeated(
    one_worker_result, two_workers, tmp_path
):
    reference, _ = one_worker_result
    store = RolloutStore(f"sqlite:///{tmp_path / 'rollouts.sqlite3'}")
    try:
        first = cluster.ClusterRollout(two_workers, SHORT_RACE, SETTINGS, store=store)
        first.next_batch(timeout=WAIT)
        kept = first.cancel()
        assert store.load(first.tasks) == kept  # every finished batch was stored
        # another process opening the same rollout continues from the stored batches
        other = RolloutStore(store.url)
        resumed = cluster.ClusterRollout(two_workers, SHORT_RACE, SETTINGS, store=other)
        assert resumed.pending == 6 - len(kept)
        assert resumed.result(timeout=WAIT) == reference
        again = cluster.ClusterRollout(two_workers, SHORT_RACE, SETTINGS, store=store)
        assert again.pending == 0  # done: nothing is submitted
        assert again.result(timeout=WAIT) == reference
        other.dispose()
    finally:
        store.dispose()


def test_resume_refuses_batches_of_another_rollout(one_worker_result, two_workers):
    _, batches = one_worker_result
    other = ro.RolloutSettings(trials=36 * 6, batch_trials=36, seed=1)
    with pytest.raises(ValueError, match="`results`: batch 0 is not the result of its task"):
        cluster.ClusterRollout(two_workers, SHORT_RACE, other, done={0: batches[0]})


def test_an_existing_scheduler_from_the_environment(one_worker_result, tmp_path, monkeypatch):
    reference, _ = one_worker_result
    assert DASK.exists(), f"the dask command is missing: {DASK}"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    scheduler_file = tmp_path / "scheduler.json"
    processes = [
        subprocess.Popen(
            [
                str(DASK),
                "scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--no-dashboard",
                "--scheduler-file",
                str(scheduler_file),
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    ]
    try:
        # the client waits for the scheduler file and its scheduler
        with Client(scheduler_file=str(scheduler_file), timeout=WAIT) as probe:
            address = probe.scheduler.address
        assert address == json.loads(scheduler_file.read_text())["address"]
        processes.append(
            subprocess.Popen(
                [
                    str(DASK),
                    "worker",
                    address,
                    "--nworkers",
                    "1",
                    "--nthreads",
                    "1",
                    "--no-dashboard",
                ],
                env=env,
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        monkeypatch.setenv(cluster.SCHEDULER_ENV, address)
        with cluster.connect(workers=64) as client:  # workers is ignored here
            assert client.scheduler.address == address
            client.wait_for_workers(1, timeout=WAIT)
            result = cluster.ClusterRollout(client, SHORT_RACE, SETTINGS).result(timeout=WAIT)
        assert result == reference
    finally:
        tree = [p for proc in processes for p in psutil.Process(proc.pid).children(recursive=True)]
        for proc in reversed(processes):
            proc.terminate()
            proc.wait(timeout=120)
        _assert_all_ended(tree)


@pytest.mark.parametrize(
    "value", ["http://127.0.0.1:8786", "tcp://127.0.0.1", "tcp://host:99999", "tcp://a b:1"]
)
def test_a_bad_scheduler_address_is_named(value):
    with pytest.raises(ValueError, match=cluster.SCHEDULER_ENV):
        cluster.scheduler_address({cluster.SCHEDULER_ENV: value})
    assert cluster.scheduler_address({}) is None
    assert cluster.scheduler_address({cluster.SCHEDULER_ENV: "tcp://h:8786"}) == "tcp://h:8786"


def test_connect_refuses_a_bad_worker_count(monkeypatch):
    monkeypatch.delenv(cluster.SCHEDULER_ENV, raising=False)
    with pytest.raises(ValueError, match="`workers`"), cluster.connect(workers=0):
        pass


def _engine_children(client: Client) -> dict[str, int | None]:
    """Each worker's engine child (its pid), None where it has none running."""

    def pid() -> int | None:
        child = engine._WORKER._process
        return None if child is None or child.poll() is not None else child.pid

    return client.run(pid)


def test_another_app_process_connecting_keeps_the_workers_warm_engines(two_workers, monkeypatch):
    """Each app process's runner connects to a shared cluster and registers the plugin that
    stops a worker's engine when the worker closes. Registered again, Dask tore the old
    one down, and every worker's warm engine was stopped: each app process that connected
    cost every worker its engine's start (about a core-second) and its next batch."""
    cluster.ClusterRollout(two_workers, SHORT_RACE, SETTINGS).result(timeout=WAIT)
    warm = _engine_children(two_workers)
    assert len(warm) == 2 and None not in warm.values()
    monkeypatch.setenv(cluster.SCHEDULER_ENV, two_workers.scheduler.address)
    with cluster.connect() as other:
        assert _engine_children(other) == warm
    assert _engine_children(two_workers) == warm
