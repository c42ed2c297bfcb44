"""Control specifications: every page's ranges, defaults and URL keys, named once.

A :class:`Control` describes one widget: its short stable URL key, label, kind,
default and allowed values. Pages create their widgets from these specs
(:func:`ui.widgets.control`) and the link checker (:mod:`ui.urlstate`) validates
incoming query parameters against the same specs, so the two cannot disagree.
This package is pure: no streamlit import.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, cast

__all__ = ["APP_CONTROLS", "PRESENT", "Control"]

_KINDS = ("float", "int", "select", "bool", "tabs")
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
    kind : {"float", "int", "select", "bool", "tabs"}
        Float or integer slider, a choice among ``options``, a toggle, or the
        page's section tabs (``options`` are the tab labels; see
        :func:`ui.widgets.section_tabs`).
    default : float | int | str | bool
        Value used when the link does not give a valid one.
    low, high, step : float
        Slider range and step (numeric kinds).
    options : tuple of str
        Allowed values (``select``).
    help : str
        Tooltip.
    """

    key: str
    label: str
    kind: str
    default: float | int | str | bool
    low: float = -math.inf
    high: float = math.inf
    step: float = 1.0
    options: tuple[str, ...] = ()
    help: str = ""

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise ValueError(f"kind must be one of {_KINDS}")
        if self.kind in ("select", "tabs") and self.default not in self.options:
            raise ValueError(f"default of {self.key} must be one of its options")
        number = cast(float, self.default)  # a number for the numeric kinds
        if self.kind in ("float", "int") and not self.low <= number <= self.high:
            raise ValueError(f"default of {self.key} must lie in [{self.low}, {self.high}]")

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
            if raw in self.options:
                return raw, None
            return None, "not one of " + ", ".join(self.options)
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

    def format(self, value: Any) -> str:
        """The value as it appears in a link (and in notices)."""
        if self.kind == "bool":
            return "true" if value else "false"
        if self.kind in ("float", "int"):
            return f"{float(value):.10g}"
        return str(value)


#: App-wide control, bound in ``app.py`` so that it holds across pages.
PRESENT = Control(
    key="present",
    label="Presenter mode",
    kind="bool",
    default=False,
    help="Large text and uncluttered charts for a projector. Part of the link: ?present=true",
)

APP_CONTROLS = (PRESENT,)
