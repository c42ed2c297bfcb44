"""Tests for cubecore.met_fit: the model's (G, x) fitted to a table.

Kazaross-XG2 is read from the gnubg fixture (``gnubg.met(25)``, see its ``_meta``).
The issue's grid search found G = 0.29, x = 0.80 at 0.073 pp mean on 11 x 11.
"""

import json
from pathlib import Path

import numpy as np
import pytest

from cubecore.match import match_equity_table
from cubecore.met import MatchEquityTable
from cubecore.met_fit import fit_table, model_residuals

DATA = Path(__file__).resolve().parent / "data"
MET = json.loads((DATA / "gnubg_market_window.json").read_text())["met"]
KXG2 = MatchEquityTable("kxg2", "Kazaross-XG2", MET["pre"], MET["post"])


@pytest.fixture(scope="module")
def kxg2_fit():
    return fit_table(KXG2)


def test_kazaross_xg2_is_explained_to_the_issue_bound(kxg2_fit):
    assert kxg2_fit.mean_abs_residual_pp <= 0.08
    assert kxg2_fit.gammon_rate == pytest.approx(0.29, abs=0.02)
    assert kxg2_fit.cube_efficiency == pytest.approx(0.80, abs=0.03)
    assert kxg2_fit.max_abs_residual_pp < 0.35
    assert kxg2_fit.max_away == 11
    assert kxg2_fit.residuals.shape == (121, 5)
    assert "Kazaross-XG2 behaves like a game" in kxg2_fit.reading
    assert kxg2_fit.evaluations <= 16 + 40


def test_issue_grid_point_reproduces_the_measured_residual():
    # G = 0.29, x = 0.80: 0.073 pp mean, 0.30 pp max (issue #13, printed to 2-3 digits)
    frame = model_residuals(KXG2, 0.29, 0.80)
    assert frame.residual_pp.abs().mean() == pytest.approx(0.073, abs=5e-4)
    assert frame.residual_pp.abs().max() == pytest.approx(0.30, abs=5e-3)


def test_fit_is_no_worse_than_the_issue_grid_point(kxg2_fit):
    grid = model_residuals(KXG2, 0.29, 0.80)
    assert (kxg2_fit.residuals.residual_pp**2).sum() <= (grid.residual_pp**2).sum() + 1e-12


def test_fit_is_deterministic(kxg2_fit):
    again = fit_table(KXG2)
    assert (again.gammon_rate, again.cube_efficiency) == (
        kxg2_fit.gammon_rate,
        kxg2_fit.cube_efficiency,
    )


@pytest.mark.parametrize(("g", "x"), [(0.22, 0.65), (0.33, 0.9)])
def test_a_model_table_gives_back_its_parameters(g, x):
    n = 6
    table = MatchEquityTable("m", "model", match_equity_table(n, g, x).to_numpy(), np.full(n, 0.4))
    fit = fit_table(table, max_away=n)
    assert fit.gammon_rate == pytest.approx(g, abs=1e-3)
    assert fit.cube_efficiency == pytest.approx(x, abs=1e-3)
    assert fit.max_abs_residual_pp < 1e-3


def test_residual_frame_is_model_minus_table():
    frame = model_residuals(KXG2, 0.3, 0.7, max_away=5)
    row = frame[(frame.away == 4) & (frame.opp_away == 2)].iloc[0]
    model = match_equity_table(5, 0.3, 0.7).loc[4, 2]
    assert row.model == pytest.approx(model)
    assert row.table == pytest.approx(KXG2.mwc(4, 2))
    assert row.residual_pp == pytest.approx(100 * (model - KXG2.mwc(4, 2)))


def test_bad_arguments():
    with pytest.raises(ValueError, match="`max_away` must be a whole number in \\[2, 25\\]"):
        fit_table(KXG2, max_away=26)
    with pytest.raises(ValueError, match="`max_away` must be a whole number in \\[2, 25\\]"):
        model_residuals(KXG2, 0.3, 0.8, max_away=1)
    with pytest.raises(ValueError, match="`gammon_rate` must lie in \\[0, 1\\]"):
        model_residuals(KXG2, 1.3, 0.8)
    with pytest.raises(TypeError, match="MatchEquityTable"):
        fit_table(np.eye(3))
    small = MatchEquityTable("s", "small", [[0.5, 0.7], [0.3, 0.5]], [0.5, 0.49])
    with pytest.raises(ValueError, match="`max_away` must be a whole number in \\[2, 2\\]"):
        fit_table(small, max_away=3)
