"""The concepts several pages control, each declared once: its URL key, kind, range and step.

A concept has one short stable URL key app-wide (``x`` is the cube life on every page),
so a link or a value carried from one page to another means the same thing. Each
factory here fixes what a concept is (key, kind, and the range and step every page
shares); a page's ``controls.py`` passes what it words or bounds its own way (label,
default, help, a page's own range) and keeps its behaviour. Links from before keep
working: no key here differs from the key the pages used. Pure: no streamlit import.
"""

from __future__ import annotations

from cubecore.giveup import ESSAY_GIVE_UPS
from cubecore.janowski import CubePosition
from ui.controls import Control

__all__ = [
    "CUBE_POSITIONS",
    "beavers",
    "center_give_up",
    "cube_life",
    "cube_position",
    "doubler_point",
    "give_up",
    "jacoby",
    "loss_value",
    "opponent_pips",
    "pips",
    "seed",
    "taker_point",
    "win_probability",
    "win_value",
]

#: Where the cube is, seen from the player whose chance is shown.
CUBE_POSITIONS: tuple[CubePosition, ...] = ("center", "owned", "opponent")
#: A dependent control's condition: ``(key, value)`` (see :attr:`Control.requires`).
Requires = tuple[str, object] | None


def cube_position(
    help_text: str, *, options: tuple[str, ...] = CUBE_POSITIONS, label: str = "Cube position"
) -> Control:
    """Key ``cube``: where the cube is (or, on the give-up page, which cube action)."""
    return Control("cube", label, "select", options[0], options=options, help=help_text)


def cube_life(
    default: float,
    help_text: str = "",
    *,
    label: str = "Cube life x",
    step: float = 0.01,
    requires: Requires = None,
) -> Control:
    """Key ``x``: Janowski's cube life index, 0 (dead cube) to 1 (perfectly live cube)."""
    return Control("x", label, "float", default, 0.0, 1.0, step, help=help_text, requires=requires)


def win_value(default: float, help_text: str) -> Control:
    """Key ``W``: the average value of a win, 1 to 3 cubes."""
    return Control(
        "W", "W: average value of a win", "float", default, 1.0, 3.0, 0.01, help=help_text
    )


def loss_value(default: float) -> Control:
    """Key ``L``: the average value of a loss, 1 to 3 cubes."""
    help_text = "1 + gammon and backgammon bonus per loss."
    return Control(
        "L", "L: average value of a loss", "float", default, 1.0, 3.0, 0.01, help=help_text
    )


def win_probability(label: str, default: float, help_text: str) -> Control:
    """Key ``P``: the doubler's cubeless winning probability."""
    return Control("P", label, "float", default, 0.0, 1.0, 0.005, help=help_text)


def jacoby(requires: Requires = None) -> Control:
    """Key ``jacoby``: the Jacoby rule (money play)."""
    help_text = "Money play: gammons count only once the cube has been turned."
    return Control("jacoby", "Jacoby rule", "bool", False, help=help_text, requires=requires)


def beavers(help_text: str, requires: Requires = None) -> Control:
    """Key ``beavers``: whether the taker may beaver (money play)."""
    return Control("beavers", "Beavers allowed", "bool", False, help=help_text, requires=requires)


def pips(
    label: str,
    default: int,
    high: int,
    help_text: str = "",
    *,
    low: int = 1,
    requires: Requires = None,
) -> Control:
    """Key ``pips``: the pip count of the player on roll (the doubler)."""
    return Control("pips", label, "int", default, low, high, 1, help=help_text, requires=requires)


def opponent_pips(label: str, default: int, high: int, help_text: str = "") -> Control:
    """Key ``opips``: the pip count of the other player."""
    return Control("opips", label, "int", default, 1, high, 1, help=help_text)


def seed(help_text: str, *, label: str = "Seed", high: int = 9999) -> Control:
    """Key ``seed``: the random seed (same seed, same games), from 0."""
    return Control("seed", label, "int", 1, 0, high, 1, help=help_text)


def give_up(label: str, low: float, help_text: str, requires: Requires = None) -> Control:
    """Key ``g``: Woolsey's give-up point after the cube is turned, up to 1; the essay's .86."""
    default = ESSAY_GIVE_UPS.own_give_up
    return Control("g", label, "float", default, low, 1.0, 0.005, help=help_text, requires=requires)


def center_give_up(label: str, low: float, help_text: str) -> Control:
    """Key ``gc``: Woolsey's give-up point with the cube centred, up to 1; the essay's .835."""
    default = ESSAY_GIVE_UPS.center_give_up
    return Control("gc", label, "float", default, low, 1.0, 0.005, help=help_text)


def doubler_point(label: str, default: float, help_text: str) -> Control:
    """Key ``da``: Zadeh-Kobliska's effective doubling point of A, 0.8 to 1."""
    return Control("da", label, "float", default, 0.8, 1.0, 0.005, help=help_text)


def taker_point(label: str, default: float, help_text: str) -> Control:
    """Key ``db``: Zadeh-Kobliska's effective doubling point of B, 0 to 0.2."""
    return Control("db", label, "float", default, 0.0, 0.2, 0.005, help=help_text)
