"""The class votes on a position (issue #40 item 4): the store's position questions.

On SQLite and on a real PostgreSQL server (tests/databases.py), as the store's other
tests. The verdict comes from the library's stored evaluation for a library position
and from the engine at 1-ply otherwise; bad input (an illegal XGID, an unknown library
id in a link, a vote for a question that is not open) is refused with a message and
stores nothing.
"""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import pytest
import sqlalchemy as sa

import store
from cubecore import engine, library
from cubecore.position import position_from_id, position_id, xgid, xgid_info
from store import (
    POSITION_CHOICES,
    POSITION_LEVEL,
    Classroom,
    PositionAsked,
    migrate,
    new_student_id,
    read_position_source,
)
from store.schema import answers, questions

LIBRARY_ID = "early-start"  # the starting position: ND at money (stored 3-ply)
MIDDLE_GAME = "sOfgATBwz8EDCA"  # the position page's default: DT at 1-ply


@pytest.fixture
def classroom(database, clock):
    kept = Classroom(database, clock=clock)
    yield kept
    kept.dispose()


def _count(classroom: Classroom, table: sa.Table) -> int:
    with classroom.engine.connect() as db:
        return int(db.execute(sa.select(sa.func.count()).select_from(table)).scalar_one())


def _library_with(verdict: str) -> str:
    return next(
        item.id for item in library.library() if library.evaluation(item.id).verdict == verdict
    )


# reading what the presenter typed -------------------------------------------------------
def test_a_library_id_a_library_link_and_a_position_link_name_the_same_checkers():
    item = library.library_position(LIBRARY_ID)
    by_id = read_position_source(LIBRARY_ID)
    by_link = read_position_source(f"https://lab.example/library?lib={LIBRARY_ID}&score=money")
    assert by_id == by_link == PositionAsked(item.position_id, 1, "center", item.id, item.title)
    by_position_link = read_position_source(
        f"https://lab.example/position?pos={MIDDLE_GAME}&depth=2-ply"
    )
    assert by_position_link == PositionAsked(MIDDLE_GAME, 1, "center")


def test_an_xgid_is_read_as_its_position_id_with_its_cube():
    checkers = position_from_id(MIDDLE_GAME)
    text = xgid(checkers)  # centred cube, money
    assert read_position_source(text) == PositionAsked(MIDDLE_GAME, 1, "center")
    info = xgid_info(text)
    fields = text.split(":")
    owner_field = "1" if info.bottom_on_roll else "-1"
    owned = ":".join([fields[0], "1", owner_field, *fields[3:]])  # a 2-cube, roller's
    asked = read_position_source(owned)
    assert (asked.position_id, asked.cube, asked.owner) == (position_id(checkers), 2, "player")


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1", "must have 10 fields"),
        ("XGID=-b----E-C---eE---c-e----Bz:0:0:1:00:0:0:0:0:10", "cannot be read"),
        ("https://lab.example/library?lib=no-such-position", "no position called 'no-such-posi"),
        ("https://lab.example/cube?x=0.68", "names no position"),
        ("no-such-position", "The library has no position called"),
        ("sOfgATBwz8EDCB", "cannot be read"),
        ("", "empty"),
        ("x" * 5000, "limit is 2000"),
    ],
)
def test_what_cannot_be_a_position_is_named(typed, words):
    with pytest.raises(ValueError, match=words):
        read_position_source(typed)


def test_a_cube_on_one_with_an_owner_is_refused():
    text = xgid(position_from_id(MIDDLE_GAME))
    fields = text.split(":")
    owned_one = ":".join([fields[0], "0", "1", *fields[3:]])  # cube field 0 (1), owned
    with pytest.raises(ValueError, match="The cube is on 1 and owned"):
        read_position_source(owned_one)


def test_a_match_position_is_refused_with_the_match_named():
    text = xgid(position_from_id(MIDDLE_GAME))
    fields = text.split(":")
    fields[8] = "7"  # a 7-point match
    with pytest.raises(ValueError, match="7-point match"):
        read_position_source(":".join(fields))


# asking ---------------------------------------------------------------------------------
def test_a_library_position_is_asked_with_the_librarys_stored_verdict_hidden(classroom):
    item_id = _library_with("DT")
    stored = library.evaluation(item_id, "money", "3-ply")
    room = classroom.open_room()
    asked = classroom.ask_position(room.code, room.secret, item_id)
    assert asked.kind == "position" and asked.options == POSITION_CHOICES
    seen = classroom.latest(room.code)
    assert seen is not None and seen.position is not None
    assert seen.position.library_id == item_id
    assert seen.answer_key is None and seen.verdict is None  # hidden until the reveal
    shown = classroom.reveal(room.code, room.secret, 1)
    assert shown.verdict is not None
    assert (shown.verdict.verdict, shown.verdict.source, shown.verdict.level) == (
        "DT",
        "library",
        "3-ply",
    )
    assert shown.verdict.no_double == pytest.approx(stored.no_double, abs=1e-12)
    assert shown.verdict.double_take == pytest.approx(stored.double_take, abs=1e-12)
    assert shown.verdict.win == pytest.approx(stored.win, abs=1e-12)
    assert shown.answer_key == "DT"
    expected_x = engine.implied_cube_life(
        (stored.win, stored.win_gammon, stored.win_backgammon, stored.lose_gammon,
         stored.lose_backgammon),
        stored.no_double,
    ).x  # fmt: skip
    assert shown.verdict.cube_life == pytest.approx(expected_x, abs=1e-12)


def test_too_good_is_voted_as_no_double(classroom):
    item_id = _library_with("TG")
    room = classroom.open_room()
    classroom.ask_position(room.code, room.secret, item_id)
    shown = classroom.reveal(room.code, room.secret, 1)
    assert shown.verdict is not None and shown.verdict.verdict == "TG"
    assert shown.answer_key == shown.verdict.right_vote == "ND"


def test_a_pasted_position_is_judged_once_by_the_engine_at_one_ply(classroom):
    room = classroom.open_room()
    classroom.ask_position(room.code, room.secret, MIDDLE_GAME)
    d = engine.evaluate(position_from_id(MIDDLE_GAME), level=POSITION_LEVEL)
    verdict = classroom.presenter_question(room.code, room.secret, 1).verdict
    assert verdict is not None
    assert verdict.verdict == library.verdict_of(
        d.action, d.doubles, d.taker_passes, d.cube_available
    )
    assert (verdict.source, verdict.level) == ("engine", "1-ply")
    assert verdict.no_double == pytest.approx(d.no_double, abs=1e-12)
    assert verdict.double_take == pytest.approx(d.double_take, abs=1e-12)
    with classroom.engine.connect() as db:  # stored once, with the question
        stored = db.execute(sa.select(questions.c.evaluation)).scalar_one()
    assert '"level": "1-ply"' in stored


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1", "an XGID must have 10 fields"),
        ("https://lab.example/library?lib=no-such-position", "library has no position"),
        ("sOfgATBwz8EDCB", "That position cannot be read"),
    ],
)
def test_a_bad_position_asks_nothing(classroom, typed, words):
    room = classroom.open_room()
    with pytest.raises(ValueError, match=words):
        classroom.ask_position(room.code, room.secret, typed)
    assert _count(classroom, questions) == 0
    assert classroom.latest(room.code) is None


def test_a_position_where_the_roller_cannot_double_is_refused(classroom):
    text = xgid(position_from_id(MIDDLE_GAME))
    info = xgid_info(text)
    fields = text.split(":")
    opponent = "-1" if info.bottom_on_roll else "1"
    owned = ":".join([fields[0], "1", opponent, *fields[3:]])
    room = classroom.open_room()
    with pytest.raises(ValueError, match="cannot double"):
        classroom.ask_position(room.code, room.secret, owned)
    assert _count(classroom, questions) == 0


def test_only_the_presenter_asks(classroom):
    room = classroom.open_room()
    with pytest.raises(ValueError, match="presenter key does not match"):
        classroom.ask_position(room.code, "x" * 24, LIBRARY_ID)
    assert _count(classroom, questions) == 0


# voting ---------------------------------------------------------------------------------
def test_votes_are_counted_once_per_student_with_their_estimates(classroom):
    room = classroom.open_room()
    classroom.ask_position(room.code, room.secret, LIBRARY_ID)
    ann, bob, cy = (new_student_id() for _ in range(3))
    classroom.submit(room.code, 1, ann, "Ann", "DT", estimate="62%")
    classroom.submit(room.code, 1, ann, "Ann", "DT", estimate="62")  # a double click
    classroom.submit(room.code, 1, bob, "Bob", "DP", estimate=80)
    classroom.submit(room.code, 1, cy, "Cy", "ND")
    classroom.submit(room.code, 1, bob, "Bob", "ND", estimate=55.25)  # changes his mind
    assert _count(classroom, answers) == 3
    tally = classroom.tally(room.code, room.secret, 1)
    assert tally.choice_counts() == {"ND": 2, "DT": 1, "DP": 0}
    assert sorted(tally.given_estimates()) == [55.2, 62.0]
    assert classroom.my_vote(room.code, 1, ann) == ("DT", 62.0)
    assert classroom.my_vote(room.code, 1, cy) == ("ND", None)
    classroom.reveal(room.code, room.secret, 1)
    frame = pd.read_csv(io.StringIO(classroom.positions_csv(room.code, room.secret)))
    row = frame.iloc[0]
    assert (row["votes"], row["votes_ND"], row["votes_DT"], row["votes_DP"]) == (3, 2, 1, 0)
    assert (row["right_vote"], row["right"], row["estimates"]) == ("ND", 2, 2)
    assert row["mean_estimate_percent"] == pytest.approx(58.6)
    assert row["library_id"] == LIBRARY_ID and row["evaluated_by"] == "library 3-ply"
    votes = pd.read_csv(io.StringIO(classroom.answers_csv(room.code, room.secret)))
    assert votes.set_index("nickname")["winning_chance_estimate"].to_dict() == pytest.approx(
        {"Ann": 62.0, "Bob": 55.2, "Cy": float("nan")}, nan_ok=True
    )


def test_every_position_asked_is_in_the_rooms_record(classroom):
    room = classroom.open_room()
    classroom.ask_position(room.code, room.secret, LIBRARY_ID)
    classroom.ask(room.code, room.secret, kind="numeric", prompt="Pips?", answer_key="8")
    classroom.ask_position(room.code, room.secret, MIDDLE_GAME)
    frame = classroom.positions_frame(room.code, room.secret)
    assert frame["question"].tolist() == [1, 3]
    assert frame["position_id"].tolist() == [
        library.library_position(LIBRARY_ID).position_id,
        MIDDLE_GAME,
    ]
    assert frame["votes"].tolist() == [0, 0]


@pytest.mark.parametrize(
    ("vote", "estimate", "words"),
    [
        ("Beaver", None, "not one of the options"),
        ("DT", "101", "from 0 to 100"),
        ("DT", -1, "from 0 to 100"),
        ("DT", "lots", "not a number"),
        ("DT", float("nan"), "from 0 to 100"),
    ],
)
def test_a_bad_vote_stores_nothing(classroom, vote, estimate, words):
    room = classroom.open_room()
    classroom.ask_position(room.code, room.secret, LIBRARY_ID)
    with pytest.raises(ValueError, match=words):
        classroom.submit(room.code, 1, new_student_id(), "Ann", vote, estimate=estimate)
    assert _count(classroom, answers) == 0


def test_a_forged_vote_for_a_question_not_open_stores_nothing(classroom):
    room = classroom.open_room()
    classroom.ask_position(room.code, room.secret, LIBRARY_ID)
    classroom.ask_position(room.code, room.secret, MIDDLE_GAME)
    me = new_student_id()
    with pytest.raises(ValueError, match="Question 1 is closed"):
        classroom.submit(room.code, 1, me, "Ann", "DT")
    with pytest.raises(ValueError, match="There is no question 7"):
        classroom.submit(room.code, 7, me, "Ann", "DT")
    classroom.reveal(room.code, room.secret, 2)
    with pytest.raises(ValueError, match="has been revealed"):
        classroom.submit(room.code, 2, me, "Ann", "DT")
    assert _count(classroom, answers) == 0


def test_an_estimate_belongs_to_a_position_question_only(classroom):
    room = classroom.open_room()
    classroom.ask(
        room.code, room.secret, kind="choice", prompt="?", options=["A", "B"], answer_key="A"
    )
    with pytest.raises(ValueError, match="Only a position question"):
        classroom.submit(room.code, 1, new_student_id(), "Ann", "A", estimate=50)
    assert _count(classroom, answers) == 0


# the schema -----------------------------------------------------------------------------
def test_an_upgrade_from_0006_keeps_the_questions_and_a_downgrade_drops_positions(database, clock):
    from alembic import command
    from alembic.config import Config

    engine_ = sa.create_engine(database)
    migrate(engine_, "0006_position_answers")
    engine_.dispose()
    kept = Classroom(database, clock=clock)  # upgrades to the newest schema
    room = kept.open_room()
    kept.ask(room.code, room.secret, kind="numeric", prompt="Pips?", answer_key="8")
    kept.ask_position(room.code, room.secret, LIBRARY_ID)
    kept.submit(room.code, 2, new_student_id(), "Ann", "ND", estimate=50)
    kept.dispose()
    config = Config()
    config.set_main_option("script_location", str(Path(store.__file__).parent / "migrations"))
    engine_ = sa.create_engine(database)
    with engine_.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0006_position_answers")
    with engine_.connect() as db:
        left = db.execute(sa.text("SELECT kind, prompt FROM questions")).all()
    engine_.dispose()
    assert [tuple(row) for row in left] == [("numeric", "Pips?")]
