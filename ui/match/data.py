"""Cached compute for the match-play page: scalar arguments in, tables and dicts out."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence

import pandas as pd
import streamlit as st

from cubecore import free_drop, match, match_points, met, met_aids, met_fit, met_io
from ui.match import charts
from ui.simulation import on_worker
from ui.style import Figure


@st.cache_data(max_entries=128, show_spinner=False)
def equity_table(gammon_rate: float, cube_efficiency: float) -> pd.DataFrame:
    """The 25 x 25 match equity table (rows: your away, columns: the opponent's)."""
    return on_worker(match.match_equity_table, match.MAX_AWAY, gammon_rate, cube_efficiency)


@st.cache_data(max_entries=512, show_spinner=False)
def winning_chance(
    away: int, opp_away: int, post_crawford: bool, gammon_rate: float, cube_efficiency: float
) -> float:
    """:func:`cubecore.match.match_winning_chance`."""
    return match.match_winning_chance(away, opp_away, post_crawford, gammon_rate, cube_efficiency)


@st.cache_data(max_entries=128, show_spinner=False)
def crawford_table(gammon_rate: float) -> pd.DataFrame:
    """Crawford, no-Crawford-rule and post-Crawford MWC for trailers 2..25-away."""
    return match.crawford_table(match.MAX_AWAY, gammon_rate)


@st.cache_data(max_entries=512, show_spinner=False)
def take_point(
    away: int,
    opp_away: int,
    cube_value: int,
    cube_owner: match.TakeCube,
    gammon_rate: float,
    opp_gammon_rate: float,
    cube_efficiency: float,
) -> dict[str, float]:
    """:func:`cubecore.match.take_point` as a plain dict."""
    return dataclasses.asdict(
        match.take_point(
            away, opp_away, cube_value, cube_owner, gammon_rate, opp_gammon_rate, cube_efficiency
        )
    )


@st.cache_data(max_entries=128, show_spinner=False)
def take_points_by_cube(
    away: int, opp_away: int, gammon_rate: float, opp_gammon_rate: float, cube_efficiency: float
) -> pd.DataFrame:
    """:func:`cubecore.match.take_points_by_cube`: every cube level that still matters."""
    return match.take_points_by_cube(away, opp_away, gammon_rate, opp_gammon_rate, cube_efficiency)


@st.cache_data(max_entries=64, show_spinner=False)
def take_point_table(
    max_away: int,
    cube_value: int,
    cube_owner: match.TakeCube,
    gammon_rate: float,
    opp_gammon_rate: float,
    cube_efficiency: float,
    away: int | None = None,
) -> pd.DataFrame:
    """:func:`cubecore.match.take_point_table` at every score ``1..max_away`` each (the
    heavy one: one game per score, 0.1-0.3 s: on the worker); with ``away``, your
    score fixed.
    """
    return on_worker(
        match.take_point_table,
        max_away,
        cube_value,
        cube_owner,
        gammon_rate,
        opp_gammon_rate,
        cube_efficiency,
        away,
    )


@st.cache_data(max_entries=256, show_spinner=False)
def holland(
    opp_away: int, gammon_rate: float, delay_rolls: int, volatility: float
) -> dict[str, float]:
    """:func:`cubecore.match.holland_effect` as a plain dict."""
    return dataclasses.asdict(match.holland_effect(opp_away, gammon_rate, delay_rolls, volatility))


@st.cache_data(max_entries=128, show_spinner=False)
def holland_table(gammon_rate: float, delay_rolls: int, volatility: float) -> pd.DataFrame:
    """:func:`cubecore.match.holland_table`: the Holland rule's effect for trailers 2..25."""
    return match.holland_table(match.MAX_AWAY, gammon_rate, delay_rolls, volatility)


@st.cache_data(max_entries=128, show_spinner=False)
def anchors(gammon_rate: float) -> dict[str, float]:
    """The model notes' anchor values: M(2, 2), the 1-away/2-away trailer, the dead take."""
    return {
        "even": match.match_equity(2, 2, gammon_rate),
        "trailer": 1.0 - match.post_crawford_equity(2, gammon_rate),
        "dead_take": match.take_point(2, 2, gammon_rate=gammon_rate).dead,
    }


# ----------------------------------------------------------------------------------
# Match equity tables: bundled, the model's, uploaded. Each cached function takes the
# table's cache key (``kxg2``, ``model:G:x``, ``upload:<sha256>``) and the table itself
# as ``_table`` (left out of the hash: the key names the numbers).
# ----------------------------------------------------------------------------------
@st.cache_data(max_entries=64, show_spinner=False)
def model_table(gammon_rate: float, cube_efficiency: float) -> met.MatchEquityTable:
    """:func:`cubecore.met.model_table` at 25-away."""
    return on_worker(met.model_table, gammon_rate, cube_efficiency)


@st.cache_data(max_entries=8, show_spinner=False)
def uploaded_table(content: bytes, file_name: str) -> met.MatchEquityTable:
    """:func:`cubecore.met_io.read_table` (cached by the file's content)."""
    return met_io.read_table(content, file_name)


def content_key(content: bytes) -> str:
    """The cache key of an uploaded table: its content's SHA-256."""
    return "upload:" + hashlib.sha256(content).hexdigest()


@st.cache_data(max_entries=64, show_spinner=False)
def table_faults(key: str, _table: met.MatchEquityTable, complement: bool) -> pd.DataFrame:
    """:func:`cubecore.met.check_table`."""
    return met.check_table(_table, complement=complement)


@st.cache_data(max_entries=256, show_spinner=False)
def market_windows(
    key: str,
    _table: met.MatchEquityTable,
    away: int,
    opp_away: int,
    phase: match_points.MatchPhase,
    rates: tuple[float, float, float, float],
) -> pd.DataFrame:
    """:func:`cubecore.match_points.cube_points_table` (rates: yours, then the opponent's)."""
    return match_points.cube_points_table(
        match_points.MatchScore(_table, away, opp_away, phase=phase),
        match_points.GammonRates(*rates),
    )


@st.cache_data(max_entries=64, show_spinner=False)
def gammon_value_grid(
    key: str, _table: met.MatchEquityTable, max_away: int, cube_value: int
) -> pd.DataFrame:
    """:func:`cubecore.match_points.gammon_value_table`."""
    return match_points.gammon_value_table(_table, max_away=max_away, cube_value=cube_value)


@dataclasses.dataclass(frozen=True)
class TableTakes:
    """The take-point section on the chosen table: the headline and its variants.

    Attributes
    ----------
    take_point : float
        :func:`cubecore.match_points.cube_life_take_point` at the cube life ``x``.
    dead, live, gammonless : float
        The dead cube's (gammons), the fully live cube's (gammons), the dead cube's
        without gammons: the :class:`~cubecore.match_points.MarketWindow` of the
        opponent's double.
    double_point, cash_point : float
        The doubler's dead-cube window (gnubg's "Dead cube" line).
    """

    take_point: float
    dead: float
    live: float
    gammonless: float
    double_point: float
    cash_point: float


@st.cache_data(max_entries=256, show_spinner=False)
def table_takes(
    key: str,
    _table: met.MatchEquityTable,
    score: tuple[int, int, match_points.MatchPhase, int, match_points.CubeOwner],
    rates: tuple[float, float],
    cube_life: float,
) -> TableTakes:
    """The opponent's double on the table ``key``: ``score`` is (your away, the
    opponent's, phase, cube value, owner), ``rates`` (your gammon rate, the doubler's)."""
    away, opp_away, phase, cube, owner = score
    at = match_points.MatchScore(_table, away, opp_away, phase, cube, owner)
    gammons = match_points.GammonRates(gammon_rate=rates[0], opp_gammon_rate=rates[1])
    window = match_points.cube_points(at, gammons).opponent_doubles
    return TableTakes(
        match_points.cube_life_take_point(at, gammons, cube_life),
        window.take_point,
        window.take_point_live,
        window.take_point_gammonless,
        window.double_point,
        window.cash_point,
    )


@st.cache_data(max_entries=64, show_spinner=False)
def comparison(
    key: str, _table: met.MatchEquityTable, other_key: str, _other: met.MatchEquityTable
) -> met.TableComparison:
    """:func:`cubecore.met.compare_tables` (the first minus the second)."""
    return met.compare_tables(_table, _other)


@st.cache_data(max_entries=32, show_spinner=False)
def table_fit(key: str, _table: met.MatchEquityTable, max_away: int) -> met_fit.TableFit:
    """:func:`cubecore.met_fit.fit_table`: at most 56 model tables, cached per table."""
    return on_worker(met_fit.fit_table, _table, max_away)


@st.cache_data(max_entries=64, show_spinner=False)
def drop_price(
    key: str, _table: met.MatchEquityTable, max_away: int, gammon_rate: float, spread: float
) -> free_drop.FreeDropPrice:
    """:func:`cubecore.free_drop.free_drop_price`."""
    return free_drop.free_drop_price(
        _table, max_away=max_away, gammon_rate=gammon_rate, spread=spread
    )


@st.cache_data(max_entries=64, show_spinner=False)
def aid_comparison(
    aid: str, key: str, _table: met.MatchEquityTable, max_away: int
) -> met_aids.MemoryAidComparison:
    """:func:`cubecore.met_aids.compare_memory_aid`."""
    return met_aids.compare_memory_aid(aid, _table, max_away)


@st.cache_data(max_entries=64, show_spinner=False)
def take_point_grid_on_table(key: str, _table: met.MatchEquityTable, max_away: int) -> pd.DataFrame:
    """:func:`cubecore.match_points.dead_take_point_table` of the table ``key`` (at most
    24 x 24 scores, 0.04-0.1 s: on the worker)."""
    return on_worker(match_points.dead_take_point_table, _table, max_away=max_away)


# ----------------------------------------------------------------------------------
# What a section shows, derived from the cached results above once per argument set
# and returned as one frozen view: a warm rerun of the section (one of its own sliders
# moved back to a value seen before) makes one cached call and skips the pandas steps
# and the figure builders. The views are ``st.cache_resource`` (no copy per call),
# shared by every session and never changed after they are made: ``ui.widgets.chart``
# and ``ui.widgets.table`` do not change the figure or frame they get. Their arguments
# are keyword-only: Streamlit looks up the signature of a cached function once per
# positional argument on every call, not for a keyword.
#: Decimals of a chance in percent (the field's habit: 35.20%).
PERCENT_DECIMALS = 2


def in_percent(frame: pd.DataFrame, columns: Sequence[str] | None = None) -> pd.DataFrame:
    """``frame`` with its chances (``columns``, else every column) in percent, rounded
    to :data:`PERCENT_DECIMALS`."""
    shown = frame.copy()
    for column in shown.columns if columns is None else columns:
        shown[column] = (100 * shown[column]).round(PERCENT_DECIMALS)
    return shown


# ----------------------------------------------------------------------------------
#: The take-point fields of the table "At every cube level", in the order shown.
BY_CUBE_FIELDS = ("cube", "model", "dead", "dead_gammon", "live", "doubling_point", "cash_point")
#: The chances among :data:`BY_CUBE_FIELDS` (shown in percent).
BY_CUBE_CHANCES = ("model", "dead", "dead_gammon", "live", "doubling_point", "cash_point")
#: The chances of the market window's table (:func:`market_windows`; shown in percent).
WINDOW_CHANCES = (
    "double_point",
    "cash_point",
    "too_good_point",
    "double_point_redoubled",
    "cash_point_redoubled",
    "cash_point_live",
    "cash_point_gammonless",
    "take_point",
    "take_point_live",
    "take_point_gammonless",
)
#: The market window's headline: your take points of the opponent's first double.
WINDOW_HEADLINE = ("take_point_gammonless", "take_point", "take_point_live", "too_good_point")
#: The free drop's headline: the trailer 2-away.
DROP_HEADLINE = ("table", "table_plain", "table_implied_pp", "model_value_pp")


@dataclasses.dataclass(frozen=True)
class TakesView:
    """The take-point section: the take point, its two charts, every cube level.

    Attributes
    ----------
    point : dict
        :func:`take_point`.
    market_window, take_row : Figure
        :func:`ui.match.charts.market_window_figure`, and
        :func:`ui.match.charts.take_points_row_figure` of your row of the take points.
    by_cube : pandas.DataFrame
        :func:`take_points_by_cube`'s :data:`BY_CUBE_FIELDS`, the chances
        (:data:`BY_CUBE_CHANCES`) in percent to 2 decimals.
    """

    point: dict[str, float]
    market_window: Figure
    take_row: Figure
    by_cube: pd.DataFrame


@st.cache_resource(max_entries=64, show_spinner=False)
def takes_view(
    *,
    away: int,
    opp_away: int,
    cube_value: int,
    cube_owner: match.TakeCube,
    gammon_rate: float,
    opp_gammon_rate: float,
    cube_efficiency: float,
) -> TakesView:
    """The take-point section's :class:`TakesView` at the score and double."""
    rates = (gammon_rate, opp_gammon_rate, cube_efficiency)
    point = take_point(away, opp_away, cube_value, cube_owner, *rates)
    row = take_point_table(match.MAX_AWAY, cube_value, cube_owner, *rates, away=away)
    by_cube = take_points_by_cube(away, opp_away, *rates)
    return TakesView(
        point,
        charts.market_window_figure(point["doubling_point"], point["cash_point"]),
        charts.take_points_row_figure(row, opp_away),
        in_percent(by_cube[list(BY_CUBE_FIELDS)], BY_CUBE_CHANCES).round(4),
    )


@dataclasses.dataclass(frozen=True)
class RulesView:
    """The Crawford and Holland section at one trailer's score.

    Attributes
    ----------
    crawford : dict
        The trailer's row of :func:`crawford_table` (``crawford``, ``no_crawford_rule``,
        ``protection``, ``post_crawford``, ``leader_drops``).
    crawford_figure : Figure
        :func:`ui.match.charts.crawford_figure`.
    holland : dict
        :func:`holland`.
    holland_figure : Figure
        :func:`ui.match.charts.holland_figure` of :func:`holland_table`.
    """

    crawford: dict[str, float]
    crawford_figure: Figure
    holland: dict[str, float]
    holland_figure: Figure


@st.cache_resource(max_entries=64, show_spinner=False)
def rules_view(
    *, trailer: int, gammon_rate: float, delay_rolls: int, volatility: float
) -> RulesView:
    """The Crawford and Holland section's :class:`RulesView`, leader 1-away."""
    craw = crawford_table(gammon_rate)
    here = craw[craw["opp_away"] == trailer].iloc[0]
    fields = ("crawford", "no_crawford_rule", "protection", "post_crawford")
    return RulesView(
        {
            **{name: float(here[name]) for name in fields},
            "leader_drops": bool(here["leader_drops"]),
        },
        charts.crawford_figure(craw, trailer),
        holland(trailer, gammon_rate, delay_rolls, volatility),
        charts.holland_figure(holland_table(gammon_rate, delay_rolls, volatility), trailer),
    )


@dataclasses.dataclass(frozen=True)
class HeatmapsView:
    """The heatmaps section: the equity table, one kind of take point, their heatmaps.

    Attributes
    ----------
    table : pandas.DataFrame
        :func:`equity_table`.
    take_points : pandas.DataFrame
        One kind of :func:`take_point_table`: your away down, the doubler's across.
    table_figure, take_point_figure : Figure
        :func:`ui.match.charts.heatmap_figure` of each.
    """

    table: pd.DataFrame
    take_points: pd.DataFrame
    table_figure: Figure
    take_point_figure: Figure


@st.cache_resource(max_entries=64, show_spinner=False)
def heatmaps_view(
    *,
    max_away: int,
    cube_value: int,
    cube_owner: match.TakeCube,
    gammon_rate: float,
    opp_gammon_rate: float,
    cube_efficiency: float,
    kind: str,
    title: str,
    marked: tuple[int, int],
) -> HeatmapsView:
    """The heatmaps section's :class:`HeatmapsView`, the score ``marked``; ``title`` the
    take points' heatmap's."""
    table = equity_table(gammon_rate, cube_efficiency)
    grid = take_point_table(
        max_away, cube_value, cube_owner, gammon_rate, opp_gammon_rate, cube_efficiency
    )
    pivot = score_grid(grid, kind)
    return HeatmapsView(
        table,
        pivot,
        charts.heatmap_figure(
            table,
            "Match equity (row 1, column 1: the Crawford game)",
            "MWC",
            marked,
            percent=True,
        ),
        charts.heatmap_figure(
            pivot, title, "take point", marked, colorscale="Viridis", percent=True
        ),
    )


@dataclasses.dataclass(frozen=True)
class WindowPoints:
    """The market window section's cube points at the gammon rates.

    Attributes
    ----------
    headline : dict
        :data:`WINDOW_HEADLINE` of :func:`market_windows`' first row the opponent doubles.
    shown : pandas.DataFrame
        :func:`market_windows`, the chances (:data:`WINDOW_CHANCES`) in percent to 2
        decimals.
    """

    headline: dict[str, float]
    shown: pd.DataFrame


@st.cache_resource(max_entries=64, show_spinner=False)
def window_points(
    *,
    key: str,
    _table: met.MatchEquityTable,
    away: int,
    opp_away: int,
    phase: match_points.MatchPhase,
    rates: tuple[float, float, float, float],
) -> WindowPoints:
    """The market window section's :class:`WindowPoints` (rates: yours, then the opponent's)."""
    windows = market_windows(key, _table, away, opp_away, phase, rates)
    first = windows[windows["doubler"] == "opponent"].iloc[0]
    return WindowPoints(
        {name: float(first[name]) for name in WINDOW_HEADLINE},
        in_percent(windows, WINDOW_CHANCES).round(4),
    )


@dataclasses.dataclass(frozen=True)
class WindowScore:
    """The market window section's parts that do not depend on the gammon rates.

    Attributes
    ----------
    take_points : Figure or None
        The heatmap of your dead take points of an initial double
        (:func:`take_point_grid_on_table`), None for a table shorter than 2-away.
    gammon_values : GammonValues
        :func:`cubecore.match_points.gammon_values` at the score and cube.
    gammon_figures : tuple of Figure
        :func:`ui.match.charts.gammon_value_heatmap_figure` of yours and the opponent's.
    gammon_table : pandas.DataFrame
        :func:`gammon_value_grid`, rounded to 4 decimals.
    """

    take_points: Figure | None
    gammon_values: match_points.GammonValues
    gammon_figures: tuple[Figure, Figure]
    gammon_table: pd.DataFrame


#: Largest away-score of the score-by-score heatmaps (take points, gammon values).
GRID_AWAY = 15


def score_grid(frame: pd.DataFrame, column: str) -> pd.DataFrame:
    """``column`` of a by-score frame as a grid: your away down, the opponent's across."""
    return frame.pivot(index="away", columns="opp_away", values=column)


def dead_take_points(key: str, table: met.MatchEquityTable, n: int) -> pd.DataFrame:
    """The gammonless dead take point of the opponent's initial double, by score
    (:func:`take_point_grid_on_table` as a :func:`score_grid`)."""
    return score_grid(take_point_grid_on_table(key, table, n), "take_point")


@st.cache_resource(max_entries=64, show_spinner=False)
def window_score(
    *,
    key: str,
    _table: met.MatchEquityTable,
    name: str,
    away: int,
    opp_away: int,
    phase: match_points.MatchPhase,
    cube_value: int,
) -> WindowScore:
    """The market window section's :class:`WindowScore` on the table ``name``.

    The Crawford game has the gammon values of post-Crawford (the next game is
    post-Crawford either way) and no cube of its own; any owner: the values do not
    depend on it.
    """
    marked = (away, opp_away)
    n_takes = min(GRID_AWAY, _table.length)
    take_points = None
    if n_takes >= 2:
        take_points = charts.heatmap_figure(
            dead_take_points(key, _table, n_takes),
            f"Your dead take point of an initial double, no gammons ({name})",
            "take point",
            marked,
            colorscale="Viridis",
            percent=True,
        )
    values = match_points.gammon_values(
        match_points.MatchScore(
            _table,
            away,
            opp_away,
            phase="post-Crawford" if phase == "Crawford" else phase,
            cube_value=cube_value,
            cube_owner="center" if cube_value == 1 else "player",
        )
    )
    n = min(GRID_AWAY, _table.length, _table.post_length)
    grid = gammon_value_grid(key, _table, n, cube_value)
    mine, theirs = (
        charts.gammon_value_heatmap_figure(
            score_grid(grid, column),
            f"Gammon value, {who}, cube {cube_value} ({name})",
            marked,
            match_points.GAMMON_CLASS_BOUNDS,
            match_points.GAMMON_CLASSES,
        )
        for column, who in (("gammon_value", "your"), ("opp_gammon_value", "the opponent's"))
    )
    return WindowScore(take_points, values, (mine, theirs), grid.round(4))


@dataclasses.dataclass(frozen=True)
class DropView:
    """The free drop section: the trailer 2-away, the chart, the table.

    Attributes
    ----------
    two : dict
        :data:`DROP_HEADLINE` of :func:`drop_price`'s row of the trailer 2-away.
    figure : Figure
        :func:`ui.match.charts.free_drop_figure`.
    shown : pandas.DataFrame
        :func:`drop_price`'s frame, rounded to 4 decimals.
    """

    two: dict[str, float]
    figure: Figure
    shown: pd.DataFrame


@st.cache_resource(max_entries=64, show_spinner=False)
def drop_view(
    *, key: str, _table: met.MatchEquityTable, max_away: int, gammon_rate: float, spread: float
) -> DropView:
    """The free drop section's :class:`DropView`."""
    frame = drop_price(key, _table, max_away, gammon_rate, spread).frame
    two = frame[frame["trailer_away"] == 2].iloc[0]
    return DropView(
        {name: float(two[name]) for name in DROP_HEADLINE},
        charts.free_drop_figure(frame),
        frame.round(4),
    )
