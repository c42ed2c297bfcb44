"""The position answers (store.position_answers) on SQLite and on a real PostgreSQL server:
graded against the stored verdict on the way in, the first answer stands, bad input and
limits refused with nothing stored, the review replays exactly the token's answers (a
fake clock moves time; nothing sleeps)."""

from __future__ import annotations

from datetime import timedelta

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from cubecore import review
from cubecore.position_drills import grade_position, position_question, position_quiz
from store import position_answers as pa
from store.position_answers import PositionAnswers
from store.schema import client_events, metadata, position_answers

ALICE = "a" * 32
BOB = "b" * 32


@pytest.fixture
def book(database, clock):
    b = PositionAnswers(database, clock=clock)
    yield b
    b.dispose()


def _rows(b: PositionAnswers, table: sa.Table = position_answers) -> int:
    with b.engine.connect() as db:
        return db.execute(sa.select(sa.func.count()).select_from(table)).scalar_one()


def _wrong(question) -> str:
    return next(c for c in question.choices if c not in question.accepted)


def test_the_migrated_schema_is_the_metadata(book):
    with book.engine.connect() as db:
        assert compare_metadata(MigrationContext.configure(db), metadata) == []


def test_an_answer_is_graded_against_the_stored_verdict_and_kept_once(book, clock):
    q = position_question("double", "early-start", "money")
    assert q.answer == "No double"  # the stored 3-ply verdict: ND
    result = book.keep(ALICE, "double-L1-n10-s1", 0, q.card, "Double")
    assert not result.correct and result == grade_position(q, "Double")
    assert result.error == pytest.approx(
        q.evaluation.no_double - min(q.evaluation.double_take, q.evaluation.double_pass)
    )
    clock.advance(timedelta(minutes=1))
    # a second answer to the same question of the same quiz changes nothing
    again = book.keep(ALICE, "double-L1-n10-s1", 0, q.card, "No double")
    assert again == result and _rows(book) == 1
    kept = book.quiz_answers(ALICE, "double-L1-n10-s1")
    assert list(kept) == [0] and kept[0].given == "Double" and kept[0].correct is False
    assert kept[0].theme == q.theme and kept[0].card == "double:early-start:money"
    assert book.quiz_answers(BOB, "double-L1-n10-s1") == {}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("x" * 32, "q", 0, "double:early-start:money", "Double"), "hexadecimal"),
        ((ALICE, "", 0, "double:early-start:money", "Double"), "quiz is empty"),
        ((ALICE, "q" * 81, 0, "double:early-start:money", "Double"), "limit is 80"),
        ((ALICE, "q", -1, "double:early-start:money", "Double"), "from 0 to"),
        ((ALICE, "q", True, "double:early-start:money", "Double"), "whole number"),
        ((ALICE, "q", 0, "double:no-such-position:money", "Double"), "position library"),
        ((ALICE, "q", 0, "double:early-start:7-7", "Double"), "position library"),
        ((ALICE, "q", 0, "cube:early-start:money", "Double"), "position library"),
        ((ALICE, "q", 0, "early-start", "Double"), "position library"),
        ((ALICE, "q", 0, "double:early-start:money", "Take"), "one of: Double, No double"),
        ((ALICE, "q", 0, "double:early-start:money", "<b>x</b>" * 9), "limit is 32"),
    ],
)
def test_bad_input_is_refused_and_nothing_is_stored(book, args, message):
    with pytest.raises(ValueError, match=message):
        book.keep(*args)
    assert _rows(book) == 0 and _rows(book, client_events) == 0


def test_the_review_replays_exactly_the_tokens_answers(book, clock):
    quiz = position_quiz("take", seed=11, difficulty=2, count=6)
    for number, q in enumerate(quiz):
        given = q.answer if number % 2 else _wrong(q)
        book.keep(ALICE, "take-L2-n6-s11", number, q.card, given)
        book.keep(BOB, "take-L2-n6-s11", number, q.card, q.answer)  # Bob gets all right
        clock.advance(timedelta(seconds=30))
    wrong = [q.card for number, q in enumerate(quiz) if number % 2 == 0]
    cards = review.cards(book.review_answers(ALICE))
    due = review.due_cards(cards, book.now())
    assert [c.key for c in due] == wrong  # box 1 each, the first missed first
    assert review.cards(book.review_answers(BOB)) == ()
    rates = review.error_rates(book.review_answers(ALICE))
    assert rates["answers"].sum() == 6 and rates["wrong"].sum() == 3


def test_answers_per_token_are_bounded(book, monkeypatch):
    monkeypatch.setattr(pa, "TOKEN_ANSWERS", 3)
    q = position_question("take", "early-start", "money")
    for number in range(3):
        book.keep(ALICE, "q", number, q.card, "Take")
    with pytest.raises(ValueError, match="most the app keeps"):
        book.keep(ALICE, "q", 3, q.card, "Take")
    assert _rows(book) == 3
    book.keep(BOB, "q", 0, q.card, "Take")  # another student is not held back


def test_answers_per_client_are_limited_in_a_window(book, clock, monkeypatch):
    monkeypatch.setattr(
        pa,
        "CLIENT_POSITION_ANSWERS",
        pa.Limit("position", 2, timedelta(minutes=10), "wait {minutes}"),
    )
    q = position_question("take", "early-start", "money")
    book.keep(ALICE, "q", 0, q.card, "Take", client="10.0.0.1")
    book.keep(BOB, "q", 0, q.card, "Take", client="10.0.0.1")
    with pytest.raises(ValueError, match="wait 10 minutes"):
        book.keep(ALICE, "q", 1, q.card, "Take", client="10.0.0.1")
    assert _rows(book) == 2
    book.keep(ALICE, "q", 1, q.card, "Take", client="10.0.0.2")  # another address
    clock.advance(timedelta(minutes=10, seconds=1))
    book.keep(ALICE, "q", 2, q.card, "Take", client="10.0.0.1")
    assert _rows(book) == 4


def test_old_answers_are_purged(book, clock):
    q = position_question("take", "early-start", "money")
    book.keep(ALICE, "q", 0, q.card, "Take")
    clock.advance(pa.ANSWER_RETENTION + timedelta(days=1))
    book.keep(ALICE, "q", 1, q.card, "Take")
    assert [a.number for a in book.answered(ALICE)] == [1]


def test_a_bad_token_reads_nothing(book):
    assert book.answered("nope") == () and book.quiz_answers(None, "q") == {}
