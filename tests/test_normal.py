"""Tests for cubecore._normal: the one standard normal distribution function."""

import math

import hypothesis.strategies as hst
import numpy as np
from hypothesis import given
from numpy.testing import assert_allclose

from cubecore._normal import normal_cdf


def test_normal_cdf_known_values():
    assert normal_cdf(0.0) == 0.5
    assert isinstance(normal_cdf(0.0), float)
    # Phi(1.959963984540054) = 0.975 (the two-sided 95 % quantile)
    assert_allclose(normal_cdf(1.959963984540054), 0.975, rtol=1e-14)
    # far tail, where 1 + erf(z / sqrt 2) would cancel: Phi(-10) = 7.6198530241605e-24
    assert_allclose(normal_cdf(-10.0), 7.619853024160527e-24, rtol=1e-12)
    z = np.array([-3.0, -1.0, 0.5, 2.0])
    assert_allclose(normal_cdf(z), [0.5 * math.erfc(-v / math.sqrt(2.0)) for v in z], rtol=1e-14)


@given(hst.floats(-30.0, 30.0, allow_nan=False))
def test_normal_cdf_symmetry_and_range(z):
    p = normal_cdf(z)
    assert 0.0 <= p <= 1.0
    assert_allclose(p + normal_cdf(-z), 1.0, atol=1e-15)
