"""Leitner's boxes (cubecore.review): the rules stated in the module, on a fake clock.

Times are moved by hand from a fixed start (tests.databases.FakeClock); nothing sleeps.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import hypothesis.strategies as hst
import pytest
from hypothesis import given, settings

from cubecore import review
from cubecore.review import BOXES, INTERVALS, Answered, cards, due_cards, upcoming_cards
from tests.databases import FakeClock

DAY = timedelta(days=1)


def answer(clock: FakeClock, key: str, correct: bool, theme: str = "race") -> Answered:
    return Answered(key, correct, clock(), theme)


def test_a_card_enters_at_its_first_miss_and_climbs_the_boxes():
    clock = FakeClock()
    log = [answer(clock, "a", True)]  # right before any miss: not a card
    assert cards(log) == ()
    clock.advance(timedelta(minutes=5))
    log.append(answer(clock, "a", False))
    (card,) = cards(log)
    assert (card.box, card.due, card.misses, card.answers) == (1, clock(), 1, 1)
    # rule 3: right in box k moves it to k + 1, due 1, 2, 4, 8 days after the answer
    for box, wait in ((2, 1), (3, 2), (4, 4), (5, 8)):
        assert INTERVALS[box] == wait * DAY  # the module's stated rule
        clock.advance(timedelta(hours=1))
        log.append(answer(clock, "a", True))
        (card,) = cards(log)
        assert card.box == box and card.due == clock() + wait * DAY and not card.retired
    clock.advance(DAY)
    log.append(answer(clock, "a", True))  # rule 4: right in the last box retires it
    (card,) = cards(log)
    assert card.retired and card.box == BOXES
    assert due_cards(cards(log), clock() + 365 * DAY) == ()
    clock.advance(DAY)
    log.append(answer(clock, "a", False))  # missed again: back to box 1, due at once
    (card,) = cards(log)
    assert (card.box, card.retired, card.due, card.misses) == (1, False, clock(), 2)


def test_a_miss_in_any_box_sends_the_card_back_to_box_1_due_at_once():
    clock = FakeClock()
    log = [answer(clock, "a", False)]
    for _ in range(3):
        clock.advance(DAY)
        log.append(answer(clock, "a", True))
    assert cards(log)[0].box == 4
    clock.advance(DAY)
    log.append(answer(clock, "a", False))
    (card,) = cards(log)
    assert card.box == 1 and card.due == clock()
    assert due_cards([card], clock()) == (card,)


def test_due_cards_come_lowest_box_first_then_longest_due():
    clock = FakeClock()
    start = clock()
    log = [answer(clock, key, False) for key in ("c", "b", "a")]  # the same instant
    clock.advance(timedelta(minutes=1))
    log.append(answer(clock, "d", False))
    clock.advance(timedelta(minutes=1))
    log.append(answer(clock, "c", True))  # c to box 2, due a day later
    now = clock()
    assert [c.key for c in due_cards(cards(log), now)] == ["a", "b", "d"]  # ties: by key
    assert [c.key for c in upcoming_cards(cards(log), now)] == ["c"]
    later = now + DAY
    # c is due now too but sits in box 2: box 1 first
    assert [c.key for c in due_cards(cards(log), later)] == ["a", "b", "d", "c"]
    assert cards(log)[0].first_missed == start


def test_the_answers_order_in_the_list_does_not_matter():
    clock = FakeClock()
    log = []
    for key, correct in (("a", False), ("b", False), ("a", True), ("b", False), ("a", True)):
        clock.advance(timedelta(hours=3))
        log.append(answer(clock, key, correct))
    assert cards(log) == cards(reversed(log))


def test_error_rates_by_theme():
    clock = FakeClock()
    log = [
        answer(clock, "a", False, "race"),
        answer(clock, "b", True, "race"),
        answer(clock, "c", True, "blitz"),
        answer(clock, "d", False, "prime"),
        answer(clock, "e", False, "prime"),
    ]
    table = review.error_rates(log)
    assert table.to_dict("list") == {
        "theme": ["prime", "race", "blitz"],
        "answers": [2, 2, 1],
        "wrong": [2, 1, 0],
        "error_rate": [1.0, 0.5, 0.0],
    }
    assert list(review.error_rates([]).columns) == ["theme", "answers", "wrong", "error_rate"]


@pytest.mark.parametrize(
    ("log", "message"),
    [
        ([("a", False)], "Answered"),
        ([Answered("", False, datetime(2026, 1, 1))], "non-empty key"),
        ([Answered("a", 1, datetime(2026, 1, 1))], "correct must be a bool"),  # type: ignore[arg-type]
        ([Answered("a", False, "2026-01-01")], "at must be a datetime"),  # type: ignore[arg-type]
        (
            [Answered("a", False, datetime(2026, 1, 1)), Answered("b", False, datetime.now(UTC))],
            "mix naive",
        ),
    ],
)
def test_bad_answers_are_named(log, message):
    with pytest.raises(ValueError, match=message):
        cards(log)


def test_a_bad_now_is_named():
    deck = cards([Answered("a", False, datetime(2026, 1, 1))])
    with pytest.raises(ValueError, match="`now` must be a datetime"):
        due_cards(deck, "today")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="`now` must be naive"):
        due_cards(deck, datetime.now(UTC))


answer_logs = hst.lists(
    hst.tuples(
        hst.sampled_from("abcdef"),
        hst.booleans(),
        hst.integers(0, 60 * 24 * 30),  # minutes after the start
    ),
    max_size=40,
)


def _log(items) -> list[Answered]:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    return [Answered(k, c, start + timedelta(minutes=m), "t") for k, c, m in items]


@settings(max_examples=200, deadline=None)
@given(answer_logs, hst.integers(0, 60 * 24 * 60))
def test_property_the_review_holds_exactly_the_missed_decisions(items, minutes):
    log = _log(items)
    deck = cards(log)
    missed = {a.key for a in log if not a.correct}
    assert {c.key for c in deck} == missed
    now = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=minutes)
    due, waiting = due_cards(deck, now), upcoming_cards(deck, now)
    # every missed decision is due, waiting or learned: exactly once
    assert sorted([c.key for c in due] + [c.key for c in waiting]) == sorted(
        c.key for c in deck if not c.retired
    )
    assert all(1 <= c.box <= BOXES for c in deck)
    orders = [(c.box, c.due, c.first_missed, c.key) for c in due]
    assert orders == sorted(orders)
    for card in deck:
        last = max((a for a in log if a.key == card.key), key=lambda a: a.at)
        assert card.last_answered == last.at
        if not card.retired:
            assert card.due == card.last_answered + INTERVALS[card.box]
        ordered_last = [a for a in log if a.key == card.key and a.at == last.at]
        if not ordered_last[-1].correct:
            assert card.box == 1 and card.due == last.at


@settings(max_examples=100, deadline=None)
@given(answer_logs, hst.integers(0, 60 * 24 * 60), hst.integers(0, 60 * 24 * 60))
def test_property_a_card_due_stays_due_as_time_passes(items, first, second):
    deck = cards(_log(items))
    start = datetime(2026, 1, 1, tzinfo=UTC)
    early, late = sorted((first, second))
    due_early = {c.key for c in due_cards(deck, start + timedelta(minutes=early))}
    due_late = {c.key for c in due_cards(deck, start + timedelta(minutes=late))}
    assert due_early <= due_late
