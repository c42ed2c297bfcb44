"""Rollout batches in the app's store: a batch done is never repeated.

Every finished batch of a rollout (:mod:`cubecore.rollout`) is kept in
``rollout_batches`` (:mod:`store.schema`) under the rollout's key (position, cube,
score, engine version and settings) and the batch's index. Floats are stored as 8-byte
doubles (SQLite REAL, PostgreSQL double precision), so a batch read back is equal to
the batch written and the combined result is unchanged.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from cubecore import rollout as ro
from cubecore.engine import RolloutBatchSums
from cubecore.position import position_id
from store.classroom import database_url, open_database
from store.schema import rollout_batches

__all__ = ["RolloutStore"]

_PROBABILITIES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
_SUMS = (
    "cubeless",
    "no_double",
    "double_take",
    "cubeless_variance",
    "no_double_variance",
    "double_take_variance",
)


class RolloutStore:
    """The rollout batches of one database (the app's, :func:`store.database_url`).

    Parameters
    ----------
    url : str, optional
        SQLAlchemy database URL; the app's database when not given. The database is
        migrated to the newest revision on opening.
    """

    def __init__(self, url: str | None = None) -> None:
        self.url = database_url() if url is None else url
        self.engine = open_database(self.url)

    def dispose(self) -> None:
        """Close the connection pool."""
        self.engine.dispose()

    def save(self, task: ro.RolloutTask, batch: RolloutBatchSums) -> bool:
        """Keep one finished batch; False when it was already stored (nothing changes).

        Raises
        ------
        ValueError
            ``batch`` is not the result of ``task`` (seed, trials or truncation differ).
        """
        ro.combine([task], {task.index: batch})  # refuses a batch of another task
        settings = asdict(task.settings)
        del settings["batch_budget"]
        row = {
            "rollout_key": task.key,
            "position_id": position_id(task.position),
            "settings": json.dumps(settings, sort_keys=True),
            "engine_version": batch.engine_version,
            "batch_index": task.index,
            "seed": batch.seed,
            "trials": batch.trials,
            "truncation": batch.truncation,
            **dict(zip(_PROBABILITIES, batch.probabilities, strict=True)),
            **{name: getattr(batch, name) for name in _SUMS},
            "cube_available": batch.cube_available,
            "created_at": datetime.now(UTC).replace(tzinfo=None),
        }
        try:
            with self.engine.begin() as db:
                db.execute(rollout_batches.insert().values(**row))
        except IntegrityError:  # the same batch stored by another process first
            return False
        return True

    def load(self, tasks: tuple[ro.RolloutTask, ...]) -> dict[int, RolloutBatchSums]:
        """The stored batches of a plan, by index (those of its engine version only)."""
        if not tasks:
            return {}
        key = tasks[0].key
        with self.engine.connect() as db:
            rows = db.execute(
                select(rollout_batches).where(rollout_batches.c.rollout_key == key)
            ).all()
        out = {}
        for row in rows:
            batch = RolloutBatchSums(
                seed=int(row.seed),
                trials=int(row.trials),
                truncation=int(row.truncation),
                probabilities=(
                    row.win,
                    row.win_gammon,
                    row.win_backgammon,
                    row.lose_gammon,
                    row.lose_backgammon,
                ),
                **{name: float(getattr(row, name)) for name in _SUMS},
                cube_available=bool(row.cube_available),
                engine_version=str(row.engine_version),
            )
            out[int(row.batch_index)] = batch
        if out:
            ro.combine(tasks, out)  # refuses rows that are not this plan's batches
        return out
