"""The match page's table sections: the table library, an uploaded table, the market
window and gammon values at a score, two tables compared, the table explained by the
model, the free drop priced, and the memory aids against the table.

Every section reads the page-wide table choice ``met`` (:data:`ui.match.controls.MET`)
through :func:`chosen_table`; an uploaded table lives in this session only.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Sequence
from pathlib import Path

import pandas as pd
import streamlit as st

from cubecore import match_points, met, met_fit, met_io
from cubecore.free_drop import MAX_FREE_DROP_AWAY
from cubecore.met_aids import MAX_AID_AWAY, MEMORY_AIDS
from cubecore.references import source
from ui import widgets
from ui.links import escape_text
from ui.match import charts
from ui.match import data as cached
from ui.match.controls import (
    MET,
    MET_OTHER,
    MODEL_TABLE,
    TABLE_LABELS,
    UPLOADED_SPELLINGS,
    UPLOADED_TABLE,
)
from ui.match.data import PERCENT_DECIMALS, in_percent
from ui.skeleton import View
from ui.style import column_label

#: Session State key of the uploaded table: (file name, content).
UPLOAD_STATE = "_met_upload"
#: Session State key of the table choices a link named the uploaded table in while the
#: session had none (:func:`take_link_upload`): they fell back to the default table.
LINK_UPLOAD_STATE = "_met_link_upload"
#: The uploader's widget key.
UPLOAD_KEY = "met_file"
#: The sample tables offered for download, one per format (``samples/met/``).
SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "met"
SAMPLE_FILES = ("woolsey.xml", "woolsey.met", "woolsey.csv")
GNUBG = source("GNUBG")
#: Longest table name or description shown (a file may carry any length).
_SHOWN_NAME = 120
#: Longest table name in a chart's title (a title wider than its chart is clipped).
_CHART_NAME = 40

FORMATS_TEXT = """
**GNU Backgammon XML** (.xml, the format of the tables GNU Backgammon ships): a "met"
element holds an "info" part (name, description, length), an explicit pre-Crawford table of
*n* rows of *n* values M(a, b), and a post-Crawford table with one row of the trailer's
post-Crawford match winning chances P(1), P(2), ... for both players (or one row for each
player). Tables given only by a formula's parameters are not read; entity declarations are
refused.

**eXtreme Gammon .met** (.met, INI-style text): a PreCrawford section with the size *n* and
one line of M(a, 1) M(a, 2) ... for each *a*, a PostCrawford section with its size and the
data P(1) P(2) ...; a Current section may give its name, description and copyright. Other
sections are ignored.

**CSV** (.csv or .txt, this app's own): lines starting "# name:" and "# description:", a
header "away,1,2,...,n", *n* rows "a,M(a,1),...,M(a,n)", and a row "post,P(1),...,P(m)";
commas or semicolons.

In all three, M(a, b) is the match winning chance (0 to 1, not percent) of the player
*a*-away against *b*-away at the start of a game, row and column 1 the Crawford game.
Files up to 1,000,000 bytes, tables up to 64-away. The sample files below show each format.
"""


# ----------------------------------------------------------------------------------
# The chosen table
# ----------------------------------------------------------------------------------
def has_upload() -> bool:
    """Whether this session has uploaded a table (only then is it offered)."""
    return st.session_state.get(UPLOAD_STATE) is not None


def take_link_upload() -> None:
    """A link naming the uploaded table in a session that has none (the file cannot
    travel in a link): its table choices fall back to the default table, named in the
    link as the select boxes name it, and are noted for the notice
    (:func:`render_table_notices`). Runs before the page's controls exist."""
    asked: set[str] = st.session_state.setdefault(LINK_UPLOAD_STATE, set())
    for control in (MET, MET_OTHER):
        if st.query_params.get(control.key) in UPLOADED_SPELLINGS:
            st.query_params[control.key] = control.format(met.DEFAULT_TABLE)
            asked.add(control.key)


def _link_asked_upload(v: View, key: str) -> bool:
    """Whether the table choice ``key`` stands where a link's uploaded table fell back
    (:func:`take_link_upload`); moved since, it is the reader's own choice."""
    asked: set[str] = st.session_state.get(LINK_UPLOAD_STATE, set())
    if key not in asked or key not in v.values:
        return False
    if v.values[key] != met.DEFAULT_TABLE:
        asked.discard(key)
        return False
    return True


def _upload_notice(key: str) -> None:
    """The notice of a link that names the uploaded table in a session without one."""
    which = "your own table" if key == "met" else "your own table as the second table"
    default = met.load_table(met.DEFAULT_TABLE)
    st.warning(
        f"The link asks for {which}, but an uploaded table stays in the session that "
        "uploaded it, and none was uploaded in this one. Showing "
        f"{plain(default.name)} instead; upload a file under Tables to use your own.",
        icon=":material/link_off:",
    )


def _uploaded() -> tuple[met.MatchEquityTable, str] | None:
    """The table uploaded in this session and its cache key, if there is one."""
    stored = st.session_state.get(UPLOAD_STATE)
    if stored is None:
        return None
    name, content = stored
    return cached.uploaded_table(content, name), cached.content_key(content)


def chosen_table(
    v: View, key: str = "met", *, quiet: bool = False
) -> tuple[met.MatchEquityTable, str]:
    """The table a table control names and its cache key.

    A link's ``upload`` in a session without an upload (from another session: the
    file cannot travel in a link) has fallen back to the default table
    (:func:`take_link_upload`); the notice says so (above the tabs,
    :func:`render_table_note`; the sections ask ``quiet``ly, but for the second table
    of :func:`render_compare`).
    """
    if not quiet and _link_asked_upload(v, key):
        _upload_notice(key)
    choice = v.text(key)
    if choice == MODEL_TABLE:
        g, x = v.number("G"), v.number("x")
        return cached.model_table(g, x), f"model:{g!r}:{x!r}"
    if choice == UPLOADED_TABLE:
        found = _uploaded()
        if found is not None:
            return found
        return met.load_table(met.DEFAULT_TABLE), met.DEFAULT_TABLE  # never offered
    return met.load_table(choice), choice


def render_table_notices(v: View) -> met.MatchEquityTable:
    """Above the tabs on every view: a notice for each table choice that falls back (a
    link's uploaded table); the chosen table.

    The second table (``met2``) is named here only while its section is closed: open,
    its control stands in the section, which reruns alone when it moves, and the
    section names its own fallback (:func:`render_compare`).
    """
    table, _ = chosen_table(v)
    if _link_asked_upload(v, "met2"):
        _upload_notice("met2")
    return table


def render_table_note(v: View) -> None:
    """The table notices (:func:`render_table_notices`), the chosen table and its reach."""
    table = render_table_notices(v)
    a, b = v.whole("away"), v.whole("oaway")
    high = covered(table, v)
    here = f"; {a}-away/{b}-away lies outside it" if max(a, b) > high else ""
    st.caption(
        f"Match equity table: **{plain(table.name)}**, scores up to {high}-away{here}. "
        "Every headline reads it; numbers from the model stated below are labelled as "
        "the model's and come second."
    )


def plain(text: str, limit: int = _SHOWN_NAME) -> str:
    """A table's name or description (from a file: untrusted) as inert Markdown text."""
    return escape_text(text, limit)


#: The table reader's words for programmers -> a player's (its other messages name
#: the line and what was expected, and read as they are).
_READER_WORDS = (
    (re.compile(r"^`data`: "), ""),
    (
        re.compile(r"^`file_name` must end in one of .*"),
        "the file's name must end in .xml (gnubg), .met (XG), .csv or .txt",
    ),
    (re.compile(r"`(\w+)`"), r"\1"),
)


def reader_message(error: ValueError) -> str:
    """Why a file was not read, in a player's words (:func:`cubecore.met_io.read_table`)."""
    text = str(error)
    for pattern, words in _READER_WORDS:
        text = pattern.sub(words, text)
    return text


def plot_text(text: str, limit: int = _CHART_NAME) -> str:
    """A table's name as inert text in a chart title (plotly reads a few HTML tags),
    short enough for a title line."""
    if len(text) > limit:
        text = text[:limit] + "\N{HORIZONTAL ELLIPSIS}"
    return html.escape(text)


def phase(v: View) -> match_points.MatchPhase:
    """The match phase of the score: a 1-away score is the Crawford game or after it."""
    if min(v.whole("away"), v.whole("oaway")) > 1:
        return "pre-Crawford"
    return "post-Crawford" if v.flag("post") else "Crawford"


def covered(table: met.MatchEquityTable, v: View) -> int:
    """The highest away-score the table covers in the score's phase."""
    return table.length if phase(v) == "pre-Crawford" else min(table.length, table.post_length)


def inside(table: met.MatchEquityTable, v: View) -> bool:
    """Whether the score lies in the table; if not, say so."""
    a, b = v.whole("away"), v.whole("oaway")
    high = covered(table, v)
    if max(a, b) <= high:
        return True
    st.warning(
        f"{a}-away/{b}-away lies outside {plain(table.name)}: it covers scores up to {high}-away "
        f"({phase(v)}). Choose a score up to {high}-away or a longer table.",
        icon=":material/crop_free:",
    )
    return False


def _caption(table: met.MatchEquityTable) -> None:
    st.caption(
        f"Table: **{plain(table.name)}** ({table.length}-away; post-Crawford up to "
        f"{table.post_length}-away). {plain(table.description)}"
    )


def _marked(v: View) -> tuple[int, int]:
    return v.whole("away"), v.whole("oaway")


def _short_headline(high: int) -> None:
    """The headline of a section the table is too short for: how far it reaches."""
    widgets.headline([("The table covers scores up to", f"{high}-away")])


# ----------------------------------------------------------------------------------
# Sections
# ----------------------------------------------------------------------------------
def _take_upload() -> None:
    """The uploader's callback: a readable file becomes the session's table and is chosen."""
    file = st.session_state.get(UPLOAD_KEY)
    if file is None:
        return
    content = file.getvalue()
    try:
        cached.uploaded_table(content, file.name)
    except ValueError:
        return  # the section shows the message
    st.session_state[UPLOAD_STATE] = (file.name, content)
    st.session_state.pop(LINK_UPLOAD_STATE, None)  # the link's notices have done
    st.session_state["met"] = UPLOADED_TABLE


def render_library(v: View) -> None:
    """The table library, your own table, the chosen table and its faults."""
    st.subheader("Your own table")
    file = st.file_uploader(
        "Upload a match equity table (gnubg XML, XG .met or CSV)",
        type=["xml", "met", "csv", "txt"],
        key=UPLOAD_KEY,
        on_change=_take_upload,
        help="Kept in this session only: a link cannot carry it.",
    )
    if file is not None:
        try:
            cached.uploaded_table(file.getvalue(), file.name)
        except ValueError as error:
            st.error(
                f"{plain(file.name)} was not read: {plain(reader_message(error), 600)}",
                icon=":material/error:",
            )
    stored = st.session_state.get(UPLOAD_STATE)
    if stored is not None:
        st.caption(
            f'Uploaded in this session: {plain(stored[0])}, now the chosen table ("Your own '
            'table" in the table choice). It stays in this session only: a shared link '
            "opens the default table instead, with a notice."
        )
    with st.expander("The three file formats, and a sample of each", icon=":material/description:"):
        st.markdown(FORMATS_TEXT)
        columns = st.columns(len(SAMPLE_FILES))
        for column, name in zip(columns, SAMPLE_FILES, strict=True):
            column.download_button(
                name,
                (SAMPLES / name).read_bytes(),
                file_name=name,
                icon=":material/download:",
                key=f"sample:{name}",
                on_click="ignore",
            )
        st.caption(
            "Kit Woolsey's table (Inside Backgammon 2(2), 1992), as GNU Backgammon's "
            "gnubg-data transcribes it (all-permissive licence, notice kept in each file)."
        )

    table, key = chosen_table(v, quiet=True)
    st.subheader(f"The chosen table: {plain(table.name)}")
    _caption(table)
    if table.notice:
        with st.expander("Copyright and licence notice", icon=":material/copyright:"):
            st.text(table.notice)
    if inside(table, v):
        a, b, ph = v.whole("away"), v.whole("oaway"), phase(v)
        mwc = table.mwc(a, b, post_crawford=ph == "post-Crawford")
        widgets.headline(
            [
                (f"Your MWC on the table, {a}-away/{b}-away", percent(mwc)),
                ("Opponent's MWC on the table", percent(1.0 - mwc)),
                ("Table length", f"{table.length}-away"),
            ]
        )
    else:
        _short_headline(covered(table, v))
    grid = pd.DataFrame(
        table.pre, index=range(1, table.length + 1), columns=range(1, table.length + 1)
    )
    widgets.chart(
        charts.heatmap_figure(
            grid,
            f"{plot_text(table.name)}: your match winning chance<br>"
            "row 1 and column 1: the Crawford game",
            "MWC",
            (v.whole("away"), v.whole("oaway")),
            percent=True,
        ),
        f"met_{table.key}_heatmap",
    )
    st.caption(
        "The table as printed: every match winning chance as its authors printed it, a "
        "fraction from 0 to 1 with all their digits (35.20% is 0.352), so that each cell "
        "compares exactly with the source. Rows: your points to go; columns: the opponent's."
    )
    shown = grid.copy()
    shown.columns = [str(c) for c in shown.columns]
    shown.insert(0, "away", range(1, table.length + 1))
    widgets.table_with_download(
        shown, f"met_{table.key}.csv", label="Download the pre-Crawford table (CSV)"
    )
    post = pd.DataFrame(
        {"trailer_away": range(1, table.post_length + 1), "post_crawford": table.post}
    )
    widgets.table_with_download(post, f"met_{table.key}_post.csv")
    st.download_button(
        "Download the table in this project's CSV format (uploadable)",
        met_io.to_csv(table),
        file_name=f"{table.key}.csv",
        icon=":material/download:",
        key="table_csv",
        on_click="ignore",
    )
    st.subheader("Checks")
    complement = table.post_opponent is None
    faults = cached.table_faults(key, table, complement)
    if faults.empty:
        st.success(
            f"No cell breaks the invariants by more than {met.DEFAULT_TOLERANCE:g}: "
            "M(a, b) + M(b, a) = 1"
            + ("" if complement else " (not checked: a table with a favourite)")
            + ", monotone in both scores, all entries in [0, 1].",
            icon=":material/check:",
        )
    else:
        st.warning(
            f"{len(faults)} cell(s) break the table's identities by a misprint's size "
            f"(more than {met.DEFAULT_TOLERANCE:g}, less than {met_io.REFUSAL_SLACK:g}: a "
            "table off by more is refused). The numbers are used as printed:",
            icon=":material/warning:",
        )
        widgets.table_with_download(_faults_shown(faults), f"met_{table.key}_faults.csv")
    with st.expander("The bundled tables", icon=":material/table:"):
        widgets.table(_library())
        st.caption(
            f"The {len(met.TABLES)} tables of Debian's gnubg-data ({GNUBG}), all-permissive "
            "licence, each with its notice; N. Zadeh's and mec's generated tables are "
            "the ones GNU Backgammon 1.07 generates from those files' parameters."
        )


#: Why a number derived from the table can be undefined.
UNDEFINED_TEXT = (
    "Undefined: on this table the double changes nothing at this score (winning and "
    "losing the doubled game leave the same match winning chances), so the point is 0/0."
)


def percent(value: float) -> str:
    """A chance (0 to 1: a match winning chance, a take point, a market window's point)
    in percent, two decimals: 0.352 -> "35.20%"; "undefined" where it is 0/0."""
    return "undefined" if math.isnan(value) else f"{value:.{PERCENT_DECIMALS}%}"


def percent_labels(frame: pd.DataFrame, columns: Sequence[str]) -> dict[str, str]:
    """The headers of ``frame``'s ``columns`` (:func:`ui.style.column_label`) marked as
    read in percent: "Cash point (%)"."""
    return {c: f"{column_label(c)} (%)" for c in columns if c in frame.columns}


def probability(value: float) -> str:
    """A number derived from the table, to four decimals; "undefined" where it is 0/0
    (:data:`UNDEFINED_TEXT` says why)."""
    return "undefined" if math.isnan(value) else f"{value:.4f}"


def _library() -> pd.DataFrame:
    """:func:`cubecore.met.bundled_tables` in a player's words: each table as the
    table choice names it, no keys."""
    frame = met.bundled_tables()
    return pd.DataFrame(
        {
            "Table": frame["key"].map(dict(TABLE_LABELS)),
            "Scores up to (away)": frame["length"],
            "Post-Crawford up to (away)": frame["post_length"],
            "Source": frame["description"],
            "Numbers": frame["numbers"],
            "Past its last score": frame["beyond"],
        }
    )


def _faults_shown(faults: pd.DataFrame) -> pd.DataFrame:
    """:func:`cubecore.met.check_table`'s faults in a player's words: the cell, what is
    wrong with it, by how much (percentage points)."""
    messages = faults["message"].str.replace("post_opponent: ", "opponent's post-Crawford ")
    messages = messages.str.replace("post: ", "post-Crawford ")
    return pd.DataFrame(
        {
            "Cell": messages.str.split(" = ").str[0],
            "What is wrong": messages,
            "Off by (pp)": (100 * (faults["excess"] + met.DEFAULT_TOLERANCE)).round(2),
        }
    )


def render_window(v: View) -> None:
    """Market windows at every cube level and ownership; gammon values of both players."""
    table, key = chosen_table(v, quiet=True)
    _caption(table)
    if not inside(table, v):
        _short_headline(covered(table, v))
        return
    a, b, ph = v.whole("away"), v.whole("oaway"), phase(v)
    rates = (v.number("pg"), v.number("pb"), v.number("og"), v.number("ob"))
    for side, gammons, backgammons in (("Your", *rates[:2]), ("The opponent's", *rates[2:])):
        if gammons + backgammons > 1 + 1e-12:  # as cubecore.match_points checks
            st.error(
                f"{side} gammon rate and backgammon rate add up to {gammons + backgammons:.2f}: "
                "they are shares of the same wins, at most 1 together. Nothing is computed."
            )
            widgets.headline([(f"{side} gammon + backgammon rate", f"{gammons + backgammons:.2f}")])
            return
    points = cached.window_points(key=key, _table=table, away=a, opp_away=b, phase=ph, rates=rates)
    first = points.headline
    st.markdown(
        f"**{a}-away/{b}-away, {ph}.** Points in the doubler's game winning chance; take "
        "points in the taker's."
    )
    widgets.headline(
        [
            ("Your take point, dead", percent(first["take_point_gammonless"])),
            ("Your take point, gammon-adjusted", percent(first["take_point"])),
            ("Your take point, live", percent(first["take_point_live"])),
            ("Opponent's too-good point", percent(first["too_good_point"])),
        ]
    )
    if any(math.isnan(value) for value in first.values()):
        st.info(UNDEFINED_TEXT, icon=":material/info:")
    widgets.table_with_download(
        points.shown,
        f"market_window_{table.key}_{a}_{b}.csv",
        label="Download (CSV)",
        labels=percent_labels(points.shown, cached.WINDOW_CHANCES),
    )
    st.caption(
        "One row per cube value, owner and doubler: double point (initial double at a "
        "centred cube, redouble above), cash point, too-good point, the points with the "
        "taker's automatic redouble, the live cash point, and the taker's take points "
        f"(dead with gammons, live, dead without gammons). Definitions: {GNUBG}, "
        "'The market window'."
    )
    if not v.present:
        widgets.formula(
            r"TP = 1 - CP,\quad CP = \frac{P - L(2c)}{W(2c) - L(2c)},\quad "
            r"TG = \frac{P - L(c)}{W(c) - L(c)}",
            f"{GNUBG}, show marketwindow: P the pass, W and L the MWC after a win and a "
            "loss with the gammon and backgammon rates",
        )
    cube = int(v.text("gvc"))
    here = cached.window_score(
        key=key,
        _table=table,
        name=plot_text(table.name),
        away=a,
        opp_away=b,
        phase=ph,
        cube_value=cube,
    )
    if here.take_points is not None:
        widgets.chart(here.take_points, "met_take_points")
    st.subheader("Gammon values")
    values = here.gammon_values
    cols = st.columns(4)
    cols[0].metric("Your gammon value", probability(values.gammon_value), help=values.gammon_class)
    cols[1].metric("Your backgammon value", probability(values.backgammon_value))
    cols[2].metric(
        "Opponent's gammon value",
        probability(values.opp_gammon_value),
        help=values.opp_gammon_class,
    )
    cols[3].metric("Opponent's backgammon value", probability(values.opp_backgammon_value))
    st.caption(
        f"Classes: you {values.gammon_class}, the opponent {values.opp_gammon_class} "
        f"(bounds {', '.join(map(str, match_points.GAMMON_CLASS_BOUNDS))}: "
        f"{', '.join(match_points.GAMMON_CLASSES)}). Money play: 0.5 and 1."
    )
    if not v.present:
        widgets.formula(
            r"GV = \frac{M(a-2c,b) - M(a-c,b)}{M(a-c,b) - M(a,b-c)},\quad "
            r"BGV = \frac{M(a-3c,b) - M(a-c,b)}{M(a-c,b) - M(a,b-c)}",
            f"{GNUBG}, 'Gammon values'",
        )
    for column, figure in zip(
        ("gammon_value", "opp_gammon_value"), here.gammon_figures, strict=True
    ):
        widgets.chart(figure, f"gammon_values_{column}")
    widgets.table_with_download(here.gammon_table, f"gammon_values_{table.key}_cube{cube}.csv")


def render_compare(v: View) -> None:
    """The chosen table minus a second one: heatmap, largest and mean difference."""
    table, key = chosen_table(v, quiet=True)
    other, other_key = chosen_table(v, "met2")  # its notice: here, beside its control
    c = cached.comparison(key, table, other_key, other)
    st.markdown(
        f"**{plain(table.name)}** minus **{plain(other.name)}**, scores up to "
        f"{c.length}-away each; the "
        f"largest difference at {c.where_max[0]}-away/{c.where_max[1]}-away."
    )
    n = min(c.length, table.post_length, other.post_length)
    takes = None
    if n >= 2:  # a take point needs a score two points from the end
        takes = cached.dead_take_points(key, table, n) - cached.dead_take_points(
            other_key, other, n
        )
    headline = [
        ("Largest difference (pp)", f"{100 * c.max_abs:.3f}"),
        ("Mean difference (pp)", f"{100 * c.mean_abs:.3f}"),
        ("Largest post-Crawford difference (pp)", f"{100 * c.post_max_abs:.3f}"),
    ]
    if takes is not None:
        largest = 100 * float(takes.abs().max().max())
        headline.append(("Largest take-point difference (pp)", f"{largest:.3f}"))
    widgets.headline(headline)
    widgets.chart(
        charts.difference_heatmap_figure(
            100 * c.difference,
            f"{plot_text(table.name)} minus {plot_text(other.name)}<br>"
            "match winning chance, percentage points",
            "pp",
            _marked(v),
        ),
        "met_difference",
    )
    if takes is None:
        st.info(
            "No take points to compare: a take point needs a score at least 2-away for "
            f"both players, and the two tables share scores up to {n}-away only.",
            icon=":material/info:",
        )
    else:
        widgets.chart(
            charts.difference_heatmap_figure(
                100 * takes,
                f"{plot_text(table.name)} minus {plot_text(other.name)}<br>"
                "your dead take point of an initial double, percentage points",
                "pp",
                _marked(v),
            ),
            "met_take_difference",
        )
        st.caption(
            "What a difference costs: the take point computed from each table, "
            "(D - L)/(W - L) without gammons (D pass, W take and win, L take and lose), "
            "at each pre-Crawford score."
        )
    frame = (
        (100 * c.difference)
        .reset_index()
        .melt(id_vars="away", var_name="opp_away", value_name="difference")
    )
    widgets.table_with_download(
        frame.round(3),
        f"met_{table.key}_minus_{other.key}.csv",
        labels={
            "away": "You: points to go",
            "opp_away": "Opponent: points to go",
            "difference": "Difference (pp)",
        },
    )


def render_explain(v: View) -> None:
    """Fit the model's G and x to the chosen table; the residuals and the reading."""
    table, key = chosen_table(v, quiet=True)
    n = min(met_fit.DEFAULT_FIT_AWAY, table.length)
    if n < 2:
        st.warning(f"{plain(table.name)} is {table.length}-away: too short to fit.")
        _short_headline(table.length)
        return
    fit = cached.table_fit(key, table, n)
    st.markdown(f"**{fit.reading}**")
    widgets.headline(
        [
            ("Fitted gammon rate G", f"{fit.gammon_rate:.3f}"),
            ("Fitted cube efficiency x", f"{fit.cube_efficiency:.3f}"),
            ("Mean residual (pp)", f"{fit.mean_abs_residual_pp:.3f}"),
            ("Largest residual (pp)", f"{fit.max_abs_residual_pp:.3f}"),
        ]
    )
    widgets.chart(
        charts.difference_heatmap_figure(
            cached.score_grid(fit.residuals, "residual_pp"),
            f"Model (G {fit.gammon_rate:.3f}, x {fit.cube_efficiency:.3f}) minus "
            f"{plot_text(table.name)}",
            "pp",
            _marked(v),
        ),
        "met_fit_residuals",
    )
    if not v.present:
        widgets.formula(
            r"(\hat G, \hat x) = \arg\min_{G \in [0, 0.6],\ x \in [0, 1]} "
            r"\sum_{a, b \le n} \bigl(M_{G,x}(a, b) - M(a, b)\bigr)^2",
            f"Least squares over the {n} x {n} pre-Crawford square: the model stated "
            "above the tabs, a 4 x 4 grid then a bounded trust-region refinement",
        )
    widgets.table_with_download(
        in_percent(fit.residuals, ["table", "model"]).round(4),
        f"met_fit_{table.key}.csv",
        labels={"table": "Table's MWC (%)", "model": "Model's MWC (%)"},
    )


def render_free_drop(v: View) -> None:
    """The selective drop post-Crawford: the model's value beside the table's implied one."""
    table, key = chosen_table(v, quiet=True)
    n = min(11, MAX_FREE_DROP_AWAY, table.post_length)
    if n < 2:
        st.warning(f"{plain(table.name)} has no post-Crawford entries past 1-away.")
        _short_headline(table.post_length)
        return
    view = cached.drop_view(
        key=key, _table=table, max_away=n, gammon_rate=v.number("fdg"), spread=v.number("fds")
    )
    two = view.two
    widgets.headline(
        [
            ("Trailer 2-away, table", percent(two["table"])),
            ("Trailer 2-away, no selection", percent(two["table_plain"])),
            ("Table's implied value (pp)", f"{two['table_implied_pp']:.3f}"),
            ("Model's value (pp)", f"{two['model_value_pp']:.3f}"),
        ]
    )
    widgets.chart(view.figure, "met_free_drop")
    st.markdown(
        "Post-Crawford the trailer doubles at once and the leader, whose cube is dead, may "
        "drop *selectively*: take when the game has gone his way, drop when it has not. "
        "The model (stated here, not a published one): when the trailer doubles, the "
        "leader's game winning chance *p* is Beta-distributed around 1/2 with the stated "
        "standard deviation; after a take the game is played out, the trailer winning a "
        "gammon in the stated share of his wins. With spread 0 the option is worth nothing "
        "(the model table's free drop). The table's implied value is how far its entry "
        "lies below what the same recursion without selection gives from its own lower "
        "entries. **Where the model stops:** it knows nothing of a trailer who delays his "
        "double (the Holland rule), of the leader's take point moving during the game, or "
        "of gammon rates that depend on *p*; and it prices only post-Crawford scores."
    )
    if not v.present:
        widgets.formula(
            r"1 - T(n) = \mathbb{E}\bigl[\max\bigl(A + (1 - A)\,p,\ D\bigr)\bigr],\quad "
            r"A = 1 - T_g(n - 2),\ D = 1 - T(n - 1),\ p \sim \mathrm{Beta}(\alpha, \alpha)",
            f"The stated model, after {source('Z77')} (the post-Crawford recursion) and "
            f"{source('KS69')} (the spread of p); T_g(m) = (1 - G) T(m) + G T(m - 2)",
        )
    chances = [c for c in view.shown.columns if c != "trailer_away" and not c.endswith("_pp")]
    widgets.table_with_download(
        in_percent(view.shown, chances),
        f"free_drop_{table.key}.csv",
        labels={c: f"{c.replace('_', ' ').capitalize()} (%)" for c in chances},
    )


def render_aids(v: View) -> None:
    """A memory aid's table against the chosen table: MWC and take-point errors."""
    table, key = chosen_table(v, quiet=True)
    aid = v.text("aid")
    name, cited = MEMORY_AIDS[aid]
    n = min(11, MAX_AID_AWAY, table.length, table.post_length)
    if n < 2:
        st.warning(f"{plain(table.name)} is too short to compare.")
        _short_headline(min(table.length, table.post_length))
        return
    c = cached.aid_comparison(aid, key, table, n)
    st.caption(f"{name}: {cited}. Reference: {plain(table.name)}, scores up to {n}-away.")
    widgets.headline(
        [
            ("Mean MWC error (pp)", f"{c.mean_abs_error_pp:.3f}"),
            ("Largest MWC error (pp)", f"{c.max_abs_error_pp:.3f}"),
            ("Mean take-point error (pp)", f"{c.mean_abs_take_point_error_pp:.3f}"),
            ("Largest take-point error (pp)", f"{c.max_abs_take_point_error_pp:.3f}"),
        ]
    )
    frame = c.frame
    widgets.chart(
        charts.difference_heatmap_figure(
            cached.score_grid(frame, "error_pp"),
            f"{name} minus {plot_text(table.name)}: MWC",
            "pp",
            _marked(v),
        ),
        "met_aid_error",
    )
    widgets.chart(
        charts.difference_heatmap_figure(
            cached.score_grid(frame, "take_point_error_pp"),
            f"{name} minus {plot_text(table.name)}: your dead take point of an initial double",
            "pp",
            _marked(v),
        ),
        "met_aid_take_error",
    )
    if not v.present:
        formulas = {
            "neil": r"E_{\mathrm{leader}} = 50 + N(T)\,D\ \%,\quad "
            r"N(3..15) = 10, 9, 8, 7, 6 (8), 5 (11), 4 (15)",
            "turner": r"E_{\mathrm{leader}} = 50 + \left(\frac{24}{T} + 3\right) D\ \%",
            "janowski": r"E_{\mathrm{leader}} = 50 + \frac{85\,D}{T + 6}\ \%,\quad "
            r"E^{\mathrm{Crawford}}_{\mathrm{leader}} = 50 + \frac{55\,D}{T + 2}\ \%",
        }
        widgets.formula(
            formulas[aid],
            f"{cited}; T the trailer's away score, D the trailer's minus the leader's",
        )
    widgets.table_with_download(
        in_percent(frame, ["aid", "table", "take_point_aid", "take_point_table"]).round(4),
        f"aid_{aid}_{table.key}.csv",
        labels={
            "aid": "Aid's MWC (%)",
            "table": "Table's MWC (%)",
            "take_point_aid": "Aid's take point (%)",
            "take_point_table": "Table's take point (%)",
        },
    )
    if math.isnan(c.max_abs_take_point_error_pp):
        st.caption("No take point could be computed from the aid at these scores.")
