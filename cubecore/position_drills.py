"""Position drills: real cube decisions from the library, graded against the engine.

Three topics draw their questions from the reference library
(:mod:`cubecore.library`) and its stored engine evaluations at :data:`LEVEL`:

- ``double``, "Double or not?": the player on roll's choice alone, answered "Double"
  or "No double". The verdict doubles when it is ``DT`` or ``DP``
  (:attr:`cubecore.library.StoredEvaluation.doubles`); a too-good position is "No double".
- ``take``, "Take or pass?": the opponent's answer to a double, "Take" or "Pass"
  (:attr:`~cubecore.library.StoredEvaluation.taker_passes`: pass when ``DP < DT``),
  asked whether or not the double was right.
- ``score``, "Cube action at this score": the whole cube action, one of
  :data:`ACTION_CHOICES`, asked for the same position at each stored score where the
  player on roll may double, one after the other, so that the student sees the score
  change the answer.

A question is a library position (its id) at a score (a key of
:data:`cubecore.library.SCORES`) asked one way; the key of the decision
(:attr:`PositionQuestion.card`) names it in the student's review
(:mod:`cubecore.review`). Positions where the player on roll cannot double are never
asked.

The error of an answer is the equity it gives up against the engine's best answer, per
unit of the current cube, from the stored equities (money equity, or normalised match
equity, EMG, at a score), shown in millipoints (equity x 1000), gnubg's unit for a
mistake [GNUBG]_. With ``ND``, ``DT``, ``DP`` the stored equities of the player on roll:

- the doubler's part: doubling is worth ``min(DT, DP)`` (the opponent answers well)
  and keeping the cube ``ND``; a wrong choice gives up ``|ND - min(DT, DP)|``;
- the taker's part: taking leaves the doubler ``DT``, passing ``DP``; a wrong choice
  gives the doubler ``|DT - DP|`` more;
- the whole cube action (``score``) names both parts ("Double, pass": double, and the
  opponent should pass; "No double": keep it, the opponent would take; "Too good to
  double": keep it, the opponent would pass). Its error is the doubler's part when the
  answer's double is wrong, plus the taker's part when the answer doubles and its take
  or pass is wrong; the engine's own verdict costs nothing.

A quiz (:func:`position_quiz`) is drawn from one seed with a numpy ``Generator``
stream, so the same topic, level, count and seed give the same positions in every
session and process. Difficulty orders the positions by the margin of the decision
asked, in equity per cube (:data:`cubecore.drills.MARGIN_BANDS`: level 1 at least 0.10,
level 2 in [0.03, 0.10), level 3 below 0.03): the positions in the level's band come
first, in the seed's order, then the others nearest the band first.

References
----------
.. [GNUBG] GNU Backgammon 1.07 manual, "Analysis": errors in millipoints,
   https://www.gnu.org/software/gnubg/manual/
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from cubecore import library
from cubecore._validate import choice, whole_number
from cubecore.drills import DIFFICULTIES, MARGIN_BANDS, MAX_QUESTIONS, MAX_SEED
from cubecore.library import SCORES, LibraryPosition, StoredEvaluation

__all__ = [
    "ACTION_CHOICES",
    "DOUBLE_CHOICES",
    "LEVEL",
    "POSITION_TOPICS",
    "TAKE_CHOICES",
    "PositionGrade",
    "PositionQuestion",
    "grade_position",
    "position_question",
    "position_quiz",
    "question_of_card",
]

#: The stored level the questions are graded against.
LEVEL = "3-ply"
#: The position topics: id -> title.
POSITION_TOPICS: Mapping[str, str] = MappingProxyType(
    {
        "double": "Double or not?",
        "take": "Take or pass?",
        "score": "Cube action at this score",
    }
)
DOUBLE_CHOICES = ("Double", "No double")
TAKE_CHOICES = ("Take", "Pass")
#: The whole cube action (``score`` topic), by verdict.
_ACTION_OF = MappingProxyType(
    {"ND": "No double", "DT": "Double, take", "DP": "Double, pass", "TG": "Too good to double"}
)
ACTION_CHOICES = tuple(_ACTION_OF.values())
_VERDICT_OF = MappingProxyType({text: verdict for verdict, text in _ACTION_OF.items()})
#: Does an action double, and does the opponent take in it.
_DOUBLES = MappingProxyType({"ND": False, "DT": True, "DP": True, "TG": False})
_TAKES = MappingProxyType({"ND": True, "DT": True, "DP": False, "TG": False})
_MILLI = 1000.0


@dataclass(frozen=True)
class PositionQuestion:
    """One decision of a library position at a score, asked one way.

    Attributes
    ----------
    topic : str
        A key of :data:`POSITION_TOPICS`.
    position_key : str
        The library id.
    score : str
        A key of :data:`cubecore.library.SCORES`.
    position : LibraryPosition
    evaluation : StoredEvaluation
        The engine's stored evaluation at :data:`LEVEL`.
    prompt : str
        The question in players' words (the board is shown beside it).
    choices : tuple of str
    answer : str
        The engine's answer, one of ``choices``.
    accepted : tuple of str
        The answers graded right: the engine's, and where the engine finds the double
        optional (its action "Optional double, take": ``ND == DT``, as post-Crawford for
        the trailer) keeping the cube too.
    """

    topic: str
    position_key: str
    score: str
    position: LibraryPosition
    evaluation: StoredEvaluation
    prompt: str
    choices: tuple[str, ...]
    answer: str
    accepted: tuple[str, ...]

    @property
    def card(self) -> str:
        """The decision's key in a student's review: ``topic:id:score``."""
        return f"{self.topic}:{self.position_key}:{self.score}"

    @property
    def theme(self) -> str:
        """The position's theme (:data:`cubecore.library.THEMES`)."""
        return self.position.theme

    @property
    def margin(self) -> float:
        """How close the decision asked is, in equity per cube (module notes)."""
        return _margin(self.topic, self.evaluation)


@dataclass(frozen=True)
class PositionGrade:
    """The grade of one answer to a :class:`PositionQuestion`.

    Attributes
    ----------
    correct : bool
        The answer is the engine's.
    given, answer : str
        The answer given and the engine's.
    error : float
        Equity given up per cube (0 when correct; module notes), at least 0.
    message : str
        The verdict in players' words, with the error in millipoints.
    """

    correct: bool
    given: str
    answer: str
    error: float
    message: str

    @property
    def millipoints(self) -> float:
        """The error in millipoints (equity x 1000)."""
        return _MILLI * self.error


def _margin(topic: str, e: StoredEvaluation) -> float:
    """How close the decision ``topic`` asks is: the doubler's, the taker's or both."""
    margin = {"double": e.doubler_margin, "take": e.taker_margin}.get(topic, e.margin)
    assert margin is not None  # asked only where the player on roll can double
    return margin


def _askable(e: StoredEvaluation) -> bool:
    return e.verdict != "NA" and e.double_take is not None and e.double_pass is not None


def _cube_text(item: LibraryPosition, who: str) -> str:
    if item.owner == "center":
        return "the cube is centred"
    owns = "own" if who == "you" else "owns"
    return f"{who} {owns} the cube at {item.cube}"


def _score_text(score: str, who: str) -> str:
    s = SCORES[score]
    if s.money:
        return "Money game (no Jacoby rule, no beavers)"
    assert s.away is not None and s.opp_away is not None
    tail = ", post-Crawford" if min(s.away, s.opp_away) == 1 and not s.crawford else ""
    other = "your opponent" if who == "you" else "his opponent"
    verb = "are" if who == "you" else "is"
    return f"Match play, {who} {verb} {s.away}-away, {other} {s.opp_away}-away{tail}"


def position_question(topic: str, position_key: str, score: str) -> PositionQuestion:
    """The question of one library position at one score, asked as ``topic`` asks.

    Parameters
    ----------
    topic : str
        A key of :data:`POSITION_TOPICS`.
    position_key : str
        A library id (:func:`cubecore.library.library`).
    score : str
        A key of :data:`cubecore.library.SCORES`.

    Raises
    ------
    ValueError
        Naming the parameter: an unknown topic, id or score, or a position where the
        player on roll cannot double at that score (nothing to ask).

    Examples
    --------
    >>> q = position_question("double", "early-start", "money")
    >>> q.answer, q.choices
    ('No double', ('Double', 'No double'))
    """
    choice("topic", topic, POSITION_TOPICS)
    item = library.library_position(position_key)
    e = library.evaluation(position_key, score, LEVEL)
    if not _askable(e):
        raise ValueError(f"`score`: the player on roll cannot double {position_key!r} at {score!r}")
    choices: tuple[str, ...]
    if topic == "take":
        who = "the player on roll"
        prompt = (
            f"{_score_text(score, who)}, {_cube_text(item, who)}. "
            f"The player on roll doubles to {2 * item.cube}: should his opponent take or pass?"
        )
        choices, answer = TAKE_CHOICES, TAKE_CHOICES[1 if e.taker_passes else 0]
    else:
        where = f"{_score_text(score, 'you')}, {_cube_text(item, 'you')}. You are on roll"
        if topic == "double":
            prompt = f"{where}, before your roll: double or not?"
            choices, answer = DOUBLE_CHOICES, DOUBLE_CHOICES[0 if e.doubles else 1]
        else:
            prompt = f"{where}, before your roll: what is the cube action?"
            choices, answer = ACTION_CHOICES, _ACTION_OF[e.verdict]
    accepted: tuple[str, ...] = (answer,)
    if e.action.startswith("Optional") and topic != "take":
        accepted += (DOUBLE_CHOICES[1] if topic == "double" else _ACTION_OF["ND"],)
    return PositionQuestion(topic, position_key, score, item, e, prompt, choices, answer, accepted)


def _error(question: PositionQuestion, given: str) -> float:
    """Equity per cube given up by ``given`` against the engine's answer (module notes)."""
    if given in question.accepted:
        return 0.0
    e = question.evaluation
    doubler, taker = e.doubler_margin, e.taker_margin
    assert doubler is not None and taker is not None  # an askable position's
    if question.topic == "double":
        return doubler
    if question.topic == "take":
        return taker
    verdict = _VERDICT_OF[given]
    error = doubler if _DOUBLES[verdict] != e.doubles else 0.0
    if _DOUBLES[verdict] and _TAKES[verdict] == bool(e.taker_passes):
        error += taker
    return error


def grade_position(question: PositionQuestion, answer: str) -> PositionGrade:
    """Grade an answer against the engine's stored verdict, with the equity it gives up.

    Right when it is the engine's answer (or, for an optional double, keeping the cube:
    :attr:`PositionQuestion.accepted`); the error is the module's.

    Parameters
    ----------
    question : PositionQuestion
    answer : str
        One of ``question.choices``.

    Returns
    -------
    PositionGrade

    Raises
    ------
    ValueError
        ``answer`` is not one of the choices.

    Examples
    --------
    >>> q = position_question("double", "early-start", "money")
    >>> g = grade_position(q, "Double")
    >>> g.correct, round(g.millipoints)
    (False, 277)
    """
    if not isinstance(question, PositionQuestion):
        raise TypeError(f"`question` must be a PositionQuestion (got {type(question).__name__})")
    if not isinstance(answer, str):
        raise ValueError(f"`answer` must be one of {', '.join(question.choices)}")
    given = choice("answer", answer, question.choices)
    correct = given in question.accepted
    error = _error(question, given)
    if correct and len(question.accepted) > 1:
        message = (
            f"Right: the engine finds the double optional here ({question.answer} and "
            f"{question.accepted[1]} are worth the same)."
        )
    elif correct:
        message = f"Right: {question.answer} is the engine's answer."
    else:
        message = (
            f"Not the engine's answer: it says {question.answer}. "
            f"Yours gives up {_MILLI * error:.0f} millipoints "
            f"({error:.3f} per cube)."
        )
    return PositionGrade(correct, given, question.answer, error, message)


def _pool(topic: str, position_key: str | None) -> list[tuple[str, str]]:
    """Every (id, score) the topic may ask, in the library's and SCORES' order."""
    items = library.library() if position_key is None else (
        library.library_position(position_key),
    )  # fmt: skip
    return [
        (item.id, score)
        for item in items
        for score in SCORES
        if _askable(library.evaluation(item.id, score, LEVEL))
    ]


def _distance(margin: float, difficulty: int) -> float:
    low, high = MARGIN_BANDS[difficulty]
    if low <= margin < high:
        return 0.0
    return low - margin if margin < low else margin - high


def _ordered(
    rng: np.random.Generator, keys: list[str], margins: list[float], difficulty: int
) -> list[str]:
    """``keys`` in the seed's order, the band's first, then the nearest to the band."""
    shuffled = rng.permutation(len(keys))
    rank = {int(index): place for place, index in enumerate(shuffled)}
    order = sorted(range(len(keys)), key=lambda i: (_distance(margins[i], difficulty), rank[i]))
    return [keys[i] for i in order]


def position_quiz(
    topic: str,
    seed: int,
    difficulty: int = 1,
    count: int = 10,
    position_key: str | None = None,
) -> tuple[PositionQuestion, ...]:
    """A deterministic quiz of library decisions: ``count`` questions of ``topic``.

    The positions come from one ``numpy.random.default_rng((seed, difficulty, topic
    index, 1))`` stream over the library in its file's order, so the same arguments
    give the same quiz in every session and process. ``double`` and ``take`` ask
    decisions (a position at a score) with no repeat; ``score`` asks a position at each
    of its scores in turn, then the next position. A quiz longer than the decisions
    there are ends with the last (one position has at most six).

    Parameters
    ----------
    topic : str
        A key of :data:`POSITION_TOPICS`.
    seed : int
        Whole number in ``[0, MAX_SEED]``.
    difficulty : int
        1, 2 or 3 (module notes).
    count : int
        1 .. :data:`cubecore.drills.MAX_QUESTIONS`.
    position_key : str, optional
        Ask this library position only (at each of its scores).

    Returns
    -------
    tuple of PositionQuestion

    Raises
    ------
    ValueError
        Naming the argument: an unknown topic or library id, a seed, level or count out
        of range.

    Examples
    --------
    >>> a = position_quiz("take", seed=3, count=4)
    >>> len(a), a == position_quiz("take", seed=3, count=4)
    (4, True)
    """
    choice("topic", topic, POSITION_TOPICS)
    seed = whole_number("seed", seed, 0, MAX_SEED)
    difficulty = whole_number("difficulty", difficulty, 1, len(DIFFICULTIES))
    count = whole_number("count", count, 1, MAX_QUESTIONS)
    if position_key is not None:
        library.library_position(position_key)  # ValueError naming position_key
    pool = _pool(topic, position_key)
    rng = np.random.default_rng((seed, difficulty, list(POSITION_TOPICS).index(topic), 1))
    if topic == "score":
        by_position: dict[str, list[str]] = {}
        for key, score in pool:
            by_position.setdefault(key, []).append(score)
        keys = list(by_position)
        margins = [
            min(_margin(topic, library.evaluation(key, s, LEVEL)) for s in by_position[key])
            for key in keys
        ]
        decisions = [
            (key, score)
            for key in _ordered(rng, keys, margins, difficulty)
            for score in by_position[key]
        ]
    else:
        names = [f"{key}:{score}" for key, score in pool]
        margins = [_margin(topic, library.evaluation(key, s, LEVEL)) for key, s in pool]
        decisions = [
            (name.split(":")[0], name.split(":")[1])
            for name in _ordered(rng, names, margins, difficulty)
        ]
    chosen = decisions[:count]
    return tuple(position_question(topic, key, score) for key, score in chosen)


def question_of_card(card: str) -> PositionQuestion:
    """The question a review card names (:attr:`PositionQuestion.card`).

    Raises
    ------
    ValueError
        ``card`` is not ``topic:id:score`` of a known topic, id and score.
    """
    if not isinstance(card, str) or card.count(":") != 2:
        raise ValueError(f"`card` must be topic:id:score (got {card!r})")
    topic, key, score = card.split(":")
    return position_question(topic, key, score)
