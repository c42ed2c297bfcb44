"""The rollouts page's charts: how the standard error and the waiting time grow with trials.

Both are drawn from measured numbers (``python -m bench rollout``, docs/benchmarks.md,
2026-11-28, the opening position rolled out 1,296 times): the standard error of the
no-double equity falls as one over the square root of the trials,
:math:`\\operatorname{se}(n) = \\sigma / \\sqrt{n}` (Cochran 1977, eq. 5.6 for equal
batches), and the time is trials over the measured throughput.
"""

from __future__ import annotations

import math

import numpy as np

from ui.style import COLORS, Figure, figure, line, vertical_marker

#: The opening position's no-double standard error at 1,296 trials (bench, 2026-11-28).
MEASURED_ERROR = 0.0132
MEASURED_TRIALS = 1296
#: One trial's standard deviation behind it: se * sqrt(n).
TRIAL_SIGMA = MEASURED_ERROR * math.sqrt(MEASURED_TRIALS)
#: Measured throughput, trials a second: 1 and 2 workers on this 2-core machine; 16
#: workers on paper at the 2-worker rate per worker (deploy/README.md).
THROUGHPUT = {"1 worker": 16.7, "2 workers": 30.7, "16 workers (on paper)": 16 * 30.7 / 2}
#: A class's positions (deploy/README.md's example).
CLASS_POSITIONS = 20
_TRIALS = np.geomspace(36, 46_656, 60)
_COLORS = (COLORS["center"], COLORS["double"], COLORS["cash"])


def error_figure(trials: int) -> Figure:
    """The standard error of the no-double equity against trials, the chosen trials marked."""
    error = TRIAL_SIGMA / np.sqrt(_TRIALS)
    chosen = TRIAL_SIGMA / math.sqrt(trials)
    marker = vertical_marker(
        math.log10(trials), "", COLORS["marker"], text=f"{trials:,} trials: ± {chosen:.4f}"
    )
    return figure(
        [line(_TRIALS, error, "standard error of no double (opening position)", _COLORS[0])],
        "Standard error against trials: ± σ/√n",
        "trials",
        "standard error of the equity",
        markers=[marker],
        xaxis={"type": "log"},
        yaxis={"rangemode": "tozero"},
    )


def time_figure(trials: int) -> Figure:
    """Minutes for a class's 20 positions against trials, per cluster size, the chosen marked."""
    traces = [
        line(_TRIALS, CLASS_POSITIONS * _TRIALS / rate / 60.0, name, color)
        for (name, rate), color in zip(THROUGHPUT.items(), _COLORS, strict=True)
    ]
    fastest = CLASS_POSITIONS * trials / max(THROUGHPUT.values()) / 60.0
    marker = vertical_marker(
        math.log10(trials),
        "",
        COLORS["marker"],
        text=f"{trials:,} trials: {fastest:.1f} min on 16 workers",
    )
    return figure(
        traces,
        f"Minutes for {CLASS_POSITIONS} positions against trials",
        "trials per position",
        "minutes",
        markers=[marker],
        xaxis={"type": "log"},
        yaxis={"type": "log"},
    )
