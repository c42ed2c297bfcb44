"""Pure compute package of Cube Theory Lab: the mathematics of the doubling cube.

One module per source model; nothing here imports streamlit or plotly (a test
enforces it). The UI layer (:mod:`ui`) wraps these functions in caches and figures.

- :mod:`cubecore.janowski`: Janowski's cube life index (dead/live interpolation).
- :mod:`cubecore.keeler_spencer`: Keeler & Spencer (1969), raising points.
- :mod:`cubecore.race`: Zadeh & Kobliska (1977), the race model, exact cube strategy.
- :mod:`cubecore.race_heuristics`: race rules of thumb (8-9-12, Kleinman) against it.
- :mod:`cubecore.giveup`: Woolsey's "Doubling Theory", give-up points.
- :mod:`cubecore.rules`: the rules of the doubling cube as a state machine.
- :mod:`cubecore.pgame`: the continuous game (P-game) simulated under cube strategies.
- :mod:`cubecore.match`: match equity and take points at every score.
- :mod:`cubecore.met`: published match equity tables, one type for all of them.
- :mod:`cubecore.met_io`: reading tables from gnubg XML, XG ``.met`` and CSV files.
- :mod:`cubecore.atlas`: the four money-play models on one scale, and their mappings.
"""

from cubecore import (
    atlas,
    giveup,
    janowski,
    keeler_spencer,
    match,
    met,
    met_io,
    pgame,
    race,
    race_heuristics,
    rules,
)

__all__ = [
    "atlas",
    "giveup",
    "janowski",
    "keeler_spencer",
    "match",
    "met",
    "met_io",
    "pgame",
    "race",
    "race_heuristics",
    "rules",
]
