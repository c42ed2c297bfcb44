"""Hypothesis strategies shared by the property tests (numpy-financial style)."""

import hypothesis.strategies as hst

probabilities = hst.floats(0.0, 1.0, allow_nan=False)
cube_lives = hst.floats(0.0, 1.0, allow_nan=False)
gammon_values = hst.floats(1.0, 3.0, allow_nan=False)
cube_positions = hst.sampled_from(["center", "owned", "opponent"])


@hst.composite
def positions(draw):
    """A legal ``cubecore.position.Position``: each side's 15 checkers on its points, its
    bar or borne off (place 0), no point held by both sides."""
    from cubecore.position import Position

    def side(blocked):
        places = [0] + [p for p in range(1, 25) if p not in blocked] + [25]
        chosen = draw(hst.lists(hst.sampled_from(places), min_size=15, max_size=15))
        counts = [0] * 26
        for place in chosen:
            counts[place] += 1
        return counts

    mine = side(set())
    theirs = side({25 - p for p in range(1, 25) if mine[p]})
    return Position(tuple(mine[1:25]), tuple(theirs[1:25]), mine[25], theirs[25])
