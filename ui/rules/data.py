"""Cached compute of the cube-rules page: walkthrough states, money-rule curves, simulation.

The ``*_view`` and ``*_chart`` functions (``st.cache_resource``) hold what a section
shows, built once per process for its arguments: figures, shown frames and the numbers
the metrics read. A warm rerun then reads them as they are, without copies
(``st.cache_data`` unpickles its value on every read) and without rebuilding a figure.
They are shared by every session, so the sections never change them; so are the
simulations' results (:func:`simulation`, :func:`price_estimates`, ``st.cache_resource``
for the same reason).
The sections call them with keyword arguments: Streamlit looks up the name of each
positional argument with ``inspect.signature`` on every call.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from cubecore import janowski, pgame
from cubecore import rules as cube_rules
from ui.rules import charts as figures
from ui.rules.controls import GAMES
from ui.rules.walkthroughs import WALKTHROUGHS, action_words
from ui.simulation import SIMULATION_SECONDS, timed_within_budget, within_budget
from ui.style import Figure

_P_GRID = np.linspace(0.0, 1.0, 401)
#: Doubling points of the price-of-early-doubling curve (exact, cheap).
_PRICE_GRID = np.round(np.arange(0.25, 1.0001, 0.01), 2)
#: Murphy caps tabulated in the theory section (None: no cap).
MURPHY_CAPS = (1, 2, 3, 4, None)
#: Stakes compared in the Murphy chart: 0, 1 and 2 automatic doubles.
MURPHY_STAKES = (1, 2, 4)
#: The fine walk is slow (about x(1-x)/h^2 steps per game): its sample is capped.
WALK_GAMES_LIMIT = 100_000
WALK_STEP = 0.05
#: The source's claim: "rarely redoubled beyond four times the original stake".
RARE_STAKE = 4
#: Work budget of one simulation: games times the expected threshold hits per game
#: (:func:`cubecore.pgame.expected_stops`), about 2 s of one core. The sample is
#: capped to it before the simulation starts, with a notice naming the games control.
SIMULATION_BUDGET = 10_000_000
#: Expected threshold hits per game above which the page explains that with these
#: thresholds a game almost never ends (optimal play: 7/3).
LONG_GAMES = 10.0


# ------------------------------------------------------------------ walkthrough


#: Column names of the events table as the page shows it.
_EVENT_COLUMNS = {
    "actor": "by",
    "note": "what happened",
    "face": "cube face",
}


@st.cache_data(max_entries=16, show_spinner=False)
def walkthrough_events(walk: str) -> pd.DataFrame:
    """Every event of a walkthrough: one row per step, the start as step 0."""
    return cube_rules.event_table(WALKTHROUGHS[walk].states()).rename(columns=_EVENT_COLUMNS)


@st.cache_data(max_entries=64, show_spinner=False)
def walkthrough_state(walk: str, step: int) -> dict[str, Any]:
    """The state after ``step`` events: cube, owner, legal actions and what forbids the rest."""
    preset = WALKTHROUGHS[walk]
    states = preset.states()
    step = min(step, len(states) - 1)
    state = states[step]
    return {
        "step": step,
        "last_step": len(states) - 1,
        "title": preset.title,
        "description": preset.description,
        "money_play": preset.rules.money_play,
        "rules": dataclasses.asdict(preset.rules),
        "stakes": state.value,
        "face": state.face,
        "owner": state.owner,
        "to_act": cube_rules.player_to_act(state),
        "phase": state.phase,
        "game": cube_rules.game_label(state, preset.rules),
        "score": f"{state.score_a}-{state.score_b}",
        "rolls": (state.rolls_a, state.rolls_b),
        "automatic_doubles": state.automatic_doubles,
        "legal": cube_rules.legal_actions(state, preset.rules),
        "forbidden": cube_rules.illegal_reasons(state, preset.rules),
        "next_action": preset.actions[step] if step < len(preset.actions) else None,
        "rule": state.history[-1].rule if state.history and step else None,
        "note": state.history[-1].note if state.history and step else None,
    }


@st.cache_resource(max_entries=64, show_spinner=False)
def walkthrough_view(walk: str, step: int) -> dict[str, Any]:
    """What the walkthrough shows at ``step``: the ``state`` (:func:`walkthrough_state`),
    the ``forbidden`` actions with their reasons, the stakes ``figure`` and the events
    ``so_far`` (actions as words)."""
    state = walkthrough_state(walk, step)
    events = walkthrough_events(walk)
    so_far = events[events["step"] <= state["step"]]
    return {
        "state": state,
        "forbidden": pd.DataFrame(
            {
                "action": [action_words(action) for action in state["forbidden"]],
                "forbidden by": list(state["forbidden"].values()),
            }
        ),
        "figure": figures.stakes_figure(events, state["step"]),
        "so_far": so_far.assign(action=so_far["action"].map(action_words)),
    }


# ----------------------------------------------------------------------- theory


@st.cache_data(max_entries=512, show_spinner=False)
def cube_points(
    x: float, W: float, L: float, jacoby: bool, beavers: bool = False
) -> dict[str, float]:
    """Janowski decision points as a plain dict."""
    return dataclasses.asdict(janowski.cube_points(x, W, L, jacoby=jacoby, beavers=beavers))


@st.cache_data(max_entries=512, show_spinner=False)
def decision(P: float, x: float, W: float, L: float, jacoby: bool) -> dict[str, Any]:
    """The centred-cube decision at ``P`` as a plain dict."""
    return dataclasses.asdict(janowski.cube_decision(P, x, "center", W, L, jacoby=jacoby))


@st.cache_data(max_entries=256, show_spinner=False)
def money_rule_curves(x: float, W: float, L: float) -> pd.DataFrame:
    """Equities on a P grid for the Jacoby, beaver/raccoon and Murphy charts."""
    return cube_rules.money_rule_equities(_P_GRID, x, W, L, MURPHY_STAKES)


@st.cache_resource(max_entries=4, show_spinner=False)
def murphy_table() -> pd.DataFrame:
    """Expected starting stake and chance of a doubled start for each Murphy cap."""
    table = pgame.murphy_cap_table(MURPHY_CAPS)
    table["cap"] = ["none" if cap is None else str(cap) for cap in MURPHY_CAPS]
    return table.rename(
        columns={
            "mean_stake": "mean starting stake",
            "p_above_1": "P(start above 1)",
            "p_at_least_4": "P(start at 4 or more)",
        }
    )


@st.cache_resource(max_entries=64, show_spinner=False)
def theory_view(x: float, W: float, L: float, P: float) -> dict[str, Any]:
    """What the theory section shows: the decision points without and with the Jacoby
    rule (``plain``, ``jacoby``, ``jacoby_beavers``), the decisions at ``P`` (``without``,
    ``with_jacoby``) and the four figures (``jacoby_figure``, ``beaver_figure``,
    ``raccoon_figure``, ``murphy_figure``)."""
    plain = cube_points(x, W, L, False)
    jacoby = cube_points(x, W, L, True)
    curves = money_rule_curves(x, W, L)
    return {
        "plain": plain,
        "jacoby": jacoby,
        "jacoby_beavers": cube_points(x, W, L, True, True),
        "without": decision(P, x, W, L, False),
        "with_jacoby": decision(P, x, W, L, True),
        "jacoby_figure": figures.jacoby_figure(curves, plain, jacoby, P),
        "beaver_figure": figures.beaver_figure(curves, plain),
        "raccoon_figure": figures.raccoon_figure(curves, plain),
        "murphy_figure": figures.murphy_figure(
            curves, MURPHY_STAKES, plain["initial_double_point"]
        ),
    }


# ------------------------------------------------------------------- simulation


def _rule_set(beavers: bool, raccoons: bool, murphy: bool, cap: int) -> cube_rules.Rules:
    return cube_rules.Rules(
        beavers=beavers,
        raccoons=raccoons,
        murphy=murphy,
        murphy_cap=(cap or None) if murphy else None,
    )


def _thresholds(
    da: float, ar: float, db: float, take: float, beaver: float, raccoon: float
) -> pgame.Thresholds:
    return pgame.Thresholds(
        double_a=da,
        redouble_a=ar,
        double_b=db,
        take_a=take,
        take_b=take,
        beaver_a=beaver,
        beaver_b=beaver,
        raccoon_a=raccoon,
        raccoon_b=raccoon,
    )


@st.cache_data(max_entries=256, show_spinner=False)
def expected_stops(
    rule_flags: tuple[bool, bool, bool, int],
    strategy: tuple[float, float, float, float, float, float],
    start: float,
) -> float:
    """Expected threshold hits per game (theory); raises ``ValueError`` as :func:`simulation`."""
    return pgame.expected_stops(_thresholds(*strategy), _rule_set(*rule_flags), start)


def games_within_budget(n_games: int, stops: float) -> int:
    """The largest sample on the games control's grid within :data:`SIMULATION_BUDGET`.

    At most ``n_games``; at least the control's minimum (10 thousand games of at most
    about 50 decisions each on the page's grid of thresholds stay within the budget).
    """
    grid = int(GAMES.step) * 1_000
    within = int(SIMULATION_BUDGET / max(stops, 1.0)) // grid * grid
    return max(int(GAMES.low) * 1_000, min(n_games, within))


@st.cache_resource(max_entries=64, show_spinner="Simulating...")
def simulation(
    model: str,
    rule_flags: tuple[bool, bool, bool, int],
    strategy: tuple[float, float, float, float, float, float],
    start: float,
    n_games: int,
    seed: int,
) -> dict[str, Any]:
    """Simulate, and compare with the theory: cube-value table, points, throughput.

    ``rule_flags`` is (beavers, raccoons, murphy, cap) and ``strategy`` is (A's
    doubling and redoubling points, B's doubling point, take, beaver, raccoon points).
    Raises ``ValueError`` with cubecore's message for an impossible combination.
    """
    rules = _rule_set(*rule_flags)
    thresholds = _thresholds(*strategy)
    if model == "walk":
        n_games = min(n_games, WALK_GAMES_LIMIT)
    batch = pgame.GameBatch(n_games, thresholds, rules, start, seed)
    if model == "walk":
        summary, seconds = timed_within_budget(
            SIMULATION_SECONDS, pgame.summarize_games_fine, batch, WALK_STEP
        )
    else:  # the same games as simulate_games, without holding their table
        summary, seconds = timed_within_budget(SIMULATION_SECONDS, pgame.summarize_games, batch)
    theory = pgame.theoretical_cube_distribution(thresholds, rules, start)
    table = pgame.compare_cube_distribution(summary, theory)
    above = table["cube_value"] > RARE_STAKE
    return {
        "n_games": n_games,
        "seconds": seconds,
        "games_per_second": n_games / max(seconds, 1e-9),
        "table": table,
        "estimate": dataclasses.asdict(summary.points),
        "exact_equity": pgame.exact_equity(thresholds, rules, start),
        "above_simulated": float(table.loc[above, "fraction"].sum()),
        "above_theory": float(table.loc[above, "probability"].sum()),
        "above_games": int(table.loc[above, "games"].sum()),
        "beavers_seen": summary.beavers,
        "raccoons_seen": summary.raccoons,
        "drops": summary.drops,
    }


@st.cache_data(max_entries=32, show_spinner=False)
def price_curve(start: float) -> pd.DataFrame:
    """Exact cost of A's initial doubling point against optimal play, with and without beavers."""
    return pgame.doubling_price_curve(_PRICE_GRID, start)


@st.cache_resource(max_entries=64, show_spinner="Simulating...")
def price_estimates(double_point: float, start: float, n_games: int, seed: int) -> pd.DataFrame:
    """Exact and Monte Carlo cost of doubling at ``double_point``, with and without beavers."""
    table = within_budget(
        SIMULATION_SECONDS,
        pgame.doubling_price_table,
        double_point,
        start=start,
        n_games=n_games,
        seed=seed,
    )
    table["beavers"] = table["beavers"].map({False: "not allowed", True: "allowed"})
    return table.rename(
        columns={
            "equity_exact": "A's equity, exact",
            "equity_simulated": "A's equity, simulated",
            "ci_low": "95% CI low",
            "ci_high": "95% CI high",
            "loss_exact": "loss vs doubling at 80%",
        }
    )


def shown_table(table: pd.DataFrame) -> pd.DataFrame:
    """The cube-value table as shown: stakes beyond float range written as powers of 2."""
    shown = table.rename(columns={"fraction": "simulated", "probability": "theory"})
    if not math.isfinite(float(shown["cube_value"].max())):
        shown["cube_value"] = [figures.stake_label(int(k)) for k in shown["exponent"]]
    return shown.drop(columns="exponent")


@st.cache_resource(max_entries=64, show_spinner=False)
def simulation_view(
    model: str,
    rule_flags: tuple[bool, bool, bool, int],
    strategy: tuple[float, float, float, float, float, float],
    start: float,
    n_games: int,
    seed: int,
    _table: pd.DataFrame,
) -> tuple[pd.DataFrame, Figure]:
    """The cube-value table of :func:`simulation` for these arguments (``_table``, its
    ``table``: not hashed, the arguments and the seed determine it) as shown, and its chart."""
    return shown_table(_table), figures.distribution_figure(_table)


@st.cache_resource(max_entries=64, show_spinner=False)
def price_chart(start: float, double_point: float) -> Figure:
    """The chart of :func:`price_curve` with A's doubling point marked."""
    return figures.price_figure(price_curve(start), double_point)
