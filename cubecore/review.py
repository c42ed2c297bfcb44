"""Spaced review of the decisions a student got wrong: Leitner's card boxes.

Every decision a student is asked (a library position at a score, asked one way: double
or not, take or pass, or the whole cube action) is a *card*, named by its key. The
scheduler is Sebastian Leitner's box system [L72]_ with the following rules, applied to
a student's answers in the order they were given (:func:`cards`):

1. A card enters the review at its first wrong answer, in box 1. A decision never
   answered wrong is not a card: right answers before the first miss are not counted.
2. A wrong answer puts the card back in box 1, whatever box it was in, due at once:
   Leitner's missed card returns to the first compartment, which is worked through at
   every session.
3. A right answer in box ``k`` (1 to 4) moves the card to box ``k + 1``, due
   :data:`INTERVALS` ``[k + 1]`` after that answer: 1 day in box 2, 2 days in box 3,
   4 days in box 4, 8 days in box 5 (the wait doubles from box to box).
4. A right answer in box :data:`BOXES` (5) retires the card: it is learned and leaves
   the review (a retired card answered wrong again comes back to box 1, rule 2).

The five boxes and rules 1, 2 and 4 are Leitner's; his compartments are worked
through when they fill up rather than on a calendar, so the waiting times of rule 3 are
this module's choice (each twice the last, the common reading of his growing
compartments), stated here so that a reader can check them.

The cards due at a time ``now`` come in Leitner's order (:func:`due_cards`): the
lowest box first, then the card due longest, then the card missed first, then the key.

Every function takes its times explicitly (no clock is read here), so the schedule of a
list of answers is the same on every machine and a test moves time by hand.

References
----------
.. [L72] S. Leitner, *So lernt man lernen: Angewandte Lernpsychologie, ein Weg zum
   Erfolg*, Freiburg im Breisgau: Herder, 1972 (the "Lernkartei", chapter on the card
   box with five compartments).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Any

import pandas as pd

__all__ = [
    "BOXES",
    "INTERVALS",
    "Answered",
    "Card",
    "cards",
    "due_cards",
    "error_rates",
    "upcoming_cards",
]

#: Number of boxes [L72]_; a right answer in the last one retires the card.
BOXES = 5
#: Wait from an answer until a card in each box is due (rules 2 and 3 of the module).
INTERVALS = MappingProxyType(
    {
        1: timedelta(0),
        2: timedelta(days=1),
        3: timedelta(days=2),
        4: timedelta(days=4),
        5: timedelta(days=8),
    }
)


@dataclass(frozen=True)
class Answered:
    """One graded answer of a student.

    Attributes
    ----------
    key : str
        The card: which decision was asked (a library id, a score and a question kind).
    correct : bool
        Whether the answer was right.
    at : datetime
        When it was given; all the times of one call are either naive or aware.
    theme : str
        The position's theme (for :func:`error_rates`); empty when unknown.
    """

    key: str
    correct: bool
    at: datetime
    theme: str = ""


@dataclass(frozen=True)
class Card:
    """A decision in the review, after the student's answers so far.

    Attributes
    ----------
    key : str
    theme : str
        The theme of its last answer.
    box : int
        1 to :data:`BOXES`.
    due : datetime
        When it is next asked (its last answer plus :data:`INTERVALS` ``[box]``).
    retired : bool
        Answered right in the last box: learned, no longer asked.
    misses, answers : int
        Wrong answers and all answers since its first miss (the first miss included).
    first_missed, last_answered : datetime
    """

    key: str
    theme: str
    box: int
    due: datetime
    retired: bool
    misses: int
    answers: int
    first_missed: datetime
    last_answered: datetime


def _listed(name: str, values: object, kind: type) -> list[Any]:
    """``values`` as a list of ``kind`` records, or a ValueError naming ``name``."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise ValueError(f"`{name}` must be a list of {kind.__name__} records")
    items = list(values)
    for item in items:
        if not isinstance(item, kind):
            raise ValueError(
                f"`{name}` must hold {kind.__name__} records (got {type(item).__name__})"
            )
    return items


def _checked(answers: Iterable[Answered]) -> list[Answered]:
    items: list[Answered] = _listed("answers", answers, Answered)
    for item in items:
        if not isinstance(item.key, str) or not item.key:
            raise ValueError("`answers`: every answer needs a non-empty key")
        if not isinstance(item.correct, bool):
            raise ValueError(f"`answers`: correct must be a bool (got {item.correct!r})")
        if not isinstance(item.at, datetime):
            raise ValueError(f"`answers`: at must be a datetime (got {type(item.at).__name__})")
    if len({item.at.tzinfo is None for item in items}) > 1:
        raise ValueError("`answers`: the times mix naive and timezone-aware datetimes")
    return items


def _check_now(now: datetime, items: Sequence[Card]) -> None:
    if not isinstance(now, datetime):
        raise ValueError(f"`now` must be a datetime (got {type(now).__name__})")
    if items and (items[0].due.tzinfo is None) != (now.tzinfo is None):
        raise ValueError("`now` must be naive or timezone-aware as the answers' times are")


def cards(answers: Iterable[Answered]) -> tuple[Card, ...]:
    """Replay a student's answers through Leitner's boxes: every card and its state.

    The answers are taken in the order of their times (answers at the same time in the
    order given), so the result does not depend on how the caller listed them.

    Parameters
    ----------
    answers : iterable of Answered
        All the student's graded answers (of any decisions).

    Returns
    -------
    tuple of Card
        One per decision answered wrong at least once, retired cards included, in the
        order of their first miss.

    Raises
    ------
    ValueError
        An item that is not an :class:`Answered`, a missing key, a non-bool grade, a time
        that is not a datetime, or naive and aware times mixed.

    Examples
    --------
    >>> t = datetime(2026, 1, 1)
    >>> c = cards([Answered("a", False, t), Answered("a", True, t + timedelta(hours=1))])
    >>> c[0].box, c[0].due - t
    (2, datetime.timedelta(days=1, seconds=3600))
    """
    items = _checked(answers)
    order = sorted(range(len(items)), key=lambda index: (items[index].at, index))
    state: dict[str, Card] = {}
    for index in order:
        item = items[index]
        card = state.get(item.key)
        if card is None:
            if item.correct:
                continue  # rule 1: not a card before its first miss
            state[item.key] = Card(item.key, item.theme, 1, item.at, False, 1, 1, item.at, item.at)
            continue
        if not item.correct:
            box, retired = 1, False  # rule 2 (a retired card missed again comes back)
        elif card.retired or card.box == BOXES:
            box, retired = BOXES, True  # rule 4
        else:
            box, retired = card.box + 1, False  # rule 3
        state[item.key] = Card(
            key=card.key,
            theme=item.theme or card.theme,
            box=box,
            due=item.at + INTERVALS[box],
            retired=retired,
            misses=card.misses + (not item.correct),
            answers=card.answers + 1,
            first_missed=card.first_missed,
            last_answered=item.at,
        )
    return tuple(state.values())


def _leitner_order(card: Card) -> tuple[int, datetime, datetime, str]:
    return (card.box, card.due, card.first_missed, card.key)


def due_cards(items: Iterable[Card], now: datetime) -> tuple[Card, ...]:
    """The cards to ask at ``now``, in Leitner's order.

    A card is due when it is not retired and ``card.due <= now``. Order: the lowest
    box first, then the earliest due time, then the earliest first miss, then the key.

    Parameters
    ----------
    items : iterable of Card
        From :func:`cards`.
    now : datetime
        The time of the review (naive or aware, as the answers' times are).

    Raises
    ------
    ValueError
        ``now`` not a datetime, or naive where the cards' times are aware (or back).

    Examples
    --------
    >>> t = datetime(2026, 1, 1)
    >>> c = cards([Answered("b", False, t), Answered("a", False, t)])
    >>> [card.key for card in due_cards(c, t)]
    ['a', 'b']
    """
    listed: list[Card] = _listed("items", items, Card)
    _check_now(now, listed)
    return tuple(sorted((c for c in listed if not c.retired and c.due <= now), key=_leitner_order))


def upcoming_cards(items: Iterable[Card], now: datetime) -> tuple[Card, ...]:
    """The cards not yet due at ``now`` (not retired), the soonest first.

    Raises
    ------
    ValueError
        As :func:`due_cards`.
    """
    listed: list[Card] = _listed("items", items, Card)
    _check_now(now, listed)
    waiting = (c for c in listed if not c.retired and c.due > now)
    return tuple(sorted(waiting, key=lambda c: (c.due, c.box, c.key)))


def error_rates(answers: Iterable[Answered]) -> pd.DataFrame:
    """A student's error rate by theme: answers, wrong answers and their share.

    Every answer counts (first tries and reviews alike).

    Returns
    -------
    pandas.DataFrame
        Columns ``theme``, ``answers``, ``wrong``, ``error_rate`` (wrong / answers, 0
        to 1), one row per theme answered, the highest error rate first (then the most
        answers, then the theme); empty with those columns when there are no answers.

    Raises
    ------
    ValueError
        As :func:`cards`.

    Examples
    --------
    >>> t = datetime(2026, 1, 1)
    >>> error_rates([Answered("a", False, t, "race"), Answered("b", True, t, "race")])
      theme  answers  wrong  error_rate
    0  race        2      1         0.5
    """
    items = _checked(answers)
    columns = ["theme", "answers", "wrong", "error_rate"]
    if not items:
        return pd.DataFrame({name: pd.Series(dtype=object) for name in columns})
    frame = pd.DataFrame(
        {"theme": [i.theme for i in items], "wrong": [not i.correct for i in items]}
    )
    table = (
        frame.groupby("theme", sort=False)["wrong"]
        .agg(answers="size", wrong="sum")
        .reset_index()
        .astype({"answers": int, "wrong": int})
    )
    table["error_rate"] = table["wrong"] / table["answers"]
    table = table.sort_values(
        ["error_rate", "answers", "theme"], ascending=[False, False, True]
    ).reset_index(drop=True)
    return table[columns]
