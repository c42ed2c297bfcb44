"""A student's answers to the library's decisions, kept by their identity token.

The drills page keeps every graded answer to a position question
(:mod:`cubecore.position_drills`) under the student's token (the visitor's identity
token of ``ui/student.py``, 32 hexadecimal digits; no account: the token is theirs to
copy to another device), the quiz it was asked in (its link's signature, or a review
session's) and the question's place in it. The store grades the answer itself, against
the engine's stored verdict, on the way in: a caller cannot store a grade. The first
answer to a question of a quiz stands (a reload, a second click or another process
sending it again changes nothing). The spaced review (:mod:`cubecore.review`) replays a
token's answers (:meth:`PositionAnswers.answered`).

Bad input is refused before anything is stored, with a message a player can read: a
token not of 32 hexadecimal digits, a quiz name that is empty or too long, a question
number out of range, an unknown topic, library id or score, an answer that is not one
of the question's choices. Limits: :data:`TOKEN_ANSWERS` answers kept per token,
:data:`CLIENT_POSITION_ANSWERS` per client address in a window (counted in the database,
as the classroom's limits are, so that they hold across sessions and processes).
Answers older than :data:`ANSWER_RETENTION` are deleted (:meth:`PositionAnswers.purge`,
run with every answer kept).

No streamlit here: the page ``ui/drills`` is a client.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, RowMapping

from cubecore import review
from cubecore.position_drills import PositionGrade, grade_position, question_of_card
from store.classroom import (
    Limit,
    _text,
    _token,
    database_url,
    limit_client,
    open_database,
)
from store.schema import (
    ANSWER_CHARS,
    CARD_CHARS,
    DRILL_QUIZ_CHARS,
    position_answers,
)

__all__ = [
    "ANSWER_RETENTION",
    "CLIENT_POSITION_ANSWERS",
    "MAX_NUMBER",
    "TOKEN_ANSWERS",
    "KeptAnswer",
    "PositionAnswers",
]

#: Answers kept per token: 50 a day for 100 days. The review replays at most this many.
TOKEN_ANSWERS = 5_000
#: Answers per client address: a class of 60 behind one school address, each answering a
#: quiz of 10 in 10 minutes.
CLIENT_POSITION_ANSWERS = Limit(
    "position",
    600,
    timedelta(minutes=10),
    "Too many answers have come from your network in the last few minutes: "
    "send yours again in {minutes}.",
)
#: How long an answer is kept: a school year and a summer.
ANSWER_RETENTION = timedelta(days=400)
#: Question numbers of a quiz (0-based); a review session is numbered past a quiz's 50.
MAX_NUMBER = 10_000

Clock = Callable[[], datetime]


def _utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class KeptAnswer:
    """One kept answer: the question's place in its quiz, the decision and the grade."""

    quiz: str
    number: int
    card: str
    theme: str
    given: str
    correct: bool
    error: float
    answered_at: datetime


class PositionAnswers:
    """The position answers of the app's store on one database.

    Parameters
    ----------
    url : str, optional
        SQLAlchemy database URL; :func:`store.classroom.database_url` when not given.
    clock : callable, optional
        Returns the current time (timezone-aware); tests pass a fake clock.

    Every public method opens its own short transaction: one instance may be shared by
    the threads of a server process.
    """

    def __init__(self, url: str | None = None, *, clock: Clock | None = None) -> None:
        self.url = database_url() if url is None else url
        self._clock = clock or _utc_now
        self.engine = open_database(self.url)

    def dispose(self) -> None:
        """Close the connection pool."""
        self.engine.dispose()

    def now(self) -> datetime:
        """The current time as stored (naive UTC)."""
        return self._clock().astimezone(UTC).replace(tzinfo=None)

    def purge(self) -> int:
        """Delete answers older than :data:`ANSWER_RETENTION`; how many were deleted."""
        with self.engine.begin() as db:
            gone = db.execute(
                position_answers.delete().where(
                    position_answers.c.answered_at < self.now() - ANSWER_RETENTION
                )
            )
            return int(gone.rowcount or 0)

    def keep(
        self,
        student_id: object,
        quiz: object,
        number: object,
        card: object,
        given: object,
        *,
        client: str | None = None,
    ) -> PositionGrade:
        """Grade and keep a student's answer to question ``number`` of ``quiz``.

        Parameters
        ----------
        student_id : str
            The student's identity token (32 hexadecimal digits).
        quiz : str
            The quiz the question was asked in (1 to 80 characters).
        number : int
            Its place in the quiz, 0 to :data:`MAX_NUMBER` - 1.
        card : str
            The decision asked (:attr:`cubecore.position_drills.PositionQuestion.card`).
        given : str
            The answer, one of the question's choices.
        client : str, optional
            The client address, for :data:`CLIENT_POSITION_ANSWERS` (None: not limited).

        Returns
        -------
        PositionGrade
            The grade of the answer that stands: this one, or the first answer kept for
            this question of this quiz (a second answer changes nothing).

        Raises
        ------
        ValueError
            Bad input or a limit reached, in players' words; nothing is stored.
        """
        token = _token(student_id)
        name = _text("quiz", quiz, DRILL_QUIZ_CHARS)
        if isinstance(number, bool) or not isinstance(number, int):
            raise ValueError("The question number must be a whole number.")
        if not 0 <= number < MAX_NUMBER:
            raise ValueError(f"The question number must be from 0 to {MAX_NUMBER - 1}.")
        key = _text("position", card, CARD_CHARS)
        try:
            question = question_of_card(key)
        except ValueError:
            raise ValueError(
                "That question is not a decision of the position library (an unknown "
                "position, score or kind of question)."
            ) from None
        answer = _text("answer", given, ANSWER_CHARS)
        if answer not in question.choices:
            raise ValueError(f"The answer must be one of: {', '.join(question.choices)}.")
        result = grade_position(question, answer)
        with self.engine.begin() as db:
            kept = self._kept(db, token, name, number)
            if kept is not None:
                return grade_position(question_of_card(kept.card), kept.given)
            count = db.execute(
                select(func.count())
                .select_from(position_answers)
                .where(position_answers.c.token == token)
            ).scalar_one()
            if count >= TOKEN_ANSWERS:
                raise ValueError(
                    f"You have {TOKEN_ANSWERS:,} answers kept, the most the app keeps for "
                    "one student: they are deleted a year after you gave them."
                )
            now = self.now()
            limit_client(db, CLIENT_POSITION_ANSWERS, client, now)
            dialect = postgresql if db.dialect.name == "postgresql" else sqlite
            insert = dialect.insert(position_answers).values(
                token=token,
                quiz=name,
                number=number,
                card=question.card,
                theme=question.theme,
                given=answer,
                correct=result.correct,
                error=result.error,
                answered_at=now,
            )
            # two processes sending the same first answer: one row, the first stands
            db.execute(insert.on_conflict_do_nothing())
            kept = self._kept(db, token, name, number)
        self.purge()
        assert kept is not None
        return grade_position(question_of_card(kept.card), kept.given)

    @staticmethod
    def _kept(db: Connection, token: str, quiz: str, number: int) -> KeptAnswer | None:
        row = (
            db.execute(
                select(position_answers).where(
                    (position_answers.c.token == token)
                    & (position_answers.c.quiz == quiz)
                    & (position_answers.c.number == number)
                )
            )
            .mappings()
            .first()
        )
        return None if row is None else _answer(row)

    def quiz_answers(self, student_id: object, quiz: object) -> dict[int, KeptAnswer]:
        """The student's kept answers to ``quiz``: question number -> answer.

        A token or quiz name of the wrong form has no answers (nothing is read).
        """
        try:
            token = _token(student_id)
            name = _text("quiz", quiz, DRILL_QUIZ_CHARS)
        except (TypeError, ValueError):
            return {}
        with self.engine.begin() as db:
            rows = (
                db.execute(
                    select(position_answers).where(
                        (position_answers.c.token == token) & (position_answers.c.quiz == name)
                    )
                )
                .mappings()
                .all()
            )
        return {int(row["number"]): _answer(row) for row in rows}

    def answered(self, student_id: object) -> tuple[KeptAnswer, ...]:
        """Every kept answer of the student, the oldest first (at most
        :data:`TOKEN_ANSWERS`); none for a token of the wrong form."""
        try:
            token = _token(student_id)
        except (TypeError, ValueError):
            return ()
        with self.engine.begin() as db:
            rows = (
                db.execute(
                    select(position_answers)
                    .where(position_answers.c.token == token)
                    .order_by(position_answers.c.answered_at, position_answers.c.id)
                    .limit(TOKEN_ANSWERS)
                )
                .mappings()
                .all()
            )
        return tuple(_answer(row) for row in rows)

    def review_answers(self, student_id: object) -> tuple[review.Answered, ...]:
        """The student's answers as the review scheduler takes them
        (:func:`cubecore.review.cards`), times naive UTC."""
        return tuple(
            review.Answered(kept.card, kept.correct, kept.answered_at, kept.theme)
            for kept in self.answered(student_id)
        )


def _answer(row: RowMapping) -> KeptAnswer:
    at = row["answered_at"]
    assert isinstance(at, datetime)
    return KeptAnswer(
        quiz=str(row["quiz"]),
        number=int(str(row["number"])),
        card=str(row["card"]),
        theme=str(row["theme"]),
        given=str(row["given"]),
        correct=bool(row["correct"]),
        error=float(str(row["error"])),
        answered_at=at,
    )
