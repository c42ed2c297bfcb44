"""The public API of :mod:`cubecore` at its boundary (issue 18, item 4).

Every public function (each module's ``__all__``, found at import time, so a new
function is covered automatically), and every public input type that checks its
fields (a dataclass with ``__post_init__``), is called with valid arguments of
which at most one is replaced by a hostile value: NaN, infinities, integers beyond
float range, subnormal floats, negative numbers, complex numbers, text, bools for
numbers, empty and oversized arrays, ``None``, bytes, an arbitrary object. Each
call must

- return finite values (dataclasses, DataFrames, arrays, mappings and tuples are
  walked; the fields whose documented meaning is "undefined here" are listed in
  :data:`NON_FINITE_ALLOWED` with the docstring's words) or raise ``ValueError`` or
  ``TypeError``;
- finish within :data:`CPU_BUDGET` seconds of the process's CPU time (an
  ``ITIMER_PROF`` alarm, not the wall clock, so a loaded machine does not fail it),
  and within :data:`HANG_SECONDS`: every call runs in a worker process
  (:class:`_Worker`), which is killed and replaced when a call outlasts that (a hang;
  the CPU alarm cannot stop a call stuck in one long numpy operation);
- when it refuses the hostile value, name that argument in the message (unless the
  valid draw alone is refused too, or the argument is a text whose content the
  message describes, :data:`CONTENT`);
- refuse any non-bool given for a bool option (``jacoby="no"`` must not mean yes).

Every outcome is counted (:data:`COUNTS`: calls, refusals, hangs, CPU overruns,
exceptions other than ``ValueError``/``TypeError``, refusals that do not name the
parameter, non-finite results) and the counts are written to
``test-artifacts/api-fuzz-counts*.json`` when the module ends; issue #38's acceptance
is 0 hangs, 0 other exceptions and 0 non-finite results.

Reproducible: ``derandomize=True`` and no example database. A public function whose
parameter has no strategy fails :func:`test_every_public_function_has_a_strategy`.
The issue's own hostile calls are :func:`test_issue_cases_raise_naming_the_parameter`.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import inspect
import json
import math
import multiprocessing
import os
import signal
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime
from fractions import Fraction
from multiprocessing.connection import Connection
from pathlib import Path
from types import FrameType, MappingProxyType
from typing import Any

import hypothesis.strategies as hst
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, Phase, given, settings

import cubecore

# One worker runs the whole module (xdist group), so its module fixtures (the bear-off
# cache and the worker process) are set up once: -n 2 otherwise split the module and each
# worker built its own.
pytestmark = pytest.mark.xdist_group("api fuzz worker")

#: CPU seconds one call may take (ITIMER_PROF counts the process's user + system time).
CPU_BUDGET = 2.0
#: Seconds one call may run before it counts as a hang (its worker is killed and
#: replaced): seconds of the worker's CPU time, which on an idle machine are its wall
#: time; a loaded machine (the build machine's 2 cores are shared) stretches the wall
#: clock, not the work. A call that waits without working is a hang after
#: :data:`HANG_WALL_SECONDS` of wall time.
HANG_SECONDS = 10.0
HANG_WALL_SECONDS = 120.0
#: How often the parent looks at a running call (seconds).
POLL_SECONDS = 0.5
#: Wall seconds a new worker may take to import the module (cubecore, its fixtures).
WORKER_START_SECONDS = 300.0
#: Outcomes of every call of the run, by kind (see the module docstring).
COUNTS: Counter[str] = Counter()
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
#: Examples per public function: a few dozen keeps the whole test near a minute on CI.
EXAMPLES = 30

# --------------------------------------------------------------------------- discovery


def _public_functions() -> list[tuple[str, str, Callable[..., Any]]]:
    found = []
    for module_name in cubecore.__all__:
        module = importlib.import_module(f"cubecore.{module_name}")
        for name in module.__all__:
            obj = getattr(module, name)
            # functions, and the input types that check their fields (__post_init__)
            if inspect.isfunction(obj) or (
                inspect.isclass(obj)
                and dataclasses.is_dataclass(obj)
                and hasattr(obj, "__post_init__")
            ):
                found.append((module_name, name, obj))
    return found


FUNCTIONS = _public_functions()
IDS = [f"{module}.{name}" for module, name, _ in FUNCTIONS]

# --------------------------------------------------------------------------- fixtures built once

_KXG = cubecore.met.load_table("kxg2")
_SMALL_TABLE = cubecore.met.model_table(0.26, 1.0, 11)
TABLES = hst.sampled_from([_KXG, _SMALL_TABLE])
_RULES = [
    cubecore.rules.Rules(),
    cubecore.rules.Rules(beavers=True, jacoby=True),
    cubecore.rules.Rules(murphy=True, murphy_cap=2),
    cubecore.rules.Rules(match_length=5, crawford=True),
]
_STATES = [cubecore.rules.initial_state(r) for r in _RULES]
_STATES += [
    cubecore.rules.apply(
        cubecore.rules.apply(_STATES[0], "opening_won_A", _RULES[0]), "double", _RULES[0]
    )
]
_POSITIONS = [
    cubecore.position.position_from_id("4HPwATDgc/ABMA"),  # the opening position
    cubecore.position.position_from_id("AwAAYDsAAAAAAA"),  # a race
    cubecore.position.position_from_id("2+4OAAAAAAAAAA"),
]
_SCORES = [
    cubecore.match_points.MatchScore(_KXG, 5, 3),
    cubecore.match_points.MatchScore(_KXG, 1, 3, phase="Crawford"),
    cubecore.match_points.MatchScore(_KXG, 2, 1, phase="post-Crawford"),
    cubecore.match_points.MatchScore(_SMALL_TABLE, 4, 4, cube_value=2, cube_owner="player"),
    cubecore.match_points.MatchScore(_SMALL_TABLE, 6, 3, cube_value=4, cube_owner="opponent"),
]
_SETTINGS = [
    cubecore.cubeful.CubeSetting(0.68),
    cubecore.cubeful.CubeSetting(0.5, cube=2, owner="player", jacoby=True, beavers=True),
    cubecore.cubeful.CubeSetting(0.68, table=_KXG, away=5, opp_away=3),
    cubecore.cubeful.CubeSetting(
        0.6, cube=2, owner="player", table=_SMALL_TABLE, away=4, opp_away=7
    ),
]
_GAMES = cubecore.pgame.simulate_games(cubecore.pgame.GameBatch(200, seed=1))
_QUESTIONS = cubecore.drills.quiz("take_point", seed=3, count=3) + cubecore.drills.quiz(
    "cube_action", 5, 1, 2
)
_LINE = cubecore.piecewise.line(0.0, 1.0)
_PIECEWISE = [
    _LINE,
    cubecore.piecewise.line(-1.0, 0.5),
    cubecore.piecewise.piecewise_linear([0, 0.5, 1], [0, 1, 0]),
]


@pytest.fixture(scope="module")
def bearoff_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A cache directory holding both bear-off databases, built before any timed call.

    It is also the default cache (``$CUBE_LAB_DATA``) while the module runs: a function
    without a ``cache_dir`` parameter (``cubecore.drills.quiz`` on race questions) reads the
    databases from there too, instead of building them inside its CPU budget, as it
    would in a fresh clone whose ``data/cache`` is still empty.
    """
    path = tmp_path_factory.mktemp("bearoff")
    cubecore.bearoff.one_sided_database(path)
    cubecore.bearoff.two_sided_database(path)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CUBE_LAB_DATA", str(path))
        yield str(path)


# --------------------------------------------------------------------------- valid values

probability = hst.floats(0.0, 1.0)
gammon_rate = hst.floats(0.0, 0.5)
small_away = hst.integers(2, 11)
flags = hst.booleans()


def _floats_list(low: float, high: float, max_size: int = 6) -> hst.SearchStrategy[Any]:
    items = hst.lists(hst.floats(low, high), min_size=1, max_size=max_size)
    return hst.one_of(items, items.map(np.array), hst.floats(low, high))


def _ints_list(low: int, high: int, max_size: int = 6) -> hst.SearchStrategy[Any]:
    items = hst.lists(hst.integers(low, high), min_size=1, max_size=max_size)
    return hst.one_of(items, items.map(np.array), hst.integers(low, high))


def _checkers(max_total: int = 6) -> hst.SearchStrategy[list[int]]:
    return hst.lists(hst.integers(0, 3), min_size=6, max_size=6).filter(
        lambda v: 0 < sum(v) <= max_total
    )


#: Valid values by parameter name (the function's default is always drawn too).
VALID: dict[str, hst.SearchStrategy[Any]] = {
    "W": hst.floats(1.0, 3.0),
    "L": hst.floats(1.0, 3.0),
    "a": hst.floats(1.0, 10.0),
    "b": hst.floats(1.0, 10.0),
    "a_values": _floats_list(1.0, 10.0),
    "b_values": _floats_list(1.0, 10.0),
    "batch": hst.builds(
        cubecore.pgame.GameBatch,
        n_games=hst.integers(1, 2000),
        thresholds=hst.sampled_from((cubecore.pgame.Thresholds(), cubecore.pgame.OPTIMAL)),
        rules=hst.sampled_from(_RULES[:3]),
        seed=hst.integers(0, 1000),
    ),
    "action": hst.sampled_from(cubecore.rules.ACTIONS),
    "actions": hst.lists(hst.sampled_from(cubecore.rules.ACTIONS), max_size=6),
    "aid": hst.sampled_from(sorted(cubecore.met_aids.MEMORY_AIDS)),
    "answer": hst.one_of(hst.floats(0.0, 100.0), hst.sampled_from(cubecore.drills.CUBE_ACTIONS)),
    "away": hst.integers(1, 11),
    "opp_away": hst.integers(1, 11),
    "backgammon_rate": hst.floats(0.0, 0.1),
    "opp_backgammon_rate": hst.floats(0.0, 0.1),
    "beavers": flags,
    "jacoby": flags,
    "crawford": flags,
    "crawford_game": flags,
    "centred": flags,
    "can_gammon": flags,
    "money": flags,
    "no_double": hst.floats(-3.0, 3.0),
    "double_take": hst.floats(-6.0, 6.0),
    "double_pass": hst.floats(-6.0, 6.0),
    "post_crawford": flags,
    "complement": flags,
    "doubles": flags,
    "taker_passes": flags,
    "cube_available": flags,
    "concede": flags,
    "margins": flags,
    "round_down": flags,
    "bottom_on_roll": flags,
    "by": hst.just("on_roll_pips"),
    "caps": hst.lists(hst.one_of(hst.none(), hst.integers(0, 12)), min_size=1, max_size=4),
    "center_give_up": hst.floats(0.5, 1.0),
    "own_give_up": hst.floats(0.5, 1.0),
    "confidence": probability,
    "count": hst.integers(1, 5),
    "counts": _ints_list(1, 150),
    "cube_efficiency": probability,
    "cube_life": probability,
    "cube_owner": hst.sampled_from(cubecore.match.CUBE_OWNERS),
    "cube_value": hst.sampled_from((1, 2, 4, 8)),
    "da": hst.floats(0.5, 1.0),
    "db": hst.floats(0.5, 1.0),
    "data": hst.sampled_from(
        (cubecore.met_io.to_csv(_SMALL_TABLE), cubecore.met_io.to_xg_met(_SMALL_TABLE), "x")
    ),
    "delay_rolls": hst.integers(0, 8),
    "deviations": hst.none(),
    "difficulty": hst.integers(1, len(cubecore.drills.DIFFICULTIES)),
    "digits": hst.integers(0, 6),
    "double_point": hst.floats(0.5, 1.0),
    "double_points": _floats_list(0.5, 1.0),
    "e": _floats_list(-3.0, 3.0),
    "equities": _floats_list(-1.0, 1.0),
    "equity": _floats_list(-1.0, 1.0),
    "next_equity": _floats_list(-1.5, 1.5),
    "next_equities": _floats_list(-1.5, 1.5),
    "weights": hst.none(),
    "w": _floats_list(0.0, 1.0),
    "volatility": _floats_list(0.0, 0.5),
    "exact": hst.lists(hst.floats(0.0, 1.0), min_size=1, max_size=4).map(pd.Series),
    "printed": hst.lists(hst.floats(0.0, 1.0), min_size=1, max_size=4).map(pd.Series),
    "f": hst.sampled_from(_PIECEWISE),
    "g": hst.sampled_from(_PIECEWISE),
    "file_name": hst.sampled_from(("t.csv", "t.met", "t.xml")),
    "frame": hst.just(cubecore.race_heuristics.rules_of_thumb_map("center", max_count=20)),
    "games": hst.just(_GAMES),
    "theory": hst.just(cubecore.pgame.theoretical_cube_distribution()),
    "gammon_rate": gammon_rate,
    "opp_gammon_rate": gammon_rate,
    "give_up": hst.floats(0.5, 1.0),
    "give_ups": hst.builds(
        cubecore.giveup.GiveUpPoints,
        hst.floats(0.5, 1.0, exclude_min=True),
        hst.floats(0.5, 1.0, exclude_min=True),
    ),
    "i": hst.integers(0, 8),
    "j": hst.integers(0, 8),
    "key": hst.sampled_from(sorted(cubecore.met.TABLES)),
    "keys": hst.lists(hst.sampled_from(sorted(cubecore.references.REFERENCES)), max_size=3),
    "length": hst.integers(1, 11),
    "level": hst.floats(-2.0, 2.0),
    "lower": hst.sampled_from(_PIECEWISE),
    "upper": hst.sampled_from(_PIECEWISE),
    "max_away": small_away,
    "max_checkers": hst.integers(1, 3),
    "max_count": hst.integers(1, 40),
    "min_count": hst.integers(1, 40),
    "method": hst.sampled_from(("closed_form", "recursion")),
    "min_take": hst.floats(0.0, 0.5),
    "n": hst.integers(1, 11),
    "n_games": hst.integers(1, 2000),
    "n_max": hst.integers(1, 20),
    "offset": hst.integers(-20, 20),
    "on_roll": hst.integers(1, 150),
    "opponent": hst.integers(1, 150),
    "owner": hst.sampled_from(("center", "owned", "opponent")),
    "p": _floats_list(0.0, 1.0),
    "p_values": _floats_list(0.0, 1.0),
    "x_values": _floats_list(0.0, 1.0),
    "x_takers": _floats_list(0.0, 1.0),
    "phase": hst.sampled_from(cubecore.match_points.MATCH_PHASES),
    "match_phase": hst.sampled_from(cubecore.match_points.MATCH_PHASES),
    "pick": hst.sampled_from((min, max)),
    "pips": hst.integers(1, 375),
    "point": hst.sampled_from(("alpha", "beta")),
    "points": hst.integers(2, 401),
    "position": hst.sampled_from(_POSITIONS),
    "position_class": hst.sampled_from(cubecore.cubeful.POSITION_CLASSES),
    "position_id": hst.sampled_from(("4HPwATDgc/ABMA", "AwAAYDsAAAAAAA", "x")),
    "position_key": hst.sampled_from(("early-start", "early-five-point-hit", "x")),
    "probabilities": hst.tuples(
        hst.floats(0.0, 1.0),
        hst.floats(0.0, 0.3),
        hst.floats(0.0, 0.05),
        hst.floats(0.0, 0.3),
        hst.floats(0.0, 0.05),
    ).filter(lambda t: t[1] <= t[0] and t[2] <= t[1] and t[4] <= t[3] and t[3] <= 1 - t[0]),
    "progress": hst.none(),
    "question": hst.sampled_from(_QUESTIONS),
    "rolls": _ints_list(0, 40),
    "rules": hst.sampled_from(_RULES),
    "rates": hst.builds(
        cubecore.match_points.GammonRates,
        gammon_rate=gammon_rate,
        backgammon_rate=hst.floats(0.0, 0.1),
        opp_gammon_rate=gammon_rate,
        opp_backgammon_rate=hst.floats(0.0, 0.1),
    ),
    "score": hst.sampled_from(_SCORES),
    "score_a": hst.integers(0, 4),
    "score_b": hst.integers(0, 4),
    "seed": hst.integers(0, 1000),
    # generous: a valid draw never runs out of it (a hostile value is refused first)
    "time_budget": hst.one_of(hst.none(), hst.floats(60.0, 3600.0)),
    "setting": hst.sampled_from(_SETTINGS),
    "settings": hst.floats(0.0, 1.0).map(lambda x: cubecore.atlas.equivalent_settings("x", x)),
    "size_i": hst.integers(1, 10),
    "size_j": hst.integers(1, 10),
    "slack": hst.floats(0.0, 0.1),
    "source": hst.sampled_from(("give_up", "x", "da")),
    "spread": hst.floats(0.0, 0.25),
    "stakes": hst.lists(hst.sampled_from((1, 2, 4, 8)), min_size=1, max_size=4),
    "start": probability,
    "state": hst.sampled_from(_STATES),
    "states": hst.lists(hst.sampled_from(_STATES), max_size=4),
    "step_size": hst.floats(0.001, 0.1),
    "steps": hst.integers(1, 10_000),
    "table": TABLES,
    "text": hst.sampled_from(("", "x", "XGID=-a-B--E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10")),
    "thresholds": hst.sampled_from((cubecore.pgame.Thresholds(), cubecore.pgame.OPTIMAL)),
    "tolerance": hst.floats(0.0, 0.1),
    "topic": hst.sampled_from(sorted(cubecore.drills.TOPICS)),
    "trailer_away": hst.integers(2, 25),
    "value": hst.floats(0.0, 3.0),
    "where": hst.sampled_from(("", "eq. (1)")),
    "x": probability,
    "x_doubler": probability,
    "x_taker": probability,
    "xs": hst.lists(hst.floats(0.0, 1.0), min_size=2, max_size=5).map(sorted),
    "ys": hst.lists(hst.floats(-1.0, 1.0), min_size=2, max_size=5),
    "y0": hst.floats(-1.0, 1.0),
    "y1": hst.floats(-1.0, 1.0),
    "your_counts": _ints_list(5, 150),
    "offsets": _ints_list(-20, 30),
}

#: Valid values where a parameter's name means something else in one function.
VALID_IN: dict[tuple[str, str], hst.SearchStrategy[Any]] = {
    ("compare_tables", "a"): TABLES,
    ("compare_tables", "b"): TABLES,
    ("printed_comparison", "table"): hst.sampled_from(
        sorted(cubecore.keeler_spencer.PRINTED_TABLES)
    ),
    ("cube_action_choice", "action"): hst.sampled_from(
        ("No double, take", "Double, pass", "Too good to redouble, pass", "Double, take")
    ),
    ("race_thresholds", "count"): hst.integers(1, 375),
    ("cube_face", "value"): _ints_list(1, 4096),
    ("classify_gammon_value", "value"): hst.floats(0.0, 3.0),
    ("bearoff_distribution", "pips"): hst.integers(1, 60),
    ("bearoff_roll_probability", "pips"): _ints_list(0, 60),
    ("gnubg_race_cube_life", "pips"): _ints_list(0, 375),
    ("one_sided", "points"): _checkers(15),
    ("race_win_probability", "on_roll"): _ints_list(1, 150),
    ("race_win_probability", "opponent"): _ints_list(1, 150),
    ("kleinman_win_probability", "on_roll"): _ints_list(1, 150),
    ("kleinman_win_probability", "opponent"): _ints_list(1, 150),
    ("rule_8_9_12", "on_roll"): _ints_list(1, 150),
    ("rule_8_9_12", "opponent"): _ints_list(1, 150),
    ("next_equity_density", "equity"): hst.floats(-1.0, 1.0),
    ("next_equity_density", "volatility"): hst.floats(0.0, 0.5),
    ("holland_effect", "volatility"): hst.floats(0.0, 0.5),
    ("holland_table", "volatility"): hst.floats(0.0, 0.5),
    ("replay", "start"): hst.one_of(hst.none(), hst.sampled_from(_STATES)),
    ("taut_string", "lower"): hst.just([0.0, 0.0, 0.0]),
    ("taut_string", "upper"): hst.just([1.0, 1.0, 1.0]),
    ("taut_string", "xs"): hst.just([0.0, 0.5, 1.0]),
    ("parse_evaluation", "text"): hst.sampled_from(("", "x", "Win 0.6 G 0.1 BG 0.0")),
    ("position_from_xgid", "text"): hst.sampled_from(
        ("XGID=-a-B--E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10", "x")
    ),
    ("xgid_info", "text"): hst.sampled_from(
        ("XGID=-a-B--E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10", "x")
    ),
    ("equivalent_settings", "value"): hst.floats(0.0, 1.0),
    ("race_match_cube_life_by_score", "max_away"): hst.integers(1, 4),
    ("limited_doubling_point", "n"): hst.integers(1, 60),
    ("load_table", "key"): hst.sampled_from(sorted(cubecore.met.TABLES)),
    ("fit_table", "max_away"): hst.integers(2, 5),
    ("source", "key"): hst.sampled_from(sorted(cubecore.references.REFERENCES)),
}
_optional_point = hst.one_of(hst.none(), hst.floats(0.5, 1.0))
_LIBRARY_SCORES = hst.sampled_from(tuple(cubecore.library.SCORES))
VALID_IN.update(
    {
        ("evaluation", "score"): _LIBRARY_SCORES,
        ("evaluation", "level"): hst.sampled_from(cubecore.library.LEVELS),
        ("stored_rollout", "score"): _LIBRARY_SCORES,
        ("close_check", "score"): _LIBRARY_SCORES,
        ("verdict_of", "action"): hst.sampled_from(
            ("No double, take", "Double, take", "Double, pass", "Too good to double, pass")
        ),
    }
)
VALID_IN.update(
    {
        ("CubelessProbabilities", "win"): probability,
        ("CubelessProbabilities", "win_gammon"): hst.floats(0.0, 0.3),
        ("CubelessProbabilities", "win_backgammon"): hst.floats(0.0, 0.05),
        ("CubelessProbabilities", "lose_gammon"): hst.floats(0.0, 0.3),
        ("CubelessProbabilities", "lose_backgammon"): hst.floats(0.0, 0.05),
        ("CubeSetting", "owner"): hst.sampled_from(cubecore.cubeful.CUBE_OWNERS),
        ("CubeSetting", "table"): hst.one_of(hst.none(), TABLES),
        ("MatchEquityTable", "key"): hst.just("fuzz"),
        ("MatchEquityTable", "name"): hst.just("fuzz"),
        ("MatchEquityTable", "pre"): hst.just(_SMALL_TABLE.pre),
        ("MatchEquityTable", "post"): hst.just(_SMALL_TABLE.post),
        ("MatchEquityTable", "description"): hst.just(""),
        ("MatchEquityTable", "notice"): hst.just(""),
        ("MatchEquityTable", "meta"): hst.just({}),
        ("MatchEquityTable", "post_opponent"): hst.none(),
        ("Position", "on_roll"): hst.sampled_from([p.on_roll for p in _POSITIONS]),
        ("Position", "opponent"): hst.sampled_from([p.opponent for p in _POSITIONS]),
        ("Position", "on_roll_bar"): hst.integers(0, 2),
        ("Position", "opponent_bar"): hst.integers(0, 2),
        ("Rules", "murphy_cap"): hst.one_of(hst.none(), hst.integers(1, 64)),
        ("Rules", "match_length"): hst.one_of(hst.none(), hst.integers(1, 64)),
    }
)
_ANSWERED = hst.lists(
    hst.builds(
        cubecore.review.Answered,
        key=hst.sampled_from(("double:early-start:money", "take:early-start:3-1")),
        correct=flags,
        at=hst.datetimes(datetime(2026, 1, 1), datetime(2026, 12, 31)),
        theme=hst.sampled_from(cubecore.library.THEMES),
    ),
    max_size=8,
)
_POSITION_TOPICS = hst.sampled_from(tuple(cubecore.position_drills.POSITION_TOPICS))
VALID_IN.update(
    {
        ("question_of_card", "card"): hst.sampled_from(
            ("double:early-start:money", "score:early-start:3-1", "x")
        ),
        ("position_quiz", "topic"): _POSITION_TOPICS,
        ("position_question", "topic"): _POSITION_TOPICS,
        ("position_question", "score"): _LIBRARY_SCORES,
        ("grade_position", "question"): hst.sampled_from(
            cubecore.position_drills.position_quiz("score", seed=1, count=3)
        ),
        ("grade_position", "answer"): hst.sampled_from(cubecore.position_drills.ACTION_CHOICES),
        ("cards", "answers"): _ANSWERED,
        ("error_rates", "answers"): _ANSWERED,
        ("due_cards", "items"): _ANSWERED.map(cubecore.review.cards),
        ("upcoming_cards", "items"): _ANSWERED.map(cubecore.review.cards),
        ("due_cards", "now"): hst.datetimes(datetime(2026, 1, 1), datetime(2027, 12, 31)),
        ("upcoming_cards", "now"): hst.datetimes(datetime(2026, 1, 1), datetime(2027, 12, 31)),
    }
)
for _name in ("beavers", "raccoons", "murphy", "jacoby", "crawford", "holland"):
    VALID_IN[("Rules", _name)] = flags
for _side in ("a", "b"):
    VALID_IN[("Thresholds", f"double_{_side}")] = hst.floats(0.5, 1.0)
    VALID_IN[("Thresholds", f"redouble_{_side}")] = _optional_point
    VALID_IN[("Thresholds", f"take_{_side}")] = hst.floats(0.0, 0.5)
    VALID_IN[("Thresholds", f"beaver_{_side}")] = _optional_point
    VALID_IN[("Thresholds", f"raccoon_{_side}")] = _optional_point
for _name in ("parse_csv", "parse_gnubg_xml", "parse_xg_met", "read_table"):
    VALID_IN[(_name, "key")] = hst.just("upload")
for _name in ("one_sided_win_probability", "two_sided", "bearoff_match_equities"):
    VALID_IN[(_name, "on_roll")] = _checkers()
    VALID_IN[(_name, "opponent")] = _checkers()

#: Parameters holding a file's or a code's text: see the content rule in the test.
CONTENT = {"data", "text", "position_id", "file_name", "answer"}

#: Parameters filled by a fixture, never fuzzed: a hostile cache directory would
#: write a bear-off database wherever the text points.
FIXED = {"cache_dir"}

# --------------------------------------------------------------------------- hostile values

_HUGE_ARRAY = np.full(2_000_001, 0.5)
# the default array bound of cubecore._validate: a function whose cost per entry is
# high must state a smaller bound, or the budget fails
_LARGE_ARRAY = np.full(1_000_000, 0.5)
_LARGE_COUNTS = np.full(1_000_000, 50)
HOSTILE: tuple[Any, ...] = (
    math.nan,
    math.inf,
    -math.inf,
    np.float64("nan"),
    10**18,
    -(10**18),
    10**400,
    -(10**400),
    1e300,
    1e-320,
    -1.0,
    -1,
    0,
    2**63,
    1 + 2j,
    np.complex128(0.5 + 0j),
    "0.5",
    "no",
    "",
    True,
    False,
    None,
    [],
    np.array([]),
    [math.nan],
    [0.5, 1 + 1j],
    [10**400],
    _HUGE_ARRAY,
    _LARGE_ARRAY,
    _LARGE_COUNTS,
    b"\x00",
    object(),
)

#: Fields (columns, attributes) whose documented meaning allows NaN: "undefined here".
#: Each is stated in the function's docstring; anything else non-finite fails.
NON_FINITE_ALLOWED: dict[str, tuple[str, ...]] = {
    # "the cube life it implies ..., NaN where undefined" (and their medians)
    "pip_model_comparison": ("cube_life']",),
    "pip_model_errors": ("cube_life']",),
    # "NaN where the cube is not available or changes nothing"
    "score_matrix": ("",),
    "decision_margins": ("",),
    "decision_anatomy": ("",),
    "market_window": ("",),
    # "``nan`` where the aid is not defined"
    "memory_aid_table": ("",),
    "compare_memory_aid": ("",),
    # the doubling point of a score where no double is possible
    "take_points_by_cube": ("['doubling_point']",),
    "take_point_table": ("",),
    # "``nan`` where no spread in [0, 0.25] gives the table's entry"
    "implied_spread": ("result",),
    # "The same two points with the automatic redouble (``nan`` without one)"
    "cube_points": ("_redoubled",),
    # and MarketWindow's "``nan`` where a point is 0/0 (the double neither risks nor
    # gains anything)": the table's dead cube levels (2-away/1-away at cube 2)
    "cube_points_table": ("_redoubled", "['double_point']"),
    # "``None`` where the decision never occurs" (the printed cells: NaN if not printed)
    "cube_action_map": ("['double_take']", "['double_pass']"),
    "table_3": ("['last_take']", "['first_redouble']", "['first_double']", "['printed_"),
    "essay_table_with_printed": ("['printed ",),
    # "``cube_life`` (NaN where undefined)"
    "race_match_cube_life": ("['cube_life']",),
    "race_match_cube_life_by_score": ("['cube_life']",),
    "race_match_action_map": ("['double_take']", "['double_pass']"),
    "rules_of_thumb_map": ("['double_take']", "['double_pass']", "['kleinman_"),
    # RaceCount.win "float or None": a count that gives no winning chance
    "race_counts": ("['win']",),
    # "NaN for the doubling fields when the opponent owns the cube"
    "race_cube_equities": ("double_take", "double_pass"),
    # "NaN where he may not double (no access, a dead cube, the Crawford game)"
    "race_match_equities": ("double_take", "double_pass"),
    # "NaN where the decision never occurs in ..."
    "race_match_window": ("",),
    # "doubling_point, cash_point ... ``nan`` where the ..." (no double at the score)
    "take_point": ("doubling_point", "cash_point"),
    # "DB is undefined (NaN) where p_B = 1", "NaN where DB is"
    "implied_doubling_points": ("",),
    "implied_cube_life": ("['cube_life']",),
    # "NaN for the doubling fields when the opponent ..."
    "next_exchange_equities": ("",),
    # "points_a (A's points when the game ends on this event, else NaN)"
    "path_cube_actions": ("['points_a']",),
}


#: Defaults never drawn: a documented computation longer than the budget (the
#: two-sided bear-off database of 6 checkers takes ~5 s, built once and cached; the
#: table fit at 11-away ~2 s).
EXPENSIVE_DEFAULTS = {("build_two_sided", "max_checkers"), ("fit_table", "max_away")}


def _strategy_for(function: str, parameter: inspect.Parameter) -> hst.SearchStrategy[Any] | None:
    key = (function, parameter.name)
    if parameter.name == "cube" and key not in VALID_IN:
        if "int" in str(parameter.annotation):
            valid = hst.sampled_from((1, 2, 4, 8))
        else:
            valid = hst.sampled_from(("center", "owned", "opponent"))
    elif key in VALID_IN:
        valid = VALID_IN[key]
    elif parameter.name in VALID:
        valid = VALID[parameter.name]
    else:
        return None
    if parameter.default is not inspect.Parameter.empty and key not in EXPENSIVE_DEFAULTS:
        valid = hst.one_of(hst.just(parameter.default), valid)
    return valid


# --------------------------------------------------------------------------- the checks


class _OverBudget(BaseException):
    """Raised from the CPU-time alarm: not an Exception, so no `except` in the code hides it."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise _OverBudget


def _call_with_budget(function: Callable[..., Any], args: list[Any], kwargs: dict[str, Any]) -> Any:
    previous = signal.signal(signal.SIGPROF, _alarm)
    signal.setitimer(signal.ITIMER_PROF, CPU_BUDGET)
    try:
        return function(*args, **kwargs)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0.0)
        signal.signal(signal.SIGPROF, previous)


def _outcome(
    function: Callable[..., Any], args: list[Any], kwargs: dict[str, Any]
) -> tuple[Any, ...]:
    """In the worker: one call under the CPU alarm, as a small picklable outcome.

    ``("ok", non-finite paths)``, ``("refused", exception type, message)`` for a
    ``ValueError``/``TypeError``, ``("over_budget",)``, or ``("exception", type, message)``.
    """
    try:
        result = _call_with_budget(function, args, kwargs)
    except _OverBudget:
        return ("over_budget",)
    except (ValueError, TypeError) as error:
        return ("refused", type(error).__name__, str(error))
    except Exception as error:
        return ("exception", type(error).__name__, str(error)[:300])
    return ("ok", list(_non_finite(result)))


def _serve(connection: Connection) -> None:
    """The worker's loop: (module, qualified name, args, kwargs) in, an outcome out."""
    while True:
        request = connection.recv()
        if request is None:
            return
        module_name, qualname, args, kwargs = request
        target: Any = importlib.import_module(module_name)
        for part in qualname.split("."):
            target = getattr(target, part)
        connection.send(_outcome(target, args, kwargs))


class _Worker:
    """One worker process that runs the calls; replaced when a call hangs."""

    def __init__(self) -> None:
        self._start()

    def _start(self) -> None:
        context = multiprocessing.get_context("spawn")
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child,), daemon=True)
        self.process.start()
        child.close()
        self.connection.send(("math", "isfinite", [0.0], {}))  # imports this module there
        if not self.connection.poll(WORKER_START_SECONDS):
            self.stop()
            raise RuntimeError(f"the fuzz worker did not start in {WORKER_START_SECONDS:.0f} s")
        self.connection.recv()

    def call(
        self, function: Callable[..., Any], args: list[Any], kwargs: dict[str, Any]
    ) -> tuple[Any, ...]:
        """The outcome of ``function(*args, **kwargs)`` in the worker, or ``("hang",)``
        (the worker killed and a new one started) past :data:`HANG_SECONDS`."""
        self.connection.send((function.__module__, function.__qualname__, args, kwargs))
        began, wall_deadline = self._cpu_seconds(), time.monotonic() + HANG_WALL_SECONDS
        while not self.connection.poll(POLL_SECONDS):
            worked = self._cpu_seconds() - began
            if worked > HANG_SECONDS or time.monotonic() > wall_deadline:
                self.stop()
                self._start()
                return ("hang",)
        outcome: tuple[Any, ...] = self.connection.recv()
        return outcome

    def _cpu_seconds(self) -> float:
        """The worker's CPU time so far (user + system, ``/proc/<pid>/stat``)."""
        with open(f"/proc/{self.process.pid}/stat", encoding="ascii") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.process.kill()
        self.process.join()
        self.connection.close()


@pytest.fixture(scope="module")
def worker(bearoff_cache: str, worker_id: str) -> Iterator[_Worker]:
    """The module's worker (started with the bear-off cache as its default), and the
    counts written once the module's tests are done."""
    one = _Worker()
    yield one
    one.stop()
    ARTIFACTS.mkdir(exist_ok=True)
    suffix = "" if worker_id == "master" else f"-{worker_id}"
    (ARTIFACTS / f"api-fuzz-counts{suffix}.json").write_text(
        json.dumps(dict(sorted(COUNTS.items())), indent=1) + "\n", encoding="utf-8"
    )


def _call(
    function: Callable[..., Any],
    parameters: list[inspect.Parameter],
    values: dict[str, Any],
    cache: str,
    worker: _Worker,
) -> tuple[Any, ...]:
    """Call ``function`` with ``values`` (positional, ``*args`` or keyword as declared) in
    the worker; its outcome (:func:`_outcome`, or ``("hang",)``)."""
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for parameter in parameters:
        value = cache if parameter.name in FIXED else values[parameter.name]
        if parameter.kind is inspect.Parameter.VAR_POSITIONAL:
            args.extend(value if isinstance(value, list) else [value])
        elif parameter.kind is inspect.Parameter.KEYWORD_ONLY:
            kwargs[parameter.name] = value
        else:
            args.append(value)
    return worker.call(function, args, kwargs)


def _non_finite(value: Any, path: str = "result") -> Iterator[str]:
    """Paths inside ``value`` holding NaN or an infinity."""
    if isinstance(value, (bool, np.bool_, str, bytes, enum.Enum, Fraction)) or value is None:
        return
    if isinstance(value, (int, np.integer)):
        return
    if isinstance(value, (float, np.floating)):
        if not math.isfinite(value):
            yield path
        return
    if isinstance(value, (complex, np.complexfloating)):
        yield f"{path} (complex)"
        return
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "fc" and not np.all(np.isfinite(value)):
            yield path
        elif value.dtype.kind == "O":
            for index, item in enumerate(value.flat):
                yield from _non_finite(item, f"{path}[{index}]")
        return
    if isinstance(value, pd.DataFrame):  # by position: labels may repeat
        for index, column in enumerate(value.columns):
            yield from _non_finite(value.iloc[:, index], f"{path}[{column!r}]")
        return
    if isinstance(value, pd.Series):
        yield from _non_finite(value.to_numpy(), path)
        return
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _non_finite(getattr(value, field.name), f"{path}.{field.name}")
        return
    if isinstance(value, (Mapping, MappingProxyType)):
        for key, item in value.items():
            yield from _non_finite(item, f"{path}[{key!r}]")
        return
    if isinstance(value, (tuple, list)):
        for index, item in enumerate(value):
            yield from _non_finite(item, f"{path}[{index}]")
        return


@pytest.mark.parametrize(("module", "name", "function"), FUNCTIONS, ids=IDS)
def test_public_function_at_its_boundary(
    module: str, name: str, function: Callable[..., Any], bearoff_cache: str, worker: _Worker
) -> None:
    """Hostile arguments: finite results or ValueError/TypeError naming the argument."""
    parameters = list(inspect.signature(function).parameters.values())
    strategies = {p.name: _strategy_for(name, p) for p in parameters if p.name not in FIXED}
    missing = [n for n, s in strategies.items() if s is None]
    assert not missing, f"{module}.{name}: no strategy for {missing}"
    fuzzed = [p for p in parameters if p.name not in FIXED]

    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        phases=(Phase.explicit, Phase.generate),  # no shrinking: the failing draw is printed
        report_multiple_bugs=False,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=hst.data())
    def check(data: hst.DataObject) -> None:
        valid = {}
        for parameter in fuzzed:
            strategy = strategies[parameter.name]
            assert strategy is not None
            valid[parameter.name] = data.draw(strategy, parameter.name)
        hostile_at = data.draw(hst.integers(-1, len(fuzzed) - 1), label="hostile parameter")
        values = dict(valid)
        hostile = fuzzed[hostile_at].name if hostile_at >= 0 else None
        if hostile is not None:
            values[hostile] = data.draw(hst.sampled_from(HOSTILE), f"hostile {hostile}")
        # text or bytes for a file's or a string's content: the message names what is
        # wrong in it (a line, a field), not the argument
        content = hostile in CONTENT and isinstance(values[hostile], (str, bytes))
        lax_flag = (
            hostile is not None
            and str(fuzzed[hostile_at].annotation) == "bool"
            and not isinstance(values[hostile], bool)
        )
        outcome = _call(function, parameters, values, bearoff_cache, worker)
        kind = outcome[0]
        COUNTS["calls"] += 1
        COUNTS[kind] += 1
        where = f"{module}.{name} with {values!r}"[:2000]
        if kind == "hang":
            pytest.fail(f"{where}: no answer within {HANG_SECONDS:.0f} s of CPU (a hang)")
        if kind == "over_budget":
            pytest.fail(f"{where}: took over {CPU_BUDGET} s of CPU")
        if kind == "exception":
            pytest.fail(f"{where}: raised {outcome[1]}: {outcome[2]}")
        if kind == "refused":
            message = outcome[2]
            if hostile is not None and hostile not in message and not content:
                # the message must name the hostile argument unless the valid draw
                # alone is refused too (valid values that do not fit together)
                if _call(function, parameters, valid, bearoff_cache, worker)[0] == "refused":
                    return
                COUNTS["unnamed"] += 1
                pytest.fail(
                    f"{module}.{name}: refusing {values[hostile]!r} for {hostile!r}, the"
                    f" message does not name it: {message}"
                )
            return
        assert not lax_flag, f"{module}.{name} took {values[hostile]!r} for the bool {hostile!r}"
        allowed = NON_FINITE_ALLOWED.get(name, {})
        bad = [p for p in outcome[1] if not any(f in p for f in allowed)]
        COUNTS["non_finite"] += bool(bad)
        assert not bad, f"{module}.{name}{values!r} returned non-finite values at {bad}"

    check()


def test_every_public_function_has_a_strategy() -> None:
    """A new public function (or parameter) needs a strategy here before it ships."""
    missing = [
        f"{module}.{name}({p.name})"
        for module, name, function in FUNCTIONS
        for p in inspect.signature(function).parameters.values()
        if p.name not in FIXED and _strategy_for(name, p) is None
    ]
    assert not missing
    assert len(FUNCTIONS) >= 205


# --------------------------------------------------------------------------- the issue's cases

_COMPLEX = np.complex128(0.5 + 0j)  # numpy casts it to 0.5 silently without the check
_P = (0.6, 0.2, 0.01, 0.1, 0.005)  # cubeless probabilities of a plausible position


@pytest.mark.parametrize(
    ("call", "error", "parameter"),
    [
        # hangs before: sizes beyond their documented bounds
        (lambda: cubecore.keeler_spencer.limited_doubling_point(10**18), ValueError, "n"),
        (lambda: cubecore.rules.Rules(murphy=True, murphy_cap=10**18), ValueError, "murphy_cap"),
        (lambda: cubecore.rules.Rules(match_length=10**18), ValueError, "match_length"),
        (lambda: cubecore.pgame.murphy_cap_table([10**18]), ValueError, "caps"),
        (
            lambda: cubecore.pgame.simulate_games(cubecore.pgame.GameBatch(10**9)),
            ValueError,
            "n_games",
        ),
        (lambda: cubecore.pgame.take_check(n_games=10**9), ValueError, "n_games"),
        (lambda: cubecore.pgame.doubling_price(0.8, n_games=10**9), ValueError, "n_games"),
        (lambda: cubecore.pgame.p_game_path(steps=10**9), ValueError, "steps"),
        (
            lambda: cubecore.atlas.atlas_curves(
                cubecore.atlas.equivalent_settings("x", 0.5), 10**9
            ),
            ValueError,
            "points",
        ),
        # integers beyond float range: a ValueError, not OverflowError
        (lambda: cubecore.janowski.cube_points(10**400), ValueError, "x"),
        (lambda: cubecore.janowski.dead_cube_equity([10**400]), ValueError, "p"),
        (lambda: cubecore.match.match_equity(3, 3, gammon_rate=10**400), ValueError, "gammon_rate"),
        (lambda: cubecore.drills.grade(_QUESTIONS[0], 10**400), ValueError, "answer"),
        (lambda: cubecore.piecewise.line(10**400, 0.0), ValueError, "y0"),
        # volatility below ~1e-154: its square underflows, the Beta law was NaN
        (lambda: cubecore.giveup.volatility_doubling_gain(0.3, 1e-160), ValueError, "volatility"),
        (lambda: cubecore.giveup.next_equity_spread(0.3, 1e-160), ValueError, "volatility"),
        (lambda: cubecore.giveup.next_equity_density([0.3], 0.3, 1e-20), ValueError, "volatility"),
        (lambda: cubecore.match.holland_effect(3, volatility=1e-320), ValueError, "volatility"),
        # complex input is refused, never cast to its real part
        (lambda: cubecore.janowski.cube_points(_COMPLEX), ValueError, "x"),
        (lambda: cubecore.janowski.cube_points(0.5 + 0j), ValueError, "x"),
        (lambda: cubecore.janowski.dead_cube_equity(np.array([0.5 + 0j])), ValueError, "p"),
        (lambda: cubecore.giveup.GiveUpPoints(_COMPLEX, 0.835), ValueError, "own_give_up"),
        (
            lambda: cubecore.match.match_equity(3, 3, cube_efficiency=_COMPLEX),
            ValueError,
            "cube_efficiency",
        ),
        (lambda: cubecore.match_points.classify_gammon_value(_COMPLEX), ValueError, "value"),
        # bool options take bools only
        (lambda: cubecore.janowski.cube_points(0.5, jacoby="no"), ValueError, "jacoby"),
        (
            lambda: cubecore.janowski.cubeful_equity(0.5, 0.5, "center", jacoby="no"),
            ValueError,
            "jacoby",
        ),
        (lambda: cubecore.cubeful.money_cube_decision(_P, 0.6, jacoby="no"), ValueError, "jacoby"),
        (lambda: cubecore.cubeful.money_cube_decision(_P, 0.6, beavers=1), ValueError, "beavers"),
        (lambda: cubecore.rules.Rules(jacoby="no"), ValueError, "jacoby"),
        (
            lambda: cubecore.rules.initial_state(cubecore.rules.Rules(), match_phase="no"),
            ValueError,
            "match_phase",
        ),
        (lambda: cubecore.match.match_phase(3, 3, post_crawford="no"), ValueError, "post_crawford"),
        (lambda: cubecore.pgame.doubling_price(0.8, beavers="no"), ValueError, "beavers"),
        # the message names the parameter given, not another one
        (lambda: cubecore.position.position_from_xgid(5), ValueError, "text"),
        (lambda: cubecore.position.xgid_info("XGID=abc"), ValueError, "text"),
        (lambda: cubecore.giveup.net_doubling_gain([math.nan]), ValueError, "next_equities"),
        (lambda: cubecore.met_io.parse_csv(5), TypeError, "data"),
        (
            lambda: cubecore.met_io.read_table(
                cubecore.met_io.to_csv(_SMALL_TABLE), "t.csv", key=1j
            ),
            ValueError,
            "key",
        ),
        (lambda: cubecore.pgame.murphy_cap_table([0]), ValueError, "caps"),
        # issue #38: beyond float range, an interval's quantile at 1, a table's metadata,
        # shapes that do not broadcast, and work with no bound
        (lambda: cubecore.keeler_spencer.resignation_potential(1e308), ValueError, "b"),
        (lambda: cubecore.pgame.mean_points(_GAMES, 1 - 1e-16), ValueError, "confidence"),
        (
            lambda: cubecore.met.MatchEquityTable(
                "k", "n", _SMALL_TABLE.pre, _SMALL_TABLE.post, meta=math.nan
            ),
            ValueError,
            "meta",
        ),
        (
            lambda: cubecore.giveup.spread_exists([0.1, 0.2, 0.3], [0.1, 0.2]),
            ValueError,
            "volatility",
        ),
        (
            lambda: cubecore.keeler_spencer.resignation_potential_table(range(1, 10_001)),
            ValueError,
            "b_values",
        ),
        (
            lambda: cubecore.keeler_spencer.resignation_potential_table(
                [1e300] * 1000, time_budget=0.5
            ),
            ValueError,
            "time_budget",
        ),
        (
            lambda: cubecore.pgame.summarize_games_fine(cubecore.pgame.GameBatch(2000), 0.001),
            ValueError,
            "step_size",
        ),
        (
            lambda: cubecore.cubeful.CubeSetting(0.6, opp_away=[0.5, 1 + 1j]),
            ValueError,
            "opp_away",
        ),
        (lambda: cubecore.cubeful.CubeSetting(0.6, away=math.nan), ValueError, "away"),
        # text where a number is meant is refused, not parsed
        (lambda: cubecore.janowski.cube_points("0.5"), ValueError, "x"),
        (lambda: cubecore.janowski.dead_cube_equity(["0.5"]), ValueError, "p"),
    ],
)
def test_issue_cases_raise_naming_the_parameter(
    call: Callable[[], object], error: type[Exception], parameter: str
) -> None:
    """The hostile calls of issue 18: the exact exception, naming the parameter in backticks."""
    with pytest.raises(error) as raised:
        _call_with_budget(call, [], {})
    assert f"`{parameter}`" in str(raised.value)
