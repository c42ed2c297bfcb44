"""The five sections of the race page, one render function each.

Each function renders one tab from the :class:`~ui.skeleton.View`, reads cached
compute from :mod:`ui.race.data` and builds charts with :mod:`ui.race.charts`; the
skeleton runs only the open one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

import pandas as pd
import streamlit as st

from cubecore import cubeful, race, race_heuristics
from cubecore.janowski import CubePosition
from cubecore.references import source
from ui import widgets
from ui.race import charts as figures
from ui.race import data as cached
from ui.race.controls import TABLE_CONTROLS
from ui.skeleton import View

CITE = source("ZK77")

#: The naming slip in the statement of Theorem 1, shown beside formulas (5) and (6).
THEOREM_1_NAMES = (
    "**Names in Theorem 1.** The statement calls (5) r(t), the point to *double*, and "
    "(6) d(t), the point to *redouble*. Its proofs say the opposite: (5) is derived from "
    "A's expectation before and after **redoubling** (cube owned, (8) = (10)), and (6) from "
    "equating 2p(t, M) - 1 with 2(2p(t, B) - 1), the cube **in the middle**. The formulas "
    "satisfy the proofs' conditions, so (5) is the redouble point and (6) the initial "
    "double point; they are labelled that way here. (The printed (10) and (11) also "
    "misplace a parenthesis; (5) itself is right.)"
)
TABLE_2_REASON = (
    "**Why the values differ.** The paper *simulated* 10,000 games per entry, so each "
    "value carries a standard error of roughly 0.01-0.02 (a game is worth one to several "
    "cube units), and its strategies were fitted on real boards up to 12 pips and guessed "
    "from 12 to 20 pips; the exact values solve the pure race model with both sides "
    "optimal. Each block repeats one position with different numbers: the paper re-ran "
    "them after adjusting its guesses, so both rows are shown as runs 1 and 2 of the same "
    "decision."
)
TABLE_3_REASON = (
    "The printed thresholds are boundaries read off Table 2's simulations (half pips fall "
    "between two counts); the paper reads them as 'redouble if his count is 19 1/2 or "
    "more', i.e. the first whole offset at or above the boundary, and 'take up to' the "
    "boundary. Differences of a pip or so come from the simulation's noise and from "
    "strategies tuned on real boards rather than on the model."
)


def _full_table(frame: pd.DataFrame, filename: str) -> None:
    """``widgets.table_with_download`` showing every row (no inner scrolling)."""
    widgets.table_with_download(frame, filename, height="content")


def _pct(value: float, digits: int = 2) -> str:
    return f"{100.0 * value:.{digits}f}%"


def _three(value: float) -> str:
    """A measured point or cube life: three decimals, "n/a" where it is undefined."""
    return "n/a" if pd.isna(value) else f"{value:.3f}"


def _offset(value: int | None) -> str:
    return "never" if pd.isna(value) else f"{int(value):+d}"


def _position(v: View) -> tuple[int, int, CubePosition, int]:
    """The pip counts (on roll, other), the cube position and the maps' span of counts."""
    cube = v.choice("cube", race.CUBE_POSITIONS)
    return v.whole("pips"), v.whole("opips"), cube, v.whole("span")


# ----------------------------------------------------------------------------- 1. race model


def race_model(v: View) -> None:
    """Race model: roll totals, bear-off distributions, win chance, Table 1, win map."""
    x, y = v.whole("pips"), v.whole("opips")
    view = cached.race_model_view(x=x, y=y, span=v.whole("span"))
    widgets.headline(
        [
            (f"Win chance on roll ({x} v {y})", _pct(view["win"])),
            ("Opponent's win chance", _pct(1.0 - view["win"])),
            ("Your expected rolls", f"{view['rolls_you']:.3f}"),
            ("Opponent's expected rolls", f"{view['rolls_opponent']:.3f}"),
        ]
    )
    shown = [(view["roll_totals"], "race_roll_totals"), (view["bearoff"], "race_bearoff")]
    if v.present:  # the slide's chart (the first): the race at the counts, beside its numbers
        shown.reverse()
    widgets.two_charts(
        *shown,
        present=v.present,
        formulas=[
            (
                r"P(x,1)=\sum_{y\ge x} f(y),\qquad P(x,k+1)=\sum_{y=3}^{24} f(y)\,P(x-y,k),"
                r"\qquad p(x_A,x_B)=\sum_{j\ge1}P(x_A,j)\sum_{k\ge j}P(x_B,k)",
                f"{CITE}: bear-off rolls by convolution and the win chance of the roller",
            )
        ],
    )
    _table_1(v)
    st.subheader("Win chance over your count and your lead")
    lead = y - x
    widgets.chart(view["win_map"], "race_win_map")
    if abs(lead) > cached.MAP_LEADS.max():
        st.caption(f"Your lead {lead:+d} lies outside the map's leads (-30 to +30).")


def _table_1(v: View) -> None:
    shown = cached.table_1_shown()
    comparison, deviations = shown["comparison"], shown["deviations"]
    st.subheader("Table 1: printed and exact (percent)")
    a, b = st.columns(2)
    a.metric(
        "Cells agreeing to the printed digit",
        f"{int(comparison['agrees'].sum())} of {len(comparison)}",
    )
    b.metric("Deviations (each explained below)", f"{len(deviations)}")
    st.caption("Printed (rows: opponent's count - yours; columns: your count)")
    widgets.table(shown["printed"], height="content")
    st.caption("Exact, the same cells")
    widgets.table(shown["exact"], height="content")
    st.caption("Cells that disagree, and why:")
    widgets.table(
        deviations, column_config={"reason": st.column_config.TextColumn("Reason", width="large")}
    )
    if not v.present:
        with st.expander("All 121 cells, printed beside exact"):
            widgets.table_with_download(comparison, "race_table_1_printed_vs_exact.csv")
    st.subheader("Table 1 extended")
    st.caption(
        "Set the range in the panel 'Race model: settings'. —: the opponent's count would "
        "fall outside 1..300."
    )
    first_count, count_step, columns, first_offset, offset_step, rows = (
        v.whole(c.key) for c in TABLE_CONTROLS
    )
    extended = cached.table_1_range(
        first_count=first_count,
        count_step=count_step,
        columns=columns,
        first_offset=first_offset,
        offset_step=offset_step,
        rows=rows,
    )
    widgets.table_with_download(extended, "race_table_1_extended.csv")


# ----------------------------------------------------------------------------- 2. points


def doubling_points(v: View) -> None:
    """Doubling points: formulas (1)-(6), the three points, the cube-state chances chart."""
    da, db = v.number("da"), v.number("db")
    points, chart = cached.cube_win_chart(da=da, db=db)
    widgets.headline(
        [
            ("Minimum take point M, (4)", f"{points['minimum_take_point']:.4f}"),
            ("Redouble point, (5)", f"{points['redouble_point']:.4f}"),
            ("Initial double point, (6)", f"{points['initial_double_point']:.4f}"),
        ]
    )
    widgets.chart_with_formulas(
        chart,
        "race_effective_points",
        [
            (r"p(t,A)=\frac{p(t)}{D_A(t)}", f"{CITE}, eq. (1)"),
            (r"p(t,B)=\frac{p(t)-D_B(t)}{1-D_B(t)}", f"{CITE}, eq. (2)"),
            (r"p(t,M)=\frac{p(t)-D_B(t)}{D_A(t)-D_B(t)}", f"{CITE}, eq. (3)"),
            (r"M(t)=1-\tfrac14\,(1-D_B(t))", f"{CITE}, eq. (4): minimum take"),
            (
                r"\text{redouble: }\frac{3D_AD_B+D_A}{4D_A-2(1-D_B)}",
                f"{CITE}, eq. (5), named r(t) in the statement of Theorem 1",
            ),
            (
                r"\text{initial double: }\frac{D_B^2+3D_B(1-D_A)-D_A}{2D_B-4D_A+2}",
                f"{CITE}, eq. (6), named d(t) in the statement of Theorem 1",
            ),
        ],
        present=v.present,
    )
    st.info(THEOREM_1_NAMES, icon=":material/swap_horiz:")
    count = v.whole("pips")
    measured = cached.implied_points(count).iloc[-1]
    st.caption(
        f"Measured in the exact race at {count} v {count} (Measured points): DA = "
        f"{measured['da']:.3f} (cube owned), DB = {measured['db']:.3f}. The paper's "
        "estimates: DA ~ 0.88 at 40 pips, 0.90 at 20; DA = 0.8, DB = 0.2 is the continuous "
        "game, where every point is 0.8."
    )


# ----------------------------------------------------------------------------- 3. exact


def exact_strategy(v: View) -> None:
    """Exact strategy: equities of the position, action map, Table 3 and Table 2."""
    x, y, cube, span = _position(v)
    e = cached.cube_equities(x, y, cube)
    may_double = cube != "opponent"
    equities, action = st.columns([4, 1.4])  # the action's column wide enough for its words
    with equities:
        widgets.headline(
            [
                ("Cubeless win chance", _pct(e["cubeless_win"])),
                ("No double", f"{e['no_double']:+.4f}"),
                ("Double/take", f"{e['double_take']:+.4f}" if may_double else "n/a"),
                ("Double/pass", f"{e['double_pass']:+.4f}" if may_double else "n/a"),
            ]
        )
    action.metric("Action", e["action"])
    st.caption(
        f"{x} v {y}, money play, no gammons, both sides optimal; equities per unit of "
        "the current cube, from the roller's view."
    )
    if may_double:
        _proper_action(e, cube)
    widgets.chart(
        figures.action_map_figure(
            cached.action_map(cube, span),
            cached.thresholds(span),
            cube,
            x,
            y,
            cached.MAP_ACTIONS,
        ),
        "race_action_map",
    )
    no_action = "The opponent owns the cube: the roller has no cube action. " * (cube == "opponent")
    st.caption(
        f"{no_action}Light green: not doubling already wins the full point (a sure win, or "
        "a certain cash next turn); doubling would only tie, so the exact strategy counts "
        "it as 'no double'. Dotted lines: the exact last take and first (re)double."
    )
    _thresholds(v, x, span)
    st.subheader("Table 2: simulated (printed) and exact")
    table_2 = cached.table_2()
    _full_table(table_2, "race_table_2_simulated_vs_exact.csv")
    st.info(TABLE_2_REASON + _verdict_differences(table_2), icon=":material/casino:")


def _proper_action(e: dict[str, Any], cube: str) -> None:
    """The engines' block for the exact equities (no gammons: never "too good")."""
    action = cubeful.proper_cube_action(
        e["no_double"],
        e["double_take"],
        e["double_pass"],
        centred=cube == "center",
        can_gammon=False,
    )
    tie = action.doubles and action.no_double_cost == 0.0
    note = "The exact strategy files a tie under no double (the Action above)." if tie else ""
    widgets.proper_action(action, unit="money per unit of the current cube", note=note)


def _verdict_differences(table_2: pd.DataFrame) -> str:
    differ = table_2[~table_2["verdicts_agree"]]
    if differ.empty:
        return ""
    rows: Iterable[Any] = differ.itertuples()  # pandas types a row's fields as any scalar
    cases = ", ".join(
        f"{r.on_roll} v {r.opponent} (simulated gap {r.doubling - r.not_doubling:+.3f}, "
        f"exact {r.exact_doubling - r.exact_not_doubling:+.3f})"
        for r in rows
    )
    return (
        f" The verdicts differ at {cases}: simulated gaps this small are within about two "
        "standard errors of zero, so the simulation could not tell these decisions apart."
    )


def _thresholds(v: View, x: int, span: int) -> None:
    st.subheader(f"Thresholds at your count {x} (offsets, like Table 3)")
    t = race.race_thresholds(x)
    widgets.metric_row(
        [
            ("Last take", _offset(t.last_take)),
            ("First redouble", _offset(t.first_redouble)),
            ("First double", _offset(t.first_double)),
        ]
    )
    if t.last_take is not None:
        st.caption(
            f"The opponent takes up to {x + t.last_take} pips; the cube owner "
            f"redoubles from {x + cast(int, t.first_redouble)}, a centred cube is turned from "
            f"{x + cast(int, t.first_double)}."
        )
    frame = cached.thresholds(span)
    widgets.chart(
        figures.thresholds_figure(frame, race.TABLE_3_PRINTED, x),
        "race_thresholds",
    )
    st.caption("Table 3: printed beside exact")
    _full_table(cached.table_3_printed(), "race_table_3_printed_vs_exact.csv")
    st.caption(TABLE_3_REASON)
    if not v.present:
        with st.expander(f"Exact thresholds for counts 1..{span}"):
            widgets.table_with_download(frame, f"race_thresholds_1_{span}.csv")


# ----------------------------------------------------------------------------- 4. measured


def measured_points(v: View) -> None:
    """Measured points: implied DA, DB and Janowski cube life against the pip count."""
    x, cube, lead, span = (
        v.whole("pips"),
        v.choice("cube", race.CUBE_POSITIONS),
        v.whole("lead"),
        v.whole("span"),
    )
    view = cached.measured_view(x=x, cube=cube, lead=lead, span=span)
    points, at_points, at_life = view["points"], view["at_points"], view["at_life"]
    implied, lives = st.columns([3, 2])  # the headline's row beside the cube life's
    with implied:
        if at_points is not None:
            widgets.headline(
                [
                    (f"Implied DA at {x} v {x}", _three(at_points["da"])),
                    (f"Implied DB at {x} v {x}", _three(at_points["db"])),
                    ("DA from (3), centred", _three(at_points["da_center"])),
                ]
            )
        else:
            widgets.headline([(f"Your count {x}", f"beyond 1..{span}")])
    if at_life is not None:
        life_now, rule = lives.columns(2)
        life_now.metric(f"Cube life at {x} v {x + lead}", _three(at_life["cube_life"]))
        rule.metric(f"GNU BG rule at {x} pips", _three(at_life["gnubg"]))
    if x > span:
        st.caption(
            f"Your count {x} lies beyond the sweep (1..{span}): raise 'Maps: largest "
            "count' to see it."
        )
    widgets.two_charts(
        (view["implied_figure"], "race_implied_points"),
        (view["life_figure"], "race_cube_life"),
        present=v.present,
    )
    if not v.present:
        a, b = st.columns(2)
        with a:
            widgets.formula(
                r"D_A=\frac{p}{p_A},\qquad D_B=\frac{p-p_B}{1-p_B},\qquad "
                r"p_c=\tfrac12(1+E_c)",
                f"{CITE}: (1) and (2) inverted with the exact equities",
            )
        with b:
            widgets.formula(
                r"x=\frac{E_{\mathrm{cubeful}}-E_{\mathrm{dead}}}"
                r"{E_{\mathrm{live}}-E_{\mathrm{dead}}}",
                "Janowski's cube life implied by the exact cubeful equity",
            )
            widgets.formula(
                r"x_{\mathrm{GNU}}=\min\bigl(0.70,\ \max(0.60,\ 0.55+0.00125\,\mathrm{pips})\bigr)",
                source("GNUBG", "eval.c: race cube life at the roller's pip count"),
            )
        with st.expander("Implied doubling points, table"):
            widgets.table_with_download(points, f"race_implied_points_1_{span}.csv")


# ----------------------------------------------------------------------------- 5. thumbs


def rules_of_thumb(v: View) -> None:
    """Rules of thumb: the 8-9-12 rule and Kleinman's formula against the exact model."""
    x, y, cube, span = _position(v)
    data = cached.rules_map(cube, span)
    shares = data["shares"].set_index("comparison")["share"]
    e = cached.cube_equities(x, y, cube)
    a, b, c = st.columns(3)
    a.metric(f"8-9-12 rule at {x} v {y}", str(race_heuristics.rule_8_9_12(x, y, cube)))
    b.metric("Exact action", e["action"])
    if x + y > 4:
        kleinman = float(race_heuristics.kleinman_win_probability(x, y))
        c.metric(
            "Kleinman win chance",
            _pct(kleinman),
            f"{100 * (kleinman - e['cubeless_win']):+.2f} points vs exact "
            f"{_pct(e['cubeless_win'])}",
            delta_color="off",
            delta_arrow="off",
        )
    widgets.headline(
        [
            ("8-9-12 agrees where either doubles", _pct(data["contested_agreement"], 1)),
            (f"8-9-12 agrees, all of 1..{span}", _pct(shares["agrees"], 1)),
            ("Kleinman's worst error, counts >= 10", f"{data['kleinman_max_error_10']:.2f} points"),
        ]
    )
    if cube == "opponent":
        st.caption(
            "The opponent owns the cube: neither the rule nor the exact model doubles, "
            "so they agree everywhere."
        )
    widgets.chart(
        figures.rules_map_figure(data, cached.RULE_CATEGORIES, cube, x, y),
        "race_rule_8_9_12",
    )
    if not v.present:
        widgets.formula(
            r"\text{lead}=\frac{y-x}{x}:\quad \text{double if}\ge 8\%,\quad "
            r"\text{redouble if}\ge 9\%,\quad \text{take if}\le 12\%",
            source("T04", "the 8-9-12 rule"),
        )
    widgets.chart(figures.kleinman_figure(data, x, y), "race_kleinman")
    if not v.present:
        widgets.formula(
            r"p\approx\tfrac12\left[1+\operatorname{erf}\left("
            r"\frac{D+4}{2\sqrt{S-4}}\right)\right],\qquad D=y-x,\quad S=x+y",
            source("K80", "Kleinman's formula"),
        )
    widgets.table_with_download(data["shares"], f"race_rules_of_thumb_{cube}_{span}.csv")
