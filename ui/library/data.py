"""Cached reads of the position library (:mod:`cubecore.library`) for its page.

Arguments are the score's key and the filter's text, so equal views share entries.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from cubecore import library
from ui.library.controls import ALL, SCORE_LABELS, THEME_LABELS
from ui.rollouts import controls as rollout_controls

#: The position page's file, the target of every "open" link.
POSITION_PAGE = "pages/position.py"
#: The drills page's file, the target of the "drill this position" link.
DRILLS_PAGE = "pages/drills.py"
#: The Rollouts page's file, the target of the "roll out" links.
ROLLOUTS_PAGE = "pages/rollouts.py"
#: The level the position page opens at (the stored verdict's).
LEVEL = "3-ply"
#: The position page's cube owners, by the library's.
_CUBE_OWNERS = {"center": "center", "player": "owned", "opponent": "opponent"}


def position_values(position_key: str, score: str) -> dict[str, object]:
    """The position page's values that open library position ``position_key`` at ``score``."""
    item = library.library_position(position_key)
    at = library.SCORES[score]
    values: dict[str, object] = {
        "pos": item.position_id,
        "cv": str(item.cube),
        "cube": _CUBE_OWNERS[item.owner],
        "depth": LEVEL,
        "mode": "money" if at.money else "match",
    }
    if not at.money:
        values.update(away=at.away, oaway=at.opp_away, crawford=at.crawford)
    return values


def rollout_values(position_keys: Sequence[str], score: str) -> dict[str, object]:
    """The Rollouts page's values that fill its paste box with library positions at
    ``score`` (each an XGID: checkers, cube and score), at most one submission's
    (:data:`ui.rollouts.controls.MAX_LINES`, the first of the list); not submitted."""
    at = library.SCORES[score]
    lines = []
    for key in list(position_keys)[: rollout_controls.MAX_LINES]:
        item = library.library_position(key)
        lines.append(
            rollout_controls.xgid_text(
                item.position_id,
                cube=item.cube,
                owner=item.owner,
                away=0 if at.money else int(at.away or 0),
                opp_away=0 if at.money else int(at.opp_away or 0),
                crawford=at.crawford,
            )
        )
    return {rollout_controls.POSITIONS.key: "\n".join(lines)}


def position_link(position_key: str, score: str) -> str:
    """The position page's address (path and query) for a library position at a score."""
    values = position_values(position_key, score)
    text = {
        key: ("true" if value else "false") if isinstance(value, bool) else str(value)
        for key, value in values.items()
    }
    return "position?" + urlencode(text, safe="-")


def _matches(item: library.LibraryPosition, words: list[str]) -> bool:
    text = " ".join((item.id, item.title, item.explanation, THEME_LABELS[item.theme])).lower()
    return all(word in text for word in words)


@st.cache_data(max_entries=64, show_spinner=False)
def library_frame(score: str, theme: str, search: str) -> pd.DataFrame:
    """The library's positions of ``theme`` matching ``search`` with their verdicts at ``score``.

    One row per position, in the library's order: id, title, theme (in words), pip
    counts, the engine's 3-ply verdict and equities at the score, the 4-ply check where
    the decision is close, the rollout where 3-ply and 4-ply disagree, the Position ID
    and the position page's address.
    """
    words = search.lower().split()
    rows = []
    for item in library.library():
        if theme != ALL and item.theme != theme:
            continue
        if not _matches(item, words):
            continue
        stored = library.evaluation(item.id, score)
        check = library.close_check(item.id, score)
        rollout = library.stored_rollout(item.id, score)
        pips, opponent_pips = item.position.pips
        rows.append(
            {
                "id": item.id,
                "title": item.title,
                "theme": THEME_LABELS[item.theme],
                "pips": pips,
                "opponent_pips": opponent_pips,
                "score": SCORE_LABELS[score],
                "action": stored.action,
                "verdict": stored.verdict,
                "win_percent": 100.0 * stored.win,
                "gammon_percent": 100.0 * stored.win_gammon,
                "no_double": stored.no_double,
                "double_take": stored.double_take,
                "double_pass": stored.double_pass,
                "deeper_check": None if check is None else check.action,
                "rollout": None if rollout is None else rollout.action,
                "position_id": item.position_id,
                "link": position_link(item.id, score),
            }
        )
    columns = [
        "id", "title", "theme", "pips", "opponent_pips", "score", "action", "verdict",
        "win_percent", "gammon_percent", "no_double", "double_take", "double_pass",
        "deeper_check", "rollout", "position_id", "link",
    ]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)
