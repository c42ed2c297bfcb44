"""The classroom's position round, small: real PostgreSQL, 2 app processes, nginx.

Asserts what the bench reports (every vote counted exactly once, the presenter's
histogram equal to the store's count, every reload on either process keeping the
student's vote and identity), not its timings.
"""

import pytest

from bench.classroom import position_verdict, run_position_round
from tests.threads import off_loop

pytestmark = pytest.mark.timeout(300)


def test_a_small_position_round_counts_every_vote_once_and_reloads_keep_them(capsys):
    out = off_loop(run_position_round, students=4, processes=2)
    ok, words = position_verdict(out)
    assert ok, words
    assert sum(out.stored.values()) == out.shown == 4
    assert out.reloads == out.reloads_kept == 8  # each student once on each process
    assert out.stored_estimates == out.estimates == 2  # every other student estimated
    assert out.revealed
    assert "Every vote counted exactly once, histogram equal to the store: yes" in (
        capsys.readouterr().out
    )
