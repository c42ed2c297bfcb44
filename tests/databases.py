"""Fixtures of the store's tests: a fresh database of each kind, a fresh data directory of the
app and a clock moved by hand.

Offered to every test by ``tests/conftest.py``, so that the store's classroom, its
rollout queue and the queue's runner are tested on the same databases: SQLite in the
test's own directory, and a database of its own on a real PostgreSQL server
(:func:`bench.postgres.postgres_server`, one per test session).
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa

from bench.postgres import postgres_server


class FakeClock:
    """A clock the tests move by hand (no sleeping)."""

    def __init__(self) -> None:
        self.time = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.time

    def advance(self, delta: timedelta) -> None:
        self.time += delta


@pytest.fixture(scope="session")
def postgres_url():
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    """A fresh empty database URL of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.sqlite3'}"
        return
    admin_url = request.getfixturevalue("postgres_url")
    name = "t_" + secrets.token_hex(6)
    admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sa.text(f"CREATE DATABASE {name}"))
    yield admin_url.rsplit("/", 1)[0] + "/" + name
    with admin.connect() as connection:
        connection.execute(sa.text(f"DROP DATABASE {name} WITH (FORCE)"))
    admin.dispose()


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """A fresh data directory of the app: its store is a new SQLite file there (no database
    URL and no cluster named in the environment); the process's rollout runner, if a page
    started one, is stopped after the test."""
    from rollouts import runner

    monkeypatch.setenv("CUBE_LAB_DATA", str(tmp_path))
    monkeypatch.delenv("CUBE_LAB_DATABASE_URL", raising=False)
    monkeypatch.delenv("CUBE_LAB_DASK_SCHEDULER", raising=False)
    yield tmp_path
    runner.stop_process_runner()
