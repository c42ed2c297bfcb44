"""Position drills (cubecore.position_drills): the library's decisions, graded against the
engine's stored verdict, with the equity an answer gives up."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import hypothesis.strategies as hst
import pytest
from hypothesis import given, settings

from cubecore import library
from cubecore.drills import MARGIN_BANDS, MAX_QUESTIONS
from cubecore.position_drills import (
    ACTION_CHOICES,
    LEVEL,
    POSITION_TOPICS,
    grade_position,
    position_question,
    position_quiz,
    question_of_card,
)

ROOT = Path(__file__).resolve().parents[1]


def askable() -> list[tuple[str, str]]:
    """Every (id, score) where the player on roll may double, from the stored file."""
    return [
        (item.id, score)
        for item in library.library()
        for score in library.SCORES
        if library.evaluation(item.id, score, LEVEL).double_take is not None
        and library.evaluation(item.id, score, LEVEL).verdict != "NA"
    ]


def test_the_keys_are_the_stored_verdicts():
    verdicts = {"No double": "ND", "Double, take": "DT", "Double, pass": "DP"}
    verdicts["Too good to double"] = "TG"
    for key, score in askable():
        e = library.evaluation(key, score, LEVEL)
        double = position_question("double", key, score)
        take = position_question("take", key, score)
        action = position_question("score", key, score)
        assert (double.answer == "Double") == (e.verdict in ("DT", "DP"))
        assert (take.answer == "Pass") == (e.double_pass < e.double_take)
        assert verdicts[action.answer] == e.verdict
        assert double.evaluation == e and action.card == f"score:{key}:{score}"
        assert question_of_card(take.card) == take


def test_a_position_where_the_cube_is_dead_is_not_asked():
    dead = [
        (item.id, score)
        for item in library.library()
        for score in library.SCORES
        if library.evaluation(item.id, score, LEVEL).verdict == "NA"
    ]
    assert dead  # the library has one (2-away/4-away)
    key, score = dead[0]
    with pytest.raises(ValueError, match="`score`: the player on roll cannot double"):
        position_question("double", key, score)


def test_the_error_is_the_equity_given_up_per_cube():
    q = position_question("double", "early-start", "money")
    e = q.evaluation
    assert q.answer == "No double"  # ND +0.1046 against DT -0.1720
    wrong = grade_position(q, "Double")
    assert not wrong.correct
    assert wrong.error == pytest.approx(e.no_double - e.double_take)
    assert wrong.millipoints == pytest.approx(1000 * (0.1046442836523056 + 0.1719985157251358))
    assert "277 millipoints" in wrong.message
    right = grade_position(q, "No double")
    assert right.correct and right.error == 0.0
    take = position_question("take", "early-start", "money")
    assert take.answer == "Take"  # DT -0.172 < DP +1.0
    assert grade_position(take, "Pass").error == pytest.approx(e.double_pass - e.double_take)


def test_the_whole_action_adds_the_doublers_and_the_takers_errors():
    for key, score in askable():
        q = position_question("score", key, score)
        e = q.evaluation
        doubler = abs(e.no_double - min(e.double_take, e.double_pass))
        taker = abs(e.double_take - e.double_pass)
        for answer in ACTION_CHOICES:
            error = grade_position(q, answer).error
            if answer in q.accepted:
                assert error == 0.0
                continue
            doubles = answer in ("Double, take", "Double, pass")
            takes = answer == "Double, take"
            expected = (doubler if doubles != e.doubles else 0.0) + (
                taker if doubles and takes == e.taker_passes else 0.0
            )
            assert error == pytest.approx(expected), (key, score, answer)


def test_an_optional_double_accepts_keeping_the_cube():
    q = position_question("double", "holding-mutual", "3-1")
    assert q.evaluation.action.startswith("Optional")
    assert q.evaluation.no_double == q.evaluation.double_take
    assert grade_position(q, "No double").correct and grade_position(q, "Double").correct
    assert grade_position(q, "No double").error == 0.0


def test_bad_answers_and_arguments_are_named():
    q = position_question("take", "early-start", "money")
    with pytest.raises(ValueError, match="`answer`"):
        grade_position(q, "Double")
    with pytest.raises(ValueError, match="`answer`"):
        grade_position(q, 1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="`topic`"):
        position_quiz("cube", 1)
    with pytest.raises(ValueError, match="`seed`"):
        position_quiz("take", -1)
    with pytest.raises(ValueError, match="`difficulty`"):
        position_quiz("take", 1, 4)
    with pytest.raises(ValueError, match="`count`"):
        position_quiz("take", 1, 1, MAX_QUESTIONS + 1)
    with pytest.raises(ValueError, match="`position_key`"):
        position_quiz("score", 1, position_key="no-such-position")
    with pytest.raises(ValueError, match="`score`"):
        position_question("take", "early-start", "7-7")
    with pytest.raises(ValueError, match="`card`"):
        question_of_card("early-start")


def test_the_score_topic_asks_a_position_at_each_of_its_scores_in_turn():
    quiz = position_quiz("score", seed=4, difficulty=2, count=MAX_QUESTIONS)
    runs: list[tuple[str, list[str]]] = []
    for q in quiz:
        if not runs or runs[-1][0] != q.position_key:
            runs.append((q.position_key, []))
        runs[-1][1].append(q.score)
    assert len({key for key, _ in runs}) == len(runs)  # a position once, its scores together
    for key, scores in runs[:-1]:
        assert scores == [s for k, s in askable() if k == key]  # every score, in order
    one = position_quiz("score", seed=4, count=MAX_QUESTIONS, position_key="early-start")
    assert [q.score for q in one] == [s for k, s in askable() if k == "early-start"]


def _quiz_cards(topic: str, seed: int, level: int, count: int) -> list[str]:
    return [q.card for q in position_quiz(topic, seed, level, count)]


def test_a_seeded_quiz_is_the_same_in_another_process():
    here = {
        topic: _quiz_cards(topic, 2026, level, 12)
        for topic, level in (("double", 1), ("take", 2), ("score", 3))
    }
    code = (
        "import json; from cubecore.position_drills import position_quiz as q; "
        "print(json.dumps({t: [x.card for x in q(t, 2026, l, 12)] "
        "for t, l in (('double', 1), ('take', 2), ('score', 3))}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == here
    assert _quiz_cards("take", 2027, 2, 12) != here["take"]


@settings(max_examples=60, deadline=None)
@given(
    hst.sampled_from(tuple(POSITION_TOPICS)),
    hst.integers(0, 2**32 - 1),
    hst.integers(1, 3),
    hst.integers(1, MAX_QUESTIONS),
)
def test_property_a_quiz_is_seeded_distinct_and_in_its_band_first(topic, seed, level, count):
    quiz = position_quiz(topic, seed, level, count)
    assert quiz == position_quiz(topic, seed, level, count)
    assert len(quiz) == count  # the library has far more than 50 decisions
    cards = [q.card for q in quiz]
    assert len(set(cards)) == len(cards)
    low, high = MARGIN_BANDS[level]
    if topic != "score":
        in_band = [low <= q.margin < high for q in quiz]
        # the band's decisions come first, then the others
        assert in_band == sorted(in_band, reverse=True)
        band_size = sum(low <= position_question(topic, k, s).margin < high for k, s in askable())
        assert sum(in_band) == min(count, band_size)
    for q in quiz:
        assert grade_position(q, q.answer).correct
        assert all(grade_position(q, c).error >= 0.0 for c in q.choices)
