"""Keeler-Spencer page: the four sections (continuous game, limited doubles, raises, potentials).

Each function renders one section from the :class:`~ui.skeleton.View`; the skeleton
runs only the open one.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from cubecore import keeler_spencer as ks
from cubecore.references import source
from ui import widgets
from ui.keeler_spencer import data as cached
from ui.links import escape_text
from ui.simulation import simulated
from ui.skeleton import View

SOURCE = source("KS69")


#: The transcription's disagreements with the exact computation, one line each.
_TEXT_DEVIATION_LINES = tuple(
    f"**{escape_text(place.capitalize(), 200)}**: printed “"
    f"{escape_text(printed, 200)}”. {escape_text(reason, 1000)}."
    for place, (printed, reason) in ks.TEXT_DEVIATIONS.items()
)


def _compare_printed(printed: pd.DataFrame, table: str) -> None:
    """Printed table beside the exact one; every disagreeing cell listed with its reason."""
    name = f"Table {table}"
    view = cached.printed_view(table)
    digits = view.digits
    half_unit = 0.5 * 10.0**-digits
    # A number format per column (a pandas Styler would be rendered anew on every rerun).
    shown = {str(c): st.column_config.NumberColumn(format=f"%.{digits}f") for c in printed.columns}
    left, right = st.columns(2)
    with left:
        st.caption(f"{name} as printed")
        widgets.table(printed, column_config=shown, hide_index=False)
    with right:
        st.caption(f"{name} exact, rounded to {digits} places")
        widgets.table(view.rounded, column_config=shown, hide_index=False)
    st.caption(
        f"Largest |exact − printed| = {view.largest:.2g} (half a unit "
        f"of the last printed place is {half_unit:g})."
    )
    if view.agrees:
        st.success(
            f"{name}: every printed cell agrees with the exact value.", icon=":material/check:"
        )
    for line in view.disagreements:
        st.info(line, icon=":material/error:")


# --------------------------------------------------------------------------- section 1


def render_game(v: View) -> None:
    """Section 1: the lemma, a seeded path with the thresholds, the 80% check, the price."""
    d, seed, n_games = v.number("d"), v.whole("seed"), v.whole("games")
    path = cached.path_view(v.number("x0"), seed, d, v.whole("prog"))
    chart_column, text_column = widgets.chart_columns(v.present)
    with chart_column:
        widgets.chart(path.figure, "ks_path")
    if not v.present:
        with text_column:
            widgets.formula(r"P(E) = \frac{a}{a+b}", f"{SOURCE}: lemma, eq. (2)")
            st.caption(
                "E: the indicator at x reaches x + b before x − a. So p(t) moves like Brownian "
                "motion on [0, 1]: every continuous game is this random walk."
            )
            widgets.formula(
                r"-K = 2K\left[\frac{1-\alpha}{\alpha} - \frac{2\alpha-1}{\alpha}\right]"
                r"\Rightarrow \alpha = 0.8",
                f"{SOURCE}: eqs. (3)-(5)",
            )
            widgets.table(path.shown, height=180)
    st.caption(
        "On this path A doubles and redoubles at d, B at his 80% (A's 20%); a player takes "
        "iff his chance is at least 20%. The price below moves only A's initial double."
    )
    widgets.headline(  # what the first chart, the path, ends in
        [
            ("Game result for A (points)", path.outcome),
            ("Doubles on this path", f"{path.doubles}"),
        ]
    )

    st.subheader("Monte Carlo: at 80% taking and dropping are both −K")
    check = simulated(
        "the take check",
        f"{n_games:,} games of the take check",
        lambda: cached.take_check(d, n_games, seed),
    )
    if check is None:
        return
    estimate = check["take_estimate"]
    a, b, c, e = st.columns(4)
    a.metric("Drop (−K)", f"{check['drop_value']:+.4f}")
    b.metric("Take, exact (3 − 5d)", f"{check['take_value_exact']:+.4f}")
    c.metric("Take, Monte Carlo", f"{estimate['mean']:+.4f}")
    e.metric("95% interval", f"[{estimate['low']:+.3f}, {estimate['high']:+.3f}]")
    inside = estimate["low"] <= check["drop_value"] <= estimate["high"]
    st.caption(
        f"{estimate['n_games']:,} seeded games (seed {seed}) played on from d = {d:.2f} with the "
        f"cube on B's side. The 95% interval {'contains' if inside else 'excludes'} −K: "
        + ("taking and dropping cannot be told apart." if inside else "one of them is better.")
    )
    widgets.chart(cached.take_check_chart(d, n_games, seed, check), "ks_take_check")

    st.subheader("What A loses by doubling at d instead of 80%")
    beavers = v.flag("beavers")
    price = simulated(
        "the doubling price",
        f"{n_games:,} games of the doubling price",
        lambda: cached.doubling_price(d, beavers, n_games, seed),
    )
    if price is None:
        return
    loss_mc = price["equity_optimal"] - price["estimate"]["mean"]
    a, b, c = st.columns(3)
    a.metric("Loss, exact", f"{price['loss_exact']:.4f}")
    b.metric("Loss, Monte Carlo", f"{loss_mc:.4f}")
    c.metric("Loss 95% interval half-width", f"{1.96 * price['estimate']['std_error']:.4f}")
    widgets.chart(cached.price_chart(d, beavers, n_games, seed, price), "ks_price")


# --------------------------------------------------------------------------- section 2


def render_alternating(v: View) -> None:
    """Section 2: the first doubling point with at most n doubles in total."""
    n_max = v.whole("nmax")
    points, figure = cached.limited_view(n_max)
    chart_column, text_column = widgets.chart_columns(v.present)
    with chart_column:
        widgets.chart(figure, "ks_limited")
    if not v.present:
        with text_column:
            widgets.formula(
                r"\alpha(n) = \frac45 + \frac{(-1)^n}{4^n\cdot 5}", f"{SOURCE}: section 2"
            )
            widgets.formula(r"\alpha(n) = 1 - \tfrac14\,\alpha(n-1)", "the recursion behind it")
    alpha = ks.limited_doubling_point(n_max)
    widgets.headline(
        [
            (f"α({n_max})", f"{alpha:.6f}"),
            ("Distance from 0.8", f"{alpha - ks.ALTERNATING_DOUBLING_POINT:+.2e}"),
        ]
    )
    if not v.present:
        widgets.table_with_download(points, f"ks_limited_n{n_max}.csv")


# --------------------------------------------------------------------------- section 3


def render_raises(v: View) -> None:
    """Section 3: Tables I-II for any a, b and size, one cell, the tree, the coin flips."""
    i, j, a, b = v.whole("i"), v.whole("j"), v.number("a"), v.number("b")
    rows, cols, point = v.whole("rows"), v.whole("cols"), v.text("pt")
    view = cached.raises_view(i, j, a, b, rows, cols, point)
    cell = view.cell
    widgets.headline(
        [
            (f"α({i},{j}): A raises at", f"{cell['alpha']:.4f}"),
            (f"β({i},{j}): B raises at", f"{cell['beta']:.4f}"),
            (f"E({i},{j}): A's even-game value", f"{cell['value']:+.3f}"),
            ("Recursion (8)-(9) = Theorem 2", "yes, exactly" if cell["methods_agree"] else "NO"),
        ]
    )
    st.caption(f"Exact: α({i},{j}) = {cell['alpha_exact']}, β({i},{j}) = {cell['beta_exact']}.")
    if i == 10 and j == 3 and a == b == 2.0:
        printed, reason = ks.TEXT_DEVIATIONS[
            "section 3, example 'A starts with 10 doubles and B with 3'"
        ]
        st.info(f"The paper says A should double at {printed}; {reason}.", icon=":material/info:")

    widgets.two_charts(
        (view.point_map, "ks_table_I"), (view.value_map, "ks_table_II"), present=v.present
    )
    st.caption(
        "Recursion (8)-(9) against the closed form (11) over the table: largest gap "
        f"{view.gap:.1e}."
    )
    if not v.present:
        widgets.formula(
            r"\alpha(i,j) = \tfrac{a+1}{2a}\,\alpha(i-1,j) + \tfrac{a-1}{2a}\,\beta(i-1,j),\quad"
            r"\beta(i,j) = \tfrac{b-1}{2b}\,\alpha(i,j-1) + \tfrac{b+1}{2b}\,\beta(i,j-1)",
            f"{SOURCE}: eqs. (8)-(9), with α(0, j) = 1 and β(i, 0) = 0",
        )
        widgets.formula(
            r"E = \frac{1 - \alpha - \beta}{\alpha - \beta}\ \text{if}\ \beta < \tfrac12 < \alpha,"
            r"\ \text{else}\ \pm 1",
            f"{SOURCE}: eq. (19)",
        )
        with st.expander("Tables as numbers (CSV)"):
            widgets.table_with_download(view.point_csv, f"ks_{point}_a{a:g}_b{b:g}.csv")
            widgets.table_with_download(view.value_csv, f"ks_value_a{a:g}_b{b:g}.csv")
        with st.expander("Printed vs exact: Tables I and II (a = b = 2)", expanded=a == b == 2.0):
            st.caption(
                "Transcription repairs (reading, never values): '. 8945' is .8945, the column "
                "label 'ц' is 4, and Table II lost '-.' above the diagonal; its signs are restored "
                "from E(i, j) = −E(j, i)."
            )
            _compare_printed(ks.TABLE_I_PRINTED, "I")
            _compare_printed(ks.TABLE_II_PRINTED, "II")
    _render_tree(view, i, j, a, b)


def _render_tree(view: cached.RaisesView, i: int, j: int, a: float, b: float) -> None:
    """The game tree after alpha(i, j) and the coin-flip reading of Theorem 2."""
    st.subheader(f"The game after α({i},{j}): tree and coin flips")
    if view.tree is None:
        st.info(f"The tree is drawn for i + j ≤ {ks.MAX_TREE_RAISES}; here i + j = {i + j}.")
    else:
        widgets.chart(view.tree, "ks_tree")
        st.caption(
            "Heads: the raiser reaches his next raising point, probability (f+1)/(2f); upset: the "
            "opponent reaches his, (f−1)/(2f). Values are in units of the stakes at α(i, j)."
        )
    widgets.formula(
        r"\alpha(i,j) = P[K_a \le K_b] = \sum_k P[K_a = k]\,P[K_b \ge k],\quad "
        r"K_a \sim b\!\left(i, \tfrac{a-1}{2a}\right),\ "
        r"K_b \sim b\!\left(j, \tfrac{b-1}{2b}\right)",
        f"{SOURCE}: Theorem 2, eq. (11): A flips i coins, B flips j; "
        "A wins iff he throws no more upsets",
    )
    widgets.table_with_download(view.flips, f"ks_coin_flips_{i}_{j}_a{a:g}_b{b:g}.csv")
    st.caption(f"Sum of the terms: {view.flips_total:.6f} = α({i},{j}).")
    with st.expander("Where the transcribed text and the exact computation disagree"):
        for line in _TEXT_DEVIATION_LINES:
            st.markdown(line)


# --------------------------------------------------------------------------- section 4


def render_continuous(v: View) -> None:
    """Section 4: eq. (18), Tables III-V, Fig. 3, the normal approximation, log(a/b)."""
    a, b, grid = v.number("pa"), v.number("pb"), v.text("range")
    view = cached.continuous_view(a, b, grid)
    cell = view.cell
    widgets.headline(
        [
            (f"α({a:g}, {b:g})", f"{cell['alpha']:.4f}"),
            (f"β({a:g}, {b:g})", f"{cell['beta']:.4f}"),
            ("E: A's even-game value", f"{cell['value']:+.3f}"),
            ("Normal approximation (23)", f"{cell['normal']:.4f}"),
        ]
    )
    widgets.metric_row([("Asymptotic gain log(a/b)", f"{cell['asymptotic']:+.3f}")])
    if cell["alpha"] <= 0.5:
        st.success(
            f"α = {cell['alpha']:.4f} ≤ 1/2: in an even game A raises at once and B resigns "
            f"(E = +1). B resigns from a = {cell['resign_a']:.4f} on (Table V).",
            icon=":material/flag:",
        )
    else:
        st.caption(f"B would resign against a ≥ {cell['resign_a']:.4f} (Table V, b = {b:g}).")
    if not v.present:
        widgets.formula(
            r"\alpha(a,b) = \frac{1}{\sqrt{ab}} \sum_{0 \le i \le j} \frac{L^i M^j}{i!\,j!},"
            r"\quad L = \tfrac12 \ln a,\ M = \tfrac12 \ln b",
            f"{SOURCE}: eqs. (16)-(18); summed in log space until a proven tail bound "
            "is below 2⁻⁶⁰",
        )
    widgets.two_charts(
        (view.alpha_map, "ks_table_III"), (view.value_map, "ks_table_IV"), present=v.present
    )
    widgets.two_charts(
        (view.normal, "ks_normal"),
        (view.value, "ks_value"),
        present=v.present,
        formulas=[
            (
                r"\alpha(a,b) \approx \Phi\!\left(\frac{\tfrac12 - (L-M)}{\sqrt{L+M}}\right),"
                r"\qquad E(a,b) = \log\frac{a}{b} + o(1)",
                f"{SOURCE}: eqs. (23) and (26)-(27)",
            )
        ],
    )
    if not v.present:
        with st.expander("Printed vs exact: Tables III and IV (a, b = 1(1)10)"):
            _compare_printed(ks.TABLE_III_PRINTED, "III")
            _compare_printed(ks.TABLE_IV_PRINTED, "IV")
    _render_table_v(v.text("bmax"), v.present)


def _render_table_v(b_max: str, present: bool) -> None:
    """Table V and Fig. 3, the printed values beside the exact ones with the reasons."""
    st.subheader("Table V: the potential at which B resigns")
    table = cached.table_v_view(b_max)
    widgets.two_charts(
        (table.curve, "ks_table_V"), (table.errors, "ks_table_V_error"), present=present
    )
    missing = ", ".join(f"{b:g}" for b in ks.TABLE_V_MISSING_B)
    # the paper's own error, not the reader's: a caption beside the table, not a notice
    st.caption(
        f"{table.wrong} of {table.rows} printed values of Table V are not the exact "
        "root: from b = 5.2 on, each printed a is a little too large (1.2% at b = 1000), "
        f"an error in the paper's own computation. Rows b = {missing} are missing from "
        "the transcription: left out, not invented."
    )
    if not present:
        widgets.table_with_download(table.shown, "ks_table_V_printed_vs_exact.csv")
