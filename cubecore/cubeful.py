"""Cube decisions from an engine's five cubeless probabilities, gathered in one place.

GNU Backgammon's 0-ply cube decision, reimplemented and checked against the 1.07
binary (``tests/data/gnubg_cube_*.json``), is five ideas, one module each:

- :mod:`cubecore.cube_decision`: the decision itself, No double, Double/take and
  Double/pass for money (:func:`money_cube_decision`, :func:`proper_cube_action`) and
  at a match score (:func:`match_cube_decision`), and gnubg's cube life
  (:func:`cube_life`);
- :mod:`cubecore.cube_anatomy`: ``DT - ND`` split into named terms
  (:func:`decision_anatomy`), and :class:`CubeSetting`;
- :mod:`cubecore.cube_margins`: how far each input may move before the best action
  changes (:func:`decision_margins`);
- :mod:`cubecore.market_window`: the take, double, cash and too-good points for the
  dead, live and chosen cube (:func:`market_window`);
- :mod:`cubecore.score_matrix`: the decision at every score of a match
  (:func:`score_matrix`).

This module re-exports every public name of the five, so that
``cubecore.cubeful.market_window`` and the rest stay where callers found them.
"""

from __future__ import annotations

from cubecore.cube_anatomy import CubeSetting, DecisionAnatomy, decision_anatomy
from cubecore.cube_decision import (
    ALTERNATIVES,
    BEAROFF_CUBE_LIFE,
    CONTACT_CUBE_LIFE,
    CRASHED_CUBE_LIFE,
    CUBE_OWNERS,
    MAX_CUBE,
    MAX_EQUITY,
    MAX_PIPS,
    POSITION_CLASSES,
    RACE_CUBE_LIFE,
    CubeDecision,
    CubelessProbabilities,
    ProperCubeAction,
    cube_life,
    match_cube_decision,
    money_cube_decision,
    proper_cube_action,
)
from cubecore.cube_margins import DecisionMargins, decision_margins
from cubecore.market_window import WINDOW_POINTS, market_window
from cubecore.score_matrix import MAX_SCORE_GRID, score_matrix

__all__ = [
    "ALTERNATIVES",
    "BEAROFF_CUBE_LIFE",
    "CONTACT_CUBE_LIFE",
    "CRASHED_CUBE_LIFE",
    "CUBE_OWNERS",
    "MAX_CUBE",
    "MAX_EQUITY",
    "MAX_PIPS",
    "MAX_SCORE_GRID",
    "POSITION_CLASSES",
    "RACE_CUBE_LIFE",
    "WINDOW_POINTS",
    "CubeDecision",
    "CubeSetting",
    "CubelessProbabilities",
    "DecisionAnatomy",
    "DecisionMargins",
    "ProperCubeAction",
    "cube_life",
    "decision_anatomy",
    "decision_margins",
    "market_window",
    "match_cube_decision",
    "money_cube_decision",
    "proper_cube_action",
    "score_matrix",
]
