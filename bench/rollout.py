"""Rollout throughput on 1 and 2 worker processes (``python -m bench rollout``).

One full rollout (default 1,296 trials of the opening position in batches of 144, money,
cube centred) on a :class:`distributed.LocalCluster` of 1 and then of 2 single-threaded
worker processes (:mod:`rollouts.cluster`), in one run: the cluster's start, the
rollout's wall time from submission to its combined result, trials per second, and the
ratio of the two throughputs. Each worker's engine is warmed first (a 36-trial batch of
another position), so the times are of warm engines. ``--scheduler tcp://host:port``
runs the same rollout once on that existing cluster instead (its workers, as they are).
The two results are checked to be identical (seeded batches). Bounded: each batch keeps
its budget (:class:`cubecore.rollout.RolloutSettings`).
"""

from __future__ import annotations

import os
import time

#: Trials and batch size of the bench's rollout.
TRIALS = 1296
BATCH = 144


def _warm() -> None:  # runs on each worker
    from cubecore import engine
    from cubecore.position import Position

    race = Position.from_home((0, 0, 2, 0, 3, 0), (0, 2, 0, 1, 2, 0))
    engine.rollout_batch(race, seed=0, trials=36)


def _one(workers: int | None, trials: int, batch: int) -> tuple[str, float, float, object]:
    from cubecore import rollout as ro
    from cubecore.position import Position
    from rollouts import cluster

    start = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2,)
    settings = ro.RolloutSettings(trials=trials, batch_trials=batch, seed=2026)
    began = time.perf_counter()
    with cluster.connect(workers=workers) as client:
        n = len(client.scheduler_info()["workers"])
        client.run(_warm)
        ready = time.perf_counter() - began
        t0 = time.perf_counter()
        result = cluster.ClusterRollout(client, Position(start, start), settings).result()
        seconds = time.perf_counter() - t0
    return f"{n} worker(s)", ready, seconds, result


def run(trials: int = TRIALS, batch: int = BATCH, scheduler: str | None = None) -> None:
    """Print the rollout's time and throughput on 1 and 2 workers (or on ``scheduler``)."""
    from rollouts import cluster

    if scheduler is not None:
        os.environ[cluster.SCHEDULER_ENV] = scheduler
        cluster.scheduler_address()  # a clear message for a bad address
        runs = [_one(None, trials, batch)]
    else:
        os.environ.pop(cluster.SCHEDULER_ENV, None)
        runs = [_one(1, trials, batch), _one(2, trials, batch)]
    print(f"Rollout of the opening position: {trials} trials in batches of {batch}")
    print("| cluster | start + warm-up (s) | rollout (s) | trials/s |")
    print("| --- | ---: | ---: | ---: |")
    for name, ready, seconds, _ in runs:
        print(f"| {name} | {ready:.1f} | {seconds:.1f} | {trials / seconds:.1f} |")
    if len(runs) == 2:
        print(f"throughput ratio, 2 workers / 1 worker: {runs[0][2] / runs[1][2]:.2f}")
        same = runs[0][3] == runs[1][3]
        print(f"identical results on 1 and 2 workers: {same}")
    result = runs[-1][3]
    print(f"result: {result}")
