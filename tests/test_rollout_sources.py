"""Where rollouts come from: the position page's and the library's links fill the
Rollouts page's paste box (``pos``) with XGIDs (checkers, cube and score) and submit
nothing; a bad value in such a link is named at the top; the box, filled, is what the
Roll out button submits."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from urllib.parse import parse_qsl

import pytest

from cubecore import engine, library
from cubecore import rollout as ro
from cubecore.position import Position, position_from_id, position_id
from rollouts import cluster, runner
from store import database_url
from store.rollout_queue import RolloutQueue
from ui.library import data as library_data
from ui.rollouts import controls

ROLLOUTS = "pages/rollouts.py"
POSITION = "pages/position.py"
LIBRARY = "pages/library.py"
#: The position page's default position (a middle game).
MIDDLE_GAME = "sOfgATBwz8EDCA"
#: A short race: its rollouts take a fraction of a second (bgsage's bear-off database).
SHORT_RACE = Position.from_home((0, 0, 2, 0, 3, 0), (0, 2, 0, 1, 2, 0))


#: every test on a fresh data directory of its own (tests/databases.py)
pytestmark = pytest.mark.usefixtures("data_dir")


@pytest.fixture
def queue(data_dir):
    q = RolloutQueue(database_url())
    yield q
    q.dispose()


def sent(at, label_start: str) -> dict[str, str]:
    """The query of the page link whose label starts with ``label_start``."""
    found = [e for e in at.get("page_link") if e.proto.label.startswith(label_start)]
    assert len(found) == 1, [e.proto.label for e in at.get("page_link")]
    return dict(parse_qsl(found[0].proto.query_string))


def warnings(at) -> str:
    return " ".join(w.value for w in at.warning)


@pytest.mark.parametrize(
    ("keywords", "expected"),
    [
        ({"cube": 2, "owner": "opponent", "away": 3, "opp_away": 5}, (2, "opponent", 3, 5, False)),
        (
            {"cube": 4, "owner": "player", "jacoby": True, "beavers": True},
            (4, "player", 0, 0, False),
        ),
        ({"away": 1, "opp_away": 3, "crawford": True}, (1, "center", 1, 3, True)),
        ({"away": 4, "opp_away": 1}, (1, "center", 4, 1, False)),
        ({}, (1, "center", 0, 0, False)),
    ],
)
def test_an_xgid_written_for_the_paste_box_reads_back_the_same(keywords, expected):
    text = controls.xgid_text(MIDDLE_GAME, **keywords)
    pid, settings = controls.read_line(text, 72, 0)
    assert pid == MIDDLE_GAME
    got = (settings.cube, settings.owner, settings.away, settings.opp_away, settings.crawford)
    assert got == expected
    assert (settings.jacoby, settings.beavers) == (
        keywords.get("jacoby", False),
        keywords.get("beavers", False),
    )


def test_the_position_page_sends_its_position_cube_and_score(open_page, queue):
    at = open_page(
        POSITION, depth="1-ply", mode="match", away="3", oaway="5", cv="2", cube="opponent"
    )
    assert not at.exception
    query = sent(at, "Roll out this position")
    assert set(query) == {"~pos"}
    pid, settings = controls.read_line(query["~pos"], 72, 0)
    assert pid == MIDDLE_GAME
    assert (settings.cube, settings.owner, settings.away, settings.opp_away) == (
        2,
        "opponent",
        3,
        5,
    )
    # the link opens the Rollouts page with the box filled, and nothing is queued
    rollouts = open_page(ROLLOUTS, **query)
    assert not rollouts.exception and not warnings(rollouts)
    assert rollouts.text_area(key="pos").value == query["~pos"]
    assert queue.jobs() == ()
    assert runner.existing_runner(queue.url) is None  # no work started: no cluster


def test_a_link_s_positions_fill_the_box_and_nothing_is_submitted(open_page, queue):
    lines = "\n".join([MIDDLE_GAME, controls.xgid_text(MIDDLE_GAME, away=3, opp_away=3)])
    at = open_page(ROLLOUTS, pos=lines, trials="72")
    assert not at.exception and not warnings(at)
    assert at.text_area(key="pos").value == lines
    at.run()  # a second run (a refresh) submits nothing either
    assert queue.jobs() == ()
    assert runner.existing_runner(queue.url) is None


@pytest.mark.parametrize(
    ("value", "named"),
    [
        (f"{MIDDLE_GAME}\nnot a position", "Line 2"),
        ("XGID=-b----E-C---eE---c-e----BA:0:0:1:00:0:0:0:0:10", "16 checkers"),
        ("\n".join([MIDDLE_GAME] * 21), "at most 20"),
        ("<b>zq</b>\u0007", "not of the expected form"),
    ],
    ids=["bad line", "16 checkers", "too many", "control character"],
)
def test_a_bad_position_in_the_link_is_named_at_the_top(open_page, queue, value, named):
    at = open_page(ROLLOUTS, pos=value)
    assert not at.exception
    notice = warnings(at)
    assert "pos" in notice and named in notice.replace("\\", ""), notice
    assert at.text_area(key="pos").value == ""  # the box left empty, nothing read from it
    assert queue.jobs() == ()


def test_the_library_sends_a_position_and_its_filtered_list(open_page, queue):
    item = library.library()[0]
    at = open_page(LIBRARY, lib=item.id, score="3-away/5-away")
    assert not at.exception
    one = [e for e in at.get("page_link") if e.proto.label.startswith("Roll out this position")]
    assert len(one) == 1
    text = dict(parse_qsl(one[0].proto.query_string))["~pos"]
    pid, settings = controls.read_line(text, 72, 0)
    assert pid == item.position_id
    assert (settings.cube, settings.owner, settings.away, settings.opp_away) == (
        item.cube,
        item.owner,
        3,
        5,
    )
    # the whole library (more than one submission takes): the first 20, in its order
    every = [i.id for i in library.library()]
    assert len(every) > controls.MAX_LINES
    listed = library_data.rollout_values(every, "money")["pos"]
    rows = controls.read_lines(str(listed), 72, 0)
    assert [pid for pid, _ in rows] == [
        i.position_id for i in library.library()[: controls.MAX_LINES]
    ]
    table = open_page(LIBRARY, sec="Table")
    query = sent(table, f"Roll out the first {controls.MAX_LINES} of these {len(every)}")
    assert query["~pos"] == listed
    rollouts = open_page(ROLLOUTS, **query)
    assert not rollouts.exception and not warnings(rollouts)
    assert rollouts.text_area(key="pos").value == listed
    assert queue.jobs() == ()


@pytest.mark.xdist_group("dask")
@pytest.mark.timeout(900)
def test_the_filled_box_is_what_roll_out_submits(open_page, queue, two_workers, monkeypatch):
    # the runner the click starts submits to the tests' shared cluster (a scheduler named
    # in the environment, as a scaled-out app's): a cluster of its own would cost two
    # worker processes and their engines; the rollouts page's test starts one
    monkeypatch.setenv(cluster.SCHEDULER_ENV, two_workers.scheduler.address)
    text = controls.xgid_text(position_id(SHORT_RACE), cube=2, owner="opponent", away=3, opp_away=5)
    at = open_page(ROLLOUTS, pos=text, trials="72")
    next(b for b in at.button if b.label.startswith("Roll out")).click()
    at.run()
    assert not at.exception
    assert "Positions: 1 queued." in " ".join(s.value.replace("\\", "") for s in at.success)
    [job] = queue.jobs()
    assert job.position == SHORT_RACE
    assert job.settings == ro.RolloutSettings(
        trials=72, batch_trials=36, cube=2, owner="opponent", away=3, opp_away=5
    )


# ---------------------------------------------------------------- the checker play's level


def test_a_checker_play_level_is_its_own_rollout_and_1_ply_keeps_the_old_key():
    position = position_from_id(MIDDLE_GAME)
    one, two = (ro.RolloutSettings(trials=72, batch_trials=36, play=p) for p in (1, 2))
    assert ro.rollout_key(position, one) != ro.rollout_key(position, two)
    # 1-ply, the only level before the setting, keeps the key rollouts were stored under
    fields = dataclasses.asdict(one)
    del fields["batch_budget"], fields["play"]
    before = json.dumps(
        {"position": MIDDLE_GAME, "engine": engine.ENGINE_VERSION, "settings": fields},
        sort_keys=True,
    )
    assert (
        ro.rollout_key(position, one)
        == "rollout-" + hashlib.sha256(before.encode()).hexdigest()[:32]
    )


@pytest.mark.parametrize("play", [0, 4, 1.5, True, "2"])
def test_a_checker_play_level_out_of_range_is_refused(play):
    settings = ro.RolloutSettings(trials=72, batch_trials=36, play=play)
    with pytest.raises(ValueError, match="play"):
        ro.plan(position_from_id(MIDDLE_GAME), settings)


def test_two_levels_are_two_stored_jobs_and_the_same_level_one(queue):
    position = position_from_id(MIDDLE_GAME)
    session = "a" * 32
    jobs = [
        queue.submit(position, ro.RolloutSettings(trials=72, batch_trials=36, play=p), session)
        for p in (1, 2, 2)
    ]
    assert jobs[1].key == jobs[2].key != jobs[0].key
    stored = {job.key: job.settings.play for job in queue.jobs()}
    assert stored == {jobs[0].key: 1, jobs[1].key: 2}


def test_the_page_s_level_goes_into_the_job_and_its_csv_row(open_page, queue):
    text = "\n".join([MIDDLE_GAME, controls.xgid_text(MIDDLE_GAME, away=3, opp_away=3)])
    read = controls.read_lines(text, 72, 0, controls.PLAY_LEVELS["2-ply"])
    assert [settings.play for _, settings in read] == [2, 2]
    for pid, settings in read:
        queue.submit(position_from_id(pid), settings, "b" * 32)
    queue.submit(
        position_from_id(MIDDLE_GAME), ro.RolloutSettings(trials=72, batch_trials=36), "b" * 32
    )
    at = open_page(ROLLOUTS, trials="72", play="2-ply")
    assert not at.exception and not warnings(at)
    assert at.selectbox(key="play").value == "2-ply"
    table = at.dataframe[0].value
    assert sorted(table["Checker play"]) == ["1-ply", "2-ply", "2-ply"]


def test_a_bad_level_in_the_link_is_named(open_page):
    at = open_page(ROLLOUTS, play="4-ply")
    assert not at.exception
    assert "play" in warnings(at)
    assert at.selectbox(key="play").value == "1-ply"


def test_the_engine_plays_the_trials_at_the_level_asked():
    race = Position.from_home((0, 0, 2, 0, 3, 0), (0, 2, 0, 1, 2, 0))
    one, two = (engine.rollout_batch(race, seed=7, trials=36, play=p) for p in (1, 2))
    assert one.no_double != two.no_double  # 2-ply moves differ in this race (checked by hand)
    assert engine.rollout_batch(race, seed=7, trials=36, play=2) == two
    with pytest.raises(ValueError, match="play"):
        engine.rollout_batch(race, seed=7, trials=36, play=4)


# ------------------------------------------ the position page reads the queue's rollouts

FIRST_SESSION = "c" * 32


def filled(queue, position, settings, *, batches: int | None = None, done: bool = True):
    """The queue as a first session leaves it: the rollout submitted, ``batches`` of its
    batches played (all by default) and stored, the job running or done."""
    job = queue.submit(position, settings, FIRST_SESSION)
    for task in ro.plan(position, settings)[:batches]:
        queue.batches.save(task, ro.run_batch(task))
    claimed = queue.claim("first-process")
    assert claimed is not None and claimed.key == job.key
    if done:
        assert queue.finish(job.key, "first-process")
    return queue.job(job.key)


@pytest.fixture
def engine_rollouts(monkeypatch):
    """The positions the engine's own rollout level is asked for (the real engine runs)."""
    calls: list[str] = []
    real = engine.evaluate

    def counted(position, **keywords):
        if keywords.get("level") == "rollout":
            calls.append(position_id(position))
        return real(position, **keywords)

    monkeypatch.setattr(engine, "evaluate", counted)
    return calls


def race_page(open_page, **more):
    link = {
        "pos": position_id(SHORT_RACE),
        "depth": "rollout",
        "mode": "money",
        "jacoby": "false",
        "beavers": "false",
    }
    return open_page(POSITION, **{**link, **more})


def shown(at) -> str:
    parts = []
    for kind in ("markdown", "caption", "info", "error", "warning"):
        parts += [str(e.value).replace("\\", "") for e in getattr(at, kind)]
    return "\n".join(parts)


def test_the_queue_s_shared_rollout_is_the_done_one_with_the_most_games(queue):
    small = ro.RolloutSettings(trials=72, batch_trials=36)
    large = ro.RolloutSettings(trials=144, batch_trials=36)
    assert queue.shared(SHORT_RACE) is None
    running = filled(queue, SHORT_RACE, large, batches=1, done=False)
    assert running.state == "running"
    assert queue.shared(SHORT_RACE) == running  # no rollout done: the running one
    done = filled(queue, SHORT_RACE, small)
    assert queue.shared(SHORT_RACE) == done  # done wins over more games still running
    assert queue.shared(SHORT_RACE, truncation=5) is None
    assert queue.shared(SHORT_RACE, play=2) is None
    assert queue.shared(SHORT_RACE, cube=2, owner="player") is None
    assert queue.shared(SHORT_RACE, away=3, opp_away=3) is None
    owned = dataclasses.replace(small, cube=2, owner="player")
    queue.submit(SHORT_RACE, owned, FIRST_SESSION)  # queued, no game played: not shared
    assert queue.shared(SHORT_RACE, cube=2, owner="player") is None


def test_a_second_session_reads_the_done_rollout_and_rolls_nothing_out(
    open_page, queue, engine_rollouts
):
    job = filled(queue, SHORT_RACE, ro.RolloutSettings(trials=72, batch_trials=36))
    result = queue.result(job)
    assert result is not None and result.complete
    for _ in range(2):  # two sessions, one after the other
        at = race_page(open_page)
        assert not at.exception and not at.error, shown(at)
        text = shown(at)
        assert "from the shared queue" in text and "72 games" in text
        nd, se = result.no_double, result.standard_errors
        assert f"Rollout of 72 games: standard errors {se[0]:.4f}" in text
        metric = next(m for m in at.metric if m.label == "No double")
        assert metric.value == f"{round(nd, 4) + 0.0:+.4f}"
        assert at.get("progress") == []  # done: nothing to follow
    assert engine_rollouts == []
    # the same page where the queue has no rollout (Jacoby on): the engine rolls it out
    at = race_page(open_page, jacoby="true")
    assert not at.exception
    assert "from the shared queue" not in shown(at)
    assert engine_rollouts == [position_id(SHORT_RACE)]


def test_a_running_rollout_is_shown_with_its_progress(open_page, queue, engine_rollouts):
    job = filled(
        queue, SHORT_RACE, ro.RolloutSettings(trials=72, batch_trials=36), batches=1, done=False
    )
    assert job.state == "running"
    at = race_page(open_page)
    assert not at.exception and not at.error, shown(at)
    assert "36 of 72 games so far" in shown(at)
    [bar] = at.get("progress")
    assert "36 of 72 games" in bar.proto.text
    # the rest of the games come in: the page reads them as they are stored
    last = ro.plan(SHORT_RACE, job.settings)[1]
    queue.batches.save(last, ro.run_batch(last))
    at.run()
    assert "72 of 72 games so far" in shown(at)
    assert queue.finish(job.key, "first-process")
    at.run()
    assert "72 games" in shown(at) and "so far" not in shown(at)
    assert at.get("progress") == []
    assert engine_rollouts == []


def test_a_store_out_of_reach_leaves_the_page_its_own_rollout(open_page, monkeypatch, tmp_path):
    # a database the app cannot open (a directory where its file should be)
    (tmp_path / "not-a-file.sqlite3").mkdir()
    monkeypatch.setenv("CUBE_LAB_DATABASE_URL", f"sqlite:///{tmp_path / 'not-a-file.sqlite3'}")
    at = race_page(open_page)
    assert not at.exception and not at.error, shown(at)
    assert "from the shared queue" not in shown(at)
    assert any(m.label == "No double" for m in at.metric)
