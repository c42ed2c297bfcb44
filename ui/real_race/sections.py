"""The real-race page: the position drawn, the race formulas, the exact bear-off values."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from cubecore import bearoff, cubeful, met, race, race_match
from cubecore.janowski import CubePosition
from cubecore.match_points import CubeOwner, MatchPhase, MatchScore
from cubecore.position import Position, position_id, xgid_info
from cubecore.references import source
from ui import widgets
from ui.board import board_figure
from ui.real_race import charts, controls, data
from ui.skeleton import View
from ui.style import CUBE_NAMES, Figure
from ui.warmup import WARM_UP

_PASTED = "_race_pasted"
#: Scores 2..7 a side in the match section's cube-life map (36 solves, a few seconds).
_MATCH_LIFE_GRID = 7


def _read_pasted() -> None:
    """Read a pasted XGID or Position ID into the position control, and an XGID's cube
    into the cube controls (a button's callback)."""
    text = st.session_state.get("race-paste", "").strip()
    try:
        if text.upper().startswith("XGID="):
            info = xgid_info(text)
            found = info.position
            if str(info.cube_value) not in controls.CUBE_VALUE.options:
                raise ValueError(f"a cube of {info.cube_value} is beyond 64")
        else:
            info, found = None, data.position(text)
    except ValueError as error:
        st.session_state[_PASTED] = f"Not read: {error}"
        return
    st.session_state[controls.POSITION.key] = position_id(found)
    if info is None:
        st.session_state[_PASTED] = "Read: the position is set."
        return
    if info.cube_owner == 0:
        cube = "center"
    else:  # XG's owner is the bottom (1) or top (-1) player; ours is seen from the roller
        cube = "owned" if (info.cube_owner == 1) == info.bottom_on_roll else "opponent"
    st.session_state[controls.CUBE.key] = cube
    st.session_state[controls.CUBE_VALUE.key] = str(info.cube_value)
    st.session_state[_PASTED] = "Read: the position and the cube are set."


def _position(v: View) -> Position | None:
    """The link's position, or None after saying what is wrong with it."""
    try:
        return data.position(v.text("pos"))
    except ValueError as error:
        st.error(f"Position ID {v.text('pos')!r} is not a position: {error}.")
        return None


def _home_points(counts: tuple[int, ...]) -> tuple[int, ...] | None:
    """Checkers on points 1..6, or None when some are still outside the home board."""
    return tuple(counts[:6]) if not any(counts[6:]) else None


#: The cube control's words -> the cube seen from the player on roll (race models) and its
#: owner (the board, the match solver).
_CUBES: dict[str, tuple[CubePosition, CubeOwner]] = {
    "center": ("center", "center"),
    "owned": ("owned", "player"),
    "opponent": ("opponent", "opponent"),
}
#: Counts either side of the position shown on the money strategy map.
_MAP_MARGIN = 25


def _cube(v: View) -> tuple[int, CubePosition, CubeOwner] | None:
    """The page's cube: value, position and owner; None after saying what is wrong."""
    value = int(v.text("cv"))
    position, owner = _CUBES[v.text("cube")]
    if value == 1:
        if owner != "center":
            st.info("A cube on 1 has not been turned: it is read as centred.")
        return 1, "center", "center"
    if owner == "center":
        st.info("A cube above 1 has an owner: choose 'owned' or 'opponent' as the cube position.")
        return None
    return value, position, owner


def render_position(v: View) -> None:
    """The verdict for the position first, the board, the strategy map, then the rules
    of thumb as labelled variants and the exact bear-off values."""
    with st.expander("Paste a Position ID or an XGID"):
        st.text_input("Position ID or XGID", key="race-paste", max_chars=120)
        st.button("Read the position", key="race-read", on_click=_read_pasted)
        message = st.session_state.pop(_PASTED, None)
        if message:
            (st.success if message.startswith("Read") else st.error)(message)
    position = _position(v)
    cube = _cube(v)
    if position is None or cube is None:
        return
    value, where, owner = cube
    board = board_figure(position, cube_value=value, cube_owner=owner)
    on_roll, opponent = position.pips
    if not position.is_race:
        widgets.headline([("Pips, on roll", str(on_roll)), ("Pips, opponent", str(opponent))])
        widgets.chart(board, "race_board")
        st.warning("This is not a race (the checkers can still meet): the race formulas need one.")
        return
    verdict = data.money_verdict(v.text("pos"), where)
    how = (
        "exact: the two-sided bear-off database"
        if verdict.exact
        else f"the race model solved exactly on the pip counts, {on_roll} v {opponent}"
    )
    widgets.headline(
        [
            ("Money verdict", verdict.action),
            ("Equity, best play", f"{verdict.optimal:+.4f}"),
            ("Cubeless winning chance", f"{verdict.cubeless_win:.2%}"),
            ("Pips, on roll v opponent", f"{on_roll} v {opponent}"),
        ]
    )
    st.caption(f"Money play, {_cube_words(value, owner)}; from {how}.")
    widgets.chart(board, "race_board")
    _match_verdict(v, position, value, owner)
    _money_map(where, on_roll, opponent)
    table = data.counts(v.text("pos"), where)
    st.subheader("Rules of thumb (variants)")
    widgets.table_with_download(_rules_shown(table), f"race_counts_{v.text('pos')}.csv")
    if not v.present:
        st.caption(
            "Rules players use at the board, each from its published definition and "
            "checked against GNU Backgammon 1.07's own race counts; each compares the counts "
            "with its own thresholds, read at the cube above (from the centre a double, "
            "owned a redouble). They are estimates: the verdict above comes first. "
            + source("GNUBG")
        )
    _bearoff_values(position)


def _cube_words(value: int, owner: CubeOwner) -> str:
    return {
        "center": "cube centred",
        "player": f"the player on roll owns the {value}-cube",
        "opponent": f"the opponent owns the {value}-cube",
    }[owner]


def _compared(row: pd.Series) -> str:
    """What a rule compares, in its own unit (one rule a row, the unit named)."""
    method, measure = row["method"], float(row["measure"])
    if method in ("Keith", "Thorp"):
        return f"raised count minus the opponent's: {_short(measure)}"
    if method == "8-9-12":
        return f"lead: {_short(measure)}% of the roller's pips"
    if method == "Kleinman":
        return (
            "K: no pips left to vary (a sure win)" if math.isinf(measure) else f"K = {measure:.3f}"
        )
    if method == "Isight":
        return f"estimated winning chance: {_short(measure)}%"
    lead = int(row["opponent"]) - int(row["on_roll"])
    return f"lead {lead} pips; last take at a lead of {_short(measure)} pips"


def _short(number: float) -> str:
    """A number with at most 2 decimals, trailing zeros dropped."""
    text = f"{number:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _rules_shown(table: pd.DataFrame) -> pd.DataFrame:
    """The rules of thumb as a player reads them: one unit a column, chances in percent."""
    return pd.DataFrame(
        {
            "Rule": table["method"],
            "Count, on roll": table["on_roll"].astype(float),
            "Count, raised": table["on_roll_adjusted"].astype(float),
            "Count, opponent": table["opponent"].astype(float),
            "What it compares": [_compared(row) for _, row in table.iterrows()],
            "Winning chance (%)": [
                None if w is None or pd.isna(w) else round(100.0 * float(w), 2)
                for w in table["win"]
            ],
            "Says": table["verdict"],
        }
    )


def _match_verdict(v: View, position: Position, value: int, owner: CubeOwner) -> None:
    """The position's verdict at the match tab's score (variant below the money verdict)."""
    key, away, opp_away = v.text("met"), v.whole("away"), v.whole("oaway")
    phase = _match_phase(away, opp_away, v.flag("crawford"))
    pips = _match_pips(v)
    label = f"{away}-away/{opp_away}-away"
    if pips is None:
        return
    try:
        score = MatchScore(met.load_table(key), away, opp_away, phase, value, owner)
        e = _decision(key, score, pips)
        mine, theirs = _home_points(position.on_roll), _home_points(position.opponent)
        exact = (
            mine is not None
            and theirs is not None
            and max(sum(mine), sum(theirs)) <= race_match.MAX_BEAROFF_CHECKERS
        )
        if exact:
            e = _decision(key, score, pips, (mine, theirs))  # type: ignore[arg-type]
    except ValueError as error:
        st.caption(f"At {label} ({phase}): no race verdict ({error}).")
        return
    widgets.metric_row(
        [
            (f"Match verdict at {label}", e.action.replace("/", ", ")),
            ("Match winning chance, best play", f"{e.optimal:.2%}"),
        ]
    )
    st.caption(
        f"The {phase} game at the score of the 'At a match score' tab, "
        f"{_cube_words(value, owner)}; from "
        + ("the exact bear-off at the score." if exact else "the race model on the pip counts.")
    )


def _money_map(cube: CubePosition, on_roll: int, opponent: int) -> None:
    """The race model's money strategy map around the position, the position marked."""
    low = max(1, min(on_roll, opponent) - _MAP_MARGIN)
    high = min(race.MAX_COUNT, max(on_roll, opponent) + _MAP_MARGIN)
    figure = charts.money_action_figure(
        data.money_map(cube, low, high),
        f"Money strategy map of the race model, {CUBE_NAMES[cube]}",
    )
    widgets.chart(charts.with_position(figure, on_roll, opponent), "race_money_map")


def _bearoff_values(position: Position) -> None:
    """Exact values from the databases, where the position is in them."""
    mine, theirs = _home_points(position.on_roll), _home_points(position.opponent)
    if mine is None or theirs is None:
        st.info("Checkers are still outside the home boards: no bear-off database applies.")
        return
    st.subheader("Exact bear-off values")
    WARM_UP.need("bearoff-one")
    ours, others = data.one_sided(mine), data.one_sided(theirs)
    win = data.one_sided_win(mine, theirs)
    a, b, c = st.columns(3)
    a.metric(
        "Expected rolls (on roll / opponent)",
        f"{ours.expected_rolls:.3f} / {others.expected_rolls:.3f}",
    )
    b.metric("EPC (on roll / opponent)", f"{ours.epc:.2f} / {others.epc:.2f}")
    c.metric("Cubeless winning chance, one-sided", f"{win:.2%}")
    if sum(mine) <= bearoff.TWO_SIDED_CHECKERS and sum(theirs) <= bearoff.TWO_SIDED_CHECKERS:
        WARM_UP.need("bearoff-two")
        exact = data.two_sided(mine, theirs)
        widgets.metric_row(
            [
                ("Exact winning chance (two-sided)", f"{exact.win:.2%}"),
                ("Cubeful equity, cube centred", f"{exact.centred:+.4f}"),
                ("Exact cube action, centred", exact.action_centred),
            ]
        )
        action = cubeful.proper_cube_action(
            exact.centred_no_double, exact.double_take, 1.0, can_gammon=False
        )
        widgets.proper_action(action, unit="money, cube centred, exact (two-sided database)")


def render_pip_model(v: View) -> None:
    """Zadeh-Kobliska's pip model against the exact two-sided database."""
    st.subheader("The pip model against the real bear-off")
    by = "on_roll_pips"
    WARM_UP.need("bearoff-two")
    errors = data.pip_model_errors(by)
    pairs = errors["pairs"].sum()
    widgets.headline(
        [
            ("Pairs of bear-offs", f"{pairs:,}"),
            (
                "Mean |error| of the winning chance",
                f"{(errors['pairs'] * errors['mean_abs_win_error']).sum() / pairs:.2%}",
            ),
            (
                "Pairs with another action",
                f"{(errors['pairs'] * errors['action_disagreement']).sum() / pairs:.2%}",
            ),
        ]
    )
    widgets.chart(_errors_figure(errors), "race_pip_model_errors")
    if not v.present:
        st.caption(
            "Every pair of bear-offs of up to 6 checkers each: the pip model's winning "
            "chance and centred-cube action against the exact values. " + source("ZK77")
        )
        widgets.table_with_download(_errors_shown(errors), "race_pip_model_errors.csv")


#: The pip model's error table as a player reads it: header, factor, decimals. Winning
#: chances and shares in percent (as the headline), equities and cube lives as they are.
_ERROR_COLUMNS = {
    "on_roll_pips": ("Pips of the player on roll", 1, 0),
    "pairs": ("Pairs", 1, 0),
    "mean_win_error": ("Mean error of the winning chance (pp)", 100, 2),
    "mean_abs_win_error": ("Mean |error| of the winning chance (pp)", 100, 2),
    "max_abs_win_error": ("Largest |error| of the winning chance (pp)", 100, 2),
    "mean_abs_centred_error": ("Mean |error| of the equity, cube centred", 1, 4),
    "action_disagreement": ("Pairs with another action (%)", 100, 2),
    "median_exact_cube_life": ("Median cube life, exact", 1, 4),
    "median_pip_model_cube_life": ("Median cube life, pip model", 1, 4),
}


def _errors_shown(errors: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(
        {
            label: (errors[name] * factor).round(places)
            for name, (label, factor, places) in _ERROR_COLUMNS.items()
        }
    )


def _errors_figure(errors: pd.DataFrame) -> Figure:
    from ui.style import COLORS, base_layout, line

    x = errors.iloc[:, 0]
    traces = [
        line(
            x,
            100 * errors["mean_abs_win_error"],
            "mean |error| of the winning chance (pp)",
            COLORS["take"],
        ),
        line(
            x,
            100 * errors["action_disagreement"],
            "pairs with another action (%)",
            COLORS["double"],
        ),
    ]
    return {
        "data": traces,
        "layout": base_layout(
            "Pip model minus exact, by the roller's pip count",
            "pips of the player on roll",
            "percent",
        ),
    }


def _match_phase(away: int, opp_away: int, crawford: bool) -> MatchPhase:
    """The kind of game at a score: a 1-away score is the Crawford game or post-Crawford."""
    if 1 not in (away, opp_away):
        return "pre-Crawford"
    return "Crawford" if crawford else "post-Crawford"


def render_match(v: View) -> None:
    """The exact race cube strategy at a match score: actions, window, cube life."""
    key, away, opp_away = v.text("met"), v.whole("away"), v.whole("oaway")
    phase = _match_phase(away, opp_away, v.flag("crawford"))
    cube = _cube(v)
    if cube is None:
        return
    cube_value, _, owner = cube
    pips = v.whole("rpips")
    score = f"{away}-away/{opp_away}-away, {phase}, cube {cube_value} ({owner})"
    try:
        with st.spinner("Solving the race at this score..."):
            view = data.match_view(
                key=key,
                away=away,
                opp_away=opp_away,
                phase=phase,
                cube_value=cube_value,
                cube_owner=owner,
                pips=pips,
                title=f"Exact race cube action at {score}",
            )
    except ValueError as error:
        st.error(f"No race strategy at {score}: {error}.")
        return
    st.subheader(f"Cube action at {score}")
    _match_position(v, key, view.score)
    counts = _match_pips(v)
    actions = view.actions if counts is None else charts.with_position(view.actions, *counts)
    widgets.chart(actions, "race_match_actions")
    widgets.chart(view.window, "race_match_window")
    if not v.present:
        st.caption(
            "Zadeh and Kobliska's race (pip counts, dice totals, no gammons) solved exactly "
            "with both sides' cube play optimal and each finished game worth its match "
            "winning chance on the chosen table. Dashed: money play's thresholds. " + source("ZK77")
        )
        widgets.table_with_download(view.window_shown, f"race_match_window_{away}_{opp_away}.csv")
    _match_cube_life(v, key)


def _match_pips(v: View) -> tuple[int, int] | None:
    """The page's position's pip counts when it is a race inside the DP's budget."""
    try:
        position = data.position(v.text("pos"))
    except ValueError:
        return None
    pips = position.pips
    if not position.is_race or max(pips) > race_match.MAX_MATCH_COUNT:
        return None
    return pips


def _decision(
    key: str,
    score: MatchScore,
    pips: tuple[int, int],
    points: tuple[tuple[int, ...], tuple[int, ...]] | None = None,
) -> race_match.RaceMatchEquities:
    """:func:`ui.real_race.data.match_decision` at ``score`` on the table ``key``."""
    return data.match_decision(
        key=key,
        away=score.away,
        opp_away=score.opp_away,
        phase=score.phase,
        cube_value=score.cube_value,
        cube_owner=score.cube_owner,
        pips=pips,
        points=points,
    )


def _match_position(v: View, key: str, score: MatchScore) -> None:
    """The page's position at the score (the table ``key``): its action and match
    winning chances."""
    pips = _match_pips(v)
    if pips is None:
        widgets.headline(
            [
                ("Score", f"{score.away}-away/{score.opp_away}-away"),
                ("Game", score.phase),
            ]
        )
        st.caption(
            f"The page's position is not a race of at most {race_match.MAX_MATCH_COUNT} pips "
            "a side: the maps below cover every pair of pip counts."
        )
        return
    e = _decision(key, score, pips)
    widgets.headline(
        [
            ("Match winning chance", f"{e.optimal:.2%}"),
            ("Cubeless, pip model", f"{e.cubeless_win:.2%}"),
            (f"Action, {pips[0]} v {pips[1]} pips", e.action),
        ]
    )
    position = data.position(v.text("pos"))
    mine, theirs = _home_points(position.on_roll), _home_points(position.opponent)
    small = race_match.MAX_BEAROFF_CHECKERS
    if mine is None or theirs is None or max(sum(mine), sum(theirs)) > small:
        _proper_action(e, score, f"the pip model at {pips[0]} v {pips[1]} pips")
        return
    with st.spinner("Solving the bear-off at this score..."):
        exact = _decision(key, score, pips, (mine, theirs))
    widgets.metric_row(
        [
            ("Exact bear-off action at the score", exact.action),
            ("Match winning chance, exact bear-off", f"{exact.optimal:.2%}"),
            ("Cubeless winning chance, exact", f"{exact.cubeless_win:.2%}"),
        ]
    )
    _proper_action(exact, score, "the exact bear-off")


def _proper_action(e: race_match.RaceMatchEquities, score: MatchScore, what: str) -> None:
    """The engines' block in match winning chance, where the player on roll may double.

    At a score holding can beat cashing without gammons (the opponent's cube access), so
    "too good" is possible (``can_gammon``).
    """
    if math.isnan(e.double_take) or math.isnan(e.double_pass):
        return  # he may not double: no access, a dead cube, the Crawford game
    action = cubeful.proper_cube_action(
        e.no_double,
        e.double_take,
        e.double_pass,
        centred=score.cube_owner == "center",
        can_gammon=True,
        money=False,
    )
    widgets.proper_action(action, unit=f"match winning chance, {what}", percent=True)


def _match_cube_life(v: View, key: str) -> None:
    """Implied cube life of the page's position at every score up to 7-away."""
    pips = _match_pips(v)
    if pips is None:
        return
    table_length = met.load_table(key).length
    max_away = min(_MATCH_LIFE_GRID, table_length)
    widgets.chart(
        data.match_cube_life_figure(key=key, pips=pips, max_away=max_away), "race_match_cube_life"
    )
    if not v.present:
        st.caption(
            "x = (cubeful - dead) / (live - dead) in match winning chance, the live cube "
            "linear between the two sides' live cash points (the table's market window). "
            "Values outside [0, 1] occur where the live and dead cubes nearly agree. "
            + source("J93")
        )
