"""The classroom bench, small: real PostgreSQL, 2 app processes, nginx, one killed mid-run.

Asserts what the bench reports (every answer counted exactly once, none lost), not
its timings.
"""

import pytest

from bench.classroom import hostile_verdict, run_classroom, run_hostile, verdict
from tests.threads import off_loop

pytestmark = pytest.mark.timeout(300)


def test_a_small_round_with_a_restart_counts_every_answer_once(capsys):
    out = off_loop(run_classroom, students=4, questions=2, processes=2, restart=True)
    ok, words = verdict(out)
    assert ok, words
    assert out.killed_at.startswith("question 1")
    assert sum(out.stored.values()) >= sum(out.acked.values()) == 8 - sum(out.unsure.values())
    assert "counted exactly once and none lost: yes" in capsys.readouterr().out


def test_one_client_address_meets_each_limit_across_sessions_and_processes(capsys):
    """Issue #38 items 3 and 4, through the websocket client against two real servers:
    rooms, students and wrong codes stop at their limits from fresh sessions."""
    out = off_loop(run_hostile, processes=2)
    ok, words = hostile_verdict(out)
    assert ok, words
    assert "Every limit held: yes" in capsys.readouterr().out
