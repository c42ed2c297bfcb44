"""The classroom store on SQLite and on a real PostgreSQL server (bench/postgres.py).

Every store test runs on both databases. The PostgreSQL server is started by the
tests themselves (a throw-away cluster); without PostgreSQL they fail.
"""

from __future__ import annotations

import io
import threading
from datetime import datetime, timedelta
from pathlib import Path

import hypothesis.strategies as hst
import pandas as pd
import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from hypothesis import HealthCheck, given, settings

import store
from store import (
    CLIENT_ANSWERS,
    CLIENT_CODE_MISSES,
    CLIENT_JOINS,
    CLIENT_ROOMS,
    CODE_ALPHABET,
    DRILL_RETENTION,
    MAX_SUBMISSIONS,
    RETENTION,
    ROOM_LIFETIME,
    ROOM_STUDENTS,
    Classroom,
    database_url,
    migrate,
    new_student_id,
)
from store.schema import CODE_LENGTH, answers, client_events, metadata, rooms, students

HTML = '<script>alert("x")</script><a href="javascript:alert(1)">[me](http://evil)</a>'
RTL_NAME = "שרה"  # Hebrew: a right-to-left nickname, fine
RLO_NAME = "\u202eevil"  # a right-to-left override: an invisible control, refused
TEN_KB = "x" * 10_000


def config_downgrade(engine: sa.Engine, revision: str) -> None:
    """Alembic ``downgrade`` of the store's migrations to ``revision``."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(store.__file__).parent / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)


@pytest.fixture
def classroom(database, clock):
    store = Classroom(database, clock=clock)
    yield store
    store.dispose()


def _room_asking(store: Classroom, **question):
    """A new room with one question (``question``: the keywords of ``Classroom.ask``)."""
    room = store.open_room()
    store.ask(room.code, room.secret, **question)
    return room


def _choice_room(store: Classroom):
    return _room_asking(
        store,
        kind="choice",
        prompt="3-away/5-away, 2-cube: take or pass?",
        options=["Take", "Pass"],
        answer_key="Take",
    )


def _numeric_room(store: Classroom):
    return _room_asking(
        store,
        kind="numeric",
        prompt="Dead-cube take point, money, no gammons?",
        answer_key="0.25",
        tolerance=0.01,
    )


def _rows(store: Classroom) -> int:
    with store.engine.connect() as db:
        return db.execute(sa.select(sa.func.count()).select_from(answers)).scalar_one()


# schema --------------------------------------------------------------------------------
def test_the_migrated_schema_is_the_metadata(classroom):
    with classroom.engine.connect() as db:
        differences = compare_metadata(MigrationContext.configure(db), metadata)
    assert differences == []


def test_migrating_twice_changes_nothing(database, clock):
    first = Classroom(database, clock=clock)
    room = _choice_room(first)
    second = Classroom(database, clock=clock)  # runs the migrations again
    assert second.join(room.code).questions == 1
    first.dispose()
    second.dispose()


def test_an_upgrade_from_the_first_schema_keeps_the_data(database, clock):
    engine = sa.create_engine(database)
    migrate(engine, "0001")
    with engine.begin() as db:
        db.execute(
            sa.text(
                "INSERT INTO rooms (code, secret_hash, created_at, expires_at) "
                "VALUES ('ABCDEF', :hash, :now, :later)"
            ),
            {
                "hash": "0" * 64,
                "now": datetime(2026, 11, 23, 9, 0),
                "later": datetime(2026, 11, 23, 13, 0),
            },
        )
        db.execute(
            sa.text(
                "INSERT INTO questions (room_id, number, kind, prompt, options, answer_key, "
                "tolerance, created_at) VALUES (1, 1, 'numeric', 'Pips?', '[]', '8', 0, :now)"
            ),
            {"now": datetime(2026, 11, 23, 9, 0)},
        )
    engine.dispose()
    store = Classroom(database, clock=clock)  # upgrades to the newest schema
    with store.engine.connect() as db:
        kept = db.execute(sa.text("SELECT prompt, explanation FROM questions")).one()
        assert tuple(kept) == ("Pips?", "")
        owner = db.execute(sa.text("SELECT code, owner_hash FROM rooms")).one()
        assert tuple(owner) == ("ABCDEF", None)
    # a room opened before the upgrade has a 6-character code, which the 9-character
    # codes of 0003_people no longer accept (it expires within its 4 hours)
    with pytest.raises(ValueError, match="A room code has 9 characters; this one has 6"):
        store.latest("ABCDEF")
    store.dispose()


def test_the_people_revision_goes_down_and_up_again(database, clock):
    engine = sa.create_engine(database)
    migrate(engine, "0003_people")
    config_downgrade(engine, "0002")
    with engine.connect() as db:
        assert "students" not in sa.inspect(db).get_table_names()
    engine.dispose()
    store = Classroom(database, clock=clock)
    room = store.open_room(new_student_id())
    assert len(room.code) == CODE_LENGTH
    store.dispose()


# rooms ---------------------------------------------------------------------------------
def test_a_room_code_is_nine_unambiguous_characters_and_the_key_is_stored_hashed(classroom):
    room = classroom.open_room()
    assert len(room.code) == 9 and set(room.code) <= set(CODE_ALPHABET)
    assert not set("IL0O1") & set(CODE_ALPHABET)
    assert len(room.secret) == 24 and room.secret not in room.code
    with classroom.engine.connect() as db:
        stored = db.execute(sa.select(rooms.c.secret_hash)).scalar_one()
    assert room.secret not in stored and len(stored) == 64


def test_a_code_is_accepted_in_lower_case_with_blanks(classroom):
    room = classroom.open_room()
    assert classroom.join(f"  {room.code.lower()} ").code == room.code


def test_an_unknown_room_code_is_named(classroom):
    classroom.open_room()
    with pytest.raises(ValueError, match="There is no room ABCDEFGHJ: check the code"):
        classroom.join("ABCDEFGHJ")


def test_an_expired_room_refuses_students_but_keeps_its_answers(classroom, clock):
    room = _choice_room(classroom)
    student = new_student_id()
    classroom.submit(room.code, 1, student, "Ann", "Take")
    clock.advance(ROOM_LIFETIME)
    with pytest.raises(ValueError, match=f"Room {room.code} has expired"):
        classroom.join(room.code)
    with pytest.raises(ValueError, match="has expired"):
        classroom.submit(room.code, 1, student, "Ann", "Pass")
    with pytest.raises(ValueError, match="has expired"):
        classroom.ask(room.code, room.secret, kind="numeric", prompt="?", answer_key="1")
    assert classroom.tally(room.code, room.secret, 1).values == ("Take",)
    assert "Ann" in classroom.answers_csv(room.code, room.secret)


def test_a_room_and_its_answers_are_deleted_after_the_retention(classroom, clock):
    room = _choice_room(classroom)
    classroom.submit(room.code, 1, new_student_id(), "Ann", "Take")
    clock.advance(ROOM_LIFETIME + RETENTION)
    kept = classroom.open_room()  # exactly at the end of the retention: kept
    assert classroom.tally(room.code, room.secret, 1).count == 1
    clock.advance(timedelta(seconds=1))
    classroom.open_room()
    with pytest.raises(ValueError, match=f"There is no room {room.code}"):
        classroom.answers_csv(room.code, room.secret)
    assert _rows(classroom) == 0
    assert classroom.join(kept.code).code == kept.code


def test_a_room_is_open_until_just_before_it_expires(classroom, clock):
    room = classroom.open_room()
    clock.advance(ROOM_LIFETIME - timedelta(seconds=1))
    assert not classroom.join(room.code).closed


def test_a_closed_room_refuses_students(classroom):
    room = _choice_room(classroom)
    classroom.close(room.code, room.secret)
    with pytest.raises(ValueError, match=f"Room {room.code} was closed by its presenter"):
        classroom.join(room.code)
    with pytest.raises(ValueError, match="was closed"):
        classroom.submit(room.code, 1, new_student_id(), "Ann", "Take")
    assert classroom.presenter_room(room.code, room.secret).closed


def test_a_presenter_key_used_as_a_student_code_is_refused_and_not_echoed(classroom):
    room = classroom.open_room()
    with pytest.raises(ValueError, match="That is a presenter key, not a room code") as caught:
        classroom.join(room.secret)
    assert room.secret not in str(caught.value)


def test_a_wrong_presenter_key_is_refused(classroom):
    room = _choice_room(classroom)
    other = classroom.open_room()
    for action in (
        lambda: classroom.tally(room.code, other.secret, 1),
        lambda: classroom.reveal(room.code, other.secret, 1),
        lambda: classroom.close(room.code, other.secret),
        lambda: classroom.answers_csv(room.code, other.secret),
        lambda: classroom.tally(room.code, room.code, 1),
    ):
        with pytest.raises(ValueError, match=f"presenter key does not match room {room.code}"):
            action()


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("", "The room code is empty"),
        ("   ", "The room code is empty"),
        (TEN_KB, "A room code has 9 characters; this one has 9999"),
        ("<b>X</b>", "A room code has 9 characters; this one has 8"),
        ("<a>b!", "A room code has 9 characters; this one has 5"),
        ("<scr>", "A room code has 9 characters"),
        ("ABC<D>EFG", "uses only the characters"),
        ("ABCDEFGH1", "no I, L, O, 0 or 1"),
        ("אבגדהוזחט", "uses only the characters"),
    ],
)
def test_a_bad_room_code_is_named_without_repeating_it(classroom, code, message):
    with pytest.raises(ValueError, match=message) as caught:
        classroom.join(code)
    assert "<" not in str(caught.value) and "xxxx" not in str(caught.value)


def test_a_room_code_of_another_type_is_a_type_error(classroom):
    with pytest.raises(TypeError, match="room code must be text"):
        classroom.join(123456)


# questions -----------------------------------------------------------------------------
def test_students_see_the_answer_key_only_after_the_reveal(classroom):
    room = _choice_room(classroom)
    assert classroom.latest(room.code).answer_key is None
    with pytest.raises(ValueError, match="Question 1 has not been revealed yet"):
        classroom.result(room.code, 1)
    assert classroom.presenter_question(room.code, room.secret, 1).answer_key == "Take"
    classroom.reveal(room.code, room.secret, 1)
    assert classroom.latest(room.code).answer_key == "Take"
    assert classroom.result(room.code, 1).question.revealed


def test_the_explanation_is_shown_with_the_answer_on_reveal(classroom):
    room = classroom.open_room()
    why = "Take point = (L - 1/2) / (W + L) = 0.25 with W = L = 1 [Janowski 1993]."
    classroom.ask(
        room.code,
        room.secret,
        kind="numeric",
        prompt="Dead-cube take point?",
        answer_key="0.25",
        explanation=f"  {why} ",
    )
    assert classroom.latest(room.code).explanation is None
    assert classroom.presenter_question(room.code, room.secret, 1).explanation == why
    classroom.reveal(room.code, room.secret, 1)
    assert classroom.result(room.code, 1).question.explanation == why


def test_questions_are_numbered_and_the_latest_is_shown(classroom):
    room = _choice_room(classroom)
    assert classroom.latest(room.code).number == 1
    classroom.ask(room.code, room.secret, kind="numeric", prompt="Pips?", answer_key="8.17")
    latest = classroom.latest(room.code)
    assert (latest.number, latest.kind, latest.options) == (2, "numeric", ())
    assert classroom.join(room.code).questions == 2


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"kind": "essay", "prompt": "?", "answer_key": "1"}, "kind must be one of"),
        ({"kind": "numeric", "prompt": "", "answer_key": "1"}, "The question is empty"),
        ({"kind": "numeric", "prompt": TEN_KB, "answer_key": "1"}, "limit is 300 characters"),
        ({"kind": "numeric", "prompt": "?", "answer_key": HTML}, "answer key is 78 characters"),
        ({"kind": "numeric", "prompt": "?", "answer_key": "a half"}, "answer key is not a number"),
        (
            {"kind": "numeric", "prompt": "?", "answer_key": "1", "tolerance": -1.0},
            "tolerance must be between 0",
        ),
        (
            {"kind": "numeric", "prompt": "?", "answer_key": "1", "options": ["a", "b"]},
            "A numeric question has no options",
        ),
        (
            {"kind": "choice", "prompt": "?", "answer_key": "a", "options": ["a"]},
            "2 to 6 options",
        ),
        (
            {"kind": "choice", "prompt": "?", "answer_key": "a", "options": list("abcdefg")},
            "2 to 6 options",
        ),
        (
            {"kind": "choice", "prompt": "?", "answer_key": "a", "options": ["a", "a"]},
            "Two options are the same",
        ),
        (
            {"kind": "choice", "prompt": "?", "answer_key": "c", "options": ["a", "b"]},
            "answer key is not one of the options",
        ),
        (
            {"kind": "choice", "prompt": "?", "answer_key": "a", "options": ["a", TEN_KB]},
            "The option is 10000 characters long",
        ),
        (
            {"kind": "choice", "prompt": "\u202eevil", "answer_key": "a", "options": ["a", "b"]},
            "invisible or control characters",
        ),
        (
            {"kind": "numeric", "prompt": "?", "answer_key": "1", "explanation": TEN_KB},
            "The explanation is 10000 characters long; the limit is 600",
        ),
    ],
)
def test_a_bad_question_is_named(classroom, kwargs, message):
    room = classroom.open_room()
    with pytest.raises(ValueError, match=message):
        classroom.ask(room.code, room.secret, **kwargs)
    assert classroom.latest(room.code) is None


# answers: exactly once -----------------------------------------------------------------
def test_a_resubmit_replaces_the_answer(classroom):
    room = _choice_room(classroom)
    student = new_student_id()
    classroom.submit(room.code, 1, student, "Ann", "Pass")
    classroom.submit(room.code, 1, student, "Annie", "Take")
    assert _rows(classroom) == 1
    assert classroom.tally(room.code, room.secret, 1).values == ("Take",)
    assert classroom.my_answer(room.code, 1, student) == "Take"
    frame = classroom.answers_frame(room.code, room.secret)
    assert frame[["nickname", "answer", "changes"]].values.tolist() == [["Annie", "Take", 1]]


def test_a_double_click_is_one_answer_and_no_change(classroom):
    room = _numeric_room(classroom)
    student = new_student_id()
    for _ in range(MAX_SUBMISSIONS + 3):
        assert classroom.submit(room.code, 1, student, "Ann", " 0.250 ") == "0.25"
    assert _rows(classroom) == 1
    assert classroom.answers_frame(room.code, room.secret)["changes"].tolist() == [0]


def test_changes_of_an_answer_are_capped(classroom):
    room = _numeric_room(classroom)
    student = new_student_id()
    for k in range(MAX_SUBMISSIONS):
        classroom.submit(room.code, 1, student, "Ann", str(k))
    with pytest.raises(
        ValueError,
        match=f"You have changed your answer to question 1 {MAX_SUBMISSIONS - 1} times",
    ):
        classroom.submit(room.code, 1, student, "Ann", "99")
    assert classroom.my_answer(room.code, 1, student) == str(MAX_SUBMISSIONS - 1)
    # the answer that stands may still be sent again (a double click after the cap)
    classroom.submit(room.code, 1, student, "Ann", str(MAX_SUBMISSIONS - 1))
    assert _rows(classroom) == 1


def test_an_answer_after_the_reveal_is_refused(classroom):
    room = _choice_room(classroom)
    classroom.reveal(room.code, room.secret, 1)
    with pytest.raises(ValueError, match="Question 1 has been revealed: answers are closed"):
        classroom.submit(room.code, 1, new_student_id(), "Ann", "Take")


def test_an_older_question_never_revealed_takes_no_answers_once_a_newer_one_is_posted(
    classroom,
):
    """Issue #38 item 7: only the open question takes answers."""
    room = _choice_room(classroom)
    student = new_student_id()
    classroom.submit(room.code, 1, student, "Ann", "Take")
    classroom.ask(room.code, room.secret, kind="numeric", prompt="Pips?", answer_key="8")
    with pytest.raises(ValueError, match="Question 1 is closed: the presenter has moved on"):
        classroom.submit(room.code, 1, student, "Ann", "Pass")
    with pytest.raises(ValueError, match="Question 1 is closed"):
        classroom.submit(room.code, 1, new_student_id(), "Bo", "Take")
    assert classroom.my_answer(room.code, 1, student) == "Take"
    assert classroom.submit(room.code, 2, student, "Ann", "8") == "8"


def test_an_answer_to_a_question_that_does_not_exist_is_refused(classroom):
    room = _choice_room(classroom)
    with pytest.raises(ValueError, match="There is no question 7 in this room"):
        classroom.submit(room.code, 7, new_student_id(), "Ann", "Take")


def test_each_student_has_one_answer_and_the_counts_add_up(classroom):
    room = _choice_room(classroom)
    for k in range(7):
        classroom.submit(room.code, 1, new_student_id(), f"S{k}", "Take" if k % 3 else "Pass")
    tally = classroom.tally(room.code, room.secret, 1)
    assert tally.count == 7 == _rows(classroom)
    assert tally.choice_counts() == {"Take": 4, "Pass": 3}


# answers: bad input --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("nickname", "message"),
    [
        ("", "The nickname is empty"),
        ("  \t ", "The nickname is empty"),
        (TEN_KB, "The nickname is 10000 characters long; the limit is 24 characters"),
        (HTML, "The nickname is 78 characters long; the limit is 24"),
        (RLO_NAME, "invisible or control characters \\(such as a right-to-left override\\)"),
        ("Ann\x00", "invisible or control characters"),
    ],
)
def test_a_bad_nickname_is_named(classroom, nickname, message):
    room = _choice_room(classroom)
    with pytest.raises(ValueError, match=message) as caught:
        classroom.submit(room.code, 1, new_student_id(), nickname, "Take")
    assert "<" not in str(caught.value)
    assert _rows(classroom) == 0


@pytest.mark.parametrize("nickname", [RTL_NAME, "مريم", "<b>Bo</b>", "[x](http://e)"])
def test_a_nickname_in_any_script_or_with_markup_is_kept_as_text(classroom, nickname):
    room = _choice_room(classroom)
    classroom.submit(room.code, 1, new_student_id(), nickname, "Take")
    frame = classroom.answers_frame(room.code, room.secret)
    assert frame["nickname"].tolist() == [nickname]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("", "The answer is empty"),
        (TEN_KB, "The answer is 10000 characters long; the limit is 32 characters"),
        ("<b>1</b>", "The answer is not a number"),
        ("<script>alert(1)</script>", "The answer is not a number"),
        ("javascript:1", "The answer is not a number"),
        ("nan", "The answer is not a number"),
        ("inf", "The answer is not a number"),
        ("1e999", "The answer is too large"),
        ("٠٫٢٥", "The answer is not a number"),
        ("\u202e52.0", "invisible or control characters"),
    ],
)
def test_a_bad_numeric_answer_is_named(classroom, value, message):
    room = _numeric_room(classroom)
    with pytest.raises(ValueError, match=message) as caught:
        classroom.submit(room.code, 1, new_student_id(), "Ann", value)
    assert "<" not in str(caught.value) and "script" not in str(caught.value)
    assert _rows(classroom) == 0


@pytest.mark.parametrize("value", ["", "Maybe", HTML, TEN_KB, "\u202eTake", "take"])
def test_a_choice_answer_must_be_one_of_the_options(classroom, value):
    room = _choice_room(classroom)
    with pytest.raises(ValueError, match="answer") as caught:
        classroom.submit(room.code, 1, new_student_id(), "Ann", value)
    assert "<" not in str(caught.value)
    assert _rows(classroom) == 0


def test_a_forged_student_id_is_refused(classroom):
    room = _choice_room(classroom)
    with pytest.raises(ValueError, match="student id must be 32 hexadecimal digits"):
        classroom.submit(room.code, 1, "'; DROP TABLE answers; --", "Ann", "Take")


def test_the_csv_neutralises_spreadsheet_formulas_and_hides_student_ids(classroom):
    room = _numeric_room(classroom)
    ids = [new_student_id(), new_student_id()]
    classroom.submit(room.code, 1, ids[0], "=HYPERLINK(1)", "0.25")
    classroom.submit(room.code, 1, ids[1], "Bo", "-0.3")
    text = classroom.answers_csv(room.code, room.secret)
    frame = pd.read_csv(io.StringIO(text))
    assert frame["nickname"].tolist() == ["'=HYPERLINK(1)", "Bo"]
    assert frame["student"].tolist() == [1, 2]
    assert frame["correct"].tolist() == [True, False]
    assert frame["answer"].tolist() == [0.25, -0.3]
    assert not any(student in text for student in ids)


# concurrency and restart ---------------------------------------------------------------
def _in_threads(count: int, work) -> list[BaseException]:
    errors: list[BaseException] = []
    start = threading.Barrier(count)

    def run(k: int) -> None:
        start.wait()
        try:
            work(k)
        except BaseException as error:  # collected and asserted below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def test_threads_sending_the_same_answer_store_it_once(classroom):
    room = _choice_room(classroom)
    student = new_student_id()
    errors = _in_threads(12, lambda k: classroom.submit(room.code, 1, student, "Ann", "Take"))
    assert errors == []
    assert _rows(classroom) == 1
    assert classroom.answers_frame(room.code, room.secret)["changes"].tolist() == [0]


def test_threads_of_many_students_store_every_answer_once(classroom):
    room = _numeric_room(classroom)
    students = [new_student_id() for _ in range(12)]

    def work(k: int) -> None:
        for repeat in range(3):  # each student sends the same answer three times
            classroom.submit(room.code, 1, students[k], f"S{k}", str(k))
            del repeat

    assert _in_threads(12, work) == []
    tally = classroom.tally(room.code, room.secret, 1)
    assert sorted(tally.numbers()) == [float(k) for k in range(12)]
    assert _rows(classroom) == 12


def test_a_restarted_store_sees_everything(database, clock):
    first = Classroom(database, clock=clock)
    room = _choice_room(first)
    students = [new_student_id() for _ in range(3)]
    for k, student in enumerate(students):
        first.submit(room.code, 1, student, f"S{k}", "Take")
    first.dispose()
    again = Classroom(database, clock=clock)
    assert again.tally(room.code, room.secret, 1).values == ("Take",) * 3
    again.submit(room.code, 1, students[0], "S0", "Pass")  # still one row per student
    assert again.tally(room.code, room.secret, 1).choice_counts() == {"Take": 2, "Pass": 1}
    again.dispose()


# property: the stored answers are the last accepted answer of each student ---------------
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    sends=hst.lists(
        hst.tuples(hst.integers(0, 3), hst.sampled_from(["0.25", "0.5", "1", "-2", "0.250"])),
        max_size=30,
    )
)
def test_stored_answers_are_each_students_last_accepted_answer(tmp_path_factory, sends):
    store = Classroom(f"sqlite:///{tmp_path_factory.mktemp('p') / 'c.sqlite3'}")
    room = _numeric_room(store)
    students = [new_student_id() for _ in range(4)]
    expected: dict[int, str] = {}
    changes: dict[int, int] = {}
    for who, value in sends:
        normal = format(float(value), ".12g")
        if who in expected and expected[who] != normal and changes[who] >= MAX_SUBMISSIONS - 1:
            with pytest.raises(ValueError, match="your last answer stands"):
                store.submit(room.code, 1, students[who], "S", value)
            continue
        store.submit(room.code, 1, students[who], "S", value)
        if who in expected and expected[who] != normal:
            changes[who] += 1
        changes.setdefault(who, 0)
        expected[who] = normal
    stored = {k: store.my_answer(room.code, 1, s) for k, s in enumerate(students)}
    assert {k: v for k, v in stored.items() if v is not None} == expected
    assert _rows(store) == len(expected)
    store.dispose()


# the database setting ----------------------------------------------------------------
def test_the_database_is_sqlite_in_the_data_directory_by_default(tmp_path):
    folder = tmp_path / "lab-data"
    url = database_url({"CUBE_LAB_DATA": str(folder)})
    assert url == f"sqlite:///{folder / 'classroom.sqlite3'}" and folder.is_dir()


def test_a_postgresql_url_uses_psycopg_3():
    environ = {"CUBE_LAB_DATABASE_URL": "postgresql://lab@db:5432/cube"}
    assert database_url(environ) == "postgresql+psycopg://lab@db:5432/cube"
    environ = {"CUBE_LAB_DATABASE_URL": "postgres://lab@db/cube"}
    assert database_url(environ) == "postgresql+psycopg://lab@db/cube"


def test_the_tests_really_ran_on_postgresql(postgres_url):
    engine = sa.create_engine(postgres_url)
    with engine.connect() as db:
        assert "PostgreSQL" in db.execute(sa.text("SELECT version()")).scalar_one()
    engine.dispose()


# people: one identity per student and room, the presenter's reload (issue #37) --------
def test_a_student_who_joins_again_is_one_student_with_one_answer(database, clock):
    """Issue #37 item 3: a reload (here: another app process) and a re-join under the
    same name is the same student; the teacher counts 3 answers from 3 students."""
    one, two = Classroom(database, clock=clock), Classroom(database, clock=clock)
    room = _choice_room(one)
    ann, bo, cy = new_student_id(), new_student_id(), new_student_id()
    one.join(room.code, ann, "Ann")
    one.submit(room.code, 1, ann, "Ann", "Take")
    two.join(room.code, ann, "Ann")  # the reload reached the other process
    two.submit(room.code, 1, ann, "Ann", "Take")
    for token, name, value in ((bo, "Bo", "Pass"), (cy, "Cy", "Take")):
        two.join(room.code, token, name)
        two.submit(room.code, 1, token, name, value)
    assert [s.nickname for s in one.students(room.code, room.secret)] == ["Ann", "Bo", "Cy"]
    tally = one.tally(room.code, room.secret, 1)
    assert tally.count == 3
    assert one.joined(room.code, ann) == "Ann" and two.joined(room.code, new_student_id()) is None
    one.dispose()
    two.dispose()


def test_the_presenter_who_opened_a_room_is_its_presenter_after_a_reload(database, clock):
    """Issue #37 item 4: the visitor's token resumes the room on any process."""
    one, two = Classroom(database, clock=clock), Classroom(database, clock=clock)
    me, stranger = new_student_id(), new_student_id()
    room = one.open_room(me)
    assert two.owns(room.code, me) and not two.owns(room.code, stranger)
    assert not two.owns("ABCDEFGHJ", me) and not two.owns(room.code, "not a token")
    two.ask(room.code, me, kind="numeric", prompt="Pips?", answer_key="8")
    assert two.presenter_room(room.code, me).questions == 1
    with pytest.raises(ValueError, match="presenter key does not match"):
        two.presenter_room(room.code, stranger)
    assert room.secret not in str(two.presenter_room(room.code, room.secret))
    fresh = two.new_key(room.code, me)  # the old key stops working, the owner stays
    with pytest.raises(ValueError, match="presenter key does not match"):
        one.tally(room.code, room.secret, 1)
    assert one.tally(room.code, fresh, 1).count == one.tally(room.code, me, 1).count == 0
    one.dispose()
    two.dispose()


def test_the_presenter_removes_a_student(classroom):
    room = _choice_room(classroom)
    ann, bo = new_student_id(), new_student_id()
    for token, name in ((ann, "Ann"), (bo, "Bo")):
        classroom.join(room.code, token, name)
        classroom.submit(room.code, 1, token, name, "Take")
    first = classroom.students(room.code, room.secret)[0]
    assert (first.nickname, first.answers) == ("Ann", 1)
    classroom.remove_student(room.code, room.secret, first.number)
    assert [s.nickname for s in classroom.students(room.code, room.secret)] == ["Bo"]
    assert classroom.tally(room.code, room.secret, 1).count == 1
    with pytest.raises(ValueError, match=f"The presenter has removed you from room {room.code}"):
        classroom.join(room.code, ann, "Ann again")
    with pytest.raises(ValueError, match="The presenter has removed you"):
        classroom.submit(room.code, 1, ann, "Ann", "Pass")
    assert classroom.joined(room.code, ann) is None
    with pytest.raises(ValueError, match="That student is not in this room"):
        classroom.remove_student(room.code, room.secret, 10_000)


# per-client limits (issue #38 items 3 and 4) -------------------------------------------
def test_joins_are_limited_per_client_address_across_processes(database, clock):
    one, two = Classroom(database, clock=clock), Classroom(database, clock=clock)
    room = _choice_room(one)
    for k in range(CLIENT_JOINS.count):
        (one, two)[k % 2].join(room.code, new_student_id(), f"s{k}", client="203.0.113.7")
    with pytest.raises(ValueError, match="Too many students have joined from your network") as e:
        two.join(room.code, new_student_id(), "one more", client="203.0.113.7")
    assert "try again in 60 minutes" in str(e.value)
    one.join(room.code, new_student_id(), "elsewhere", client="198.51.100.1")  # another address
    known = one.students(room.code, room.secret)[0]
    assert known.nickname == "s0"
    clock.advance(CLIENT_JOINS.window)
    two.join(room.code, new_student_id(), "later", client="203.0.113.7")
    one.dispose()
    two.dispose()


def test_a_room_takes_a_bounded_number_of_students(classroom):
    room = _choice_room(classroom)
    with classroom.engine.begin() as db:  # the room filled as joins would
        room_id = db.execute(sa.select(rooms.c.id)).scalar_one()
        db.execute(
            students.insert(),
            [
                {
                    "room_id": room_id,
                    "token": new_student_id(),
                    "nickname": f"s{k}",
                    "joined_at": datetime(2026, 11, 23, 9, 0),
                }
                for k in range(ROOM_STUDENTS)
            ],
        )
    with pytest.raises(ValueError, match=f"Room {room.code} is full \\(200 students\\)"):
        classroom.join(room.code, new_student_id(), "late")


def test_answers_are_limited_per_client_address(classroom):
    room = _choice_room(classroom)
    with classroom.engine.begin() as db:  # the address's answers of the last minutes
        now = classroom.now()
        db.execute(
            client_events.insert(),
            [{"kind": "answer", "client": "203.0.113.7", "at": now}] * (CLIENT_ANSWERS.count - 1),
        )
    classroom.submit(room.code, 1, new_student_id(), "Ann", "Take", client="203.0.113.7")
    with pytest.raises(ValueError, match="Too many answers have come from your network"):
        classroom.submit(room.code, 1, new_student_id(), "Bo", "Take", client="203.0.113.7")
    classroom.submit(room.code, 1, new_student_id(), "Cy", "Take", client="198.51.100.1")
    assert classroom.tally(room.code, room.secret, 1).count == 2


def test_rooms_are_limited_per_client_address(classroom, clock):
    for _ in range(CLIENT_ROOMS.count):
        classroom.open_room(client="203.0.113.7")
    with pytest.raises(ValueError, match="Too many rooms have been opened from your network"):
        classroom.open_room(client="203.0.113.7")
    classroom.open_room(client="198.51.100.1")
    clock.advance(CLIENT_ROOMS.window)
    classroom.open_room(client="203.0.113.7")


def test_wrong_room_codes_are_limited_per_client_address_across_sessions(database, clock):
    """Issue #38 item 4: the limit was per session (a fresh session reset it)."""
    one, two = Classroom(database, clock=clock), Classroom(database, clock=clock)
    room = one.open_room()
    for k in range(CLIENT_CODE_MISSES.count):
        with pytest.raises(ValueError, match="There is no room"):
            (one, two)[k % 2].join("ABCDEFGHJ", client="203.0.113.7")
    for process in (one, two):  # even the right code, from any process
        with pytest.raises(ValueError, match="Too many wrong room codes have been tried"):
            process.join(room.code, new_student_id(), "Ann", client="203.0.113.7")
    assert one.join(room.code, new_student_id(), "Bo", client="198.51.100.1").code == room.code
    clock.advance(CLIENT_CODE_MISSES.window)
    assert two.join(room.code, new_student_id(), "Ann", client="203.0.113.7").code == room.code
    one.dispose()
    two.dispose()


def test_guessing_an_open_room_within_its_lifetime_is_below_one_in_a_million():
    """The arithmetic of CODE_ALPHABET's docstring, from the constants themselves."""
    from store.classroom import MAX_OPEN_ROOMS

    tries = CLIENT_CODE_MISSES.count * (ROOM_LIFETIME / CLIENT_CODE_MISSES.window)
    assert tries == 480
    assert tries * MAX_OPEN_ROOMS / len(CODE_ALPHABET) ** CODE_LENGTH < 1e-6
    assert tries * MAX_OPEN_ROOMS / len(CODE_ALPHABET) ** (CODE_LENGTH - 1) > 1e-6


def test_expired_rooms_are_purged_a_day_after_they_expire(classroom, clock):
    room = _choice_room(classroom)
    assert RETENTION == timedelta(days=1)
    clock.advance(ROOM_LIFETIME + RETENTION + timedelta(seconds=1))
    classroom.join(classroom.open_room().code, new_student_id(), "Ann")
    with classroom.engine.connect() as db:
        codes = db.execute(sa.select(rooms.c.code)).scalars().all()
    assert room.code not in codes


# the drills' answers by student token (issue #37 item 16) -------------------------------
def test_drill_answers_are_kept_by_token_and_quiz(database, clock):
    one, two = Classroom(database, clock=clock), Classroom(database, clock=clock)
    me = new_student_id()
    one.keep_drill_answer(me, "take_point-L2-n4-s321", 0, "23.5")
    one.keep_drill_answer(me, "take_point-L2-n4-s321", 0, "24")  # a new answer replaces it
    one.keep_drill_answer(me, "take_point-L2-n4-s321", 2, "Take")
    assert two.drill_answers(me, "take_point-L2-n4-s321") == {0: "24", 2: "Take"}
    assert two.drill_answers(me, "take_point-L2-n4-s322") == {}
    assert two.drill_answers(new_student_id(), "take_point-L2-n4-s321") == {}
    assert two.drill_answers("forged", "take_point-L2-n4-s321") == {}
    with pytest.raises(ValueError, match="student id must be 32 hexadecimal digits"):
        one.keep_drill_answer("x", "q", 0, "1")
    with pytest.raises(ValueError, match="The answer is 10000 characters long"):
        one.keep_drill_answer(me, "q", 0, TEN_KB)
    clock.advance(DRILL_RETENTION + timedelta(seconds=1))
    one.purge()
    assert two.drill_answers(me, "take_point-L2-n4-s321") == {}
    one.dispose()
    two.dispose()
