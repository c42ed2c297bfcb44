"""Argument checks shared by the public functions of :mod:`cubecore`.

Every public function validates at its boundary and raises ``ValueError`` with a
message that names the parameter and its allowed range. The model code behind
the boundary never clips silently.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import SupportsFloat, TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

#: A text argument, as precise as its parameter is typed (a ``Literal`` of modes).
_Text = TypeVar("_Text", bound=str)


def _shown(value: object) -> str:
    """The value given, for a message: its repr, cut to 60 characters."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def finite_array(name: str, value: ArrayLike) -> NDArray[np.float64]:
    """Return ``value`` as a float array, or raise if any entry is NaN or infinite."""
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(
            f"{name} must be a real number or an array of real numbers (got {_shown(value)})"
        ) from None
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite (got NaN or infinity)")
    return array


def array_in_range(
    name: str,
    value: ArrayLike,
    low: float,
    high: float,
) -> NDArray[np.float64]:
    """Return ``value`` as a float array after checking ``low <= value <= high``."""
    array = finite_array(name, value)
    if np.any(array < low) or np.any(array > high):
        raise ValueError(f"{name} must lie in [{low:g}, {high:g}] (got {_shown(value)})")
    return array


def real_in_range(
    name: str,
    value: SupportsFloat,
    low: float = -math.inf,
    high: float = math.inf,
    *,
    low_open: bool = False,
    high_open: bool = False,
) -> float:
    """Return ``value`` as a float after checking it lies in the stated interval.

    ``low_open``/``high_open`` exclude the end points. NaN is always rejected;
    infinity only where the interval allows it (it never does when a bound is finite
    and closed on that side).
    """
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a real number, not a bool (got {value!r})")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a real number (got {_shown(value)})") from None
    if math.isnan(number):
        raise ValueError(f"{name} must be a real number (got NaN)")
    too_low = number <= low if low_open else number < low
    too_high = number >= high if high_open else number > high
    if too_low or too_high or math.isinf(number):
        left = "(" if low_open or math.isinf(low) else "["
        right = ")" if high_open or math.isinf(high) else "]"
        raise ValueError(f"{name} must lie in {left}{low:g}, {high:g}{right} (got {_shown(value)})")
    return number


def whole_number(name: str, value: int, low: int = 0, high: int | None = None) -> int:
    """Return ``value`` as an int after checking it is a whole number in ``[low, high]``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        if isinstance(value, (float, np.floating)) and float(value).is_integer():
            value = int(value)
        else:
            raise ValueError(f"{name} must be a whole number (got {_shown(value)})")
    number = int(value)
    if number < low or (high is not None and number > high):
        upper = "" if high is None else f", {high}"
        bracket = ")" if high is None else "]"
        raise ValueError(
            f"{name} must be a whole number in [{low}{upper or ', inf'}{bracket} (got {number})"
        )
    return number


def choice(name: str, value: _Text, allowed: Iterable[str]) -> _Text:
    """Return ``value`` after checking it is one of ``allowed``.

    ``value`` keeps its type: a parameter typed as a ``Literal`` of modes stays one.
    """
    options = tuple(allowed)
    if value not in options:
        listed = ", ".join(repr(option) for option in options)
        raise ValueError(f"{name} must be one of {listed} (got {value!r})")
    return value
