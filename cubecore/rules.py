"""The rules of the doubling cube as an immutable state machine.

A :class:`Rules` value fixes the rule set (money or match play; beavers, raccoons,
the Murphy rule with its cap, the Jacoby, Crawford and Holland rules), a
:class:`CubeState` records everything the cube rules look at, and
:func:`apply` steps from one state to the next, recording which rule applied.
Illegal steps raise :class:`IllegalCubeAction` naming the rule that forbids them.

Conventions
-----------
* The two players are ``"A"`` and ``"B"`` (in the source's example A is White and
  B is Black). The cube owner is ``"center"``, ``"A"`` or ``"B"``.
* The checker play itself is abstracted away: a turn is either a cube action
  (``"double"``) or a roll that is played (``"roll"``), or a roll that ends the game
  by bearing off (``"win_single"``, ``"win_gammon"``, ``"win_backgammon"``, won by
  the player on roll).
* ``value`` is the stake of the game in points (1 at the start, 2, 4, ... past 64);
  :func:`cube_face` says which face the physical cube shows.

References
----------
.. [RULES] "Doubling cube", Wikipedia, the free encyclopedia (the rules of the cube,
   ``cubecore.references.REFERENCES["RULES"]``), which this module implements
   paragraph by paragraph. https://en.wikipedia.org/wiki/Doubling_cube
.. [JR12] "Janowski model revisited", blog post, 28 March 2012
   (``cubecore.references.REFERENCES["JR12"]``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from cubecore import janowski
from cubecore._validate import _shown, choice, finite_array, flag, whole_number
from cubecore.match_points import MATCH_PHASES, MatchPhase

__all__ = [
    "ACTIONS",
    "CUBE_FACES",
    "MAX_EQUITY_POINTS",
    "MAX_EVENT_STATES",
    "MAX_MATCH_LENGTH",
    "MAX_MURPHY_CAP",
    "MAX_STAKE",
    "MAX_STAKES",
    "OPENING_TIE_PROBABILITY",
    "PLAYERS",
    "CubeEvent",
    "CubeState",
    "IllegalCubeAction",
    "Rules",
    "WalkthroughPreset",
    "apply",
    "cube_face",
    "event_table",
    "game_label",
    "illegal_reasons",
    "initial_state",
    "legal_actions",
    "money_rule_equities",
    "player_to_act",
    "replay",
]

PLAYERS: tuple[str, str] = ("A", "B")
"""The two sides. In [RULES]' beaver example A is White and B is Black."""

CUBE_FACES: tuple[int, ...] = (2, 4, 8, 16, 32, 64)
"""The faces of a standard doubling cube, [RULES] paragraph 1."""

OPENING_TIE_PROBABILITY = 1 / 6
"""Chance that both players roll the same opening number (6 of 36 rolls)."""

ACTIONS: tuple[str, ...] = (
    "automatic_double",  # opening tie under the Murphy rule: cube doubles, stays centred
    "opening_tie",  # opening tie with no automatic double: both roll again
    "opening_won_A",  # A wins the opening roll and plays it (A's first roll)
    "opening_won_B",
    "double",  # the player on roll offers a double before rolling
    "take",
    "drop",
    "beaver",  # the taker takes and at once redoubles, keeping the cube
    "raccoon",  # the doubler answers a beaver by doubling again; taker keeps the cube
    "roll",  # the player on roll rolls and plays; the turn passes
    "win_single",  # the player on roll rolls and bears off: a single game
    "win_gammon",
    "win_backgammon",
    "next_game",  # start the next game (match play and money sessions)
)
"""The fixed vocabulary of actions understood by :func:`apply`."""

_WIN_MULTIPLIER = {"win_single": 1, "win_gammon": 2, "win_backgammon": 3}
_OWNERS = ("center", *PLAYERS)
_PHASES = ("opening", "turn", "offer", "beavered", "game_over", "match_over")
_HOLLAND_ROLLS = 2  # [RULES] Holland: "at least two rolls have been played by each side"
#: Longest match (gnubg's own limit, ``MAXSCORE`` = 64, as :data:`cubecore.met.MAX_TABLE_LENGTH`).
MAX_MATCH_LENGTH = 64
#: Largest Murphy cap: the chance of more automatic doubles, 6**-64 < 1e-49, is below
#: any float the stake distribution can carry.
MAX_MURPHY_CAP = 64


class IllegalCubeAction(ValueError):
    """An action the rules forbid in the given state; the message names the rule."""


@dataclass(frozen=True)
class Rules:
    """A rule set for the doubling cube, [RULES].

    Parameters
    ----------
    beavers, raccoons : bool
        Allow a beaver (the taker redoubles at once, keeping the cube) and a
        raccoon (the doubler answers a beaver by doubling again). Money play only;
        raccoons need beavers.
    murphy : bool
        Murphy (automatic double) rule: each opening tie doubles the centred cube.
    murphy_cap : int or None
        Maximum number of automatic doubles in a game (None: unlimited), at most
        :data:`MAX_MURPHY_CAP`. Only with ``murphy``.
    jacoby : bool
        Jacoby rule: gammons and backgammons count as single games unless the cube
        has been offered and accepted. Money play only.
    crawford, holland : bool
        Crawford rule (no cube in the game after a player first reaches match point)
        and Holland rule (after the Crawford game, no double until each side has
        played two rolls). Match play only; Holland needs Crawford.
    match_length : int or None
        Points needed to win the match, at most :data:`MAX_MATCH_LENGTH`; None is
        money play.

    Raises
    ------
    ValueError
        For a combination [RULES] rules out (e.g. Jacoby in match play).
    """

    beavers: bool = False
    raccoons: bool = False
    murphy: bool = False
    murphy_cap: int | None = None
    jacoby: bool = False
    crawford: bool = False
    holland: bool = False
    match_length: int | None = None

    def __post_init__(self) -> None:
        for name in ("beavers", "raccoons", "murphy", "jacoby", "crawford", "holland"):
            if not isinstance(getattr(self, name), bool):
                flag(name, getattr(self, name))
        if self.match_length is not None:
            object.__setattr__(
                self,
                "match_length",
                whole_number("match_length", self.match_length, 1, MAX_MATCH_LENGTH),
            )
        if self.murphy_cap is not None:
            if not self.murphy:
                raise ValueError("murphy_cap needs murphy=True (the cap limits automatic doubles)")
            cap = whole_number("murphy_cap", self.murphy_cap, 1, MAX_MURPHY_CAP)
            object.__setattr__(self, "murphy_cap", cap)
        money = self.match_length is None
        if self.jacoby and not money:
            raise ValueError("jacoby: the Jacoby rule is used in money play, not in match play")
        if self.beavers and not money:
            raise ValueError("beavers: beavers are allowed in money play only")
        if self.raccoons and not money:
            raise ValueError("raccoons: raccoons are allowed in money play only")
        if self.raccoons and not self.beavers:
            raise ValueError("raccoons: a raccoon answers a beaver, so raccoons need beavers=True")
        if self.crawford and money:
            raise ValueError("crawford: the Crawford rule needs match play (set match_length)")
        if self.holland and not self.crawford:
            raise ValueError("holland: the Holland rule applies only with the Crawford rule")

    @property
    def money_play(self) -> bool:
        """True for money play (no match length)."""
        return self.match_length is None


@dataclass(frozen=True)
class CubeEvent:
    """One step of a game's cube history: who did what, under which rule."""

    action: str
    actor: str
    rule: str
    note: str
    value: int
    owner: str


@dataclass(frozen=True)
class CubeState:
    """Everything the cube rules look at, immutable.

    Made by :func:`initial_state` and, one action at a time, by :func:`apply`.

    Attributes
    ----------
    value : int
        Stake of the current game in points (``1 * 2**k``).
    owner : str
        ``"center"``, ``"A"`` or ``"B"``.
    automatic_doubles : int
        Murphy automatic doubles in this game so far.
    phase : str
        ``"opening"`` (rolling for the first move), ``"turn"`` (``turn`` may double
        or roll), ``"offer"`` (a double is waiting for ``turn``'s opponent),
        ``"beavered"`` (the doubler, on roll, may raccoon or roll),
        ``"game_over"`` or ``"match_over"``.
    turn : str or None
        The player on roll (None during the opening roll-off).
    doubler : str or None
        Who offered the pending double (phases ``"offer"`` and ``"beavered"``).
    rolls_a, rolls_b : int
        Rolls played by each side in this game (the opening roll counts for its winner).
    score_a, score_b : int
        Points won so far in the match (or money session).
    crawford_game, post_crawford : bool
        This game is the Crawford game / the Crawford game has been played.
    winner, ending : str or None
        After a game: who won and how (``"drop"``, ``"single"``, ``"gammon"``,
        ``"backgammon"``). ``points`` is what the game paid.
    history : tuple of CubeEvent
        The events of the current game.
    """

    value: int = 1
    owner: str = "center"
    automatic_doubles: int = 0
    phase: str = "opening"
    turn: str | None = None
    doubler: str | None = None
    rolls_a: int = 0
    rolls_b: int = 0
    score_a: int = 0
    score_b: int = 0
    crawford_game: bool = False
    post_crawford: bool = False
    winner: str | None = None
    ending: str | None = None
    points: int = 0
    history: tuple[CubeEvent, ...] = field(default=(), compare=True)

    @property
    def face(self) -> int:
        """The face the physical cube shows, see :func:`cube_face`."""
        return int(cube_face(self.value))

    @property
    def game_over(self) -> bool:
        """True once the current game is decided."""
        return self.phase in ("game_over", "match_over")


def _other(player: str) -> str:
    return "B" if player == "A" else "A"


def cube_face(value: ArrayLike) -> int | NDArray[np.int64]:
    r"""Face of the physical doubling cube for a stake of ``value`` points.

    A stake :math:`v = 2^k` shows the face :math:`2^{((k - 1) \bmod 6) + 1}`, i.e. the
    six faces 2, 4, ..., 64 in cyclic order [RULES] paragraph 1.

    Parameters
    ----------
    value : int or array_like
        Stake, a power of two >= 1.

    Returns
    -------
    int or ndarray
        The face shown.

    Notes
    -----
    ``value == 1`` (cube centred on 1) shows 64, as [RULES] prescribes; this is the
    same cyclic rule with :math:`k = 0`. Stakes go on past 64 ([RULES]: "the stakes
    may rise to 128, 256, and so on"): at 128 the cube shows 2 again, at 256 it shows
    4, at 4096 it shows 64, so past 64 the face no longer tells the stake and it
    must be recorded separately (``CubeState.value`` does).

    Examples
    --------
    Centred on 1 the cube shows 64 ([RULES] paragraph 1):

    >>> cube_face(1), cube_face(8), cube_face(128)
    (64, 8, 2)
    """
    array = finite_array("value", value)
    exponent = np.log2(np.where(array >= 1, array, 1.0))
    if np.any(array < 1) or np.any(exponent != np.round(exponent)):
        raise ValueError("`value` must be a power of two >= 1 (1, 2, 4, ...)")
    k = np.round(exponent).astype(np.int64)
    face = 2 ** ((k - 1) % 6 + 1)
    if face.ndim == 0:
        return int(face)
    return face


def initial_state(
    rules: Rules,
    score_a: int = 0,
    score_b: int = 0,
    *,
    match_phase: MatchPhase = "pre-Crawford",
) -> CubeState:
    """The state at the start of a game: cube centred on 1, opening roll pending.

    Parameters
    ----------
    rules : Rules
        The rule set (used to validate the score and the match phase).
    score_a, score_b : int
        Match score before this game (each below ``match_length``).
    match_phase : {"pre-Crawford", "Crawford", "post-Crawford"}
        The match's phase (:data:`cubecore.match_points.MATCH_PHASES`): this game is
        the Crawford game (needs the Crawford rule and a player one point short of
        the match) or a post-Crawford game (needs the Crawford rule); money play and
        a match before its Crawford game are "pre-Crawford".

    Examples
    --------
    >>> state = initial_state(Rules())
    >>> state.value, state.face, state.owner
    (1, 64, 'center')
    """
    if not isinstance(rules, Rules):
        raise ValueError("`rules` must be a Rules instance")
    high = None if rules.match_length is None else rules.match_length - 1
    score_a = whole_number("score_a", score_a, 0, high)
    score_b = whole_number("score_b", score_b, 0, high)
    match_phase = choice("match_phase", match_phase, MATCH_PHASES)
    if match_phase != "pre-Crawford" and not rules.crawford:
        raise ValueError(f"match_phase {match_phase!r} needs the Crawford rule (crawford=True)")
    if match_phase == "Crawford" and high not in (score_a, score_b):
        raise ValueError("match_phase 'Crawford' needs a player one point short of match_length")
    return CubeState(
        score_a=score_a,
        score_b=score_b,
        crawford_game=match_phase == "Crawford",
        post_crawford=match_phase == "post-Crawford",
    )


def _murphy_available(state: CubeState, rules: Rules) -> str | None:
    """Reason an automatic double is unavailable on an opening tie, or None."""
    if not rules.murphy:
        return "Murphy rule not in force: an opening tie is simply rolled again"
    if state.crawford_game:
        return "Crawford rule: the cube is not used in the Crawford game (no automatic doubles)"
    if rules.murphy_cap is not None and state.automatic_doubles >= rules.murphy_cap:
        return (
            f"Murphy cap reached: at most {rules.murphy_cap} automatic double(s) "
            "agreed; the tie is rolled again"
        )
    return None


def _double_forbidden(state: CubeState, rules: Rules) -> str | None:
    """Reason the player on roll may not double now, or None if he may."""
    player = _on_roll(state)
    if state.crawford_game:
        return "Crawford rule: no doubling in the Crawford game"
    if state.owner not in ("center", player):
        return (
            f"only the cube owner may redouble: the cube belongs to {state.owner}, "
            "who last accepted a double"
        )
    if rules.holland and state.post_crawford and min(state.rolls_a, state.rolls_b) < _HOLLAND_ROLLS:
        return (
            "Holland rule: after the Crawford game no double until each side has "
            f"played two rolls (A has played {state.rolls_a}, B {state.rolls_b})"
        )
    return None


def _reason_illegal(state: CubeState, action: str, rules: Rules) -> str | None:
    """Why ``action`` is illegal in ``state`` under ``rules``; None if it is legal."""
    phase = state.phase
    if action == "next_game":
        if phase == "game_over":
            return None
        if phase == "match_over":
            return "the match is over"
        return "the current game is not over"
    if phase == "match_over":
        return "the match is over"
    if phase == "game_over":
        return "the game is over: start the next game"
    if action in ("automatic_double", "opening_tie", "opening_won_A", "opening_won_B"):
        if phase != "opening":
            return "only during the opening roll"
        murphy = _murphy_available(state, rules)
        if action == "automatic_double":
            return murphy
        if action == "opening_tie" and murphy is None:
            return "Murphy rule: an opening tie doubles the cube automatically"
        return None
    if phase == "opening":
        return "the opening roll comes first"
    if action in ("take", "drop", "beaver"):
        if phase != "offer":
            return "no double is pending"
        if action == "beaver":
            if not rules.money_play:
                return "beavers are not allowed in match play"
            if not rules.beavers:
                return "beavers are not allowed under these rules"
        return None
    if action == "raccoon":
        if not rules.money_play:
            return "raccoons are not allowed in match play"
        if not rules.raccoons:
            return "raccoons are not allowed under these rules"
        if phase != "beavered":
            return "a raccoon only answers a beaver, before any dice are rolled"
        return None
    if phase == "offer":
        return "a double is pending: the opponent must take or drop"
    if action == "double":
        if phase == "beavered":
            return "only the cube owner may redouble: the beaver gave the cube to the taker"
        return _double_forbidden(state, rules)
    if action in ("roll", *_WIN_MULTIPLIER):
        return None
    return "unknown action"


def _check_state_and_rules(state: CubeState, rules: Rules, name: str = "state") -> None:
    if not isinstance(state, CubeState):
        raise ValueError(f"`{name}` must be a CubeState (got {type(state).__name__})")
    if not isinstance(rules, Rules):
        raise ValueError(f"`rules` must be a Rules instance (got {type(rules).__name__})")


def legal_actions(state: CubeState, rules: Rules) -> tuple[str, ...]:
    """The actions of :data:`ACTIONS` that are legal in ``state`` under ``rules``.

    Examples
    --------
    [RULES]: with the cube centred either player may double before rolling.

    >>> rules = Rules()
    >>> state = apply(initial_state(rules), "opening_won_A", rules)
    >>> legal_actions(state, rules)
    ('double', 'roll', 'win_single', 'win_gammon', 'win_backgammon')
    """
    _check_state_and_rules(state, rules)
    return tuple(action for action in ACTIONS if _reason_illegal(state, action, rules) is None)


def illegal_reasons(state: CubeState, rules: Rules) -> dict[str, str]:
    """For each illegal action of :data:`ACTIONS`, the rule that forbids it.

    Examples
    --------
    >>> rules = Rules(match_length=5, crawford=True)
    >>> state = initial_state(rules, 4, 2, match_phase="Crawford")
    >>> state = apply(state, "opening_won_B", rules)
    >>> illegal_reasons(state, rules)["double"]
    'Crawford rule: no doubling in the Crawford game'
    """
    _check_state_and_rules(state, rules)
    reasons = {action: _reason_illegal(state, action, rules) for action in ACTIONS}
    return {action: reason for action, reason in reasons.items() if reason is not None}


def _event(state: CubeState, action: str, actor: str, rule: str, note: str) -> CubeEvent:
    return CubeEvent(action, actor, rule, note, state.value, state.owner)


def _after_roll(state: CubeState, player: str) -> CubeState:
    """``player`` has rolled and played: his roll counted, the turn passes."""
    return replace(
        state,
        rolls_a=state.rolls_a + (player == "A"),
        rolls_b=state.rolls_b + (player == "B"),
        turn=_other(player),
        phase="turn",
        doubler=None,
    )


def _on_roll(state: CubeState) -> str:
    """The player on roll; the legality check has made sure there is one."""
    if state.turn is None:
        raise IllegalCubeAction("no player is on roll")
    return state.turn


def _doubler(state: CubeState) -> str:
    """The player whose double is pending; the legality check has made sure there is one."""
    if state.doubler is None:
        raise IllegalCubeAction("no double is pending")
    return state.doubler


def _finish(state: CubeState, rules: Rules, winner: str, points: int, ending: str) -> CubeState:
    score_a = state.score_a + (points if winner == "A" else 0)
    score_b = state.score_b + (points if winner == "B" else 0)
    over = rules.match_length is not None and max(score_a, score_b) >= rules.match_length
    return replace(
        state,
        phase="match_over" if over else "game_over",
        winner=winner,
        ending=ending,
        points=points,
        score_a=score_a,
        score_b=score_b,
        doubler=None,
    )


def _next_game(state: CubeState, rules: Rules) -> tuple[CubeState, str, str]:
    crawford_game = False
    post_crawford = state.post_crawford or state.crawford_game
    rule, note = "new game", "cube centred on 1 (64 showing)"
    if rules.crawford and rules.match_length is not None and not post_crawford:
        match_point = rules.match_length - 1
        if match_point in (state.score_a, state.score_b):
            crawford_game = True
            rule = "Crawford rule"
            note = "a player has first reached one point short of the match: no cube this game"
    if post_crawford and rules.crawford:
        rule = "Crawford rule"
        note = "post-Crawford game: normal use of the cube resumes"
        if rules.holland:
            rule = "Holland rule"
            note += ", but no double until each side has played two rolls"
    new = replace(
        initial_state(rules),
        score_a=state.score_a,
        score_b=state.score_b,
        crawford_game=crawford_game,
        post_crawford=post_crawford,
    )
    return new, rule, note


class _Step(NamedTuple):
    """What one action did: the new state (history not yet extended), who acted, the rule."""

    state: CubeState
    actor: str
    rule: str
    note: str


def _step_next_game(state: CubeState, rules: Rules) -> _Step:
    new, rule, note = _next_game(state, rules)
    return _Step(new, "-", rule, note)


def _step_automatic_double(state: CubeState, rules: Rules) -> _Step:
    new = replace(state, value=state.value * 2, automatic_doubles=state.automatic_doubles + 1)
    cap = "" if rules.murphy_cap is None else f" (cap {rules.murphy_cap})"
    note = f"opening tie: automatic double {new.automatic_doubles}{cap}; cube stays centred"
    return _Step(new, "-", "Murphy rule", note)


def _step_opening_tie(state: CubeState, rules: Rules) -> _Step:
    note = "opening tie rolled again, cube unchanged: " + str(_murphy_available(state, rules))
    return _Step(state, "-", "opening roll", note)


def _step_opening_won(winner: str) -> _Handler:
    def step(state: CubeState, rules: Rules) -> _Step:
        new = _after_roll(state, winner)
        return _Step(new, winner, "opening roll", f"{winner} wins the opening roll and plays it")

    return step


def _step_double(state: CubeState, rules: Rules) -> _Step:
    player = _on_roll(state)
    new = replace(state, phase="offer", doubler=player)
    rule = "doubling"
    note = f"{player} offers to play for {2 * state.value} points before rolling"
    if state.owner == player:
        rule = "redouble by the cube owner"
    elif state.automatic_doubles:
        rule = "Murphy rule"
        note += " (a double of the face value after the automatic doubles)"
    if rules.holland and state.post_crawford:
        rule = "Holland rule"
        note += " (each side has played two rolls since the Crawford game)"
    return _Step(new, player, rule, note)


def _step_take(state: CubeState, rules: Rules) -> _Step:
    taker = _other(_doubler(state))
    new = replace(state, value=state.value * 2, owner=taker, phase="turn", doubler=None)
    note = f"{taker} takes: stakes {new.value}, cube on {taker}'s side (only he may redouble)"
    return _Step(new, taker, "take", note)


def _step_beaver(state: CubeState, rules: Rules) -> _Step:
    taker = _other(_doubler(state))
    new = replace(state, value=state.value * 4, owner=taker, phase="beavered")
    return _Step(
        new, taker, "beaver", f"{taker} takes and beavers to {new.value}, keeping the cube"
    )


def _step_raccoon(state: CubeState, rules: Rules) -> _Step:
    new = replace(state, value=state.value * 2, phase="turn", doubler=None)
    note = f"{state.doubler} raccoons to {new.value}; {state.owner} keeps the cube"
    return _Step(new, _doubler(state), "raccoon", note)


def _step_drop(state: CubeState, rules: Rules) -> _Step:
    taker = _other(_doubler(state))
    new = _finish(state, rules, _doubler(state), state.value, "drop")
    return _Step(new, taker, "drop", f"{taker} drops and pays {state.value} point(s)")


def _step_roll(state: CubeState, rules: Rules) -> _Step:
    player = _on_roll(state)
    new = _after_roll(state, player)
    return _Step(new, player, "roll", f"{player} rolls and plays")


def _step_win(action: str) -> _Handler:
    """A win by the player on roll: single, gammon or backgammon ([RULES] scoring, Jacoby)."""
    kind = action.removeprefix("win_")

    def step(state: CubeState, rules: Rules) -> _Step:
        player = _on_roll(state)
        multiplier, rule, note = _WIN_MULTIPLIER[action], "scoring", ""
        if rules.jacoby and multiplier > 1 and state.owner == "center":
            multiplier, rule = 1, "Jacoby rule"
            note = f"{kind} counts as a single game: the cube was never offered and accepted; "
        points = state.value * multiplier
        new = _finish(state, rules, player, points, kind)
        note += f"{player} bears off and wins {points} point(s)"
        if new.phase == "match_over":
            note += f" and the match {new.score_a}-{new.score_b}"
        return _Step(new, player, rule, note)

    return step


_Handler = Callable[[CubeState, Rules], _Step]

#: What each action does, by action: the transitions of :func:`apply`.
_STEPS: dict[str, _Handler] = {
    "automatic_double": _step_automatic_double,
    "opening_tie": _step_opening_tie,
    "opening_won_A": _step_opening_won("A"),
    "opening_won_B": _step_opening_won("B"),
    "double": _step_double,
    "take": _step_take,
    "drop": _step_drop,
    "beaver": _step_beaver,
    "raccoon": _step_raccoon,
    "roll": _step_roll,
    "win_single": _step_win("win_single"),
    "win_gammon": _step_win("win_gammon"),
    "win_backgammon": _step_win("win_backgammon"),
    "next_game": _step_next_game,
}
assert set(_STEPS) == set(ACTIONS), "every action has its transition"


def apply(state: CubeState, action: str, rules: Rules) -> CubeState:
    """The state after ``action``, with the applied rule appended to ``history``.

    Parameters
    ----------
    state : CubeState
        Current state (not modified).
    action : str
        One of :data:`ACTIONS`; the actor is implied by the state (the player on
        roll, or the one answering a double).
    rules : Rules
        The rule set.

    Returns
    -------
    CubeState
        The new state.

    Raises
    ------
    IllegalCubeAction
        If the rules forbid ``action`` here; the message names the rule.
    ValueError
        If ``action`` is not in :data:`ACTIONS`.

    Notes
    -----
    Transitions, all from [RULES]:

    * ``double``: before rolling, with the cube centred or owned ("the right to
      re-double belongs exclusively to the player who last accepted a double");
      the opponent then ``take`` s (stake doubles, cube to the taker), ``drop`` s
      (the doubler wins the current stake) or ``beaver`` s (money play: take and
      redouble at once, keeping the cube; stake x4).
    * ``raccoon``: after a beaver, before any dice are rolled, the doubler doubles
      again (stake x8 of the original); the taker keeps the cube.
    * Murphy: each opening tie doubles the centred cube up to the agreed cap; an
      in-game double then doubles the current value (4 -> 8).
    * Jacoby (money play): a gammon or backgammon counts single while the cube is
      centred (never offered and accepted; automatic doubles do not count).
    * Crawford: the game after a player first reaches one point short of the
      match has no cube; Holland: after it, no double until each side has played
      two rolls.

    Each action's transition is one small function, looked up in a table by the
    action; the legality check (:func:`legal_actions`) runs first, for every action.

    Examples
    --------
    [RULES]' example: White (A) doubles to 2, Black (B) beavers to 4, White
    raccoons to 8 and Black keeps the cube.

    >>> rules = Rules(beavers=True, raccoons=True)
    >>> state = initial_state(rules)
    >>> for action in ("opening_won_B", "double", "beaver", "raccoon"):
    ...     state = apply(state, action, rules)
    >>> state.value, state.owner
    (8, 'B')
    """
    if not isinstance(state, CubeState):
        raise ValueError("`state` must be a CubeState")
    if not isinstance(rules, Rules):
        raise ValueError("`rules` must be a Rules instance")
    choice("action", action, ACTIONS)
    reason = _reason_illegal(state, action, rules)
    if reason is not None:
        raise IllegalCubeAction(f"{action!r} is illegal: {reason}")

    step = _STEPS[action](state, rules)
    event = _event(step.state, action, step.actor, step.rule, step.note)
    history = (event,) if action == "next_game" else (*state.history, event)
    return replace(step.state, history=history)


def replay(
    actions: Iterable[str], rules: Rules, start: CubeState | None = None
) -> tuple[CubeState, ...]:
    """All states visited when ``actions`` are applied in turn (``start`` first).

    Examples
    --------
    >>> states = replay(["automatic_double", "automatic_double"], Rules(murphy=True))
    >>> [state.value for state in states]
    [1, 2, 4]
    """
    if isinstance(actions, str) or not isinstance(actions, Iterable):
        raise ValueError(f"`actions` must be a sequence of actions (got {_shown(actions)})")
    if start is not None:
        _check_state_and_rules(start, rules, "start")
    state = initial_state(rules) if start is None else start
    states = [state]
    for action in actions:
        state = apply(state, action, rules)
        states.append(state)
    return tuple(states)


@dataclass(frozen=True)
class WalkthroughPreset:
    """A walkthrough as data: rules, starting score and the actions to step through.

    The cube-rules page's walkthroughs are instances (``ui/rules/walkthroughs.py``).

    Examples
    --------
    >>> walk = WalkthroughPreset("t", "d", Rules(beavers=True), ("opening_won_A", "double"))
    >>> [state.phase for state in walk.states()]
    ['opening', 'turn', 'offer']
    """

    title: str
    description: str
    rules: Rules
    actions: tuple[str, ...]
    score_a: int = 0
    score_b: int = 0

    def start(self) -> CubeState:
        """The preset's starting state."""
        return initial_state(self.rules, self.score_a, self.score_b)

    def states(self) -> tuple[CubeState, ...]:
        """Every state of the walkthrough, the start first."""
        return replay(self.actions, self.rules, self.start())


#: Most states :func:`event_table` tabulates (a walkthrough is a few dozen steps).
MAX_EVENT_STATES = 10_000


def player_to_act(state: CubeState) -> str:
    """Who acts next in ``state``: ``"A"``, ``"B"``, both at the opening roll, or nobody.

    The player on roll acts in phase ``"turn"``; a pending double is answered by the
    doubler's opponent; after a beaver the doubler may raccoon or roll ([RULES]).

    Returns
    -------
    str
        ``"A"``, ``"B"``, ``"both (opening roll)"`` or ``"-"`` once the game is over.

    Raises
    ------
    ValueError
        If ``state`` is not a :class:`CubeState`.

    Examples
    --------
    >>> rules = Rules(beavers=True)
    >>> states = replay(["opening_won_A", "double"], rules)
    >>> [player_to_act(s) for s in states]
    ['both (opening roll)', 'B', 'A']
    """
    if not isinstance(state, CubeState):
        raise ValueError(f"`state` must be a CubeState (got {type(state).__name__})")
    if state.phase == "opening":
        return "both (opening roll)"
    if state.phase == "offer":
        return "B" if state.doubler == "A" else "A"
    if state.phase == "beavered":
        return str(state.doubler)
    if state.game_over:
        return "-"
    return str(state.turn)


def game_label(state: CubeState, rules: Rules) -> str:
    """What kind of game ``state`` is in: money, or a match game, Crawford or after.

    Examples
    --------
    >>> game_label(initial_state(Rules()), Rules())
    'money game'
    >>> match = Rules(match_length=5, crawford=True)
    >>> game_label(initial_state(match, 4, 2, match_phase="Crawford"), match)
    '5-point match, Crawford game'
    """
    if not isinstance(state, CubeState):
        raise ValueError(f"`state` must be a CubeState (got {type(state).__name__})")
    if not isinstance(rules, Rules):
        raise ValueError(f"`rules` must be a Rules instance (got {type(rules).__name__})")
    label = "money game" if rules.money_play else f"{rules.match_length}-point match"
    if state.crawford_game:
        return label + ", Crawford game"
    if state.post_crawford:
        return label + ", post-Crawford"
    return label


def event_table(states: Sequence[CubeState]) -> pd.DataFrame:
    """The events of a replayed game, one row per step, the start as step 0.

    ``states`` are consecutive states as :func:`replay` returns them: step ``k`` is
    the last event of ``states[k]``'s history.

    Parameters
    ----------
    states : sequence of CubeState
        At least one, at most :data:`MAX_EVENT_STATES`.

    Returns
    -------
    pandas.DataFrame
        Columns ``step``, ``action`` (``"start"`` first), ``actor``, ``rule``, ``note``,
        ``stakes``, ``face``, ``owner`` and ``score`` (``"A-B"``).

    Raises
    ------
    ValueError
        If ``states`` is empty, too long, or holds something that is not a state.

    Examples
    --------
    >>> table = event_table(replay(["automatic_double"], Rules(murphy=True)))
    >>> table[["step", "action", "rule", "stakes"]].values.tolist()
    [[0, 'start', 'setup', 1], [1, 'automatic_double', 'Murphy rule', 2]]
    """
    if not isinstance(states, Iterable):
        raise ValueError(f"`states` must be a sequence of CubeState values (got {_shown(states)})")
    states = tuple(states)
    if not 1 <= len(states) <= MAX_EVENT_STATES:
        raise ValueError(f"`states` must hold 1 to {MAX_EVENT_STATES} states (got {len(states)})")
    if not all(isinstance(state, CubeState) for state in states):
        raise ValueError("`states` must be CubeState values")
    if not all(state.history for state in states[1:]):
        raise ValueError(
            "`states` must be a replayed game (from replay): each later state has an event"
        )
    rows = []
    for step, state in enumerate(states):
        event = state.history[-1] if step else None
        rows.append(
            {
                "step": step,
                "action": event.action if event else "start",
                "actor": event.actor if event else "-",
                "rule": event.rule if event else "setup",
                "note": event.note if event else "cube centred on 1 (64 showing)",
                "stakes": state.value,
                "face": state.face,
                "owner": state.owner,
                "score": f"{state.score_a}-{state.score_b}",
            }
        )
    return pd.DataFrame(rows)


#: Most winning probabilities :func:`money_rule_equities` evaluates at once.
MAX_EQUITY_POINTS = 100_000
#: Most stakes and largest stake in :func:`money_rule_equities` (cube values to 2**20).
MAX_STAKES = 16
MAX_STAKE = 2**20


def money_rule_equities(
    p: ArrayLike,
    x: float,
    W: float,
    L: float,
    stakes: Sequence[int] = (1, 2, 4),
) -> pd.DataFrame:
    r"""What the money rules do in Janowski's model: equities for each cube action.

    Per unit of the cube before the action, for the doubler's winning chance ``p``
    (and, in the taker's columns, the taker's chance), with Janowski's cubeful
    equities :math:`E_{\mathrm{cube}}` ([JR12]_, :func:`cubecore.janowski.cubeful_equity`):

    * ``hold`` :math:`E_{\mathrm{center}}`, ``hold_jacoby`` the same under the Jacoby
      rule (gammons single while the cube is centred, [RULES]);
    * ``double`` :math:`\min(2E_{\mathrm{opponent}}, 1)` (the taker's best answer);
      ``drop`` :math:`-1`;
    * the taker's ``take`` :math:`2E_{\mathrm{owned}}` and ``beaver``
      :math:`4E_{\mathrm{owned}}` (take and redouble at once, keeping the cube);
    * the doubler's answers to a beaver: ``accept_beaver`` :math:`4E_{\mathrm{opponent}}`,
      ``raccoon`` :math:`8E_{\mathrm{opponent}}`;
    * ``gain_per_unit`` = ``double - hold``, and ``gain_stake_k`` = ``k`` times it for
      each starting stake ``k`` (the Murphy rule multiplies every outcome by the stake,
      so the sign, and the decision, does not change).

    Parameters
    ----------
    p : array_like
        Winning probabilities in [0, 1], at most :data:`MAX_EQUITY_POINTS`.
    x : float
        Cube life index in [0, 1].
    W, L : float
        Average values of a win and a loss, at least 1.
    stakes : sequence of int, optional
        Starting stakes for the ``gain_stake_k`` columns, each in ``[1, MAX_STAKE]``,
        at most ``MAX_STAKES`` of them.

    Returns
    -------
    pandas.DataFrame
        Column ``p`` and the columns above, one row per probability.

    Raises
    ------
    ValueError
        Naming the parameter that is out of range.

    References
    ----------
    .. [JR12] "Janowski model revisited", blog post, 28 March 2012.
    .. [RULES] "Doubling cube", Wikipedia. https://en.wikipedia.org/wiki/Doubling_cube

    Examples
    --------
    With a dead cube (x = 0) and no gammons a centred cube holds 2P - 1, and doubling at
    P = 3/4 gains 1/2 per unit of the cube, twice that at stake 2:

    >>> frame = money_rule_equities([0.75], 0.0, 1.0, 1.0, stakes=(1, 2))
    >>> frame[["hold", "double", "gain_stake_1", "gain_stake_2"]].values.tolist()
    [[0.5, 1.0, 0.5, 1.0]]
    """
    points = finite_array("p", p).ravel()
    if points.size > MAX_EQUITY_POINTS:
        raise ValueError(f"`p` must hold at most {MAX_EQUITY_POINTS} values (got {points.size})")
    if not isinstance(stakes, Iterable) or len(stakes := tuple(stakes)) > MAX_STAKES:
        raise ValueError(f"`stakes` must be a sequence of at most {MAX_STAKES} whole numbers")
    stakes = tuple(whole_number("stakes", stake, 1, MAX_STAKE) for stake in stakes)
    owned = janowski.cubeful_equity(points, x, "owned", W, L)
    opponent = janowski.cubeful_equity(points, x, "opponent", W, L)
    center = janowski.cubeful_equity(points, x, "center", W, L)
    double = np.minimum(2.0 * opponent, 1.0)
    frame = {
        "p": points,
        "hold": center,
        "hold_jacoby": janowski.cubeful_equity(points, x, "center", W, L, jacoby=True),
        "double": double,
        "drop": np.full_like(points, -1.0),
        "take": 2.0 * owned,
        "beaver": 4.0 * owned,
        "accept_beaver": 4.0 * opponent,
        "raccoon": 8.0 * opponent,
        "gain_per_unit": double - center,
    }
    for stake in stakes:
        frame[f"gain_stake_{stake}"] = stake * (double - center)
    return pd.DataFrame(frame)
