"""Match-play page: the model notes above the tabs and the four sections.

Each function renders one section from the :class:`~ui.skeleton.View`; the skeleton
runs only the open one.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any, cast

import pandas as pd
import streamlit as st

from cubecore import match, match_points, met
from cubecore.cubeful import cube_life
from cubecore.references import source
from ui import widgets
from ui.match import charts, tables
from ui.match import data as cached
from ui.match.controls import CUBE_LIFE_CLASSES, TAKE_KINDS
from ui.skeleton import Render, View
from ui.style import NOT_APPLICABLE

SOURCE = "the model stated on this page"
RULES_SOURCE = source("RULES")

MODEL_TEXT = """
Beside the chosen table, this page shows a **model**: an exact recursion over the
scores, in the tradition of Zadeh's *On Doubling in Tournament Backgammon* (Management
Science 23(9), 1977) and Tornberg's match equity calculator (mec), from these stated
assumptions:

1. **Continuous game** (Keeler and Spencer 1969, section 1; Zadeh and Kobliska 1977,
   Lemma 1). Within a game your chance *p* of winning it moves continuously, like
   Brownian motion, from 1/2 until it reaches 0 or 1.
2. **Gammons**: a won game is a gammon (twice the cube) with probability *G*, for
   either side, independent of how the game went. Backgammons count as gammons.
3. **The cube at the score**: a game's end values are the table's own entries at the
   resulting score. Doubling, taking and dropping are chosen optimally: an optimal
   stopping problem (one owner) or a Dynkin game (centred cube), solved exactly
   (taut strings between piecewise-linear values). A cube that already decides the
   match for both sides is dead.
4. **Cube efficiency** *x* (after Janowski): at every cube level the equity is
   *x* x live + (1 - x) x dead, kept between what the two sides can force by doubling
   at once. *x* = 1 is the pure continuous game, *x* = 0 the dead cube.
5. **Crawford**: when a side first reaches 1-away the next game is played without the
   cube.
6. **Post-Crawford**: the trailer doubles at once; the leader takes or drops,
   whichever is worth more (the free drop at even scores).
7. **Holland rule**: the trailer may not double post-Crawford until a delay of *n*
   rolls has passed, during which *p* diffuses from 1/2 with standard deviation
   *σ* per roll (0.07: about 51 rolls a game, a stated modelling choice).

**Row 1 and column 1 of the table** hold the Crawford game (the game played when a
side has just reached 1-away). Post-Crawford values are in their own table.

**The published tables.** Every headline reads the match equity table chosen in the
sidebar (Kazaross-XG2 by default): the twelve tables of Debian's gnubg-data
(Kazaross-XG2, Rockwell-Kazaross, Woolsey, Jacobs-Trice, Snowie, ...), which are data
under an all-permissive licence ("Copying and distribution of this file, with or without
modification, are permitted in any medium without royalty provided the copyright notice
and this notice are preserved"), bundled in this project's own format with each table's
notice; the model table (at G and x above); or a table you upload. Where the model
gives a number of its own it is labelled as the model's and comes second. The model's
own checks are the table's identities (M(a, b) + M(b, a) = 1, monotone in both scores,
the Crawford and post-Crawford recursions) and the exact anchors below; the tabs
"Compare" and "Explain" set it beside the published ones.
"""


def _score(v: View) -> tuple[int, int, float, float]:
    """Your away, the opponent's away, the gammon rate G and the cube efficiency x."""
    return v.whole("away"), v.whole("oaway"), v.number("G"), v.number("x")


def _cube_and_owner(v: View) -> tuple[int, match.TakeCube]:
    """The cube value and owner before the double; a cube above 1 is the doubler's."""
    cube = int(v.text("cv"))
    owner = v.choice("cube", match.CUBE_OWNERS)
    if cube > 1 and owner == "center":
        st.info(
            f"A cube on {cube} belongs to the side that took it: the opponent "
            "(the doubler) owns it, so this is a redouble. Using owner = opponent.",
            icon=":material/info:",
        )
        owner = "opponent"
    return cube, owner


def render_model_notes(v: View) -> None:
    """Above the tabs: the chosen table, the model, its assumptions, the anchors.

    In presenter mode only the notice of a fallback table stands above the tabs (a link
    naming a table uploaded in another session); the notes follow the open section
    (:func:`noted`), so that its first screen is its slide.
    """
    if v.present:
        tables.render_table_notices(v)
        return
    _model_notes(v)


def _model_notes(v: View) -> None:
    tables.render_table_note(v)
    with st.expander("The model and its assumptions", icon=":material/functions:"):
        st.markdown(MODEL_TEXT)
        anchors = cached.anchors(v.number("G"))
        a, b, c = st.columns(3)
        a.metric("M(2, 2)", tables.percent(anchors["even"]), help="Even score: 50%.")
        b.metric(
            "Trailer post-Crawford, 1-away/2-away",
            tables.percent(anchors["trailer"]),
            help="The doubled game decides the match: 50% at any G.",
        )
        c.metric(
            "Dead take point, 2-away/2-away",
            tables.percent(anchors["dead_take"]),
            help="(1 + G)/4: dropping leaves you trailing the Crawford game 2-away/1-away.",
        )


def noted(render: Render) -> Render:
    """``render``, followed in presenter mode by the model notes (the chosen table, the
    model's assumptions), which stand above the tabs otherwise
    (:func:`render_model_notes`): on a projector the frame above the tabs leaves the
    section's slide no room for them."""

    @functools.wraps(render)
    def render_noted(v: View) -> None:
        render(v)
        if v.present:
            _model_notes(v)

    return render_noted


def render_table(v: View) -> None:
    """The generated match equity table, Crawford and post-Crawford."""
    a, b, g, x = _score(v)
    post = v.flag("post")
    table = cached.equity_table(g, x)
    phase = match.match_phase(a, b, post)
    mwc = cached.winning_chance(a, b, post, g, x)
    dead = cached.equity_table(g, 0.0)
    chosen, _ = tables.chosen_table(v, quiet=True)
    name = tables.plain(chosen.name)
    if tables.covered(chosen, v) >= max(a, b):
        on_table = chosen.mwc(a, b, post_crawford=tables.phase(v) == "post-Crawford")
        widgets.headline(
            [
                (f"Your MWC, {a}-away/{b}-away", tables.percent(on_table)),
                ("Opponent's MWC", tables.percent(1.0 - on_table)),
                ("The model's MWC (G and x above)", tables.percent(mwc)),
                ("Phase", phase),
            ]
        )
        st.caption(
            f"Your match winning chance from the chosen table, {name}; the model's own "
            "value second (the model is stated above the tabs, and the rest of this "
            "section shows it)."
        )
    else:
        widgets.headline(
            [
                (f"The model's MWC, {a}-away/{b}-away", tables.percent(mwc)),
                ("Opponent's MWC, the model's", tables.percent(1.0 - mwc)),
                ("Phase", phase),
            ]
        )
        st.caption(
            f"The chosen table, {name}, covers scores up to "
            f"{tables.covered(chosen, v)}-away: the match winning chance here is the model's."
        )
    if min(a, b) == 1 and max(a, b) > 1:
        k = max(a, b)
        leader = "you" if a == 1 else "the opponent"
        st.caption(
            f"The model, leader ({leader}) 1-away: {tables.percent(match.crawford_equity(k, g))}"
            f" in the Crawford game, {tables.percent(match.post_crawford_equity(k, g))} after it."
        )
    else:
        st.caption(
            "The model with a dead cube (x = 0) at this score: "
            f"{tables.percent(float(cast(float, dead.loc[a, b])))}."
        )
    widgets.chart_with_formulas(
        charts.row_figure(table, dead, a, b, _table_row(chosen, a)),
        "match_row",
        [
            (
                r"M(a,b) = V^{(1)}_{\mathrm{centre}}\!\left(\tfrac12\right)",
                f"{SOURCE}, assumptions 1-4: the centred-cube game at p = 1/2",
            ),
            (
                r"\begin{aligned} C(b) = \tfrac12 + \tfrac12\bigl[&(1-G)\,P(b-1)\\"
                r" &+ G\,P(b-2)\bigr] \end{aligned}",
                f"{SOURCE}, assumption 5: the Crawford game, leader 1-away",
            ),
            (
                r"\begin{aligned} P(b) &= \max\bigl(T(b),\ P(b-1)\bigr),\\ T(b) &="
                r" \tfrac12 + \tfrac12\bigl[(1-G)\,P(b-2)\\ &\quad + G\,P(b-4)\bigr] \end{aligned}",
                f"{SOURCE}, assumption 6: post-Crawford (T: the leader takes), P(1) = 1/2, "
                "P(k <= 0) = 0",
            ),
        ],
        present=v.present,
    )
    st.subheader(
        "The model's table (your MWC in percent: rows your points to go, columns the opponent's)"
    )
    shown = cached.in_percent(table)
    shown.columns = [str(c) for c in shown.columns]
    widgets.table_with_download(
        shown.reset_index(), f"match_equity_G{g:g}_x{x:g}.csv", label="Download the table (CSV)"
    )
    st.subheader("The model's Crawford and post-Crawford MWC (leader 1-away)")
    craw = cached.crawford_table(g)[["opp_away", "crawford", "post_crawford", "leader_drops"]]
    widgets.table_with_download(
        cached.in_percent(craw, ["crawford", "post_crawford"]),
        f"match_crawford_G{g:g}.csv",
        labels={
            "opp_away": "Trailer: points to go",
            "crawford": "Leader's MWC, Crawford game (%)",
            "post_crawford": "Leader's MWC, post-Crawford (%)",
        },
    )


#: Where the headline take point's cube life comes from.
GNUBG_CUBE_LIFE = "GNU Backgammon 1.07, eval.c, its cube efficiency (show cubeefficiency)"


def _cube_life(v: View) -> tuple[float, str]:
    """The cube life x of the position type chosen, and the type in words."""
    kind = v.choice("xfrom", CUBE_LIFE_CLASSES)
    if kind == "race":
        pips = v.whole("pips")
        return cube_life("race", pips), f"race ({pips} pips to go for the doubler)"
    return cube_life(kind), {"bearoff": "bear-off"}.get(kind, kind)


def _value(value: float) -> str:
    """A take point in percent (21.60%); "undefined" where the table gives 0/0."""
    return tables.percent(value)


def _table_row(table: met.MatchEquityTable, away: int) -> tuple[str, pd.Series] | None:
    """Your row of the chosen table (the opponent 1- to the table's length away), named
    for a chart; None when the table does not reach your score."""
    if away > table.length:
        return None
    n = min(table.length, match.MAX_AWAY)
    row = pd.Series(table.pre[away - 1, :n], index=range(1, n + 1))
    return f"you {away}-away, {tables.plot_text(table.name)}", row


def render_takes(v: View) -> None:
    """Take points at the score and cube level, and the market window."""
    a, b, g, x = _score(v)
    gd = v.number("Gd")
    cube, owner = _cube_and_owner(v)
    if match.match_phase(a, b, v.flag("post")) == "Crawford game":
        st.info(
            "The Crawford game is played without the cube: there is no take point in it. "
            "The take points below are those of the post-Crawford games at this score.",
            icon=":material/info:",
        )
    view = cached.takes_view(
        away=a,
        opp_away=b,
        cube_value=cube,
        cube_owner=owner,
        gammon_rate=g,
        opp_gammon_rate=gd,
        cube_efficiency=x,
    )
    tp = view.point
    st.markdown(
        f"**You are {a}-away, the opponent {b}-away and doubles the cube "
        f"from {cube} to {2 * cube}.** A take point is your smallest game winning "
        "chance at which taking is worth as much as passing."
    )
    chosen, key = tables.chosen_table(v, quiet=True)
    name = tables.plain(chosen.name)
    life, kind = _cube_life(v)
    phase = tables.phase(v)
    window = view.market_window
    inside = tables.covered(chosen, v) >= max(a, b) and cube < b  # else no double helps
    table_owner: match_points.CubeOwner = "center" if cube == 1 else "opponent"
    if inside:
        takes = cached.table_takes(
            key,
            chosen,
            # a cube on 1 is centred in a table's terms (the owner changes no point)
            (a, b, "post-Crawford" if phase == "Crawford" else phase, cube, table_owner),
            (g, gd),
            life,
        )
        window = charts.market_window_figure(
            takes.double_point,
            takes.cash_point,
            f"The doubler's market window, dead cube<br>{tables.plot_text(chosen.name)}",
        )
        widgets.headline([("Your take point", _value(takes.take_point))])
        if math.isnan(takes.take_point):
            st.info(tables.UNDEFINED_TEXT, icon=":material/info:")
        st.caption(
            f"From the chosen table, {name}; gammons counted (yours at G = {g:g}, the "
            f"doubler's at {gd:g}); the cube as live as GNU Backgammon 1.07 assumes in a "
            f"{kind} position: cube life x = {life:g} ({GNUBG_CUBE_LIFE})."
        )
        st.markdown("**The same take point under other assumptions**")
        widgets.table(
            pd.DataFrame(
                {
                    "Assumes": [
                        f"{name}, gammons, dead cube (x = 0)",
                        f"{name}, gammons, fully live cube (x = 1)",
                        f"{name}, no gammons, dead cube",
                        f"The model's, its own recursion at x = {v.number('x'):g}",
                        "The model's, dead cube with gammons",
                    ],
                    "Take point": [
                        _value(takes.dead),
                        _value(takes.live),
                        _value(takes.gammonless),
                        _value(tp["model"]),
                        _value(tp["dead_gammon"]),
                    ],
                }
            )
        )
    else:
        widgets.headline([("Your take point, the model's", _value(tp["model"]))])
        st.caption(
            f"The chosen table, {name}, has no take point here (it covers scores up to "
            f"{tables.covered(chosen, v)}-away, or the doubled cube already decides the "
            "match): the take point is the model's."
        )
    widgets.chart_with_formulas(
        window,
        "match_market_window",
        [
            (
                r"\begin{aligned} E_x(p) &= (1 - x)\,E_{\mathrm{dead}}(p) + x\,"
                r"E_{\mathrm{live}}(p),\\ TP &= 1 - p^{*},\ E_x(p^{*}) = D \end{aligned}",
                "The headline: Janowski's cube life x as GNU Backgammon applies it in "
                "match play (J. Thyssen's generalisation; eval.c); p the doubler's game "
                "winning chance, D the MWC of a pass, from the chosen table",
            ),
            (
                r"TP_{\mathrm{dead}} = \frac{D - L}{W - L} = \frac{\mathrm{risk}}"
                r"{\mathrm{risk} + \mathrm{gain}}",
                "D drop, W take and win, L take and lose: MWC from the table",
            ),
            (
                r"TP_{\mathrm{live}}(n) = TP_{\mathrm{dead}}(n)\,\bigl(1 - TP^{\mathrm{opp}}"
                r"_{\mathrm{live}}(2n)\bigr)",
                "Continuous game, no gammons: you redouble at your cash point; base case "
                "TP_live = TP_dead when winning the doubled game wins you the match",
            ),
            (
                r"\begin{aligned} TP_{G} &= \frac{D - L_G}{W_G - L_G},\\ W_G &= (1-G)\,W"
                r" + G\,W_{2},\\ L_G &= (1-G_d)\,L + G_d\,L_{2} \end{aligned}",
                "Dead cube with gammons: W_2, L_2 the MWC after a gammon at the doubled cube",
            ),
            (
                r"\text{model: } V^{(2n)}_{\mathrm{you}}(TP) = D",
                f"{SOURCE}: owning the doubled cube is worth exactly the drop",
            ),
        ],
        present=v.present,
        more=[(view.take_row, "match_take_row")],
    )
    st.subheader("At every cube level (this score)")
    widgets.table_with_download(
        view.by_cube,
        f"match_takes_{a}_{b}_G{g:g}_x{x:g}.csv",
        labels=tables.percent_labels(view.by_cube, cached.BY_CUBE_CHANCES),
    )
    st.caption(
        "Cube 1 is centred, higher cubes are the doubler's (redoubles). The list ends before "
        "the first cube the doubler already wins the match with. An empty doubling point: the "
        "doubler never doubles before the cash point (his cube is dead)."
    )


def render_rules(v: View) -> None:
    """Crawford protection, the post-Crawford double and free drop, Holland."""
    a, b, g, _ = _score(v)
    trailer = max(2, a, b)
    delay, volatility = v.whole("delay"), v.number("sd")
    st.caption(
        f"Leader 1-away, trailer {trailer}-away (the larger of the two scores in the "
        f"sidebar). Rules as stated in {RULES_SOURCE}. Every number in this section is "
        "the model's (stated above the tabs): a published table has no game without "
        "the rule to set beside it."
    )
    view = cached.rules_view(
        trailer=trailer, gammon_rate=g, delay_rolls=delay, volatility=volatility
    )
    here = view.crawford
    st.subheader("Crawford: the game without the cube protects the leader")
    widgets.headline(
        [
            ("Leader in the Crawford game, the model's", tables.percent(here["crawford"])),
            ("Same game without the rule, the model's", tables.percent(here["no_crawford_rule"])),
            ("Protection, the model's (pp)", f"{100 * here['protection']:+.2f}"),
        ]
    )
    widgets.chart(view.crawford_figure, "match_crawford")
    st.subheader("Post-Crawford: the trailer doubles at once; the free drop")
    drops = here["leader_drops"]
    cols: Sequence[Any] = st.columns(3)
    cols[0].metric("Leader's MWC post-Crawford", tables.percent(here["post_crawford"]))
    cols[1].metric("Trailer's MWC post-Crawford", tables.percent(1.0 - here["post_crawford"]))
    cols[2].metric("Leader's answer to the double", "drop" if drops else "take")
    st.markdown(
        "Trailing at an **even** score the trailer loses nothing when the leader drops: "
        "without gammons P(2k) = P(2k - 1) exactly, so the leader has a **free drop**; with "
        "gammons taking costs the trailer's gammons, so the leader drops. At odd scores the "
        "point dropped matters and the leader takes."
    )
    st.subheader("Holland: no double until each side has played two rolls")
    effect = view.holland
    without, with_rule, change, spread = st.columns(4)
    without.metric("Trailer, trailer doubles at once", tables.percent(effect["trailer_without"]))
    with_rule.metric("Trailer, Holland rule", tables.percent(effect["trailer_with"]))
    change.metric("Change (percentage points)", f"{100 * effect['trailer_change']:+.3f}")
    spread.metric("Spread over the delay", f"{effect['spread']:.3f}")
    widgets.chart_with_formulas(
        view.holland_figure,
        "match_holland",
        [
            (
                r"\begin{aligned} H(q) &= \max\bigl((1-q) + q\,T_2,\ P(b-1)\bigr),\\"
                r" T_2 &= (1-G)\,P(b-2) + G\,P(b-4) \end{aligned}",
                f"{SOURCE}, assumption 7: leader's MWC when the trailer (game chance q) "
                "doubles after the delay",
            ),
            (
                r"\mathrm{leader} = \mathbb{E}\,H\!\left(q_{n}\right),\quad q_0 = \tfrac12,"
                r"\ \mathrm{sd} = \sigma\sqrt{n}",
                "q diffuses for n rolls, absorbed at 0 and 1 (the game can end at cube 1)",
            ),
        ],
        present=v.present,
    )


def render_heatmaps(v: View) -> None:
    """Heatmaps of match equity and of take points across scores."""
    a, b, g, x = _score(v)
    gd = v.number("Gd")
    cube, owner = _cube_and_owner(v)
    kind = v.text("tk")
    view = cached.heatmaps_view(
        max_away=v.whole("size"),
        cube_value=cube,
        cube_owner=owner,
        gammon_rate=g,
        opp_gammon_rate=gd,
        cube_efficiency=x,
        kind=kind,
        title=f"Your take point: {TAKE_KINDS[kind]}; cube {cube} to {2 * cube}",
        marked=(a, b),
    )
    table, pivot = view.table, view.take_points
    crawford = ", Crawford game" if min(a, b) == 1 < max(a, b) else ""  # row 1, column 1
    widgets.headline(
        [
            (
                f"The model's match equity, {a}-away/{b}-away{crawford}",
                _cell(table, a, b),
            ),
            (f"Your take point, the model's: {TAKE_KINDS[kind]}", _cell(pivot, a, b)),
        ]
    )
    widgets.chart(view.table_figure, "match_equity_heatmap")
    widgets.chart(view.take_point_figure, "match_take_heatmap")
    if not v.present:
        st.caption(
            "Rows: your points to go (you are doubled); columns: the doubler's. At 1-away "
            "the take points are post-Crawford. The double (cube, owner, the doubler's "
            "gammon rate) is set in the sidebar panel of the take points."
        )


def _cell(
    grid: pd.DataFrame, a: int, b: int, shown: Callable[[float], str] = tables.percent
) -> str:
    """A heatmap's cell at the score as ``shown`` (a chance in percent:
    :func:`ui.match.tables.percent`), "—" off the map or empty."""
    if a not in grid.index or b not in grid.columns:
        return NOT_APPLICABLE
    value = float(cast(float, grid.loc[a, b]))
    return NOT_APPLICABLE if math.isnan(value) else shown(value)
