"""Piecewise-linear functions on [0, 1]: the toolkit of the continuous game's cube values.

In the continuous game ([KS69]_ section 1, [ZK77]_ Lemma 1) the winning chance
``p`` moves like Brownian motion without jumps, so every equity is linear in ``p``
between the points where someone doubles, takes or drops. The cube values of
:mod:`cubecore.match` are therefore piecewise-linear functions of ``p``, and the
operations they need are few: evaluate, take the pointwise maximum or minimum of
two functions (or of a function and a constant), and find the value of an optimal
stopping game between two obstacles, which for Brownian motion is the *taut string*
between them (linear where free, concave on the lower obstacle, convex under the
upper one).

Representation
--------------
A function is a pair ``(xs, ys)`` of tuples of floats: strictly increasing corners
with ``xs[0] == 0`` and ``xs[-1] == 1``, and the values there
(:data:`PiecewiseLinear`). Plain tuples, not arrays: the functions have a handful
of corners and the operations run hundreds of thousands of times per match equity
table, where numpy's per-call overhead would dominate. :func:`piecewise_linear`
builds a checked function from user input, and each public operation checks its
arguments, then calls an unchecked kernel of the same name with a leading underscore
(``_combine``, ``_clamp``, ``_solve_between``, ...). :mod:`cubecore.match` calls the
kernels in its hot loop on functions they made themselves: the checks were three
quarters of a table's time.

Size bound: every operation is linear in the total number of corners of its
arguments (:func:`taut_string` quadratic in the worst case); the functions of
:mod:`cubecore.match` have at most a few dozen corners.

References
----------
.. [KS69] Keeler & Spencer (1969), :data:`cubecore.references.REFERENCES` ``"KS69"``:
   section 1 (the continuous game: equities linear between decision points).
.. [ZK77] Zadeh & Kobliska (1977), :data:`cubecore.references.REFERENCES` ``"ZK77"``:
   Lemma 1.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Callable, Sequence

import numpy as np

from cubecore._validate import _real_array, _shown, finite_array, real_in_range

__all__ = [
    "MAX_CORNERS",
    "PiecewiseLinear",
    "clamp",
    "combine",
    "crossings_and_values",
    "first_at_least",
    "line",
    "piecewise_linear",
    "solve_between",
    "taut_string",
    "value_at",
    "values_on",
]

#: A piecewise-linear function on [0, 1]: strictly increasing corners (0 first, 1 last)
#: and the values there.
PiecewiseLinear = tuple[tuple[float, ...], tuple[float, ...]]

#: Largest number of corners :func:`piecewise_linear` accepts.
MAX_CORNERS = 100_000


def piecewise_linear(xs: Sequence[float], ys: Sequence[float]) -> PiecewiseLinear:
    """A checked piecewise-linear function on [0, 1] from its corners and values.

    Parameters
    ----------
    xs : sequence of float
        Corners, strictly increasing, ``xs[0] = 0`` and ``xs[-1] = 1``; at most
        :data:`MAX_CORNERS` of them.
    ys : sequence of float
        Finite values at the corners, as many as ``xs``.

    Returns
    -------
    PiecewiseLinear
        ``(xs, ys)`` as tuples of floats; between corners the function is the
        straight line ``y_i + (y_{i+1} - y_i) (p - x_i) / (x_{i+1} - x_i)``.

    Raises
    ------
    ValueError
        If a corner or value is not a finite real number, the corners do not
        increase strictly from 0 to 1, or the two lengths differ.

    References
    ----------
    [KS69]_ section 1: in the continuous game equities are linear between the
    points where the cube is turned.

    Examples
    --------
    >>> piecewise_linear([0, 0.5, 1], [0, 1, 0])
    ((0.0, 0.5, 1.0), (0.0, 1.0, 0.0))
    """
    corners = _finite_tuple("xs", xs)
    values = _finite_tuple("ys", ys)
    if not 2 <= len(corners) <= MAX_CORNERS:
        raise ValueError(f"`xs` must have 2 to {MAX_CORNERS} corners (got {len(corners)})")
    if len(values) != len(corners):
        raise ValueError(f"`ys` must have one value per corner: {len(corners)} (got {len(values)})")
    if corners[0] != 0.0 or corners[-1] != 1.0:
        raise ValueError(f"`xs` must start at 0 and end at 1 (got {corners[0]!r}, {corners[-1]!r})")
    if any(b <= a for a, b in itertools.pairwise(corners)):
        raise ValueError("`xs` must be strictly increasing")
    return corners, values


def _finite_tuple(name: str, values: Sequence[float]) -> tuple[float, ...]:
    """``values`` as a tuple of finite floats, or a ValueError naming ``name``."""
    array = finite_array(name, values, max_size=MAX_CORNERS)
    if array.ndim != 1:
        raise ValueError(f"`{name}` must be a sequence of real numbers")
    return tuple(array.tolist())


def _real_tuple(name: str, values: Sequence[float]) -> tuple[float, ...]:
    """``values`` as a tuple of floats: infinities allowed (an absent obstacle), NaN not."""
    array = _real_array(name, values)
    if array.ndim != 1 or np.isnan(array).any() or array.size > MAX_CORNERS:
        raise ValueError(f"`{name}` must be a sequence of at most {MAX_CORNERS} real numbers")
    return tuple(array.tolist())


def _check_function(name: str, f: PiecewiseLinear) -> None:
    """Cheap check that ``f`` has the shape :func:`piecewise_linear` returns."""
    shaped = (
        isinstance(f, tuple)
        and len(f) == 2
        and all(isinstance(part, tuple) for part in f)
        and len(f[0]) == len(f[1]) >= 2
    )
    if not shaped or f[0][0] != 0.0 or f[0][-1] != 1.0:
        raise ValueError(
            f"`{name}` must be a piecewise-linear function (xs, ys) made by piecewise_linear"
            f" (got {_shown(f)})"
        )


def _check_pick(pick: Callable[[float, float], float]) -> None:
    if not callable(pick):
        raise ValueError(
            f"`pick` must be a function of two numbers such as min (got {_shown(pick)})"
        )


def line(y0: float, y1: float) -> PiecewiseLinear:
    """The straight line from ``(0, y0)`` to ``(1, y1)``: ``f(p) = y0 + p (y1 - y0)``.

    In the continuous game with a dead cube the equity is this line between the
    value of a loss and of a win ([KS69]_ section 1).

    Examples
    --------
    >>> line(-1, 1)
    ((0.0, 1.0), (-1.0, 1.0))
    """
    y0, y1 = real_in_range("y0", y0), real_in_range("y1", y1)
    return (0.0, 1.0), (float(y0), float(y1))


def value_at(f: PiecewiseLinear, p: float) -> float:
    """``f(p)`` for ``p`` in [0, 1]: linear interpolation between the corners.

    ``f(p) = y_i + (y_{i+1} - y_i) (p - x_i) / (x_{i+1} - x_i)`` for
    ``x_i <= p < x_{i+1}``; the end values outside [0, 1].

    Examples
    --------
    >>> value_at(((0.0, 0.5, 1.0), (0.0, 1.0, 0.0)), 0.25)
    0.5
    """
    _check_function("f", f)
    return _value_at(f, real_in_range("p", p))


def _value_at(f: PiecewiseLinear, p: float) -> float:
    """:func:`value_at` without its checks (the hot loop's)."""
    xs, ys = f
    i = bisect.bisect_right(xs, p)
    if i >= len(xs):
        return ys[-1]
    if i == 0:
        return ys[0]
    x0, x1 = xs[i - 1], xs[i]
    return ys[i - 1] + (ys[i] - ys[i - 1]) * (p - x0) / (x1 - x0)


def values_on(f: PiecewiseLinear, xs: Sequence[float]) -> list[float]:
    """``f`` at the increasing points ``xs``: the numbers of :func:`value_at`, in one pass.

    Walks ``f``'s segments alongside ``xs`` instead of bisecting for each point
    (this runs hundreds of thousands of times per match equity table); the result
    is bitwise that of :func:`value_at`.

    Examples
    --------
    >>> values_on(((0.0, 0.5, 1.0), (0.0, 1.0, 0.0)), [0.0, 0.25, 0.75, 1.0])
    [0.0, 0.5, 0.5, 0.0]
    """
    _check_function("f", f)
    return _values_on(f, _finite_tuple("xs", xs))


def _values_on(f: PiecewiseLinear, xs: Sequence[float]) -> list[float]:
    """:func:`values_on` without its checks (the hot loop's)."""
    fx, fy = f
    last = len(fx) - 1
    out = []
    k = 0  # fx[k] <= x < fx[k + 1], as bisect_right(fx, x) - 1 in value_at
    for x in xs:
        while k < last and fx[k + 1] <= x:
            k += 1
        if k >= last:
            out.append(fy[-1])
        elif x < fx[0]:
            out.append(fy[0])
        else:
            x0, x1 = fx[k], fx[k + 1]
            out.append(fy[k] + (fy[k + 1] - fy[k]) * (x - x0) / (x1 - x0))
    return out


def _insert_crossings(
    xs: list[float],
    fv: list[float],
    gv: list[float],
    f: PiecewiseLinear,
    g: PiecewiseLinear,
) -> tuple[list[float], list[float], list[float]]:
    """Add the points where ``f`` and ``g`` cross between neighbouring ``xs``.

    ``fv`` and ``gv`` are the functions' values at ``xs``; returns the points and
    both functions' values there.
    """
    out_x, out_f, out_g = [xs[0]], [fv[0]], [gv[0]]
    for i in range(1, len(xs)):
        d0, d1 = fv[i - 1] - gv[i - 1], fv[i] - gv[i]
        if d0 * d1 < 0:
            t = d0 / (d0 - d1)
            x = xs[i - 1] + t * (xs[i] - xs[i - 1])
            out_x.append(x)
            out_f.append(_value_at(f, x))
            out_g.append(_value_at(g, x))
        out_x.append(xs[i])
        out_f.append(fv[i])
        out_g.append(gv[i])
    return out_x, out_f, out_g


def crossings_and_values(
    f: PiecewiseLinear, g: PiecewiseLinear
) -> tuple[list[float], list[float], list[float]]:
    """The corners of ``f`` and ``g`` and the points where they cross, with both values there.

    On each segment between neighbouring corners both functions are linear, so
    they cross at most once, at ``x = x_i + t (x_{i+1} - x_i)``,
    ``t = d_i / (d_i - d_{i+1})`` with ``d = f - g`` of opposite signs at the ends.

    Examples
    --------
    >>> crossings_and_values(line(0, 1), line(1, 0))
    ([0.0, 0.5, 1.0], [0.0, 0.5, 1.0], [1.0, 0.5, 0.0])
    """
    _check_function("f", f)
    _check_function("g", g)
    return _crossings_and_values(f, g)


def _crossings_and_values(
    f: PiecewiseLinear, g: PiecewiseLinear
) -> tuple[list[float], list[float], list[float]]:
    """:func:`crossings_and_values` without its checks (the hot loop's)."""
    xs = sorted(set(f[0]) | set(g[0]))
    return _insert_crossings(xs, _values_on(f, xs), _values_on(g, xs), f, g)


def combine(
    f: PiecewiseLinear, g: PiecewiseLinear, pick: Callable[[float, float], float]
) -> PiecewiseLinear:
    """Pointwise ``pick`` (``min`` or ``max``) of two piecewise-linear functions.

    ``h(p) = pick(f(p), g(p))`` is piecewise linear with corners at the corners of
    ``f`` and ``g`` and where they cross (:func:`crossings_and_values`).

    Examples
    --------
    >>> combine(line(0, 1), line(1, 0), max)
    ((0.0, 0.5, 1.0), (1.0, 0.5, 1.0))
    """
    _check_function("f", f)
    _check_function("g", g)
    _check_pick(pick)
    return _combine(f, g, pick)


def _combine(
    f: PiecewiseLinear, g: PiecewiseLinear, pick: Callable[[float, float], float]
) -> PiecewiseLinear:
    """:func:`combine` without its checks (the hot loop's)."""
    xs, fv, gv = _crossings_and_values(f, g)
    return tuple(xs), tuple(map(pick, fv, gv))


def clamp(
    f: PiecewiseLinear, level: float, pick: Callable[[float, float], float]
) -> PiecewiseLinear:
    """:func:`combine` of ``f`` with the constant ``level``: ``pick(f(p), level)``.

    The corners are those of ``f`` plus where ``f`` crosses ``level`` (a taker who
    drops at a fixed value caps the doubler's equity there).

    Examples
    --------
    >>> clamp(line(0, 1), 0.5, min)
    ((0.0, 0.5, 1.0), (0.0, 0.5, 0.5))
    """
    _check_function("f", f)
    _check_pick(pick)
    return _clamp(f, real_in_range("level", level), pick)


def _clamp(
    f: PiecewiseLinear, level: float, pick: Callable[[float, float], float]
) -> PiecewiseLinear:
    """:func:`clamp` without its checks (the hot loop's)."""
    xs = list(f[0])
    flat = (0.0, 1.0), (level, level)
    xs, fv, gv = _insert_crossings(xs, _values_on(f, xs), [level] * len(xs), f, flat)
    return tuple(xs), tuple(map(pick, fv, gv))


def taut_string(
    xs: Sequence[float], lower: Sequence[float], upper: Sequence[float], y0: float, y1: float
) -> PiecewiseLinear:
    """Shortest path from ``(0, y0)`` to ``(1, y1)`` between two piecewise-linear obstacles.

    ``lower``/``upper`` are the obstacles at the increasing breakpoints ``xs``
    (``xs[0] = 0``, ``xs[-1] = 1``; ``-inf``/``+inf`` where absent; their end values
    are ignored, the string is pinned there). The string is linear where free,
    concave where it rests on ``lower`` and convex where it touches ``upper``: the
    value of the stopping game of Brownian motion on [0, 1] between the two
    (one obstacle: the least concave majorant or the greatest convex minorant),
    as used for the cube in the continuous game ([KS69]_ section 1).

    Examples
    --------
    >>> taut_string([0.0, 0.5, 1.0], [-math.inf, 1.0, -math.inf], [math.inf] * 3, 0.0, 0.0)
    ((0.0, 0.5, 1.0), (0.0, 1.0, 0.0))
    """
    xs = _finite_tuple("xs", xs)
    lower = _real_tuple("lower", lower)
    upper = _real_tuple("upper", upper)
    for name, values in (("lower", lower), ("upper", upper)):
        if len(values) != len(xs):
            raise ValueError(f"`{name}` must have one value per corner of `xs`: {len(xs)}")
    return _taut_string(xs, lower, upper, real_in_range("y0", y0), real_in_range("y1", y1))


def _taut_string(
    xs: Sequence[float], lower: Sequence[float], upper: Sequence[float], y0: float, y1: float
) -> PiecewiseLinear:
    """:func:`taut_string` without its checks (the hot loop's)."""
    n = len(xs)
    out_x, out_y = [0.0], [float(y0)]
    anchor, ay = 0, float(y0)
    while True:
        ax = xs[anchor]
        s_low, i_low = -math.inf, -1
        s_up, i_up = math.inf, -1
        bend = None
        for j in range(anchor + 1, n):
            lo, hi = (y1, y1) if j == n - 1 else (lower[j], upper[j])
            dx = xs[j] - ax
            sl, su = (lo - ay) / dx, (hi - ay) / dx
            if sl > s_up:  # the string must bend down over the upper corner
                bend = (i_up, upper[i_up])
                break
            if su < s_low:  # ... or bend up over the lower corner
                bend = (i_low, lower[i_low])
                break
            if sl > s_low:
                s_low, i_low = sl, j
            if su < s_up:
                s_up, i_up = su, j
        if bend is None:
            out_x.append(1.0)
            out_y.append(float(y1))
            return tuple(out_x), tuple(out_y)
        anchor, ay = bend
        out_x.append(xs[anchor])
        out_y.append(ay)


def solve_between(
    lower: PiecewiseLinear | None, upper: PiecewiseLinear | None, y0: float, y1: float
) -> PiecewiseLinear:
    """:func:`taut_string` from ``(0, y0)`` to ``(1, y1)`` above ``lower``, below ``upper``.

    ``None`` for an absent obstacle. The breakpoints are the union of both
    obstacles' corners.

    Examples
    --------
    >>> solve_between(((0.0, 0.5, 1.0), (0.0, 1.0, 0.0)), None, 0.0, 0.0)
    ((0.0, 0.5, 1.0), (0.0, 1.0, 0.0))
    """
    for name, obstacle in (("lower", lower), ("upper", upper)):
        if obstacle is not None:
            _check_function(name, obstacle)
    return _solve_between(lower, upper, real_in_range("y0", y0), real_in_range("y1", y1))


def _solve_between(
    lower: PiecewiseLinear | None, upper: PiecewiseLinear | None, y0: float, y1: float
) -> PiecewiseLinear:
    """:func:`solve_between` without its checks (the hot loop's)."""
    corners = {0.0, 1.0}
    for f in (lower, upper):
        if f is not None:
            corners.update(f[0])
    xs = sorted(corners)
    lo = [-math.inf] * len(xs) if lower is None else _values_on(lower, xs)
    hi = [math.inf] * len(xs) if upper is None else _values_on(upper, xs)
    return _taut_string(xs, lo, hi, y0, y1)


def first_at_least(f: PiecewiseLinear, level: float) -> float:
    """Smallest ``p`` with ``f(p) >= level``, for a nondecreasing ``f`` with ``f(1) >= level``.

    On the first segment that reaches ``level``:
    ``p = x_{i-1} + (level - y_{i-1}) / (y_i - y_{i-1}) (x_i - x_{i-1})``.

    Examples
    --------
    >>> first_at_least(line(0, 1), 0.25)
    0.25
    """
    _check_function("f", f)
    level = real_in_range("level", level)
    xs, ys = f
    if ys[-1] < level:
        raise ValueError(f"`level` must be at most f(1) = {ys[-1]:g} (got {level:g})")
    if ys[0] >= level:
        return 0.0
    i = next(k for k, y in enumerate(ys) if y >= level)
    x0, x1, y0, y1 = xs[i - 1], xs[i], ys[i - 1], ys[i]
    return x0 + (level - y0) / (y1 - y0) * (x1 - x0)
