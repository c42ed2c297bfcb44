"""Hypothesis strategies shared by the property tests (numpy-financial style)."""

import hypothesis.strategies as hst

probabilities = hst.floats(0.0, 1.0, allow_nan=False)
cube_lives = hst.floats(0.0, 1.0, allow_nan=False)
gammon_values = hst.floats(1.0, 3.0, allow_nan=False)
cube_positions = hst.sampled_from(["center", "owned", "opponent"])
