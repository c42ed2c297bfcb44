"""Sections of the give-up-point page: each function renders one tab from the View.

The skeleton runs only the open section; each reads the give-up points from the
page-wide controls (:func:`_give_up_points`) and its own controls from the view.
"""

from __future__ import annotations

from typing import cast

import streamlit as st

from cubecore import giveup, race
from cubecore.giveup import GiveUpPoints
from cubecore.janowski import DoublingCube
from cubecore.references import source
from ui import widgets
from ui.giveup import charts as figures
from ui.giveup import data as cached
from ui.giveup.controls import G_FROM_TAKE, ROWS
from ui.skeleton import View
from ui.style import NOT_APPLICABLE

#: Short citation under formulas (the full source is in the page caption).
CITE = source("W-DT")
#: Quoted doubling points: essay name -> (metric label, field of ``doubling_points``).
_QUOTED_POINTS = {
    "initial_double_point": ("Initial double point", "initial_double"),
    "redouble_point": ("Redouble point", "redouble"),
    "market_losing_equity": ("Market-losing equity", "market_losing"),
}


def _quoted_name(number: str) -> str:
    """One of the essay's quoted numbers by its name in words ("Initial double point")."""
    named = _QUOTED_POINTS.get(number)
    return named[0] if named is not None else cached.number_in_words(number)


def _give_up_points(v: View) -> GiveUpPoints:
    """``g`` in use (``g = 4 T`` ([KW] ".75 + x * .25 = .785") or ``g`` itself) and ``g_c``.

    Both are rounded to 10 digits: stable cache keys, so equal views share entries.
    """
    if v.text("from") == G_FROM_TAKE:
        g = giveup.give_up_from_min_take(v.number("T"))
    else:
        g = v.number("g")
    return GiveUpPoints(round(g, 10), round(v.number("gc"), 10))


def transform_section(v: View) -> None:
    """Transform: w -> p for each cube position; concession beyond the give-up points."""
    _transform(v, v.text("from"), v.number("T"), _give_up_points(v))


def table_section(v: View) -> None:
    """Essay's table: printed vs exact; the doubling points and how they round."""
    rows = tuple(round(v.number(row.key), 10) for row in ROWS)
    _table(v, rows, _give_up_points(v))


def cost_section(v: View) -> None:
    """Cost of doubling: the gain function, the volatility model and a race on real dice."""
    give_ups = _give_up_points(v)
    cube, equity, volatility = (
        v.choice("cube", giveup.DOUBLING_CUBES),
        round(v.number("eq"), 10),
        round(v.number("sd"), 10),
    )
    st.markdown(
        "With the cube where it is now (centre: initial double; owned: redouble), "
        "compare doubling now with waiting one exchange of rolls."
    )
    _gain_panel(v, cube, equity, volatility, give_ups)
    st.subheader("a. Volatility model")
    _volatility(cube, equity, volatility, give_ups)
    st.subheader("b. A race on real dice: the 1296 two-roll sequences")
    _race(v, v.whole("pips"), v.whole("opips"), cube, give_ups)


def equivalence_section(v: View) -> None:
    """Equivalences: DA = g, DB = 1 - g; Janowski x from g and from g_c; where it breaks."""
    _equivalences(v, _give_up_points(v))


def _give_up_caption(source: str, min_take: float, g: float) -> str:
    """How g was set, with the essay's derivation when it comes from T."""
    if source == "T":
        return (
            f"At the minimum take T = {min_take:.4f} the doubler reaches 1.00 first 75 % of "
            "the time (the take point of a game with no cube left is 1/4) and, when the taker "
            "reaches his give-up point first, still pulls the game out with chance x: "
            f".75 + .25 x = 1 - T, so x = 1 - 4T = {1.0 - g:.4f} and g = 4T = **{g:.4f}**."
        )
    return (
        f"g = **{g:.4f}** is set directly; the minimum take point it implies is "
        f"T = g/4 = {giveup.min_take_from_give_up(g):.4f}."
    )


def _transform(v: View, source: str, min_take: float, give_ups: GiveUpPoints) -> None:
    """Section 1: w -> p for each cube position; concession beyond the give-up points."""
    g, g_c = give_ups.own_give_up, give_ups.center_give_up
    widgets.headline(
        [
            ("Give-up point g (cube turned)", f"{g:.4f}"),
            ("Pull-out chance x = 1 - g", f"{1.0 - g:.4f}"),
            ("Give-up point g_c (centred)", f"{g_c:.4f}"),
            ("Minimum take T = g/4", f"{giveup.min_take_from_give_up(g):.4f}"),
        ]
    )
    st.markdown(_give_up_caption(source, min_take, g))
    widgets.chart_with_formulas(
        figures.transform_figure(cached.transform_curves(give_ups), give_ups),
        "giveup_transform",
        [
            (r"w = \frac{e+1}{2},\qquad E = 2p - 1", f"{CITE}: steps 1 and 3"),
            (
                r"p_{\mathrm{opp}} = \frac{w-(1-g)}{g},\quad p_{\mathrm{own}} = \frac{w}{g}",
                f"{CITE}: p = (w - .14)/.86 and p = w/.86",
            ),
            (r"p_{\mathrm{centre}} = \frac{w-(1-g_c)}{2g_c-1}", f"{CITE}: p = (w - .165)/.670"),
            (r"0.75 + 0.25\,x = 1 - T,\quad g = 1 - x = 4T", f"{CITE}: x = .14"),
        ],
        present=v.present,
    )
    st.info(
        "A modified winning chance is a probability. Beyond a give-up point the modified game "
        "is over, so the page concedes it: a raw value below 0 becomes 0 (the other side "
        "reached its give-up point and wins) and above 1 becomes 1. The dotted lines show the "
        "raw linear formulas, as if the game went on; every number on this page uses the "
        "conceded values.",
        icon=":material/flag:",
    )


def _table(v: View, equities: tuple[float, ...], give_ups: GiveUpPoints) -> None:
    """Section 2: the essay's table, printed vs exact; the doubling points and how they round."""
    view = cached.table_view(equities=equities, give_ups=give_ups)
    points = view["points"]
    g, g_c = give_ups.own_give_up, give_ups.center_give_up
    widgets.table_with_download(view["table"], f"giveup_table_g{g:g}_gc{g_c:g}.csv")
    st.caption(
        "Double when e1 > e0/2, redouble when e1 > e2/2 (stakes doubled: the one-cube equity "
        "with the opponent owning the cube must beat half of what it was)."
    )
    quoted = view["quoted"]
    widgets.headline([(label, f"{points[field]:.5f}") for label, field in _QUOTED_POINTS.values()])
    st.caption(
        "; ".join(
            f"{label}: rounds to {points[field]:.3f}, "
            f"essay {float(cast(float, quoted.loc[name, 'printed'])):.3f}"
            for name, (label, field) in _QUOTED_POINTS.items()
        )
        + " (the essay's numbers are for g = .86, g_c = .835)."
    )
    widgets.chart_with_formulas(
        view["figure"],
        "giveup_table",
        [
            (r"e_d = 1 - \frac{g\,(4g_c - 3)}{4g_c - 2 - g}", "solves e1 = e0/2 exactly"),
            (r"e_r = 3 - 3g \quad (g \ge 0.8)", "solves e1 = e2/2 exactly"),
            (r"e_m = 1 - g/2", f"{CITE}: .570 gives a modified .500"),
        ],
        present=v.present,
    )
    st.markdown("**Every number the essay quotes, printed vs exact** (essay's g = .86, g_c = .835)")
    for number, row in view["deviations"]:
        st.info(
            f"{_quoted_name(str(number))}: printed {row['printed']:.3f}, exact {row['exact']:.5f} "
            f"(rounds to {row['exact_rounded']:.3f}). Why: {row['reason']}.",
            icon=":material/rule:",
        )
    if not v.present:
        widgets.table_with_download(view["quoted_shown"], "giveup_essay_quoted_numbers.csv")


def _gain_panel(
    v: View, cube: DoublingCube, equity: float, volatility: float, give_ups: GiveUpPoints
) -> None:
    """Section 3, top: the gain function with its three regions and the spread of e'."""
    view = cached.gain_view(cube=cube, equity=equity, volatility=volatility, give_ups=give_ups)
    held = "e_0" if cube == "center" else "e_2"
    widgets.chart_with_formulas(
        view["figure"],
        f"giveup_gain_{cube}",
        [
            (
                r"G(e') = \begin{cases} 2e_1 - 1 & e' > e_m \\ 0 & e_d \le e' \le e_m \\ "
                rf"2e_1 - {held} & e' < e_d \end{{cases}}",
                f"{CITE}: the three possibilities after the next exchange",
            ),
            (
                r"\text{net gain} = \tfrac{1}{1296}\sum_{i=1}^{1296} G(e'_i)",
                f"{CITE}: add them up, divide by 1296",
            ),
        ],
        present=v.present,
    )
    a, b = st.columns(2)
    a.metric(
        "Cost at e' = .200 (doubled too early)",
        f"{view['early_cost']:.5f}",
    )
    b.caption(
        "The essay: .159 for a double, .255 for a redouble (g = .86, g_c = .835); exactly "
        ".15897 and .25581, the latter printed from the rounded e2 and e1 (see the table)."
    )


def _verdict(net_gain: float, equity: float, g: float) -> str:
    """The race page's action names: past the market already, else the sign of the gain."""
    if equity > giveup.market_losing_equity(g):
        return race.ACTIONS[2]
    return race.ACTIONS[1] if net_gain > 0.0 else race.ACTIONS[0]


def _volatility(
    cube: DoublingCube, equity: float, volatility: float, give_ups: GiveUpPoints
) -> None:
    """Section 3a: net gain over a Beta-distributed next-exchange equity."""
    st.markdown(
        "The next-exchange winning chance w' = (e' + 1)/2 is **Beta distributed** with mean "
        "(e + 1)/2 (equities are martingales: e' has mean e) and e' has standard deviation "
        "equal to the volatility; α + β = (1 - e²)/vol² - 1. Volatility 0 is a point mass at e. "
        "The expectation is exact (incomplete beta functions on each linear piece of G)."
    )
    view = cached.volatility_view(
        cube=cube, equity=equity, volatility=volatility, give_ups=give_ups
    )
    net = view["net"]
    if view["error"] is not None:
        st.error(f"{view['error']}. Lower the volatility or move the equity towards 0.")
    widgets.headline(  # the answer the first chart (the gain function) adds up
        [
            ("Net gain of doubling now", NOT_APPLICABLE if net is None else f"{net:+.5f}"),
            (
                "Verdict (volatility model)",
                NOT_APPLICABLE if net is None else _verdict(net, equity, give_ups.own_give_up),
            ),
        ]
    )
    widgets.chart(view["figure"], f"giveup_volatility_{cube}")


def _race(v: View, on_roll: int, opponent: int, cube: DoublingCube, give_ups: GiveUpPoints) -> None:
    """Section 3b: the essay's procedure on a race, beside the exact race strategy."""
    view = cached.race_view(on_roll=on_roll, opponent=opponent, cube=cube, give_ups=give_ups)
    verdict = view["verdict"]
    a, b, c = st.columns(3)
    a.metric("Cubeless equity now", f"{verdict['cubeless_equity']:+.5f}")
    b.metric("Net gain (1296 sequences)", f"{verdict['net_gain']:+.5f}")
    c.metric("Give-up model says", verdict["action"])
    a, b, c = st.columns(3)
    a.metric("Market lost next", f"{verdict['market_lost_chance']:.2%}")
    b.metric("Double/take window next", f"{verdict['window_chance']:.2%}")
    c.metric("Too weak next", f"{verdict['too_weak_chance']:.2%}")
    exact = verdict["exact"]
    a, b = st.columns(2)
    a.metric("Exact race strategy says", verdict["optimal_action"])
    b.metric("Same verdict", "yes" if verdict["agrees"] else "no")
    if not verdict["agrees"]:
        note = (
            "The roller cannot lose (no-double equity is exactly 1): doubling only ties, so "
            "the exact strategy does not double; the give-up model calls it double/pass."
            if exact["no_double"] >= 1.0
            else "The give-up points stand for average volatility; a race has its own."
        )
        st.info(f"The verdicts differ. {note}")
    st.caption(
        f"Exact race strategy (Zadeh-Kobliska model, race page): no double "
        f"{exact['no_double']:+.4f}, double/take {exact['double_take']:+.4f}, double/pass +1."
    )
    widgets.proper_action(
        view["action"], unit="money per unit of the current cube, exact race strategy"
    )
    widgets.chart(view["figure"], f"giveup_race_{on_roll}_{opponent}")
    if not v.present:
        with st.expander("The 169 pairs of dice totals (1296 sequences)"):
            widgets.table_with_download(
                view["sequences"], f"giveup_race_{on_roll}_{opponent}_{cube}.csv"
            )


def _equivalences(v: View, give_ups: GiveUpPoints) -> None:
    """Section 4: DA = g, DB = 1 - g; Janowski x from g and from g_c; where it breaks."""
    eq = cached.equivalences(give_ups)
    st.markdown(
        "With **DA = g, DB = 1 - g** Woolsey's owned and opponent transforms are Zadeh and "
        "Kobliska's effective-doubling-point transforms p/DA and (p - DB)/(1 - DB) (race page); "
        "his centred transform needs the pair (g_c, 1 - g_c). In the linear region each "
        "transform is a Janowski cube life x."
    )
    widgets.metric_row(
        [
            ("DA = g", f"{eq['da']:.4f}"),
            ("DB = 1 - g", f"{eq['db']:.4f}"),
            ("Centre: DA = g_c", f"{eq['da_center']:.4f}"),
            ("Centre: DB = 1 - g_c", f"{eq['db_center']:.4f}"),
        ]
    )
    matching, gap = eq["g_c_matching"], eq["zk77_max_difference"]
    widgets.headline(  # what the mapping computes; the first chart compares the two models
        [
            ("Janowski x from g", f"{eq['x_own']:.4f}"),
            ("Janowski x from g_c", f"{eq['x_center']:.4f}"),
            ("g_c with the same x as g", "none" if matching is None else f"{matching:.4f}"),
            ("Max gap to ZK77 (owned, opp.)", "n/a" if gap is None else f"{gap:.1e}"),
        ]
    )
    widgets.formula(
        r"x = 4\left(\frac1g - 1\right),\qquad x_c = \frac32\left(\frac{1}{2g_c-1} - 1\right)",
        "matching slopes with Janowski's live cube (take .2, cash .8), W = L = 1",
    )
    breaks = []
    if eq["x_own"] > 1.0 or eq["x_center"] > 1.0:
        breaks.append(
            "a give-up point below .8 implies x > 1, outside Janowski's range (and DA < .8 is "
            "outside Zadeh-Kobliska's)"
        )
    if abs(eq["x_own"] - eq["x_center"]) > 1e-9:
        breaks.append(
            f"g and g_c imply different cube lives ({eq['x_own']:.3f} after the double, "
            f"{eq['x_center']:.3f} before it): one Janowski x cannot reproduce both"
        )
    breaks.append(
        "past the linear region the models part: Janowski's live cube cashes at .8, "
        "the give-up model stays linear up to g"
    )
    st.info("Where the mapping breaks: " + "; ".join(breaks) + ".", icon=":material/link_off:")
    left, right = widgets.side_by_side(v.present)
    with left:
        comparison = cached.janowski_comparison(give_ups)
        if comparison is None:
            st.info("No Janowski comparison: the implied x is outside [0, 1].")
        else:
            widgets.chart(figures.janowski_figure(comparison), "giveup_janowski")
    with right:
        widgets.chart(
            figures.cube_life_figure(cached.cube_life_curves(), give_ups),
            "giveup_cube_life",
        )
