"""Sections of the position library: the positions as cards, and as a table.

Both read the filter (theme, search), the score and the position in focus from the
page-wide controls; the verdicts are the stored ones (:mod:`cubecore.library`).
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from cubecore import library
from store.rollout_queue import SESSION_JOBS
from ui import widgets
from ui.board import board_figure
from ui.library import charts, data
from ui.library.controls import SCORE_LABELS, THEME_LABELS
from ui.pages import link_query
from ui.rollouts import controls as rollout_controls
from ui.skeleton import View

#: Column headers of the table (and its CSV).
TABLE_LABELS = {
    "id": "Name in links",
    "title": "Position",
    "theme": "Theme",
    "pips": "Pips, on roll",
    "opponent_pips": "Pips, opponent",
    "score": "Score",
    "action": "Engine's verdict (3-ply)",
    "win_percent": "Wins %",
    "gammon_percent": "Wins with a gammon %",
    "no_double": "No double",
    "double_take": "Double, take",
    "double_pass": "Double, pass",
    "deeper_check": "Close: 4-ply says",
    "rollout": "Rollout says",
    "position_id": "Position ID",
    "link": "Position page",
}


def _unit(score: str) -> str:
    return "money, per unit of the cube" if library.SCORES[score].money else "match equity, EMG"


def _equity(value: float | None) -> str:
    return "—" if value is None else f"{value:+.3f}"


def _verdict_lines(position_key: str, score: str) -> str:
    stored = library.evaluation(position_key, score)
    lines = (
        f"{SCORE_LABELS[score]}: **{stored.action}**"
        f" · wins {100 * stored.win:.1f}%, gammons {100 * stored.win_gammon:.1f}%"
        f" · no double {_equity(stored.no_double)}, double/take {_equity(stored.double_take)}, "
        f"double/pass {_equity(stored.double_pass)} ({_unit(score)})"
    )
    check = library.close_check(position_key, score)
    if check is not None:
        agrees = "agrees" if check.verdict == stored.verdict else f"says {check.action}"
        lines += f"  \nA close decision: one ply deeper (4-ply) the engine {agrees}."
    rollout = library.stored_rollout(position_key, score)
    if rollout is not None:
        lines += (
            f" A rollout of {rollout.trials} games says **{rollout.action}** (no double "
            f"{_equity(rollout.no_double)}, double/take {_equity(rollout.double_take)})."
        )
    return lines


def _counts(frame: pd.DataFrame) -> None:
    """The headline: how many positions the filter shows, and how many of each verdict."""
    verdicts = frame["verdict"].value_counts()
    widgets.headline(
        [
            ("Positions", str(len(frame))),
            ("No double", str(int(verdicts.get("ND", 0)))),
            ("Double, take", str(int(verdicts.get("DT", 0)))),
            ("Pass or too good", str(int(verdicts.get("DP", 0) + verdicts.get("TG", 0)))),
        ]
    )


def _open_link(position_key: str, score: str, label: str = "Open on the position page") -> None:
    st.page_link(
        data.POSITION_PAGE,
        label=label,
        icon=":material/search:",
        query_params=link_query(data.POSITION_PAGE, data.position_values(position_key, score)),
    )


def _drill_link(position_key: str) -> None:
    """The drills page asking this position's cube action at each of its scores."""
    st.page_link(
        data.DRILLS_PAGE,
        label="Drill this position: its cube action at each score",
        icon=":material/school:",
        query_params=link_query(data.DRILLS_PAGE, {"topic": "score", "lib": position_key}),
    )


def _roll_out_link(position_keys: list[str], score: str) -> None:
    """One link: the Rollouts page with these positions at ``score`` in its paste box (the
    first of the list, as many as one submission takes), not submitted."""
    limit = rollout_controls.MAX_LINES
    n = len(position_keys)
    if n == 1:
        label = "Roll out this position on the cluster (choose the trials, then press Roll out)"
    elif n <= limit:
        label = f"Roll out these {n} positions on the cluster (then press Roll out)"
    else:
        label = f"Roll out the first {limit} of these {n} positions on the cluster"
    st.page_link(
        data.ROLLOUTS_PAGE,
        label=label,
        icon=":material/casino:",
        query_params=link_query(data.ROLLOUTS_PAGE, data.rollout_values(position_keys, score)),
    )
    if n > 1:
        st.caption(
            f"One submission takes at most {limit} positions, and the queue holds "
            f"{SESSION_JOBS} waiting rollouts of yours at a time: submit the rest as "
            "they finish."
        )


def _focus(position_key: str, score: str) -> None:
    """The position in focus: its board, its explanation and its verdict at every score."""
    item = library.library_position(position_key)
    st.subheader(item.title)
    st.caption(f"{THEME_LABELS[item.theme]} · name in links: {item.id}")
    stored = library.evaluation(item.id, score)
    pips, opponent_pips = item.position.pips
    widgets.headline(
        [
            (SCORE_LABELS[score], stored.action),
            ("Wins", f"{100 * stored.win:.1f}%"),
            ("Pips", f"{pips} v {opponent_pips}"),
        ]
    )
    widgets.chart(
        board_figure(item.position, cube_value=item.cube, cube_owner=item.owner),
        f"library_{item.id}",
    )
    st.markdown(f"**In words (money play):** {item.explanation}")
    rows = []
    for key, label in SCORE_LABELS.items():
        stored = library.evaluation(item.id, key)
        rows.append(
            {
                "score": label,
                "action": stored.action,
                "win_percent": 100.0 * stored.win,
                "no_double": stored.no_double,
                "double_take": stored.double_take,
                "double_pass": stored.double_pass,
            }
        )
    widgets.table(pd.DataFrame(rows), labels=TABLE_LABELS)
    st.caption(
        "Equities from the player on roll's view: money per unit of the cube, match "
        "scores in match equity (EMG)."
    )
    _open_link(item.id, score)
    _drill_link(item.id)
    _roll_out_link([item.id], score)
    st.divider()


def positions_section(v: View) -> None:
    """Every position of the filter as a card: title, theme, pips, verdict, one link."""
    score = v.text("score")
    focus = v.text("lib")
    if focus:
        _focus(focus, score)
    frame = data.library_frame(score, v.text("kind"), v.text("q").strip())
    if frame.empty:
        st.info("No position of the library matches this theme and search.")
        return
    st.caption(
        f"{len(frame)} of {len(library.library())} positions. Verdicts by the Open Sage "
        "engine at 3-ply; the explanations are about money play."
    )
    if not focus:  # one headline a section: the position in focus has it
        _counts(frame)
    widgets.chart(charts.verdict_map(frame, SCORE_LABELS[score]), "library_verdicts")
    _roll_out_link([str(key) for key in frame["id"]], score)
    for row in frame.itertuples(index=False):
        with st.container(border=True):
            st.markdown(f"**{row.title}**")
            st.caption(
                f"{row.theme} · pips: {row.pips} on roll, {row.opponent_pips} opponent"
                f" · name in links: {row.id}"
            )
            st.markdown(_verdict_lines(str(row.id), score))
            explanation = library.library_position(str(row.id)).explanation
            st.markdown(f"**In words (money play):** {explanation}")
            _open_link(str(row.id), score)


def table_section(v: View) -> None:
    """The filtered positions as one table, downloadable as CSV."""
    score = v.text("score")
    frame = data.library_frame(score, v.text("kind"), v.text("q").strip())
    if frame.empty:
        st.info("No position of the library matches this theme and search.")
        return
    st.caption(
        f"Equities: {_unit(score)}, from the player on roll's view. The position page's "
        "address opens each position with this cube and score."
    )
    _counts(frame)
    widgets.chart(charts.verdicts_by_theme(frame, SCORE_LABELS[score]), "library_themes")
    widgets.table_with_download(frame.drop(columns="verdict"), "library", labels=TABLE_LABELS)
    _roll_out_link([str(key) for key in frame["id"]], score)
