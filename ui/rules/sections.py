"""Cube-rules page: the three sections (walkthrough, the money rules in theory, simulation).

Each function renders one section from the :class:`~ui.skeleton.View`; the skeleton
runs only the open one.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, cast

import streamlit as st

from cubecore.references import source
from ui import widgets
from ui.rules import data as cached
from ui.rules.controls import STEP
from ui.rules.walkthroughs import action_words, rules_in_force
from ui.simulation import SimulationBusy, busy_message, queued, simulated
from ui.skeleton import View
from ui.style import NOT_APPLICABLE

RULES_SOURCE = source("RULES")
JANOWSKI_SOURCE = source("JR12")
KS_SOURCE = source("KS69")
_OWNER_NAMES = {"center": "centred", "A": "A (White)", "B": "B (Black)"}


def _never(value: float) -> str:
    return "never" if value >= 1.0 else f"{value:.4f}"


# ------------------------------------------------------------------ walkthrough


def _set_step(step: int) -> None:
    st.session_state[STEP.key] = step


def render_walkthrough(values: View) -> None:
    """Step through a preset game: cube, owner, stakes, legal actions and the rule applied."""
    walk, requested = values.text("walk"), values.whole("step")
    view = cached.walkthrough_view(walk=walk, step=requested)
    state = view["state"]
    step, last = state["step"], state["last_step"]
    st.subheader(state["title"])
    st.caption(f"{state['description']} Source: {RULES_SOURCE}.")
    if requested > last:
        st.info(f"This walkthrough has {last} steps; showing the last one.")

    back, counter, forward = st.columns([1, 2, 1])
    back.button(
        "Previous event",
        icon=":material/arrow_back:",
        disabled=step == 0,
        on_click=_set_step,
        args=(step - 1,),
        key="walk:back",
        width="stretch",
    )
    counter.markdown(f"**Step {step} of {last}** ({state['game']})")
    forward.button(
        "Next event",
        icon=":material/arrow_forward:",
        disabled=step >= last,
        on_click=_set_step,
        args=(step + 1,),
        key="walk:next",
        width="stretch",
    )

    widgets.headline(
        [
            ("Stakes", f"{state['stakes']}"),
            ("Cube face", f"{state['face']}"),
            ("Cube owner", _OWNER_NAMES[state["owner"]]),
            ("To act", state["to_act"]),
        ]
    )
    widgets.metric_row(
        [("Score A-B" if not state["money_play"] else "Won so far A-B", state["score"])]
    )

    if state["rule"]:
        st.info(f"**{state['rule']}**: {state['note']}", icon=":material/gavel:")
    else:
        st.info("The start: the cube is centred on 1, with 64 showing.", icon=":material/gavel:")
    legal = ", ".join(map(action_words, state["legal"])) or "none: the match is over"
    next_action = state["next_action"] and action_words(state["next_action"])
    st.markdown(
        f"**Legal now:** {legal}"
        + (f"  \n**Next in this game:** {next_action}" if next_action else "")
    )
    if not values.present:
        with st.expander("What the rules forbid here, and why"):
            widgets.table(view["forbidden"])
    widgets.chart(view["figure"], f"rules_walk_{walk}")
    if not values.present:
        st.markdown("**The game so far**")
        widgets.table_with_download(view["so_far"], f"rules_walk_{walk}.csv")
        st.caption("Rules in force: " + (rules_in_force(state["rules"]) or "plain money play"))


# ----------------------------------------------------------------------- theory


def render_theory(values: View) -> None:
    """Jacoby, beaver and raccoon points, and the Murphy rule, in the Janowski model."""
    x, W, L, P = (round(values.number(k), 4) for k in ("x", "W", "L", "P"))
    view = cached.theory_view(x=x, W=W, L=L, P=P)
    plain, jacoby = view["plain"], view["jacoby"]
    st.caption(f"Janowski model, money play, per unit of the cube. Source: {JANOWSKI_SOURCE}.")

    st.subheader("Jacoby rule: gammons count only once the cube is turned")
    chart_column, text_column = widgets.chart_columns(values.present)
    with chart_column:
        widgets.chart(view["jacoby_figure"], "rules_jacoby")
    if not values.present:
        with text_column:
            widgets.formula(
                r"E^{J}_{\mathrm{centre}}(P) = x\,E^{J}_{\mathrm{live}} + (1-x)\,(2P-1)",
                f"{JANOWSKI_SOURCE}: centred cube, gammons single",
            )
            st.markdown(
                "Holding a centred cube can never win more than one point under the Jacoby "
                "rule, so a big favourite is never too good: he doubles and the opponent "
                "drops. With the cube turned, gammons count again, so the take, cash, beaver "
                "and raccoon points do not move."
            )

    without, with_jacoby = view["without"], view["with_jacoby"]
    widgets.headline(  # the points the Jacoby chart marks, without the rule and with it
        [
            ("Initial double point", f"{plain['initial_double_point']:.4f}"),
            ("Initial double point, Jacoby", f"{jacoby['initial_double_point']:.4f}"),
            ("Too good, centred", _never(plain["too_good_center"])),
            ("Too good, centred, Jacoby", _never(jacoby["too_good_center"])),
        ]
    )
    widgets.metric_row(
        [
            (f"Decision at P = {P:.3f}", without["doubler_action"]),
            (f"Decision at P = {P:.3f}, Jacoby", with_jacoby["doubler_action"]),
        ]
    )

    # Jacoby with beavers: a taker may beaver a centred double, so the doubler needs less
    jacoby_beavers = view["jacoby_beavers"]
    a, b, c = st.columns(3)
    a.metric(
        "Initial double point, Jacoby with beavers",
        f"{jacoby_beavers['initial_double_point']:.4f}",
    )
    b.metric(
        "Initial double point, Jacoby without beavers", f"{jacoby['initial_double_point']:.4f}"
    )
    if not values.present:
        with c:
            widgets.formula(
                r"\text{dead cube: } \frac{L - \tfrac14}{L + W - \tfrac12}"
                r"\ \text{(beavers)},\quad \frac{L - \tfrac12}{L + W - 1}\ \text{(no beavers)}",
                source("GNUBG", "show marketwindow"),
            )

    st.subheader("Beaver point and raccoon point")
    left, right = st.columns(2)
    with left:
        widgets.chart(view["beaver_figure"], "rules_beaver")
    with right:
        widgets.chart(view["raccoon_figure"], "rules_raccoon")
    widgets.metric_row(
        [
            ("Take point (taker's P)", f"{plain['take_point']:.4f}"),
            ("Beaver point (taker's P)", f"{plain['beaver_point']:.4f}"),
            ("Raccoon point (doubler's P)", f"{plain['raccoon_point']:.4f}"),
            ("Cash point", f"{plain['cash_point']:.4f}"),
        ]
    )
    if not values.present:
        widgets.formula(
            r"\text{beaver iff } 4E_{\mathrm{owned}}(q) > 2E_{\mathrm{owned}}(q)"
            r"\iff E_{\mathrm{owned}}(q) > 0,\qquad \text{raccoon iff } E_{\mathrm{opp}}(P) > 0",
            f"{JANOWSKI_SOURCE}: closed forms L/(W+L+x/2) and (L+x/2)/(W+L+x/2)",
        )

    st.subheader("Murphy rule: the stakes multiply, the decisions stay")
    widgets.chart(view["murphy_figure"], "rules_murphy")
    st.markdown(
        "Every outcome of a game (hold, double/take, double/pass) is multiplied by the stake, "
        "so in points the gain from doubling grows with the automatic doubles (left), but it "
        "changes sign at the same P: per unit of the cube the curves are one (right)."
    )
    if not values.present:
        st.markdown("**Expected starting stake under the Murphy rule** (each tie: 1/6)")
        widgets.table_with_download(cached.murphy_table(), "rules_murphy_caps.csv")


# ------------------------------------------------------------------- simulation


def points_text(value: float) -> str:
    """A's points as the page writes them: signed, 4 decimals, or 4 digits and an exponent.

    A stake beyond float range (2^1024 and up) makes a sample sum infinite and the mean
    undefined in floats: the page says so instead of showing ``inf`` or ``nan``.
    """
    if not math.isfinite(value):
        return "beyond float range"
    return f"{value:+.4f}" if abs(value) < 1e6 else f"{value:+.4e}"


def _simulation_arguments(
    values: View,
) -> tuple[tuple[bool, bool, bool, int], tuple[float, float, float, float, float, float], float]:
    flags = (
        values.flag("beavers"),
        values.flag("raccoons"),
        values.flag("murphy"),
        values.whole("cap"),
    )
    ad, ar, bd, take, beaver, raccoon = (
        round(values.number(k), 4) for k in ("ad", "ar", "bd", "take", "beaver", "raccoon")
    )
    strategy = (ad, ar, bd, take, beaver, raccoon)
    return flags, strategy, round(values.number("start"), 4)


def _simulation_headline(result: Mapping[str, Any] | None) -> None:
    """The simulation's headline: how often the stake passes 4 (simulated, theory; the
    first chart's tail) and A's points per game; a dash each when nothing was simulated."""
    rare = f"P(stake > {cached.RARE_STAKE})"
    if result is None:
        shown = (NOT_APPLICABLE,) * 3
    else:
        shown = (
            f"{result['above_simulated']:.4f}",
            f"{result['above_theory']:.4f}",
            points_text(result["estimate"]["mean"]),
        )
    labels = (f"{rare}, simulated", f"{rare}, theory", "A's points per game")
    widgets.headline(list(zip(labels, shown, strict=True)))


def render_simulation(values: View) -> None:
    """Cube-value distribution beside the theory, points per game, price of early doubles."""
    flags, strategy, start = _simulation_arguments(values)
    n_games, seed, model = values.whole("n") * 1000, values.whole("seed"), values.text("model")
    st.caption(
        "The continuous game (P-game): A's winning chance moves like Brownian motion; both "
        "sides follow the thresholds of the panel 'Simulation: settings'. Source: "
        f"{KS_SOURCE}; {RULES_SOURCE}."
    )
    try:
        stops = cached.expected_stops(rule_flags=flags, strategy=strategy, start=start)
    except ValueError as error:
        st.error(f"These settings cannot be simulated: {error}", icon=":material/error:")
        _simulation_headline(None)
        return
    if stops > cached.LONG_GAMES:
        st.info(
            f"With these thresholds a game almost never ends: on average it has {stops:,.1f} "
            "cube decisions (optimal play: 2.3). A and B double at nearly the same chance, so "
            "after each taken double the other side's doubling point is close by and is "
            "reached again before the game ends (the Keeler-Spencer lemma: the redouble "
            "comes back with probability (l/u)(1-u)/(1-l) per round).",
            icon=":material/hourglass:",
        )
    budget = cached.games_within_budget(n_games, stops)
    if budget < n_games:
        st.warning(
            f"Games (thousands), n: {n_games // 1000:,} thousand games of {stops:,.1f} cube "
            f"decisions each are beyond this page's simulation budget; simulating "
            f"{budget // 1000:,} thousand.",
            icon=":material/speed:",
        )
        n_games = budget
    try:
        with queued(f"{n_games:,} games"):
            result = cached.simulation(
                model=model,
                rule_flags=flags,
                strategy=strategy,
                start=start,
                n_games=n_games,
                seed=seed,
            )
    except ValueError as error:
        st.error(f"These settings cannot be simulated: {error}", icon=":material/error:")
        _simulation_headline(None)
        return
    except SimulationBusy:
        busy_message("the simulation")
        _simulation_headline(None)
        return
    if model == "walk" and n_games > result["n_games"]:
        st.info(f"The fine walk is limited to {cached.WALK_GAMES_LIMIT:,} games.")
    estimate = result["estimate"]
    exact = result["exact_equity"]
    _simulation_headline(result)
    widgets.metric_row(
        [
            ("95% CI low", points_text(estimate["low"])),
            ("95% CI high", points_text(estimate["high"])),
            ("Exact expectation", "none" if math.isnan(exact) else points_text(exact)),
            ("Games simulated", f"{result['n_games']:,}"),
            ("Games per second", f"{result['games_per_second']:,.0f}"),
        ]
    )
    st.caption(
        f"{result['n_games']:,} games in {result['seconds']:.3f} s (measured when they were "
        f"simulated); drops {result['drops']:,}, beavers {result['beavers_seen']:,}, raccoons "
        f"{result['raccoons_seen']:,}; games above {cached.RARE_STAKE}: {result['above_games']:,}."
    )
    if math.isnan(exact):
        st.warning(
            "With these thresholds the stake grows faster than games end: the expected "
            "points do not exist, and the sample mean and its interval do not settle."
        )
    table, distribution = cached.simulation_view(
        model=model,
        rule_flags=flags,
        strategy=strategy,
        start=start,
        n_games=n_games,
        seed=seed,
        _table=result["table"],
    )
    chart_column, formula_column = widgets.chart_columns(values.present)
    with chart_column:
        widgets.chart(distribution, "rules_cube_values")
    if not values.present:
        with formula_column:
            widgets.formula(
                r"P(\text{hit } u \text{ before } l \mid x) = \frac{x-l}{u-l}",
                f"{KS_SOURCE}: the lemma, eq. (2)",
            )
            widgets.formula(
                r"P(\text{redouble} \mid 80\%) = \tfrac{0.2}{0.8} = \tfrac14",
                f"{KS_SOURCE}: so P(stake > 4) = 1/16 of the doubled games",
            )
            st.caption(
                'The source: "The game is rarely redoubled beyond four times the original '
                f'stake" ({RULES_SOURCE}). The z column compares each cell with the theory.'
            )
        widgets.table_with_download(table, f"rules_cube_values_seed{seed}.csv")

    st.subheader("The price of doubling too early, with and without beavers")
    da = strategy[0]
    widgets.chart(cached.price_chart(start=start, double_point=da), "rules_price")
    prices = simulated(
        "the price of doubling early",
        "the price of doubling early",
        lambda: cached.price_estimates(
            double_point=da, start=start, n_games=min(n_games, 200_000), seed=seed
        ),
        icon=":material/error:",
    )
    if prices is None:
        return
    a, b = st.columns(2)
    a.metric(
        f"Loss doubling at {da:.2f}, no beavers",
        f"{cast(float, prices.loc[0, 'loss vs doubling at 80%']):.4f}",
    )
    b.metric(
        f"Loss doubling at {da:.2f}, beavers",
        f"{cast(float, prices.loc[1, 'loss vs doubling at 80%']):.4f}",
    )
    if not values.present:
        st.caption(
            "A doubles once at his point and redoubles at 80%; B plays optimally "
            "(doubles at 80%, takes at 20%, beavers from 40% when allowed); no Murphy rule. "
            "Exact by the lemma; the simulated equity is a check."
        )
        widgets.table_with_download(prices, f"rules_price_da{da:g}.csv")
