"""The cube calculator's sections: the decision, its anatomy and margins, the score matrix."""

from __future__ import annotations

import math

import streamlit as st

from cubecore import cubeful, met
from cubecore.evaluation_text import parse_evaluation
from cubecore.janowski import CUBE_POSITIONS
from cubecore.match_points import CubeOwner
from cubecore.references import source
from ui import widgets
from ui.cube import controls, data
from ui.pages import link_query
from ui.skeleton import View

_PROBABILITY_KEYS = tuple(control.key for control in controls.PROBABILITIES)
_PASTED = "_cube_pasted"
_POSITION_PAGE = "pages/position.py"


def probabilities(v: View) -> data.Probabilities:
    """The five probabilities as fractions (the controls hold percent)."""
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = (
        round(v.number(key) / 100.0, 6) for key in _PROBABILITY_KEYS
    )
    return win, win_gammon, win_backgammon, lose_gammon, lose_backgammon


def setting(v: View) -> data.Setting:
    """The cube, the rules or score, and the cube life from the controls."""
    source_of_x = v.text("xfrom")
    if source_of_x == "by hand":
        x = v.number("x")
    else:
        x = cubeful.cube_life(source_of_x, v.whole("pips") if source_of_x == "race" else None)
    match = v.text("mode") == "match"
    position = v.choice("cube", CUBE_POSITIONS)
    owner: CubeOwner = "player" if position == "owned" else position
    return data.Setting(
        x=round(x, 6),
        cube=int(v.text("cv")),
        owner=owner,
        match=match,
        jacoby=v.flag("jacoby") and not match,
        beavers=v.flag("beavers") and not match,
        table=v.text("met"),
        away=v.whole("away"),
        opp_away=v.whole("oaway"),
        crawford=v.flag("crawford") and match and 1 in (v.whole("away"), v.whole("oaway")),
    )


def _checked(v: View) -> tuple[data.Probabilities, data.Setting] | None:
    """The inputs, or None after explaining why they cannot belong to one game."""
    p = probabilities(v)
    try:
        cubeful.CubelessProbabilities(*p)
    except ValueError as error:
        st.error(
            f"These probabilities cannot belong to one position: {error}. Nothing is computed."
        )
        return None
    s = setting(v)
    if s.owner == "center" and s.cube != 1:
        st.error(
            f"A centred cube is on 1 (a cube on {s.cube} has been turned, so one side owns "
            f"it): set {controls.CUBE_VALUE.label} to 1, or {controls.CUBE.label} to owned or "
            "opponent. Nothing is computed."
        )
        return None
    if s.match:
        table = met.load_table(s.table)
        if max(s.away, s.opp_away) > table.length:
            st.error(
                f"{table.name} covers scores up to {table.length}-away; "
                f"{s.away}-away/{s.opp_away}-away lies outside it."
            )
            return None
    return p, s


def _apply_pasted() -> None:
    """Read the paste box into the five probability controls (a button's callback)."""
    text = st.session_state.get("paste", "")
    try:
        parsed = parse_evaluation(text)
    except ValueError as error:
        st.session_state[_PASTED] = f"Not read: {error}"
        return
    read = parsed.probabilities
    values = (
        read.win,
        read.win_gammon,
        read.win_backgammon,
        read.lose_gammon,
        read.lose_backgammon,
    )
    for key, value in zip(_PROBABILITY_KEYS, values, strict=True):
        st.session_state[key] = round(100.0 * value, 2)
    st.session_state[_PASTED] = f"Read ({parsed.source}): the five probabilities are set."


def paste_box() -> None:
    """A box for an engine's evaluation text; a button reads it into the controls."""
    with st.expander("Paste an evaluation from GNU Backgammon or eXtreme Gammon"):
        st.text_area(
            "Evaluation text",
            key="paste",
            max_chars=20_000,
            placeholder="Player Winning Chances: 74.31% (G:26.06% B:0.96%)\n"
            "Opponent Winning Chances: 25.69% (G:5.12% B:0.21%)",
        )
        st.button("Read the probabilities", on_click=_apply_pasted, key="paste-read")
        message = st.session_state.pop(_PASTED, None)
        if message:
            (st.success if message.startswith("Read") else st.error)(message)


def _unit(s: data.Setting) -> str:
    return "EMG" if s.match else "money equity, per unit of the cube"


def back_to_position(v: View) -> None:
    """A link back to the position page with this cube and score, when it sent the chances."""
    if not v.text("pos"):
        return
    s = setting(v)
    values: dict[str, object] = {
        "pos": v.text("pos"),
        "mode": v.text("mode"),
        "cv": v.text("cv"),
        "cube": v.text("cube"),
    }
    if s.match:
        values.update(away=s.away, oaway=s.opp_away, crawford=s.crawford, met=s.table)
    else:
        values.update(jacoby=s.jacoby, beavers=s.beavers)
    st.page_link(
        _POSITION_PAGE,
        label="Back to the position these chances came from",
        icon=":material/search:",
        query_params=link_query(_POSITION_PAGE, values),
    )


def render_decision(v: View) -> None:
    """Cubeless and cubeful equities, the proper action, each error, the market window."""
    back_to_position(v)
    paste_box()
    checked = _checked(v)
    if checked is None:
        return
    p, s = checked
    view = data.decision_view(p=p, s=s)
    d = view.decision
    widgets.proper_action_line(d.action)
    if view.actions is not None:
        st.markdown(view.actions)
    st.caption(f"Cube life x = {s.x:.3f}; equities in {_unit(s)}.")
    widgets.headline(
        [
            ("Cubeless equity", f"{d.cubeless_equity:+.4f}"),
            ("No double", f"{d.no_double:+.4f}"),
            ("Double/take", "—" if d.double_take is None else f"{d.double_take:+.4f}"),
            ("Double/pass", "—" if d.double_pass is None else f"{d.double_pass:+.4f}"),
        ]
    )
    if s.match:
        a, b, c, e = st.columns(4)
        a.metric("Cubeless MWC", f"{d.cubeless_mwc:.2%}")
        b.metric("No double, MWC", f"{d.no_double_mwc:.2%}")
        c.metric(
            "Double/take, MWC", "—" if d.double_take_mwc is None else f"{d.double_take_mwc:.2%}"
        )
        e.metric(
            "Double/pass, MWC", "—" if d.double_pass_mwc is None else f"{d.double_pass_mwc:.2%}"
        )
    if view.errors is not None:
        st.markdown(view.errors)
        st.caption(
            f"Error: what a decision gives away against the right one, in {_unit(s)}, as "
            "a positive number, as gnubg and eXtreme Gammon report errors; 0 for the right "
            "decision."
        )
    else:
        st.info("The player on roll cannot double here: only No double is shown.")
    if view.windows is not None:
        st.markdown(widgets.market_window_markdown(view.windows))
        st.caption("Market window: each player's points in his own winning chance.")
    widgets.chart(view.window_figure, "cube_market_window")
    if not v.present:
        widgets.table_with_download(view.window_table, "cube_market_window.csv")
        widgets.formula(
            r"E = (1 - x)\,E_{\mathrm{dead}} + x\,E_{\mathrm{live}},\quad "
            r"TP = \frac{L - \tfrac12}{W + L + \tfrac12},\quad CP = \frac{L + 1}{W + L + \tfrac12}",
            source("J93") + "; " + source("GNUBG", "0-ply cube decisions"),
        )


def render_anatomy(v: View) -> None:
    """DT - ND split into named terms, and the margins of the best action."""
    checked = _checked(v)
    if checked is None:
        return
    p, s = checked
    view = data.anatomy_view(p=p, s=s)
    if view is None:
        st.info("The player on roll cannot double here: there is no DT - ND to take apart.")
        return
    widgets.headline(
        [
            ("DT - ND", f"{view.total:+.4f}"),
            (f"Largest term: {view.largest}", f"{view.terms[view.largest]:+.4f}"),
        ]
    )
    widgets.chart(view.figure, "cube_anatomy")
    if not v.present:
        widgets.formula(
            r"DT - ND = \underbrace{S(2c) - S(c)}_{\text{dead-cube gain}}"
            r" + \underbrace{G(2c) - G(c)}_{\text{gammons}}"
            r" + \underbrace{x\,(V_{\mathrm{opp}}(2c) - D(2c))}_{\text{recube vig}}"
            r" - \underbrace{x\,(V_{\mathrm{hold}} - D(c))}_{\text{market losers}}",
            source("J93") + "; " + source("JR12"),
        )
    m = view.margins
    st.subheader("Margins: how wrong may the numbers be before the action changes?")
    rows = [
        ("Winning chance", m.win_down, m.win_up),
        ("Gammon rate of the wins", m.win_gammon_down, m.win_gammon_up),
        ("Gammon rate of the losses", m.lose_gammon_down, m.lose_gammon_up),
    ]
    columns = st.columns(3)
    for column, (label, down, up) in zip(columns, rows, strict=True):
        column.metric(f"{label}: down", _margin(down))
        column.metric(f"{label}: up", _margin(up))


def _margin(value: float | None) -> str:
    return "no change" if value is None or math.isnan(value) else f"{value:.2%}"


def render_matrix(v: View) -> None:
    """The best action at every score of an n x n grid, with a money row."""
    checked = _checked(v)
    if checked is None:
        return
    p, s = checked
    table = met.load_table(s.table)
    n = min(v.whole("n"), table.length)
    view = data.matrix_view(p=p, s=s, n=n)
    widgets.headline([view.headline])
    widgets.chart(view.actions, f"cube_score_matrix_{s.table}_{n}")
    if not v.present:
        st.caption(
            f"{table.name}; cube centred; cube life x = {s.x:.3f}. Each cell: the best "
            "action (ND no double, D/T double/take, D/P double/pass, TG too good, – no cube "
            "action); point at a cell for its No double and Double/take equities (EMG). "
            "The current score is outlined and marked in the table."
        )
        widgets.table_with_download(view.table, f"cube_score_matrix_{s.table}_{n}.csv")
    widgets.chart(view.margins, f"cube_score_margins_{s.table}_{n}")
