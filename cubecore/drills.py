"""Drills: seeded quiz questions whose answers come from the app's own functions.

A :class:`Topic` is one registered entry: an id, a title, ``draw(rng, difficulty)``
(the inputs of one question, drawn with a numpy ``Generator``) and ``pose(inputs)``
(the :class:`Question`: prompt, answer key, tolerance, formula, source and the link
to the page view that explains it). ``pose`` computes the answer key with the same
functions the pages use, so a drill can never teach a number the app does not show:

- ``take_point``: the taker's dead, gammon-adjusted or live take point at a match
  score on a bundled table (:func:`cubecore.match_points.cube_points`);
- ``gammon_value``: the gammon value at a score (:func:`cubecore.match_points.gammon_values`);
- ``cube_action``: the 0-ply cube action from five probabilities, money or match
  (:func:`cubecore.cubeful.money_cube_decision`, :func:`~cubecore.cubeful.match_cube_decision`);
- ``race``: the exact cube action of a small bear-off (:func:`cubecore.bearoff.two_sided`)
  or the Keith count's verdict on a longer race (:func:`cubecore.race_counts.keith_count`);
- ``janowski``: the doubler's action in Janowski's model (:func:`cubecore.janowski.cube_decision`);
- ``raising_point``: a Keeler-Spencer raising point
  (:func:`cubecore.keeler_spencer.raising_points`);
- ``match_equity``: a match winning chance read from a table (:meth:`MatchEquityTable.mwc`).

:func:`quiz` draws ``count`` questions of one topic from one seed (the same seed gives
the same quiz on every machine: numpy's ``default_rng`` streams are stable), and
:func:`grade` grades an answer against the key with the question's stated tolerance.

Difficulty (1-3) widens the range of scores and tables and, for the action topics,
moves the positions closer to a decision boundary: the margin of a decision is the
smaller of ``|min(DT, DP) - ND|`` (double or not) and ``|DT - DP|`` (take or pass),
in equity per cube; level 1 asks for a margin of at least 0.10, level 2 for one in
[0.03, 0.10), level 3 for one below 0.03 (within :data:`MAX_TRIES` draws; after
that the draw nearest to the band is used).

References
----------
.. [GNUBG] GNU Backgammon 1.07 manual, "The market window", "Gammon values",
   https://www.gnu.org/software/gnubg/manual/
.. [KS69] E. Keeler and J. Spencer, "Proper Raising Points in a Generalization of
   Backgammon", RAND Corporation P-4078, 1969, https://www.rand.org/pubs/papers/P4078.html
.. [JR12] "Janowski model revisited", blog post, 28 March 2012.
.. [Kei] T. Keith, "Keith Count", bgonline.org, http://bgonline.org/keith.html
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from types import MappingProxyType
from typing import TypeVar, cast

import numpy as np

from cubecore import bearoff, cubeful, janowski, keeler_spencer, match_points, met
from cubecore._validate import choice, real_number, whole_number
from cubecore.position import Position, position_id
from cubecore.race_counts import RACE_ACTIONS, keith_count
from cubecore.references import REFERENCES

__all__ = [
    "CUBE_ACTIONS",
    "DIFFICULTIES",
    "JANOWSKI_ACTIONS",
    "MARGIN_BANDS",
    "MAX_QUESTIONS",
    "MAX_SEED",
    "MAX_TRIES",
    "TOLERANCE_GAMMON_VALUE",
    "TOLERANCE_MWC",
    "TOLERANCE_PERCENT",
    "TOPICS",
    "Grade",
    "Question",
    "Topic",
    "cube_action_choice",
    "grade",
    "quiz",
]

#: Largest number of questions in one quiz (bounds :func:`quiz`).
MAX_QUESTIONS = 50
#: Seeds are whole numbers in ``[0, MAX_SEED]``.
MAX_SEED = 2**32 - 1
#: Difficulty levels.
DIFFICULTIES = (1, 2, 3)
#: Draws tried per question to meet a difficulty's decision margin (bounds the work).
MAX_TRIES = 400
#: Decision margins (equity per cube) of each difficulty: [low, high).
MARGIN_BANDS = MappingProxyType({1: (0.10, math.inf), 2: (0.03, 0.10), 3: (0.0, 0.03)})
#: Answer choices of the cube-action topic (gnubg's actions, the cube level left out).
CUBE_ACTIONS = ("No double, take", "Double, take", "Double, pass", "Too good, pass")
#: Answer choices of the Janowski topic (:attr:`cubecore.janowski.CubeDecision.doubler_action`).
JANOWSKI_ACTIONS = ("no double", "double/take", "double/pass", "too good")
#: Absolute grading tolerances, in the unit the question asks for.
TOLERANCE_PERCENT = 0.5
TOLERANCE_MWC = 1.0
TOLERANCE_GAMMON_VALUE = 0.05
#: Floating-point slack added to a tolerance (a typed "25.5" against a key of 25.0).
_SLACK = 1e-9

# Score ranges and tables by difficulty.
_MAX_AWAY = MappingProxyType({1: 5, 2: 9, 3: 15})
_TABLES = MappingProxyType(
    {1: ("kxg2",), 2: ("kxg2", "rk", "g11"), 3: ("kxg2", "rk", "g11", "jt", "woolsey", "snowie")}
)
# Gammon-rate presets (gammon-only, backgammon) for the player and the opponent: round
# numbers a quiz can state, the same as gnubg's market-window fixtures use.
_RATES = (
    (0.25, 0.01, 0.2, 0.02),
    (0.3, 0.05, 0.12, 0.0),
    (0.2, 0.0, 0.2, 0.0),
)
_NO_RATES = (0.0, 0.0, 0.0, 0.0)


@dataclass(frozen=True)
class _Asked:
    """What a question asks and its key (the first fields of :class:`Question`)."""

    topic: str
    prompt: str
    inputs: tuple[tuple[str, object], ...]
    kind: str
    answer: float | str
    choices: tuple[str, ...]
    unit: str
    tolerance: float
    grading: str


@dataclass(frozen=True)
class _About:
    """What every question states besides its key: formula, source, link, explanation."""

    formula: str
    source: str
    where: str
    page: str
    section: str
    params: tuple[tuple[str, str], ...]
    explanation: str


@dataclass(frozen=True)
class Question(_About, _Asked):
    """One drill question with its answer key.

    Attributes
    ----------
    topic : str
        The :class:`Topic` id.
    prompt : str
        The question as plain text (no Markdown, no HTML).
    inputs : tuple of (str, object)
        What the question is computed from, by name (``dict(q.inputs)``); ``pose``
        of the topic rebuilds the question from them.
    kind : {"number", "choice"}
    answer : float or str
        The key: a number in ``unit``, or one of ``choices``.
    choices : tuple of str
        The allowed answers of a choice question (empty for a number).
    unit : str
        What a number is in ("percent", "" for a plain number).
    tolerance : float
        A number is correct within ``+-tolerance`` of the key (0 for a choice).
    grading : str
        How the answer is graded, in words.
    formula : str
        LaTeX of the definition the key comes from.
    source : str
        Key of :data:`cubecore.references.REFERENCES`.
    where : str
        Where in the source (section, equation, command).
    page : str
        URL path of the page that explains it.
    section : str
        Id of the page's section (tab) that explains it.
    params : tuple of (str, str)
        Query parameters of that page's view (the section apart).
    explanation : str
        One sentence on how the key follows (the exact numbers).
    """

    # The fields: _Asked's, then _About's (a dataclass takes its bases' fields from the
    # last base first), in the order listed above.

    @property
    def query(self) -> dict[str, str]:
        """The page view's query parameters as a dict."""
        return dict(self.params)

    @property
    def shown_answer(self) -> str:
        """The key as the page shows it."""
        if self.kind == "choice":
            return str(self.answer)
        suffix = "%" if self.unit == "percent" else ""
        return f"{float(self.answer):.2f}{suffix}"


@dataclass(frozen=True)
class Grade:
    """The grade of one answer.

    Attributes
    ----------
    correct : bool
    given : float or str
        The answer as read (a number parsed from text, or the choice).
    error : float or None
        ``given - key`` for a number question.
    message : str
        Plain-text verdict with the key and the tolerance.
    """

    correct: bool
    given: float | str
    error: float | None
    message: str


Inputs = dict[str, object]


@dataclass(frozen=True)
class Topic:
    """A drill topic: one registered entry.

    Attributes
    ----------
    id : str
        Stable id (the page's ``topic`` value).
    title : str
        What the page lists.
    draw : callable
        ``draw(rng, difficulty) -> inputs`` (a dict of plain values).
    pose : callable
        ``pose(inputs) -> Question``: the key from the app's own functions.
    """

    id: str
    title: str
    draw: Callable[[np.random.Generator, int], Inputs]
    pose: Callable[[Mapping[str, object]], Question]

    def make(self, rng: np.random.Generator, difficulty: int) -> Question:
        """One question drawn with ``rng`` at ``difficulty``."""
        return self.pose(self.draw(rng, difficulty))


# ----------------------------------------------------------------------------------
# Shared helpers
# ----------------------------------------------------------------------------------
def _int(inputs: Mapping[str, object], key: str) -> int:
    value = inputs[key]
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"`{key}` must be a whole number (got {value!r})")
    return int(value)


def _number(key: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"`{key}` must be a real number (got {value!r})")
    return float(value)


def _float(inputs: Mapping[str, object], key: str) -> float:
    return _number(key, inputs[key])


def _floats(inputs: Mapping[str, object], key: str) -> tuple[float, ...]:
    value = inputs[key]
    if not isinstance(value, (tuple, list)):
        raise ValueError(f"`{key}` must be a tuple of numbers (got {value!r})")
    return tuple(_number(key, item) for item in value)


def _ints(inputs: Mapping[str, object], key: str) -> tuple[int, ...]:
    numbers = _floats(inputs, key)
    if not all(number.is_integer() for number in numbers):
        raise ValueError(f"`{key}` must be a tuple of whole numbers (got {numbers!r})")
    return tuple(int(number) for number in numbers)


_T = TypeVar("_T")


def _pick(rng: np.random.Generator, options: tuple[_T, ...]) -> _T:
    return options[int(rng.integers(len(options)))]


def _percent(value: float) -> float:
    return 100.0 * float(value)


def _number_question(
    topic: str,
    prompt: str,
    inputs: Mapping[str, object],
    answer: float,
    about: _About,
    *,
    unit: str = "percent",
    tolerance: float = TOLERANCE_PERCENT,
) -> Question:
    shown = f"{tolerance:g} percentage points" if unit == "percent" else f"{tolerance:g}"
    return Question(
        topic=topic,
        prompt=prompt,
        inputs=tuple(inputs.items()),
        kind="number",
        answer=float(answer),
        choices=(),
        unit=unit,
        tolerance=tolerance,
        grading=f"correct within +-{shown} of the exact value",
        **asdict(about),
    )


def _choice_question(
    topic: str,
    prompt: str,
    inputs: Mapping[str, object],
    answer: str,
    choices: tuple[str, ...],
    about: _About,
) -> Question:
    return Question(
        topic=topic,
        prompt=prompt,
        inputs=tuple(inputs.items()),
        kind="choice",
        answer=answer,
        choices=choices,
        unit="",
        tolerance=0.0,
        grading="correct when it is the exact answer",
        **asdict(about),
    )


def _match_view(
    table: str, on_roll_away: int, opp_away: int, *, crawford: bool = False
) -> tuple[tuple[str, str], ...]:
    """The cube calculator's view of a match score (the player on roll first)."""
    params: tuple[tuple[str, str], ...] = (
        ("mode", "match"),
        ("met", table),
        ("away", str(on_roll_away)),
        ("oaway", str(opp_away)),
    )
    return (*params, ("crawford", "true")) if crawford else params


def _margin(no_double: float, double_take: float, double_pass: float) -> float:
    """Distance of a decision from its nearest boundary, in equity per cube."""
    return min(abs(min(double_take, double_pass) - no_double), abs(double_take - double_pass))


def _in_band(
    rng: np.random.Generator,
    difficulty: int,
    candidate: Callable[[np.random.Generator], tuple[Inputs, float]],
) -> Inputs:
    """Draw until the decision margin lies in the difficulty's band (at most MAX_TRIES)."""
    low, high = MARGIN_BANDS[difficulty]
    best: tuple[float, Inputs] | None = None
    for _ in range(MAX_TRIES):
        inputs, margin = candidate(rng)
        if low <= margin < high:
            return inputs
        distance = low - margin if margin < low else margin - high
        if best is None or distance < best[0]:
            best = (distance, inputs)
    assert best is not None
    return best[1]


def _phase(away: int, opp_away: int) -> match_points.MatchPhase:
    return "post-Crawford" if min(away, opp_away) == 1 else "pre-Crawford"


def _score_text(away: int, opp_away: int, phase: str) -> str:
    tail = f", {phase}" if phase != "pre-Crawford" else ""
    return f"you are {away}-away, your opponent {opp_away}-away{tail}"


def _rates_text(rates: tuple[float, ...]) -> str:
    g, b, og, ob = (100 * r for r in rates)
    return (
        f"Your wins: {g:g}% gammons, {b:g}% backgammons; "
        f"your opponent's wins: {og:g}% gammons, {ob:g}% backgammons."
    )


# ----------------------------------------------------------------------------------
# Take point at a score
# ----------------------------------------------------------------------------------
_TAKE_KINDS = ("dead", "gammon-adjusted", "live")
_TAKE_FIELDS = {
    "dead": "take_point_gammonless",
    "gammon-adjusted": "take_point",
    "live": "take_point_live",
}


def _take_window(inputs: Mapping[str, object]) -> match_points.MarketWindow:
    table = met.load_table(str(inputs["table"]))
    rates = _floats(inputs, "rates")
    points = match_points.cube_points(
        match_points.MatchScore(
            table,
            _int(inputs, "away"),
            _int(inputs, "opp_away"),
            phase=cast(match_points.MatchPhase, str(inputs["phase"])),  # from MATCH_PHASES
            cube_value=_int(inputs, "cube"),
            cube_owner=cast(match_points.CubeOwner, str(inputs["owner"])),  # drawn from OWNERS
        ),
        match_points.GammonRates(*rates),
    )
    return points.opponent_doubles


def _draw_take_point(rng: np.random.Generator, difficulty: int) -> Inputs:
    kinds = _TAKE_KINDS[:difficulty]  # level 1 dead, 2 also gammon-adjusted, 3 also live
    for _ in range(MAX_TRIES):
        high = _MAX_AWAY[difficulty]
        away = int(rng.integers(1 if difficulty == 3 else 2, high + 1))
        opp_away = int(rng.integers(2, high + 1))
        cube = 1 if difficulty == 1 else int(_pick(rng, (1, 1, 2, 4)))
        phase = _phase(away, opp_away)
        if phase == "post-Crawford":
            cube = 1
        kind = str(_pick(rng, kinds))
        inputs: Inputs = {
            "table": str(_pick(rng, _TABLES[difficulty])),
            "away": away,
            "opp_away": opp_away,
            "phase": phase,
            "cube": cube,
            "owner": "center" if cube == 1 else "opponent",
            "kind": kind,
            "rates": _NO_RATES if kind == "dead" else _pick(rng, _RATES),
        }
        window = _take_window(inputs)
        value = getattr(window, _TAKE_FIELDS[kind])
        if window.may_double and math.isfinite(value) and 0.0 < value < 1.0:
            return inputs
    raise AssertionError("no take-point question found")  # pragma: no cover


def _take_view(inputs: Mapping[str, object]) -> tuple[tuple[str, str], ...]:
    """The cube calculator with the doubler on roll: his market window, the taker's point.

    The gammon rates become probabilities at a 50% winning chance (the calculator's
    rates are its wins' and losses' shares of gammons, as gnubg's market window takes).
    """
    g, b, og, ob = _floats(inputs, "rates")
    cube = _int(inputs, "cube")
    percent = {"pw": 50.0, "pwg": 50 * (og + ob), "pwb": 50 * ob, "plg": 50 * (g + b)}
    percent["plb"] = 50 * b
    params = _match_view(str(inputs["table"]), _int(inputs, "opp_away"), _int(inputs, "away"))
    params += tuple((key, f"{value:g}") for key, value in percent.items())
    return (*params, ("cv", str(cube)), ("cube", "center" if cube == 1 else "owned"))


def _pose_take_point(inputs: Mapping[str, object]) -> Question:
    kind = choice("kind", str(inputs["kind"]), _TAKE_KINDS)
    window = _take_window(inputs)
    key = _percent(getattr(window, _TAKE_FIELDS[kind]))
    table = met.load_table(str(inputs["table"]))
    away, opp_away, cube = _int(inputs, "away"), _int(inputs, "opp_away"), _int(inputs, "cube")
    phase = str(inputs["phase"])
    cube_text = "the cube is centred" if cube == 1 else f"your opponent owns the cube at {cube}"
    rates = _floats(inputs, "rates")
    prompt = (
        f"Match play on the table {table.name}: {_score_text(away, opp_away, phase)}, "
        f"{cube_text}. Your opponent doubles to {2 * cube}. "
        + ("" if kind == "dead" else _rates_text(rates) + " ")
        + f"What is your {kind} take point (your winning chance, in percent)?"
    )
    formulas = {
        "dead": r"TP = \frac{M_{\mathrm{pass}} - M_{\mathrm{take,lose}}}"
        r"{M_{\mathrm{take,win}} - M_{\mathrm{take,lose}}}",
        "gammon-adjusted": r"TP = 1 - \frac{P - L(2c)}{W(2c) - L(2c)},\quad "
        r"W(v) = (1-g-h)\,\mathrm{win}(v) + g\,\mathrm{win}(2v) + h\,\mathrm{win}(3v)",
        "live": r"TP_{\mathrm{live}} = 1 - \left[1 - CP'(2c)\right]"
        r"\frac{W(2c) - P}{W(2c) - \mathrm{lose}(2c)}",
    }
    return _number_question(
        topic="take_point",
        prompt=prompt,
        inputs=inputs,
        answer=key,
        about=_About(
            formula=formulas[kind],
            source="GNUBG",
            where='manual, "The market window" (show marketwindow)',
            page="cube",
            section="decision",
            params=_take_view(inputs),
            explanation=f"The {kind} take point on {table.name} is {key:.2f}%.",
        ),
    )


# ----------------------------------------------------------------------------------
# Gammon value at a score
# ----------------------------------------------------------------------------------
def _draw_gammon_value(rng: np.random.Generator, difficulty: int) -> Inputs:
    for _ in range(MAX_TRIES):
        high = _MAX_AWAY[difficulty]
        away = int(rng.integers(1 if difficulty == 3 else 2, high + 1))
        opp_away = int(rng.integers(2, high + 1))
        if rng.random() < 0.5:
            away, opp_away = opp_away, away
        cube = 1 if difficulty == 1 else int(_pick(rng, (1, 2, 4)))
        inputs: Inputs = {
            "table": str(_pick(rng, _TABLES[difficulty])),
            "away": away,
            "opp_away": opp_away,
            "phase": _phase(away, opp_away),
            "cube": cube,
        }
        if math.isfinite(_gammon(inputs).gammon_value):
            return inputs
    raise AssertionError("no gammon-value question found")  # pragma: no cover


def _gammon(inputs: Mapping[str, object]) -> match_points.GammonValues:
    cube = _int(inputs, "cube")
    return match_points.gammon_values(
        match_points.MatchScore(
            met.load_table(str(inputs["table"])),
            _int(inputs, "away"),
            _int(inputs, "opp_away"),
            phase=cast(match_points.MatchPhase, str(inputs["phase"])),  # drawn from MATCH_PHASES
            cube_value=cube,
            cube_owner="center" if cube == 1 else "player",  # any owner: the same values
        )
    )


def _pose_gammon_value(inputs: Mapping[str, object]) -> Question:
    values = _gammon(inputs)
    table = met.load_table(str(inputs["table"]))
    away, opp_away, cube = _int(inputs, "away"), _int(inputs, "opp_away"), _int(inputs, "cube")
    prompt = (
        f"Match play on the table {table.name}: {_score_text(away, opp_away, values.phase)}, "
        f"the cube at {cube}. What is the value of your gammon: what winning a gammon "
        "instead of a single game adds, in units of the single game's swing "
        "(money play: 0.5)?"
    )
    return _number_question(
        topic="gammon_value",
        prompt=prompt,
        inputs=inputs,
        answer=values.gammon_value,
        about=_About(
            formula=r"GV = \frac{M(a - 2c, b) - M(a - c, b)}{M(a - c, b) - M(a, b - c)}",
            source="GNUBG",
            where='manual, "Gammon values" (show gammonvalues)',
            page="cube",
            section="decision",
            params=_match_view(str(inputs["table"]), away, opp_away),
            explanation=(
                f"GV = {values.gammon_value:.4f} ({values.gammon_class}); your opponent's is "
                f"{values.opp_gammon_value:.4f}."
            ),
        ),
        unit="",
        tolerance=TOLERANCE_GAMMON_VALUE,
    )


# ----------------------------------------------------------------------------------
# Cube action from five probabilities
# ----------------------------------------------------------------------------------
_ACTION_PREFIXES = (
    ("too good to", "Too good, pass"),
    ("no double", "No double, take"),
    ("no redouble", "No double, take"),
    ("never double", "No double, take"),
    # gnubg's "optional" doubles: doubling costs nothing (|DT - ND| or |DP - ND| within
    # 1e-5), so doubling is a proper answer; the drills do not ask them (_cube_candidate)
    ("optional double, pass", "Double, pass"),
    ("optional redouble, pass", "Double, pass"),
    ("optional double, take", "Double, take"),
    ("optional redouble, take", "Double, take"),
    ("double, pass", "Double, pass"),
    ("redouble, pass", "Double, pass"),
    ("double, take", "Double, take"),
    ("redouble, take", "Double, take"),
)


def cube_action_choice(action: str) -> str:
    """The drill's answer choice for one of gnubg's cube-action texts.

    The cube level ("redouble") and the dead-cube note are left out: "No redouble,
    take" and "Never double, take (dead cube)" are both "No double, take".

    Parameters
    ----------
    action : str
        :attr:`cubecore.cubeful.CubeDecision.action` (gnubg's wording, no beavers).

    Returns
    -------
    str
        One of :data:`CUBE_ACTIONS`.

    Raises
    ------
    ValueError
        For a text that is not one of gnubg's actions without beavers.

    Examples
    --------
    >>> cube_action_choice("Too good to redouble, pass")
    'Too good, pass'
    """
    text = str(action).lower()
    if "beaver" not in text:
        for prefix, answer in _ACTION_PREFIXES:
            if text.startswith(prefix):
                return answer
    raise ValueError(
        f"`action` must be one of gnubg's cube actions without beavers (got {action!r})"
    )


def _draw_probabilities(rng: np.random.Generator) -> tuple[float, ...]:
    win = rng.uniform(0.5, 0.95)
    win_gammon = win * rng.uniform(0.0, 0.4)
    win_backgammon = win_gammon * rng.uniform(0.0, 0.1)
    lose_gammon = (1 - win) * rng.uniform(0.0, 0.35)
    lose_backgammon = lose_gammon * rng.uniform(0.0, 0.1)
    # on the cube calculator's grid: percent with one decimal
    values = (win, win_gammon, win_backgammon, lose_gammon, lose_backgammon)
    return tuple(round(float(v), 3) for v in values)


def _cube_decision(inputs: Mapping[str, object]) -> cubeful.CubeDecision:
    probabilities = _floats(inputs, "probabilities")
    x, cube = _float(inputs, "x"), _int(inputs, "cube")
    owner = cast(match_points.CubeOwner, str(inputs["owner"]))  # "center" or "player" above
    if inputs["mode"] == "money":
        return cubeful.money_cube_decision(probabilities, x, cube=cube, owner=owner)
    return cubeful.match_cube_decision(
        probabilities,
        x,
        met.load_table(str(inputs["table"])),
        away=_int(inputs, "away"),
        opp_away=_int(inputs, "opp_away"),
        cube=cube,
        owner=owner,
        crawford=False,
    )


def _cube_candidate(difficulty: int) -> Callable[[np.random.Generator], tuple[Inputs, float]]:
    def candidate(rng: np.random.Generator) -> tuple[Inputs, float]:
        mode = "money" if difficulty == 1 or rng.random() < 0.5 else "match"
        cube = 1 if difficulty == 1 else int(_pick(rng, (1, 1, 2)))
        inputs: Inputs = {
            "mode": mode,
            "probabilities": _draw_probabilities(rng),
            "x": float(_pick(rng, (0.6, 0.68, 0.68, 0.7))),
            "cube": cube,
            "owner": "center" if cube == 1 else "player",
        }
        if mode == "match":
            high = _MAX_AWAY[difficulty]
            inputs.update(
                table=str(_pick(rng, _TABLES[difficulty])),
                away=int(rng.integers(2, high + 1)),
                opp_away=int(rng.integers(2, high + 1)),
            )
        d = _cube_decision(inputs)
        if not (d.cube_available and d.cube_alive):
            return inputs, -math.inf  # never in a band: no decision to make
        assert d.double_take is not None and d.double_pass is not None
        if d.action.startswith("Optional"):
            return inputs, -math.inf  # two proper answers: not a question
        return inputs, _margin(d.no_double, d.double_take, d.double_pass)

    return candidate


def _draw_cube_action(rng: np.random.Generator, difficulty: int) -> Inputs:
    return _in_band(rng, difficulty, _cube_candidate(difficulty))


def _pose_cube_action(inputs: Mapping[str, object]) -> Question:
    d = _cube_decision(inputs)
    key = cube_action_choice(d.action)
    w, wg, wb, lg, lb = (100 * p for p in _floats(inputs, "probabilities"))
    cube = _int(inputs, "cube")
    if inputs["mode"] == "money":
        setting = "Money game (no Jacoby rule, no beavers)"
        params: tuple[tuple[str, str], ...] = (("mode", "money"),)
    else:
        table = met.load_table(str(inputs["table"]))
        away, opp_away = _int(inputs, "away"), _int(inputs, "opp_away")
        setting = f"Match play on {table.name}, {_score_text(away, opp_away, 'pre-Crawford')}"
        params = _match_view(str(inputs["table"]), away, opp_away)
    cube_text = "the cube centred" if cube == 1 else f"you own the cube at {cube}"
    prompt = (
        f"{setting}, {cube_text}. You are on roll with cubeless chances: win {w:.1f}% "
        f"(gammons {wg:.1f}%, backgammons {wb:.1f}%), lose gammons {lg:.1f}% "
        f"(backgammons {lb:.1f}%), cube life x = {_float(inputs, 'x'):g}. "
        "What is the proper cube action?"
    )
    params += (
        ("pw", f"{w:.1f}"),
        ("pwg", f"{wg:.1f}"),
        ("pwb", f"{wb:.1f}"),
        ("plg", f"{lg:.1f}"),
        ("plb", f"{lb:.1f}"),
        ("xfrom", "by hand"),
        ("x", f"{_float(inputs, 'x'):g}"),
        ("cv", str(cube)),
        ("cube", "center" if cube == 1 else "owned"),
    )
    return _choice_question(
        topic="cube_action",
        prompt=prompt,
        inputs=inputs,
        answer=key,
        choices=CUBE_ACTIONS,
        about=_About(
            formula=r"E = (1 - x)\,E_{\mathrm{dead}} + x\,E_{\mathrm{live}},\quad "
            r"\text{double iff } \min(DT, DP) \ge ND,\ \text{pass iff } DT > DP",
            source="GNUBG",
            where="0-ply cube decision (cfevaluate), Janowski's interpolation",
            page="cube",
            section="decision",
            params=params,
            explanation=(
                f"ND {d.no_double:+.4f}, DT {d.double_take:+.4f}, DP {d.double_pass:+.4f} "
                f"(per cube): gnubg says {d.action}."
            ),
        ),
    )


# ----------------------------------------------------------------------------------
# Race action from a position
# ----------------------------------------------------------------------------------
_BEAROFF_ACTIONS = ("no double", "double, take", "double, pass")


def _side_text(points: tuple[int, ...]) -> str:
    parts = [f"{n} on the {p}-point" for p, n in enumerate(points, start=1) if n][::-1]
    return ", ".join(parts)


def _race_position(inputs: Mapping[str, object]) -> Position:
    return Position(_ints(inputs, "on_roll"), _ints(inputs, "opponent"))


def _spread(rng: np.random.Generator, checkers: int, highest: int) -> tuple[int, ...]:
    points = [0] * 24
    for point in rng.integers(1, highest + 1, size=checkers):
        points[int(point) - 1] += 1
    return tuple(points)


def _bearoff_candidate(most: int) -> Callable[[np.random.Generator], tuple[Inputs, float]]:
    def candidate(rng: np.random.Generator) -> tuple[Inputs, float]:
        sides = [_spread(rng, int(rng.integers(1, most + 1)), 6) for _ in range(2)]
        inputs: Inputs = {"kind": "bear-off", "on_roll": sides[0], "opponent": sides[1]}
        exact = bearoff.two_sided(sides[0][:6], sides[1][:6])
        return inputs, _margin(exact.centred_no_double, exact.double_take, 1.0)

    return candidate


def _draw_race(rng: np.random.Generator, difficulty: int) -> Inputs:
    if difficulty < 3 or rng.random() < 0.5:
        return _in_band(rng, difficulty, _bearoff_candidate(3 if difficulty == 1 else 6))
    sides = [_spread(rng, int(rng.integers(8, 16)), int(rng.integers(6, 10))) for _ in range(2)]
    return {"kind": "Keith count", "on_roll": sides[0], "opponent": sides[1]}


def _pose_race(inputs: Mapping[str, object]) -> Question:
    kind = choice("kind", str(inputs["kind"]), ("bear-off", "Keith count"))
    position = _race_position(inputs)
    on_roll, opponent = position.on_roll, position.opponent
    board = (
        f"You are on roll with {_side_text(on_roll)}; your opponent has "
        f"{_side_text(opponent)} (pips {position.pips[0]} to {position.pips[1]}); "
        f"gnubg Position ID {position_id(position)}; money game, cube centred."
    )
    if kind == "bear-off":
        exact = bearoff.two_sided(on_roll[:6], opponent[:6])
        question, answer = "is the proper cube action (exact bear-off)", exact.action_centred
        choices: tuple[str, ...] = _BEAROFF_ACTIONS
        formula = (
            r"\text{double iff } \min(2E_{\mathrm{opp}}, 1) \ge E_{\mathrm{ND}},"
            r"\quad \text{pass iff } 2E_{\mathrm{opp}} > 1"
        )
        source, where = "GNUBG", "two-sided bear-off database (makebearoff), solved exactly here"
        explanation = (
            f"Win {100 * exact.win:.2f}%, no double {exact.centred_no_double:+.4f}, "
            f"double/take {exact.double_take:+.4f}: {exact.action_centred}."
        )
    else:
        count = keith_count(position)
        question, answer, choices = "does the Keith count say", count.action, RACE_ACTIONS
        formula = (
            r"K = \mathrm{pips} + 2b_1 + b_2 + b_3 + 1\cdot\mathrm{gaps}_{4,5,6},\quad "
            r"d = K_{\mathrm{roll}} + \lfloor K_{\mathrm{roll}}/7\rfloor - K_{\mathrm{opp}}:\ "
            r"d \le 4\ \text{double},\ d \le 3\ \text{redouble},\ d < 2\ \text{pass}"
        )
        source, where = "Kei", "the count and its thresholds"
        explanation = (
            f"Keith counts {count.on_roll:g} (raised {count.on_roll_adjusted:g}) and "
            f"{count.opponent:g}: d = {count.measure:g}, {count.action}."
        )
    return _choice_question(
        topic="race",
        prompt=board + f" What {question}?",
        inputs=inputs,
        answer=answer,
        choices=choices,
        about=_About(
            formula=formula,
            source=source,
            where=where,
            page="real_race",
            section="position",
            params=(("pos", position_id(position)),),
            explanation=explanation,
        ),
    )


# ----------------------------------------------------------------------------------
# Janowski's decision
# ----------------------------------------------------------------------------------
def _janowski_candidate(difficulty: int) -> Callable[[np.random.Generator], tuple[Inputs, float]]:
    def candidate(rng: np.random.Generator) -> tuple[Inputs, float]:
        gammons = difficulty > 1
        inputs: Inputs = {
            "p": round(float(rng.uniform(0.5, 0.95)), 2),
            "x": round(float(rng.uniform(0.0, 1.0)), 2),
            "W": round(float(rng.uniform(1.0, 1.5)), 2) if gammons else 1.0,
            "L": round(float(rng.uniform(1.0, 1.5)), 2) if gammons else 1.0,
            "cube": "center" if difficulty == 1 else str(_pick(rng, ("center", "owned"))),
        }
        d = _janowski(inputs)
        return inputs, _margin(d.no_double, d.double_take, d.double_pass)

    return candidate


def _janowski(inputs: Mapping[str, object]) -> janowski.CubeDecision:
    return janowski.cube_decision(
        _float(inputs, "p"),
        _float(inputs, "x"),
        cast(janowski.DoublingCube, str(inputs["cube"])),  # drawn from ("center", "owned")
        _float(inputs, "W"),
        _float(inputs, "L"),
    )


def _draw_janowski(rng: np.random.Generator, difficulty: int) -> Inputs:
    return _in_band(rng, difficulty, _janowski_candidate(difficulty))


def _pose_janowski(inputs: Mapping[str, object]) -> Question:
    d = _janowski(inputs)
    p, x, W, L = (_float(inputs, k) for k in ("p", "x", "W", "L"))
    cube = str(inputs["cube"])
    cube_text = "the cube centred" if cube == "center" else "you own the cube"
    prompt = (
        f"Money game in Janowski's model, {cube_text}: your winning chance P = {p:.2f}, "
        f"cube life x = {x:.2f}, average win W = {W:.2f}, average loss L = {L:.2f}. "
        "What is your proper action?"
    )
    return _choice_question(
        topic="janowski",
        prompt=prompt,
        inputs=inputs,
        answer=d.doubler_action,
        choices=JANOWSKI_ACTIONS,
        about=_About(
            formula=r"E = x\,E_{\mathrm{live}}(P) + (1-x)\,E_{\mathrm{dead}}(P),\quad "
            r"\text{double iff } \min(2E_{\mathrm{opp}}, 1) > E_{\mathrm{cube}}",
            source="JR12",
            where="the model equity and the double decision",
            page="janowski",
            section="decision",
            params=(
                ("P", f"{p:g}"),
                ("x", f"{x:g}"),
                ("W", f"{W:g}"),
                ("L", f"{L:g}"),
                ("cube", "center" if cube == "center" else "owned"),
            ),
            explanation=(
                f"ND {d.no_double:+.4f}, DT {d.double_take:+.4f}, DP {d.double_pass:+.4f}: "
                f"{d.doubler_action}; the taker would {d.taker_action}."
            ),
        ),
    )


# ----------------------------------------------------------------------------------
# Keeler-Spencer raising point
# ----------------------------------------------------------------------------------
def _draw_raising_point(rng: np.random.Generator, difficulty: int) -> Inputs:
    most = {1: 3, 2: 6, 3: 10}[difficulty]
    factors = (2.0,) if difficulty < 3 else (2.0, 3.0, 4.0)
    return {
        "i": int(rng.integers(1, most + 1)),
        "j": int(rng.integers(1, most + 1)),
        "a": float(_pick(rng, factors)),
        "b": float(_pick(rng, factors)),
        "point": "alpha" if difficulty == 1 else str(_pick(rng, ("alpha", "beta"))),
    }


def _pose_raising_point(inputs: Mapping[str, object]) -> Question:
    i, j = _int(inputs, "i"), _int(inputs, "j")
    a, b = _float(inputs, "a"), _float(inputs, "b")
    point = choice("point", str(inputs["point"]), ("alpha", "beta"))
    points = keeler_spencer.raising_points(i, j, a, b)
    key = _percent(float(points.alpha if point == "alpha" else points.beta))
    who = (
        "At what winning chance of A should A raise"
        if point == "alpha"
        else "At what winning chance of A (falling) should B raise"
    )
    prompt = (
        f"Keeler and Spencer's continuous game: A has {i} raise(s) left, each multiplying "
        f"the stake by a = {a:g}; B has {j}, each by b = {b:g}. {who} (in percent)?"
    )
    return _number_question(
        topic="raising_point",
        prompt=prompt,
        inputs=inputs,
        answer=key,
        about=_About(
            formula=r"\alpha(i, j) = P[K_a \le K_b],\ \beta(i, j) = P[K_a < K_b],\ "
            r"K_a \sim \mathrm{Bin}\!\left(i, \tfrac{a-1}{2a}\right),\ "
            r"K_b \sim \mathrm{Bin}\!\left(j, \tfrac{b-1}{2b}\right)",
            source="KS69",
            where="Theorem 2, eq. (11)",
            page="keeler_spencer",
            section="raises",
            params=(("i", str(i)), ("j", str(j)), ("a", f"{a:g}"), ("b", f"{b:g}")),
            explanation=f"alpha = {100 * points.alpha:.2f}%, beta = {100 * points.beta:.2f}%.",
        ),
    )


# ----------------------------------------------------------------------------------
# Match winning chance from a table
# ----------------------------------------------------------------------------------
def _draw_match_equity(rng: np.random.Generator, difficulty: int) -> Inputs:
    high = _MAX_AWAY[difficulty]
    away = int(rng.integers(1 if difficulty > 1 else 2, high + 1))
    opp_away = int(rng.integers(2, high + 1))
    if rng.random() < 0.5:
        away, opp_away = opp_away, away
    post = min(away, opp_away) == 1 and bool(rng.random() < 0.5)
    return {
        "table": str(_pick(rng, _TABLES[difficulty])),
        "away": away,
        "opp_away": opp_away,
        "post_crawford": post,
    }


def _pose_match_equity(inputs: Mapping[str, object]) -> Question:
    table = met.load_table(str(inputs["table"]))
    away, opp_away = _int(inputs, "away"), _int(inputs, "opp_away")
    post = inputs["post_crawford"]
    if not isinstance(post, bool):
        raise ValueError(f"`post_crawford` must be a bool (got {post!r})")
    key = _percent(table.mwc(away, opp_away, post_crawford=post))
    game = (
        "post-Crawford"
        if post
        else ("the Crawford game" if min(away, opp_away) == 1 else "at the start of a game")
    )
    prompt = (
        f"On the table {table.name}: you are {away}-away, your opponent {opp_away}-away, "
        f"{game}, cube centred. What is your match winning chance (in percent)?"
    )
    return _number_question(
        topic="match_equity",
        prompt=prompt,
        inputs=inputs,
        answer=key,
        about=_About(
            formula=r"\mathrm{MWC} = M(a, b)",
            source="GNUBG",
            where=f"match equity table {table.name} (gnubg-data)",
            page="cube",
            section="decision",
            params=_match_view(
                str(inputs["table"]), away, opp_away, crawford=min(away, opp_away) == 1 and not post
            ),
            explanation=f"{table.name} gives {key:.2f}% at {away}-away/{opp_away}-away ({game}).",
        ),
        tolerance=TOLERANCE_MWC,
    )


#: Every topic by id, in the page's order.
TOPICS: Mapping[str, Topic] = MappingProxyType(
    {
        topic.id: topic
        for topic in (
            Topic("take_point", "Take point at a score", _draw_take_point, _pose_take_point),
            Topic(
                "gammon_value", "Gammon value at a score", _draw_gammon_value, _pose_gammon_value
            ),
            Topic(
                "cube_action",
                "Cube action from five probabilities",
                _draw_cube_action,
                _pose_cube_action,
            ),
            Topic("race", "Race action from a position", _draw_race, _pose_race),
            Topic("janowski", "Janowski decision from P, W, L, x", _draw_janowski, _pose_janowski),
            Topic(
                "raising_point",
                "Keeler-Spencer raising point",
                _draw_raising_point,
                _pose_raising_point,
            ),
            Topic(
                "match_equity",
                "Match winning chance from a table",
                _draw_match_equity,
                _pose_match_equity,
            ),
        )
    }
)


def quiz(topic: str, seed: int, difficulty: int = 1, count: int = 10) -> tuple[Question, ...]:
    """A deterministic quiz: ``count`` questions of ``topic`` drawn from ``seed``.

    The questions come from one ``numpy.random.default_rng((seed, difficulty,
    topic index))`` stream, so the same arguments give the same quiz on every machine
    and a different seed (almost always) a different one. Each answer key is computed
    by the function of the page that explains it (module docstring).

    Parameters
    ----------
    topic : str
        One of :data:`TOPICS`.
    seed : int
        Whole number in ``[0, MAX_SEED]``.
    difficulty : int
        1, 2 or 3 (:data:`DIFFICULTIES`).
    count : int
        Number of questions, 1 .. :data:`MAX_QUESTIONS` (50): the work is at most
        ``count * MAX_TRIES`` decisions.

    Returns
    -------
    tuple of Question

    Raises
    ------
    ValueError
        Naming the argument out of range.

    Examples
    --------
    >>> q = quiz("match_equity", seed=7, difficulty=1, count=3)
    >>> len(q), q == quiz("match_equity", seed=7, difficulty=1, count=3)
    (3, True)
    """
    choice("topic", topic, TOPICS)
    seed = whole_number("seed", seed, 0, MAX_SEED)
    difficulty = whole_number("difficulty", difficulty, 1, len(DIFFICULTIES))
    count = whole_number("count", count, 1, MAX_QUESTIONS)
    index = list(TOPICS).index(topic)
    rng = np.random.default_rng((seed, difficulty, index))
    return tuple(TOPICS[topic].make(rng, difficulty) for _ in range(count))


def _read_number(answer: object) -> float:
    if isinstance(answer, bool):
        raise ValueError(f"`answer` must be a number, not a bool (got {answer!r})")
    if isinstance(answer, (int, float, np.integer, np.floating)):
        number = real_number("answer", answer)  # an int beyond float range is infinite
    elif isinstance(answer, str):
        text = answer.strip().removesuffix("%").strip()
        if "," in text and "." not in text:
            text = text.replace(",", ".")  # a decimal comma
        shown = answer if len(answer) <= 40 else answer[:37] + "..."
        if not text or len(text) > 40:
            raise ValueError(f"`answer` must be a number (got {shown!r})")
        try:
            number = float(text)
        except ValueError:
            raise ValueError(f"`answer` must be a number (got {shown!r})") from None
    else:
        raise ValueError(f"`answer` must be a number (got {type(answer).__name__})")
    if not math.isfinite(number):
        raise ValueError(f"`answer` must be a finite number (got {number})")
    return number


def grade(question: Question, answer: float | str) -> Grade:
    """Grade an answer against the question's key with its stated tolerance.

    A number question is correct when ``|answer - key| <= tolerance`` (a text
    answer is read as a number; a trailing "%" and a decimal comma are allowed);
    a choice question when the answer is the key.

    Parameters
    ----------
    question : Question
    answer : float or str
        A number (or its text) for a number question; one of ``question.choices``.

    Returns
    -------
    Grade

    Raises
    ------
    ValueError
        An answer that is not a finite number, or not one of the choices.

    Examples
    --------
    >>> q = quiz("match_equity", seed=1, count=1)[0]
    >>> grade(q, q.answer + 0.4).correct, grade(q, q.answer + 1.5).correct
    (True, False)
    """
    if not isinstance(question, Question):
        raise TypeError(f"`question` must be a Question (got {type(question).__name__})")
    if question.kind == "choice":
        if not isinstance(answer, str):
            raise ValueError(
                f"`answer` must be one of {', '.join(question.choices)} (got {answer!r})"
            )
        given = choice("answer", answer, question.choices)
        correct = given == question.answer
        verdict = "Correct" if correct else "Not quite"
        return Grade(correct, given, None, f"{verdict}: the answer is {question.answer}.")
    number = _read_number(answer)
    error = number - float(question.answer)
    correct = abs(error) <= question.tolerance + _SLACK
    verdict = "Correct" if correct else "Not quite"
    unit = " percentage points" if question.unit == "percent" else ""
    message = (
        f"{verdict}: the exact value is {question.shown_answer} "
        f"(yours is off by {error:+.2f}{unit}; the tolerance is {question.tolerance:g}{unit})."
    )
    return Grade(correct, number, error, message)


# The registry must name real references.
assert all(_source in REFERENCES for _source in ("GNUBG", "KS69", "JR12", "Kei"))
