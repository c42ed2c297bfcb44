"""The rollouts page: pasted lines read (bad ones named, nothing stored), and a position
submitted from the page rolled out for real by this process's runner on a LocalCluster
it opens (two worker processes), shown in the table and closed with the runner."""

from __future__ import annotations

import re
import threading
import time

import psutil
import pytest

from cubecore import rollout as ro
from cubecore.position import Position, position_id
from rollouts import runner
from store import database_url
from store.rollout_queue import RolloutQueue
from ui.rollouts import controls

#: every test on a fresh data directory of its own (tests/databases.py)
pytestmark = [
    pytest.mark.xdist_group("dask"),
    pytest.mark.timeout(900),
    pytest.mark.usefixtures("data_dir"),
]

PAGE = "pages/rollouts.py"
SHORT_RACE = Position.from_home((0, 0, 2, 0, 3, 0), (0, 2, 0, 1, 2, 0))
#: 3-away/5-away, cube 2 owned by the opponent (the position page's test XGID).
XGID = "XGID=-b---CD-C---dD---c-db-A---:1:-1:1:00:4:2:0:7:10"
WAIT = 600.0


@pytest.fixture
def queue(data_dir):
    q = RolloutQueue(database_url())
    yield q
    q.dispose()


def unescaped(text: object) -> str:
    """A message as the player reads it (the page escapes Markdown with backslashes)."""
    return str(text).replace("\\", "")


def shown(at) -> str:
    parts = []
    for kind in ("markdown", "caption", "error", "success", "info", "warning"):
        parts += [unescaped(element.value) for element in getattr(at, kind)]
    return "\n".join(parts)


def roll_out(at, text: str):
    at.text_area(key="pos").set_value(text)
    next(b for b in at.button if b.label.startswith("Roll out")).click()
    return at.run()


def test_a_position_id_is_money_and_an_xgid_brings_its_cube_and_score():
    [(pid, money), (xpid, match)] = controls.read_lines(f"{position_id(SHORT_RACE)}\n{XGID}", 72, 0)
    assert pid == position_id(SHORT_RACE) and len(xpid) == 14
    assert money == ro.RolloutSettings(trials=72, batch_trials=36)
    assert (match.cube, match.owner, match.away, match.opp_away) == (2, "opponent", 3, 5)
    assert controls.batch_trials(1296) == 36 and controls.batch_trials(46_656) == 144
    assert all(int(t) % controls.batch_trials(int(t)) == 0 for t in controls.TRIAL_CHOICES)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Paste at least one Position ID or XGID"),
        (f"{position_id(SHORT_RACE)}\nnot a position", "Line 2: "),
        ("\n".join([position_id(SHORT_RACE)] * 21), "21 positions pasted: at most 20"),
        ("XGID=-b----E-C---eE---c-e----C-:0:0:1:00:0:0:0:0:10", "Line 1: .*16 checkers"),
    ],
)
def test_a_bad_paste_is_named_and_nothing_is_queued(open_page, queue, text, message):
    at = roll_out(open_page(PAGE, trials="72"), text)
    assert not at.exception
    assert at.error, "no message"
    assert re.search(message, unescaped(at.error[0].value)), at.error[0].value
    assert queue.jobs() == ()
    assert runner.existing_runner(queue.url) is None  # nothing to run: no runner, no cluster


def test_a_pasted_position_is_rolled_out_and_shown(open_page, queue):
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    at = open_page(PAGE, trials="72")
    assert "No cluster is open in this app process" in shown(at)
    at = roll_out(at, position_id(SHORT_RACE))
    assert not at.exception and "Positions: 1 queued." in shown(at)
    settings = ro.RolloutSettings(trials=72, batch_trials=36)
    key = ro.rollout_key(SHORT_RACE, settings)
    pause, deadline = threading.Event(), time.monotonic() + WAIT
    while (job := queue.job(key)) is None or job.state != "done":
        assert time.monotonic() < deadline, f"the rollout did not finish: {job}"
        pause.wait(0.2)
    result = queue.result(job)
    assert result is not None and result.complete and result.trials == 72
    at = open_page(PAGE, trials="72")
    assert "The cluster: 2 workers" in shown(at)
    table = at.dataframe[0].value
    row = table.iloc[0]
    assert row["State"] == "Done" and row["Trials done"] == "72 of 72"
    assert row["No double"] == pytest.approx(result.no_double)
    assert row["No double ±"] == pytest.approx(result.standard_errors[1])
    assert row["Action"] == result.action
    assert any(b.label == "Download CSV" for b in at.get("download_button"))
    # the same paste again: shared, not run twice
    at = roll_out(at, position_id(SHORT_RACE))
    assert "1 already in the queue or rolled out (shared)" in shown(at)
    assert len(queue.jobs()) == 1
    runner.stop_process_runner()  # closes the cluster it opened
    left = [
        p
        for p in psutil.Process().children(recursive=True)
        if p.pid not in before and "resource_tracker" not in " ".join(p.cmdline())
    ]
    _, alive = psutil.wait_procs(left, timeout=120)
    assert alive == []
    assert not [t for t in threading.enumerate() if t.name == "rollout-runner"]
