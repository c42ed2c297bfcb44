"""Charts of the position library, built as plotly dicts (pure: no streamlit).

Both read the library's frame at one score (:func:`ui.library.data.library_frame`):
where the engine's verdicts fall by winning chances and gammons, and how many of each
verdict each theme holds.
"""

from __future__ import annotations

import pandas as pd

from ui.style import COLORS, Figure, Trace, bar, figure

#: The verdicts in players' words, in the order of a growing position.
VERDICT_WORDS = {
    "ND": "No double",
    "DT": "Double, take",
    "DP": "Double, pass",
    "TG": "Too good to double",
    "NA": "Cube not available",
}
_VERDICT_COLORS = {
    "ND": COLORS["center"],
    "DT": COLORS["double"],
    "DP": COLORS["cash"],
    "TG": COLORS["too_good"],
    "NA": COLORS["dead"],
}


def verdict_map(frame: pd.DataFrame, score: str) -> Figure:
    """Each position as a point: its winning chance against its gammon wins, by verdict."""
    data: list[Trace] = []
    for verdict, words in VERDICT_WORDS.items():
        rows = frame[frame["verdict"] == verdict]
        if rows.empty:
            continue
        data.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": words,
                "x": [float(v) for v in rows["win_percent"]],
                "y": [float(v) for v in rows["gammon_percent"]],
                "text": list(rows["title"]),
                "marker": {"color": _VERDICT_COLORS[verdict], "size": 10},
                "hovertemplate": "%{text}<br>wins %{x:.1f}%, gammons %{y:.1f}%<extra>"
                + words
                + "</extra>",
            }
        )
    return figure(
        data,
        f"Where the verdicts fall ({score})",
        "wins, % of games",
        "wins with a gammon, % of games",
        xaxis={"range": [0, 100]},
        yaxis={"range": [0, 100]},
        hovermode="closest",
    )


def verdicts_by_theme(frame: pd.DataFrame, score: str) -> Figure:
    """How many positions of each theme get each verdict (stacked bars)."""
    themes = list(dict.fromkeys(frame["theme"]))
    data: list[Trace] = []
    for verdict, words in VERDICT_WORDS.items():
        rows = frame[frame["verdict"] == verdict]
        if rows.empty:
            continue
        counts = rows["theme"].value_counts()
        data.append(
            bar(
                themes,
                [int(counts.get(theme, 0)) for theme in themes],
                words,
                _VERDICT_COLORS[verdict],
                "%{x}: %{y} positions<extra>" + words + "</extra>",
            )
        )
    return figure(data, f"Verdicts by theme ({score})", "theme", "positions", barmode="stack")
