"""The standard normal distribution function, one implementation for all of cubecore.

Private helper: :mod:`cubecore.race_heuristics` (Kleinman's formula),
:mod:`cubecore.match` (normal integrals of the diffusion) and
:mod:`cubecore.keeler_spencer` (the normal raising point) all call it.
"""

from __future__ import annotations

from typing import overload

import numpy as np
from numpy.typing import NDArray
from scipy import special

__all__ = ["normal_cdf"]


@overload
def normal_cdf(z: float) -> float: ...
@overload
def normal_cdf(z: NDArray[np.float64]) -> NDArray[np.float64]: ...


def normal_cdf(z: float | NDArray[np.float64]) -> float | NDArray[np.float64]:
    r"""Standard normal distribution function.

    .. math:: \Phi(z) = \tfrac12\,\operatorname{erfc}(-z/\sqrt2)

    Computed by :func:`scipy.special.ndtr`, accurate to a few ulp in both tails (no
    cancellation in ``1 + erf`` for large negative ``z``); vectorised, a float in
    gives a float out. No validation: callers pass finite values they computed.

    Examples
    --------
    >>> normal_cdf(0.0)
    0.5
    >>> round(normal_cdf(1.959963984540054), 12)
    0.975
    """
    value = special.ndtr(z)
    return float(value) if np.ndim(value) == 0 else np.asarray(value, dtype=np.float64)
