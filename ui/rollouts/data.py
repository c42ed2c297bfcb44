"""The rollout queue, one per server process and database, and the process's runner
(started lazily by the first submission)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import streamlit as st

from store import database_url
from store.rollout_queue import RolloutQueue

if TYPE_CHECKING:
    from rollouts.runner import QueueRunner


@st.cache_resource(show_spinner=False, max_entries=4)
def _queue(url: str) -> RolloutQueue:
    return RolloutQueue(url)


def queue() -> RolloutQueue:
    """The queue on ``CUBE_LAB_DATABASE_URL`` or the data directory's SQLite file."""
    return _queue(database_url())


def start_runner() -> QueueRunner:
    """This process's runner, started now (the first submission starts it)."""
    from rollouts.runner import process_runner  # Dask is imported with the first job

    return process_runner(queue())


def runner() -> QueueRunner | None:
    """This process's runner if one was started, else None (no cluster is open)."""
    module = sys.modules.get("rollouts.runner")
    if module is None:
        return None
    found: QueueRunner | None = module.existing_runner(queue().url)
    return found
