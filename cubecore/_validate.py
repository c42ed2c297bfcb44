"""Argument checks shared by the public functions of :mod:`cubecore`.

Every public function validates at its boundary and raises ``ValueError`` with a
message that names the parameter in backticks, its allowed range and the value
given. The model code behind the boundary never clips silently.

What every helper refuses, whatever the range: NaN, complex numbers (never cast
to their real part), bools where a number is meant, strings where a number is
meant, and integers too large for a float (a ``ValueError``, never an
``OverflowError``). Arrays are refused above :data:`MAX_ARRAY_SIZE` entries unless
the caller states a smaller or larger bound.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from typing import SupportsFloat, TypeVar, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

#: A text argument, as precise as its parameter is typed (a ``Literal`` of modes).
_Text = TypeVar("_Text", bound=str)
#: Element types of two arrays broadcast together, each kept.
_First = TypeVar("_First", bound=np.generic)
_Second = TypeVar("_Second", bound=np.generic)
#: Default cap on the entries of an array argument (8 MB of floats); a function
#: whose cost per entry is high passes a smaller ``max_size``.
MAX_ARRAY_SIZE = 1_000_000


def _shown(value: object) -> str:
    """The value given, for a message: its repr, cut to 60 characters."""
    try:
        text = repr(value)
    except Exception:  # a hostile __repr__ must not hide the real message
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


def _named(name: str) -> str:
    """The parameter's name as messages show it: in backticks."""
    return name if name.startswith("`") else f"`{name}`"


def _is_complex(value: object) -> bool:
    return isinstance(value, (complex, np.complexfloating)) or (
        isinstance(value, numbers.Complex) and not isinstance(value, numbers.Real)
    )


def _real_array(name: str, value: ArrayLike) -> NDArray[np.float64]:
    """``value`` as a float array; refuses complex, bool, text and unconvertible input."""
    label = _named(name)
    try:
        raw = np.asarray(value)
    except (TypeError, ValueError, OverflowError):
        raw = np.asarray(None)
    if raw.dtype.kind == "c" or (raw.dtype.kind == "O" and any(map(_is_complex, raw.flat))):
        raise ValueError(f"{label} must be real, not complex (got {_shown(value)})")
    listed = (
        value if isinstance(value, (list, tuple)) else raw.flat if raw.dtype.kind == "O" else ()
    )
    if raw.dtype.kind == "b" or any(isinstance(v, (bool, np.bool_)) for v in listed):
        raise ValueError(f"{label} must be a real number, not a bool (got {_shown(value)})")
    if raw.dtype.kind not in "iuf" and raw.dtype.kind != "O":
        raise ValueError(
            f"{label} must be a real number or an array of real numbers (got {_shown(value)})"
        )
    try:
        return np.asarray(raw, dtype=float)
    except OverflowError:
        raise ValueError(f"{label} must be finite (got a number beyond float range)") from None
    except (TypeError, ValueError):
        raise ValueError(
            f"{label} must be a real number or an array of real numbers (got {_shown(value)})"
        ) from None


def finite_array(
    name: str, value: ArrayLike, *, max_size: int = MAX_ARRAY_SIZE
) -> NDArray[np.float64]:
    """Return ``value`` as a float array, or raise if any entry is NaN or infinite.

    Also refused: complex, bool or text entries, and more than ``max_size`` entries.
    """
    array = _real_array(name, value)
    if array.size > max_size:
        raise ValueError(f"{_named(name)} must hold at most {max_size} values (got {array.size})")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{_named(name)} must be finite (got NaN or infinity)")
    return array


def array_in_range(
    name: str,
    value: ArrayLike,
    low: float,
    high: float,
    *,
    max_size: int = MAX_ARRAY_SIZE,
) -> NDArray[np.float64]:
    """Return ``value`` as a float array after checking ``low <= value <= high``."""
    array = finite_array(name, value, max_size=max_size)
    if np.any(array < low) or np.any(array > high):
        raise ValueError(f"{_named(name)} must lie in [{low:g}, {high:g}] (got {_shown(value)})")
    return array


def broadcast_together(
    names: tuple[str, str], first: NDArray[_First], second: NDArray[_Second]
) -> tuple[NDArray[_First], NDArray[_Second]]:
    """Two checked arrays broadcast to one shape (``np.broadcast_arrays``: views, no copy).

    A ``ValueError`` naming both parameters and their shapes if they cannot.
    """
    try:
        first_view, second_view = np.broadcast_arrays(first, second)
    except ValueError:
        raise ValueError(
            f"{_named(names[0])} and {_named(names[1])} must broadcast together "
            f"(shapes {first.shape}, {second.shape})"
        ) from None
    return cast("NDArray[_First]", first_view), cast("NDArray[_Second]", second_view)


def real_number(name: str, value: SupportsFloat) -> float:
    """Return ``value`` as a float (possibly infinite), refusing NaN, complex, bool and text."""
    label = _named(name)
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{label} must be a real number, not a bool (got {value!r})")
    if _is_complex(value):
        raise ValueError(f"{label} must be real, not complex (got {_shown(value)})")
    if isinstance(value, (str, bytes)) or not isinstance(value, (numbers.Real, np.generic)):
        # text such as "0.5" is refused: a caller's typo must not become a number
        raise ValueError(f"{label} must be a real number (got {_shown(value)})")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf if cast(int, value) > 0 else -math.inf  # only ints overflow
    except (TypeError, ValueError):
        raise ValueError(f"{label} must be a real number (got {_shown(value)})") from None
    if math.isnan(number):
        raise ValueError(f"{label} must be a real number (got NaN)")
    return number


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
    so is infinity (and an integer beyond float range), whatever the interval.
    """
    number = real_number(name, value)
    too_low = number <= low if low_open else number < low
    too_high = number >= high if high_open else number > high
    if too_low or too_high or math.isinf(number):
        left = "(" if low_open or math.isinf(low) else "["
        right = ")" if high_open or math.isinf(high) else "]"
        raise ValueError(
            f"{_named(name)} must lie in {left}{low:g}, {high:g}{right} (got {_shown(value)})"
        )
    return number


def whole_number(name: str, value: int, low: int = 0, high: int | None = None) -> int:
    """Return ``value`` as an int after checking it is a whole number in ``[low, high]``.

    A float with a whole value (``3.0``) is accepted; bools, complex numbers, text
    and fractions are not.
    """
    label = _named(name)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        if isinstance(value, (float, np.floating)) and float(value).is_integer():
            value = int(value)
        else:
            raise ValueError(f"{label} must be a whole number (got {_shown(value)})")
    number = int(value)
    if number < low or (high is not None and number > high):
        upper = "inf)" if high is None else f"{high}]"
        raise ValueError(
            f"{label} must be a whole number in [{low}, {upper} (got {_shown(number)})"
        )
    return number


def flag(name: str, value: bool) -> bool:
    """Return ``value`` after checking it is a bool: ``"no"``, ``0`` or ``None`` are refused."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{_named(name)} must be True or False (got {_shown(value)})")
    return bool(value)


def choice(name: str, value: _Text, allowed: Iterable[str]) -> _Text:
    """Return ``value`` after checking it is one of ``allowed``.

    ``value`` keeps its type: a parameter typed as a ``Literal`` of modes stays one.
    """
    options = tuple(allowed)
    if not isinstance(value, str) or value not in options:
        listed = ", ".join(repr(option) for option in options)
        raise ValueError(f"{_named(name)} must be one of {listed} (got {_shown(value)})")
    return value
