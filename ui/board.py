"""A backgammon position drawn as a board players recognise (a pure plotly dict).

Shared by every page that shows a position: two checker colours that stay apart in the
light and the dark theme, the points numbered from the player on roll's side, the cube
with its value on its owner's side, each side's pip count and who is on roll.

The colours are chosen so that :func:`ui.style.themed_figure` keeps them: each checker
colour and its rim have at least :data:`ui.style.GRAPHIC_CONTRAST` (3:1, WCAG 2.2
success criterion 1.4.11) against the frame (the plot's background), the two checker
colours have :data:`CHECKER_CONTRAST` between them, and the frame takes black text at
:data:`ui.style.TEXT_CONTRAST` (4.5:1). A checker colour the theming changed would turn
both sides dark again (a light checker on a light board is "unreadable", and it used to
be replaced by the theme's ink): ``tests/test_board.py`` checks the colours survive
both themes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from cubecore.position import Position
from ui.style import Figure, Shape, Trace

__all__ = [
    "BAR_X",
    "CHECKER_CONTRAST",
    "CLICK_TARGETS",
    "CUBE_OWNERS",
    "FRAME",
    "OFF_TRAY",
    "ON_ROLL",
    "OPPONENT",
    "Place",
    "board_figure",
    "place_at",
]

CubeOwner = Literal["center", "player", "opponent"]
#: Who holds the cube: nobody, the player on roll, his opponent (``cubecore.match_points``).
CUBE_OWNERS: tuple[CubeOwner, ...] = ("center", "player", "opponent")

#: Checkers of the player on roll: ivory, with a dark rim.
ON_ROLL = "#f5eedc"
#: Checkers of the opponent: a deep red-brown, with an ivory rim.
OPPONENT = "#4a1c1c"
_RIM = {ON_ROLL: "#3a2a1a", OPPONENT: "#f5eedc"}
#: The board's frame and bar (the plot's background): the point numbers, the cube and the
#: side notes sit on it. Luminance 0.20: both checker colours above 3:1 against it.
FRAME = "#9a7550"
#: The playing field of each half and its two kinds of points.
_FIELD = "#efe4c8"
_POINT_DARK = "#a0613a"
_POINT_LIGHT = "#d6bd8e"
#: The two sides' colours differ by at least this contrast ratio (WCAG 2.2 relative
#: luminance): 7:1 is the ratio WCAG asks of small text (criterion 1.4.6), so the sides
#: stay apart for readers with low vision and every kind of colour blindness (they
#: differ in lightness, not only in hue).
CHECKER_CONTRAST = 7.0
#: x of the bear-off tray's notes (right of the board), as the board's coordinates.
OFF_TRAY = 14.3
#: x of the bar (between the two halves), as the board's coordinates.
BAR_X = 6.8
#: Name of the trace of invisible click targets a clickable board ends with.
CLICK_TARGETS = "click targets"
_SHOWN_PER_POINT = 5
_TOP = 11.0  # the field spans y 0..11
_NUMBER_GAP = 0.6  # point numbers this far outside the field, on the frame


PlaceKind = Literal["point", "bar", "off"]
Place = tuple[PlaceKind, int]
"""Where a click landed: ``("point", 1..24)`` in the player on roll's numbering, or
``("bar", 0)`` / ``("off", 0)`` (the bar between the halves, the trays right of the
board)."""


def _column(point: int) -> float:
    """x centre of the player on roll's point 1..24 (his home board bottom right)."""
    column = 13 - point if point <= 12 else point - 12
    return column + (0.6 if column > 6 else 0.0)


def _field_shapes() -> list[Shape]:
    """The two halves of the field and the 24 points (below the checkers)."""
    shapes: list[Shape] = [
        {"type": "rect", "x0": x0, "x1": x1, "y0": 0, "y1": _TOP, "fillcolor": _FIELD,
         "line": {"width": 0}, "layer": "below"}
        for x0, x1 in ((0.5, 6.5), (7.1, 13.1))
    ]  # fmt: skip
    for point in range(1, 25):
        x, bottom = _column(point), point <= 12
        base, tip = (0.0, 4.6) if bottom else (_TOP, 6.4)
        shapes.append(
            {
                "type": "path",
                "path": f"M {x - 0.48} {base} L {x + 0.48} {base} L {x} {tip} Z",
                "fillcolor": _POINT_DARK if point % 2 else _POINT_LIGHT,
                "line": {"width": 0},
                "layer": "below",
            }
        )
    return shapes


def _point_numbers() -> list[Shape]:
    """1..12 along the bottom edge, 13..24 along the top: the player on roll's numbers."""
    return [
        {
            "x": _column(point),
            "y": -_NUMBER_GAP if point <= 12 else _TOP + _NUMBER_GAP,
            "text": str(point),
            "showarrow": False,
            "font": {"color": "#000000", "size": 12},
        }
        for point in range(1, 25)
    ]


def _cube(value: int, owner: CubeOwner) -> Shape:
    """The cube left of the board: in the middle when centred (showing 64, as a real cube
    does before anyone doubled), on the owner's side otherwise."""
    y = {"center": _TOP / 2, "player": 1.0, "opponent": _TOP - 1.0}[owner]
    face = "64" if owner == "center" and value == 1 else str(value)
    return {
        "x": -0.1,
        "y": y,
        "text": f"<b>{face}</b>",
        "showarrow": False,
        "name": "cube",
        "font": {"color": "#000000", "size": 15},
        "bgcolor": "#fbf8ef",
        "bordercolor": "#000000",
        "borderwidth": 2,
        "borderpad": 5,
    }


def _side_notes(position: Position) -> list[Shape]:
    """In the bear-off tray: who is on roll, each side's pips and checkers off."""
    pips_on_roll, pips_opponent = position.pips
    lines = (
        (1.9, "<b>on roll</b>"),
        (2.9, f"{pips_on_roll} pips"),
        (3.9, f"off: {position.on_roll_borne_off}"),
        (_TOP - 1.9, "opponent"),
        (_TOP - 2.9, f"{pips_opponent} pips"),
        (_TOP - 3.9, f"off: {position.opponent_borne_off}"),
    )
    return [
        {"x": OFF_TRAY, "y": y, "text": text, "showarrow": False,
         "font": {"color": "#000000", "size": 13}}
        for y, text in lines
    ]  # fmt: skip


def place_at(x: float, y: float) -> Place | None:
    """The place of the board under a click at ``(x, y)`` (board coordinates), or None.

    A point takes its column (0.5 either side of its centre) on its half of the field
    (y below 5.5 the bottom half, points 1..12; above it the top half, 13..24); the bar
    its column between the halves, the trays theirs right of the board.

    Examples
    --------
    >>> place_at(1.0, 0.5), place_at(12.6, 10.5), place_at(6.8, 3.0), place_at(14.3, 9.0)
    (('point', 12), ('point', 24), ('bar', 0), ('off', 0))
    """
    if not (-1.0 <= y <= _TOP + 1.0):
        return None
    if abs(x - BAR_X) <= 0.3:
        return ("bar", 0)
    if abs(x - OFF_TRAY) <= 0.9:
        return ("off", 0)
    for point in range(13, 25) if y > _TOP / 2 else range(1, 13):
        if abs(x - _column(point)) <= 0.5:
            return ("point", point)
    return None


def _click_targets() -> Trace:
    """Invisible markers over every point, the bar and the trays: a click anywhere on
    them is a selection event (Streamlit's ``on_select``), read back with
    :func:`place_at`."""
    xs: list[float] = []
    ys: list[float] = []
    for point in range(1, 25):
        bottom = point <= 12
        for k in range(_SHOWN_PER_POINT):
            xs.append(_column(point))
            ys.append(0.5 + k * 0.9 if bottom else _TOP - 0.5 - k * 0.9)
    for x in (BAR_X, OFF_TRAY):
        for k in range(_SHOWN_PER_POINT):
            xs += [x, x]
            ys += [0.5 + k * 0.9, _TOP - 0.5 - k * 0.9]
    return {
        "type": "scatter",
        "mode": "markers",
        "x": xs,
        "y": ys,
        "name": CLICK_TARGETS,
        # Invisible by opacity, not by a transparent colour (the theming would make a
        # colour readable); plotly still hands a click on them to the selection.
        "marker": {"size": 30, "color": FRAME, "opacity": 0, "symbol": "square"},
        "hoverinfo": "none",
        "showlegend": False,
    }


def board_figure(
    position: Position,
    *,
    cube_value: int = 1,
    cube_owner: CubeOwner = "center",
    clickable: bool = False,
) -> Figure:
    """The position as a board: the player on roll moves home to the bottom right.

    Checkers are stacked from the edge (five drawn, more written as a number); the bar
    sits in the middle, the cube at the left (centred, or on its owner's side), and the
    tray at the right says who is on roll, each side's pips and checkers borne off, with
    a checker of each side's colour as its key. The first two traces are the checkers
    of the player on roll and of the opponent.

    With ``clickable`` the figure ends with a trace of invisible click targets (named
    :data:`CLICK_TARGETS`) over every point, the bar and the trays, and a click selects
    (``clickmode`` ``event+select``): the board editor (:mod:`ui.position.editor`)
    reads the click's coordinates with :func:`place_at`.

    Raises ``ValueError`` for a cube value that is not a power of 2 from 1 to 64 or an
    owner not in :data:`CUBE_OWNERS`, and for a cube of 1 with an owner.
    """
    if cube_owner not in CUBE_OWNERS:
        raise ValueError(f"`cube_owner` must be one of {CUBE_OWNERS}, got {cube_owner!r}")
    if cube_value not in (1, 2, 4, 8, 16, 32, 64):
        raise ValueError(f"`cube_value` must be a power of 2 from 1 to 64, got {cube_value!r}")
    if cube_value == 1 and cube_owner != "center":
        raise ValueError("`cube_owner` must be 'center' for a cube of 1")
    traces: list[Trace] = []
    labels: list[Shape] = []
    # (name, checkers on the side's own points 1..24, colour, own point -> board point, key y)
    sides: tuple[tuple[str, tuple[int, ...], str, Callable[[int], int], float], ...] = (
        ("player on roll", position.on_roll, ON_ROLL, lambda p: p, 0.7),
        ("opponent", position.opponent, OPPONENT, lambda p: 25 - p, _TOP - 0.7),
    )
    for name, counts, color, to_board, key_y in sides:
        xs, ys = [], []
        for own_point, count in enumerate(counts, start=1):
            if not count:
                continue
            point = to_board(own_point)
            x, bottom = _column(point), point <= 12
            for k in range(min(count, _SHOWN_PER_POINT)):
                xs.append(x)
                ys.append(0.5 + k * 0.9 if bottom else _TOP - 0.5 - k * 0.9)
            if count > _SHOWN_PER_POINT:
                labels.append(_count_label(x, ys[-1], count, color))
        traces.append(_checkers(xs, ys, name, color))
        traces.append({**_checkers([OFF_TRAY], [key_y], name, color), "showlegend": False})
    traces = [traces[0], traces[2], traces[1], traces[3]]  # the sides first, then the keys
    if position.on_roll_bar or position.opponent_bar:
        bar = f"bar {position.on_roll_bar} / {position.opponent_bar}"
        labels.append(
            {"x": BAR_X, "y": _TOP / 2, "text": bar, "showarrow": False,
             "font": {"color": "#000000"}, "bgcolor": "#fbf8ef"}
        )  # fmt: skip
    pips_on_roll, pips_opponent = position.pips
    layout = {
        "title": {
            "text": f"On roll (light): {pips_on_roll} pips; opponent (dark): {pips_opponent} pips"
        },
        "xaxis": {"visible": False, "range": [-0.9, 15.3], "fixedrange": True},
        "yaxis": {"visible": False, "range": [-1.2, _TOP + 1.2], "fixedrange": True},
        "shapes": _field_shapes(),
        "annotations": [*_point_numbers(), _cube(cube_value, cube_owner), *_side_notes(position),
                        *labels],
        "showlegend": False,
        "plot_bgcolor": FRAME,
        "margin": {"l": 10, "r": 10, "t": 50, "b": 10},
        "height": 440,
    }  # fmt: skip
    if clickable:
        traces.append(_click_targets())
        # A selection must not dim the checkers (plotly's default for unselected points)
        # nor show the click targets.
        traces = [_keep_opacity(trace) for trace in traces]
        layout.update({"clickmode": "event+select", "dragmode": False, "hovermode": "closest"})
    return {"data": traces, "layout": layout}


def _keep_opacity(trace: Trace) -> Trace:
    marker = trace.get("marker")
    opacity = marker.get("opacity", 1) if isinstance(marker, dict) else 1
    keep = {"marker": {"opacity": opacity}}
    return {**trace, "selected": keep, "unselected": keep}


def _checkers(xs: list[float], ys: list[float], name: str, color: str) -> Trace:
    return {
        "type": "scatter",
        "mode": "markers",
        "x": xs,
        "y": ys,
        "name": name,
        "marker": {"size": 26, "color": color, "line": {"color": _RIM[color], "width": 2}},
        "hoverinfo": "skip",
    }


def _count_label(x: float, y: float, count: int, color: str) -> Shape:
    return {
        "x": x,
        "y": y,
        "text": str(count),
        "showarrow": False,
        "font": {"color": "#000000" if color == ON_ROLL else "#ffffff", "size": 13},
        "bgcolor": color,  # the text sits on its checker, not on the board
    }
