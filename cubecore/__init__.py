"""Pure compute package of Cube Theory Lab: the mathematics of the doubling cube.

One module per source model; nothing here imports streamlit or plotly (a test
enforces it). The UI layer (:mod:`ui`) wraps these functions in caches and figures.

- :mod:`cubecore.janowski`: Janowski's cube life index (dead/live interpolation).
- :mod:`cubecore.keeler_spencer`: Keeler & Spencer (1969), raising points.
- :mod:`cubecore.race`: Zadeh & Kobliska (1977), the race model, exact cube strategy.
- :mod:`cubecore.race_match`: that race's exact cube strategy at a match score, on a table.
- :mod:`cubecore.race_heuristics`: race rules of thumb (8-9-12, Kleinman) against it.
- :mod:`cubecore.giveup`: Woolsey's "Doubling Theory", give-up points.
- :mod:`cubecore.rules`: the rules of the doubling cube as a state machine.
- :mod:`cubecore.pgame`: the continuous game (P-game) simulated under cube strategies.
- :mod:`cubecore.match`: match equity and take points at every score.
- :mod:`cubecore.piecewise`: piecewise-linear functions on [0, 1], the taut string.
- :mod:`cubecore.met`: published match equity tables, one type for all of them.
- :mod:`cubecore.met_io`: reading tables from gnubg XML, XG ``.met`` and CSV files.
- :mod:`cubecore.match_points`: market windows, take points and gammon values on a table.
- :mod:`cubecore.met_fit`: the model's gammon rate and cube efficiency fitted to a table.
- :mod:`cubecore.met_aids`: Neil's numbers, the Turner and Janowski formulas against a table.
- :mod:`cubecore.free_drop`: the leader's selective drop post-Crawford, priced by a model.
- :mod:`cubecore.printed`: a printed table beside its exact computation, cell by cell.
- :mod:`cubecore.atlas`: the four money-play models on one scale, and their mappings.
- :mod:`cubecore.references`: the publications, one registry for pages and docstrings.
- :mod:`cubecore.cubeful`: gnubg's 0-ply cube decision from five cubeless probabilities,
  gathered from :mod:`cubecore.cube_decision` (the decision), :mod:`cubecore.cube_anatomy`
  (its terms), :mod:`cubecore.cube_margins` (its margins), :mod:`cubecore.market_window`
  and :mod:`cubecore.score_matrix` (the decision at every score).
- :mod:`cubecore.evaluation_text`: read those probabilities from gnubg's or XG's text.
- :mod:`cubecore.position`: checker positions, gnubg Position IDs and XGIDs.
- :mod:`cubecore.race_counts`: Keith, Thorp, 8-9-12, Kleinman, Isight and Trice on a position.
- :mod:`cubecore.bearoff`: exact one- and two-sided bear-off databases (disk-cached).
- :mod:`cubecore.drills`: seeded quiz questions graded against the app's own functions.
- :mod:`cubecore.library`: the reference library of cube positions and the engine's verdicts.
- :mod:`cubecore.position_drills`: drills on the library's decisions, graded by the engine.
- :mod:`cubecore.review`: Leitner's boxes for the spaced review of missed decisions.
"""

from cubecore import (
    atlas,
    bearoff,
    cube_anatomy,
    cube_decision,
    cube_margins,
    cubeful,
    drills,
    evaluation_text,
    free_drop,
    giveup,
    janowski,
    keeler_spencer,
    library,
    market_window,
    match,
    match_points,
    met,
    met_aids,
    met_fit,
    met_io,
    pgame,
    piecewise,
    position,
    position_drills,
    printed,
    race,
    race_counts,
    race_heuristics,
    race_match,
    references,
    review,
    rules,
    score_matrix,
)

__all__ = [
    "atlas",
    "bearoff",
    "cube_anatomy",
    "cube_decision",
    "cube_margins",
    "cubeful",
    "drills",
    "evaluation_text",
    "free_drop",
    "giveup",
    "janowski",
    "keeler_spencer",
    "library",
    "market_window",
    "match",
    "match_points",
    "met",
    "met_aids",
    "met_fit",
    "met_io",
    "pgame",
    "piecewise",
    "position",
    "position_drills",
    "printed",
    "race",
    "race_counts",
    "race_heuristics",
    "race_match",
    "references",
    "review",
    "rules",
    "score_matrix",
]
