"""Control specifications: every control's URL key, range and default, named once.

A :class:`Control` describes one widget: its short stable URL key, label, kind,
default and allowed values, and the control it depends on. The page skeleton
(:mod:`ui.skeleton`) creates the widgets from these specs and the link checker
(:mod:`ui.links`) validates incoming query parameters against the same specs, so
the two cannot disagree. A URL key names one concept app-wide (``x`` is the cube
life on every page). This module is pure: no streamlit import.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal, cast, get_args

__all__ = ["APP_CONTROLS", "PRESENT", "SECTION_KEY", "THEME", "Control", "ControlKind"]

#: What a control is: a float or integer slider, a choice, a toggle, the section tabs, a text.
ControlKind = Literal["float", "int", "number", "select", "bool", "tabs", "text"]
_KINDS: tuple[ControlKind, ...] = get_args(ControlKind)
#: A decimal number as a link may spell it (no hex, no digit separators, no "inf").
_NUMBER = re.compile(r"^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$")


@dataclass(frozen=True)
class Control:
    """One URL-bound control.

    Attributes
    ----------
    key : str
        Short stable key: the widget key and the query-parameter name.
    label : str
        Widget label.
    kind : {"float", "int", "number", "select", "bool", "tabs", "text"}
        Float or integer slider, a float typed into a number box ("number": a value
        such as 68.3 a slider cannot take), a choice among ``options``, a toggle, the
        page's section tabs (``options`` are the tab labels; see
        :func:`ui.skeleton.run_page`), or a text (:attr:`pattern`).
    default : float | int | str | bool
        Value used when the link does not give a valid one.
    low, high, step : float
        Slider range and step (numeric kinds).
    options : tuple of str
        Allowed values (``select``).
    help : str
        Tooltip.
    pattern : str
        ``text`` controls: the regular expression a value must match in full (a
        position ID's alphabet and length).
    validator : callable, optional
        ``text`` controls: ``validator(value)`` raises ``ValueError`` (its message is
        the notice's reason) when the value has the form but no meaning (a position
        ID of 52 checkers).
    option_labels : tuple of (str, str)
        ``select`` controls: ``(option, label)`` pairs, an option (a slug, as the code
        knows it) in words (``dead_gammon`` -> "dead cube with gammons"). The select box
        shows the label and the link carries it (Streamlit 1.67's bound select box
        writes what it shows); the code sees the option. A link with the option itself
        (written before the label, or by another page's link) is taken through the
        page's value aliases (:attr:`value_aliases`). An option without a pair shows
        itself.
    requires : tuple of (str, object), optional
        ``(key, value)``: the control does something only while the control
        ``key`` has ``value`` (the taker's own x only with "two indexes" on). Otherwise
        the skeleton shows it disabled, at its default, and keeps it out of the link.
    lines : int
        ``text`` controls: 1 (the default) for a one-line box; more for a box of that
        many lines (a list of positions, one a line).
    max_chars : int
        ``text`` controls: most characters the box takes (80 by default).
    """

    key: str
    label: str
    kind: ControlKind
    default: float | int | str | bool
    low: float = -math.inf
    high: float = math.inf
    step: float = 1.0
    options: tuple[str, ...] = ()
    help: str = ""
    requires: tuple[str, object] | None = None
    pattern: str = ""
    validator: Callable[[str], object] | None = None
    option_labels: tuple[tuple[str, str], ...] = ()
    lines: int = 1
    max_chars: int = 80

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise ValueError(f"kind must be one of {_KINDS}")
        if self.kind in ("select", "tabs") and self.default not in self.options:
            raise ValueError(f"default of {self.key} must be one of its options")
        number = cast(float, self.default)  # a number for the numeric kinds
        if self.is_number and not self.low <= number <= self.high:
            raise ValueError(f"default of {self.key} must lie in [{self.low}, {self.high}]")

    @property
    def is_slider(self) -> bool:
        """Whether the control is a slider (a numeric kind, "float" or "int")."""
        return self.kind in ("float", "int")

    @property
    def is_number(self) -> bool:
        """Whether the control holds a number (a slider or a number box)."""
        return self.is_slider or self.kind == "number"

    def option_label(self, option: object) -> str:
        """The words a select box shows for ``option`` (:attr:`option_labels`)."""
        return dict(self.option_labels).get(str(option), str(option))

    @property
    def value_aliases(self) -> dict[str, str]:
        """Each labelled option as a link may still spell it -> as the link spells it
        today (``dead_gammon`` -> "dead cube with gammons"); empty without labels."""
        return {option: label for option, label in self.option_labels if option != label}

    def shown(self, value: object) -> str:
        """The value in words, short (an export's note): an option's label, a toggle's
        "on"/"off", a number as the link spells it."""
        if self.kind == "bool":
            return "on" if value else "off"
        return self.format(value)

    def parse(self, raw: str) -> tuple[object, str | None]:
        """Parse a raw query-parameter value.

        Returns ``(value, None)`` when the value is valid for this control and
        ``(None, reason)`` otherwise; ``reason`` is plain text for the notice.
        """
        if self.kind == "bool":
            if raw.lower() in ("true", "false"):
                return raw.lower() == "true", None
            return None, "not true or false"
        if self.kind in ("select", "tabs"):
            by_label = {self.option_label(option): option for option in self.options}
            if raw in by_label:
                return by_label[raw], None
            return None, "not one of " + ", ".join(by_label)
        if self.kind == "text":
            if not re.fullmatch(self.pattern, raw):
                return None, "not of the expected form"
            if self.validator is not None:
                try:
                    self.validator(raw)
                except ValueError as error:
                    return None, str(error)
            return raw, None
        if not _NUMBER.match(raw):
            return None, "not a number"
        number = float(raw)
        if not math.isfinite(number):
            return None, "not a finite number"
        if self.kind == "int" and not number.is_integer():
            return None, "not a whole number"
        if not self.low <= number <= self.high:
            return None, f"outside the range {self.format(self.low)} to {self.format(self.high)}"
        return (int(number) if self.kind == "int" else number), None

    def snap(self, value: float) -> float | int:
        """The grid value nearest to ``value`` (``low + k * step``), as the slider shows it."""
        steps = round((value - self.low) / self.step)
        snapped = min(
            max(round(self.low + steps * self.step, self.step_decimals), self.low), self.high
        )
        return int(snapped) if self.kind == "int" else float(snapped)

    @property
    def step_decimals(self) -> int:
        """The decimals of the step (``0.01`` -> 2): a slider shows and snaps to these."""
        exponent = cast(int, Decimal(str(self.step)).normalize().as_tuple().exponent)  # finite
        return max(0, -exponent)

    def active(self, values: Mapping[str, object]) -> bool:
        """Whether the control does anything with the other controls at ``values``.

        A control with ``requires = (key, value)`` acts only while ``key`` has that
        value; otherwise it is disabled and kept out of the link and the exports.
        """
        return self.requires is None or values.get(self.requires[0]) == self.requires[1]

    def accepts(self, value: object) -> bool:
        """Whether the widget can show ``value`` (a value left by another page's control)."""
        if self.kind == "bool":
            return isinstance(value, bool)
        if self.kind in ("select", "tabs"):
            return value in self.options
        if self.kind == "text":
            return isinstance(value, str) and self.parse(value)[1] is None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        if self.kind == "int" and not float(value).is_integer():
            return False
        return self.low <= value <= self.high

    def format(self, value: object) -> str:
        """The value as it appears in a link (and in notices)."""
        if self.kind == "bool":
            return "true" if value else "false"
        if self.is_number:
            return f"{float(cast(float, value)):.10g}"
        if self.kind == "select":
            return self.option_label(value)
        return str(value)


#: App-wide control, bound in ``app.py`` so that it holds across pages.
PRESENT = Control(
    key="present",
    label="Presenter mode",
    kind="bool",
    default=False,
    help="Large text and uncluttered charts for a projector. Part of the link: ?present=true",
)

#: App-wide control beside presenter mode: the app's light or dark theme (``?theme=dark``),
#: the two of ``.streamlit/config.toml`` (``[theme.light]``, ``[theme.dark]``).
THEME = Control(
    key="theme",
    label="Theme",
    kind="select",
    default="light",
    options=("light", "dark"),
    help="Light or dark colours; the page reloads in the chosen one. Part of the link: ?theme=dark",
)

APP_CONTROLS = (PRESENT, THEME)

#: The URL key of the open section, on every page (the skeleton's section tabs).
SECTION_KEY = "sec"
