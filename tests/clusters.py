"""The rollout tests' cluster: one LocalCluster of two worker processes, shared.

Offered to every test by ``tests/conftest.py``. The cluster tests (``test_rollout_cluster``),
the queue's runner (``test_rollout_runner``) and the agreement with the engine
(``test_rollout_agreement``) each started a cluster of their own (the workers' imports and
their engines' first batch: 5-7 core-seconds and 9-20 s of wall time each on the 2-core
machines). They run in one xdist group (:data:`GROUP`, one worker, one test after
another), which now opens the cluster once, keeps its warm engines, and closes it when
its last test is done (:func:`close_after`, called by ``tests/conftest.py``).

Every test gets the cluster with its two workers up: a test that killed a worker waits
for the nanny's new one, and :func:`two_workers` waits for both before each test, so no
test sees another's damage. Batches are submitted under fresh keys
(:class:`rollouts.cluster.ClusterRollout`), so no result is ever read from another test's
run. What needs a cluster of its own keeps it: the one-worker reference
(``test_rollout_cluster``) and the rollouts page's runner, which opens and closes its
own. When the cluster closes, every process it started has ended.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

import psutil
import pytest

if TYPE_CHECKING:  # imported by the fixture: conftest offers it to every test process
    from distributed import Client

#: Seconds to wait for the cluster's workers (a bound, not a pace).
WAIT = 600.0
#: The xdist group of the tests that use the cluster (each of their modules marks it).
GROUP = "dask"


def descendants() -> set[int]:
    """This process's descendants, less the engine child of its own in-process calls and
    multiprocessing's resource tracker (one per process, it ends with this process)."""
    from cubecore import engine

    own = engine._WORKER._process
    mine = {own.pid} if own is not None and own.poll() is None else set()
    return {
        p.pid
        for p in psutil.Process().children(recursive=True)
        if p.pid not in mine and "multiprocessing.resource_tracker" not in " ".join(p.cmdline())
    }


def assert_all_ended(pids: set[int]) -> None:
    """Every process of ``pids`` ends within 120 s (those left are killed, and named)."""
    left = []
    for pid in pids:
        with contextlib.suppress(psutil.NoSuchProcess):
            left.append(psutil.Process(pid))
    _, alive = psutil.wait_procs(left, timeout=120)
    for process in alive:
        process.kill()
    assert alive == [], f"processes left behind: {alive}"


class _Shared:
    """The one cluster of this test process, opened on first use."""

    def __init__(self) -> None:
        self._stack: contextlib.ExitStack | None = None
        self._client: Client | None = None
        self._before: set[int] = set()

    def client(self) -> Client:
        if self._client is None:
            from rollouts import cluster

            self._before = descendants()
            stack = contextlib.ExitStack()
            self._client = stack.enter_context(cluster.connect(workers=2))
            self._stack = stack
        return self._client

    def close(self) -> None:
        """Close the cluster if it is open; every process it started has ended."""
        if self._stack is None:
            return
        stack, self._stack, self._client = self._stack, None, None
        stack.close()
        assert_all_ended(descendants() - self._before)


_SHARED = _Shared()


def in_group(item: pytest.Item) -> bool:
    """Whether ``item`` is one of the rollout tests of the xdist group :data:`GROUP`."""
    mark = item.get_closest_marker("xdist_group")
    return mark is not None and (mark.args[0] if mark.args else mark.kwargs.get("name")) == GROUP


def close_after(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """Close the cluster once the group's tests are done in this process.

    The group's tests run one after another on one worker (``--dist loadgroup``), so the
    cluster is not kept idle (its processes' heartbeats cost ~0.07 of a core) while the
    worker runs the rest of the suite; a test of the group run later opens it again.
    """
    if in_group(item) and (nextitem is None or not in_group(nextitem)):
        _SHARED.close()


@pytest.fixture(scope="module")
def dask_cluster() -> Client:
    """The shared cluster, for a module's reference computed once (see :func:`two_workers`)."""
    client = _SHARED.client()
    client.wait_for_workers(2, timeout=WAIT)
    return client


@pytest.fixture
def two_workers() -> Client:
    """The shared cluster with both its workers up (a killed one has been replaced)."""
    client = _SHARED.client()
    client.wait_for_workers(2, timeout=WAIT)
    assert len(client.scheduler_info()["workers"]) == 2
    return client
