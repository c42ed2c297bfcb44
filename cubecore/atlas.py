"""The model atlas: four cube models on one scale, and the mappings between them.

The sources describe one idea at four resolutions ([KS69]_, [ZK77]_, [KW]_, [JR12]_):

- the continuous game with a live cube: take 20%, cash and double 80% ([KS69]_);
- effective doubling points: the game "ends" for A at ``DA`` and for B at ``DB``
  ([ZK77]_ eqs. (1)-(3));
- give-up points: the cube owner "wins" at ``g``, with ``g_c`` for a centred
  cube ([KW]_);
- the cube life index ``x``: equity interpolated between the dead and the live
  cube ([JR12]_), here with ``W = L = 1`` (no gammons, as in the other three).

Every equity is per unit of the current cube, from the view of the player whose
cubeless winning probability is ``p``. The mappings (derived in the docstrings of
:func:`cube_life_from_effective_points` and :func:`equivalent_settings`):

- give-up ``g`` is the effective-doubling-point model with ``DA = g``,
  ``DB = 1 - g`` (identical equities for the owned and opponent-owned cube);
- in the linear region, ``g`` is a Janowski cube life ``x = 4 (1/g - 1)`` and a
  centred ``g_c`` is ``x = 1.5 (1/(2 g_c - 1) - 1)``: one ``g`` pair implies two
  different ``x`` unless ``g_c`` is chosen to match, which is where the mapping
  breaks.

References
----------
.. [KS69] E. Keeler, J. Spencer, "Proper raising points in a generalization of
   backgammon", RAND, 1969.
.. [ZK77] N. Zadeh, G. Kobliska, "On optimal doubling in backgammon",
   Management Science 23(8), 1977.
.. [KW] K. Woolsey, "Doubling Theory".
.. [JR12] "Janowski model revisited", 2012.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from cubecore import giveup, janowski, race
from cubecore._validate import array_in_range, choice, real_in_range, whole_number
from cubecore.janowski import CubePosition

__all__ = [
    "MAX_CURVE_POINTS",
    "MODELS",
    "AtlasSettings",
    "atlas_curves",
    "atlas_points",
    "cube_life_from_effective_points",
    "effective_point_equity",
    "equivalent_settings",
]

#: Most points per curve in :func:`atlas_curves` (the app draws 201).
MAX_CURVE_POINTS = 10_001
#: The four models, in the order the atlas shows them.
MODELS = ("keeler_spencer", "zadeh_kobliska", "give_up", "janowski")

#: The continuous game's points ([KS69]_ eq. (5)): double/cash at 80%, take at 20%.
LIVE_CASH_POINT = 0.8


@dataclass(frozen=True)
class AtlasSettings:
    """One setting of every model: cube life ``x``, ``DA``/``DB``, give-up ``g``/``g_c``."""

    x: float
    da: float
    db: float
    give_up: float
    center_give_up: float


def effective_point_equity(
    p: ArrayLike, cube: CubePosition, da: float, db: float
) -> NDArray[np.float64]:
    """Cubeful equity of the effective-doubling-point model ([ZK77]_ eqs. (1)-(3)).

    .. math:: E = 2\\,p(t, \\cdot) - 1,\\quad p(t,A) = p/D_A,\\quad
       p(t,B) = \\frac{p - D_B}{1 - D_B},\\quad p(t,M) = \\frac{p - D_B}{D_A - D_B}

    for the cube owned by the player (A), by the opponent (B) and centred (M),
    computed by :func:`cubecore.race.effective_point_chance` (``DA``, ``DB`` in their
    one domain, :func:`cubecore.race.check_doubling_points`). Beyond an effective
    doubling point the game is over for the model (the trailer passes): the
    modified chance is limited to [0, 1].

    Examples
    --------
    >>> float(effective_point_equity(0.8, "owned", 0.8, 0.2))
    1.0
    """
    p = array_in_range("p", p, 0.0, 1.0)
    chance = race.effective_point_chance(p, da, db, cube)  # [ZK77] eqs. (1)-(3)
    return 2.0 * np.clip(chance, 0.0, 1.0) - 1.0


def cube_life_from_effective_points(da: float, db: float) -> tuple[float, float]:
    """Janowski cube lives that reproduce the DA/DB equities in the linear region.

    With ``W = L = 1`` the Janowski owned-cube equity below the cash point is
    ``-1 + (2 + x/2) p`` and the DA equity is ``-1 + 2p/DA``: equal slopes give
    ``x = 4 (1/DA - 1)``. For the opponent-owned cube, ``2/(1 - DB) = 2 + x/2``
    gives ``x = 4 (1/(1 - DB) - 1)``. The two agree when ``DB = 1 - DA``.

    Returns
    -------
    (x_owned, x_opponent) : tuple of float

    Examples
    --------
    >>> [round(v, 12) for v in cube_life_from_effective_points(0.8, 0.2)]
    [1.0, 1.0]
    """
    da, db = race.check_doubling_points(da, db)
    return 4.0 * (1.0 / da - 1.0), 4.0 * (1.0 / (1.0 - db) - 1.0)


def equivalent_settings(
    source: str, value: float, center_give_up: float | None = None
) -> AtlasSettings:
    """Move every model to the settings equivalent to one model's parameter.

    Parameters
    ----------
    source : {"give_up", "x", "da"}
        Which parameter leads: the give-up point ``g`` (then ``DA = g``,
        ``DB = 1 - g``, ``x = 4 (1/g - 1)``); the cube life ``x`` (then
        ``g = 1/(1 + x/4)`` and ``DA = g``, ``DB = 1 - g``); or ``DA`` (with
        ``DB = 1 - DA`` and ``g = DA``).
    value : float
        The leading parameter's value.
    center_give_up : float, optional
        ``g_c``. By default the centred give-up point implying the same ``x``:
        ``x = 1.5 (1/(2 g_c - 1) - 1)``, i.e. ``g_c = (1 + 1/(1 + 2x/3)) / 2``.

    Returns
    -------
    AtlasSettings

    Examples
    --------
    >>> s = equivalent_settings("give_up", 0.8)
    >>> round(s.x, 12), round(s.da, 12), round(s.db, 12), round(s.center_give_up, 12)
    (1.0, 0.8, 0.2, 0.8)
    """
    source = choice("source", source, ("give_up", "x", "da"))
    if source == "x":
        x = real_in_range("value", value, 0.0, 1.0)
        g = giveup.give_up_from_cube_life(x, "owned")
    else:
        g = real_in_range("value", value, 0.8, 1.0)
        x = giveup.cube_life_from_give_up(g, "owned")
    if center_give_up is None:
        center_give_up = giveup.give_up_from_cube_life(x, "center")
    else:
        center_give_up = real_in_range("center_give_up", center_give_up, 0.5, 1.0, low_open=True)
    return AtlasSettings(x=x, da=g, db=1.0 - g, give_up=g, center_give_up=center_give_up)


def _equities(
    model: str, settings: AtlasSettings, cube: CubePosition, p: NDArray[np.float64]
) -> float | NDArray[np.float64]:
    if model == "keeler_spencer":
        return janowski.live_cube_equity(p, cube)
    if model == "zadeh_kobliska":
        return effective_point_equity(p, cube, settings.da, settings.db)
    if model == "give_up":
        return giveup.modified_equity(
            2.0 * p - 1.0, cube, giveup.GiveUpPoints(settings.give_up, settings.center_give_up)
        )
    return janowski.cubeful_equity(p, settings.x, cube)


def atlas_curves(settings: AtlasSettings, points: int = 201) -> pd.DataFrame:
    """Cubeful equity against winning chance for every model and cube position.

    Returns a tidy DataFrame with columns ``model``, ``cube``, ``p``, ``equity``;
    ``points`` (2 to :data:`MAX_CURVE_POINTS`) equally spaced chances per curve.

    Examples
    --------
    >>> frame = atlas_curves(equivalent_settings("give_up", 0.8), points=5)
    >>> sorted(frame["model"].unique()) == sorted(MODELS)
    True
    """
    if not isinstance(settings, AtlasSettings):
        raise TypeError(f"`settings` must be an AtlasSettings (got {type(settings).__name__})")
    p = np.linspace(0.0, 1.0, whole_number("points", points, 2, MAX_CURVE_POINTS))
    rows = []
    for model in MODELS:
        for cube in janowski.CUBE_POSITIONS:
            equity = np.asarray(_equities(model, settings, cube, p), dtype=float)
            rows.append(pd.DataFrame({"model": model, "cube": cube, "p": p, "equity": equity}))
    return pd.concat(rows, ignore_index=True)


def atlas_points(settings: AtlasSettings) -> pd.DataFrame:
    """Take, cash, initial double and redouble points of every model, side by side.

    All in winning probability: the take point in the taker's, the others in the
    doubler's. Give-up points come from [KW]_'s cubeless-equity criteria
    (``w = (e + 1)/2``); effective points from [ZK77]_ eqs. (4)-(6) with the
    Theorem 1 names corrected; Janowski's from :func:`janowski.cube_points`.
    One row per model, in the order of :data:`MODELS`; the ``model`` column holds
    the model's name in :data:`MODELS`.

    Examples
    --------
    >>> atlas_points(equivalent_settings("x", 1.0))["model"].tolist()
    ['keeler_spencer', 'zadeh_kobliska', 'give_up', 'janowski']
    >>> atlas_points(equivalent_settings("give_up", 0.8))["cash_point"].round(12).tolist()
    [0.8, 0.8, 0.8, 0.8]
    """
    if not isinstance(settings, AtlasSettings):
        raise TypeError(f"`settings` must be an AtlasSettings (got {type(settings).__name__})")
    effective = race.effective_points(settings.da, settings.db)
    give_up = giveup.doubling_points(giveup.GiveUpPoints(settings.give_up, settings.center_give_up))
    cube = janowski.cube_points(settings.x)
    rows = {
        "keeler_spencer": (1 - LIVE_CASH_POINT, LIVE_CASH_POINT, LIVE_CASH_POINT, LIVE_CASH_POINT),
        "zadeh_kobliska": (
            1.0 - effective.minimum_take_point,
            effective.minimum_take_point,
            effective.initial_double_point,
            effective.redouble_point,
        ),
        "give_up": (
            (1.0 - give_up.market_losing) / 2.0,
            (1.0 + give_up.market_losing) / 2.0,
            (1.0 + give_up.initial_double) / 2.0,
            (1.0 + give_up.redouble) / 2.0,
        ),
        "janowski": (
            cube.take_point,
            cube.cash_point,
            cube.initial_double_point,
            cube.redouble_point,
        ),
    }
    columns = ["take_point", "cash_point", "initial_double_point", "redouble_point"]
    frame = pd.DataFrame.from_dict(rows, orient="index", columns=columns)
    frame.insert(0, "model", list(frame.index))
    return frame.reset_index(drop=True)
