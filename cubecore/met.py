"""Match equity tables as published: one type for bundled, uploaded and generated tables.

A :class:`MatchEquityTable` holds the two arrays every published table has, with GNU
Backgammon's indexing semantics ([GNUBG]_, ``matchequity.c``, as documented there):

- ``pre[a - 1, b - 1]``: the match winning chance (MWC) at the start of a game of the
  player who needs ``a`` points against an opponent who needs ``b``, the game not
  post-Crawford. When ``a == 1`` or ``b == 1`` that game is the Crawford game.
- ``post[t - 1]``: the MWC of the trailer who needs ``t`` points against a leader at
  1-away, after the Crawford game (``post[0]`` is double match point, 1/2).

References
----------
.. [GNUBG] GNU Backgammon 1.07, match equity tables and their XML format,
   https://www.gnu.org/software/gnubg/ (``met.dtd`` in the ``gnubg-data`` package).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from cubecore._validate import whole_number

__all__ = ["MatchEquityTable"]


@dataclass(frozen=True, eq=False)
class MatchEquityTable:
    """A match equity table: pre-Crawford square and post-Crawford column.

    Attributes
    ----------
    key : str
        Short stable name, as in a link (``"kxg2"``).
    name : str
        The table's name as its authors give it.
    pre : numpy.ndarray
        ``(n, n)`` array; ``pre[a - 1, b - 1]`` is ``M(a, b)`` (see the module docstring).
    post : numpy.ndarray
        ``(n,)`` array; ``post[t - 1]`` is the trailer's post-Crawford MWC at ``t``-away.
    description : str
        One line on where the numbers come from.
    notice : str
        The copyright and licence notice that travels with the numbers.
    """

    key: str
    name: str
    pre: NDArray[np.float64]
    post: NDArray[np.float64]
    description: str = ""
    notice: str = ""
    meta: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        pre = np.array(self.pre, dtype=float)
        post = np.array(self.post, dtype=float)
        if pre.ndim != 2 or pre.shape[0] != pre.shape[1] or pre.shape[0] < 1:
            raise ValueError(f"pre must be a square n x n array (got shape {pre.shape})")
        if post.ndim != 1 or post.shape[0] < 1:
            raise ValueError(f"post must be a one-dimensional array (got shape {post.shape})")
        if not (np.all(np.isfinite(pre)) and np.all(np.isfinite(post))):
            raise ValueError("pre and post must be finite")
        pre.setflags(write=False)
        post.setflags(write=False)
        object.__setattr__(self, "pre", pre)
        object.__setattr__(self, "post", post)

    @property
    def length(self) -> int:
        """Largest away-score the pre-Crawford table covers."""
        return int(self.pre.shape[0])

    @property
    def post_length(self) -> int:
        """Largest trailer's away-score the post-Crawford column covers."""
        return int(self.post.shape[0])

    def mwc(self, away: int, opp_away: int, *, post_crawford: bool = False) -> float:
        """Match winning chance of the player ``away`` points from victory.

        ``away <= 0`` is a won match (1) and ``opp_away <= 0`` a lost one (0).
        ``post_crawford`` reads the post-Crawford column; one side must then be
        1-away (the leader).

        Examples
        --------
        >>> t = MatchEquityTable("t", "t", [[0.5, 0.3], [0.7, 0.5]], [0.5, 0.48])
        >>> t.mwc(2, 1), t.mwc(1, 2, post_crawford=True), t.mwc(0, 3)
        (0.7, 0.52, 1.0)
        """
        a = whole_number("away", away, -(2**20))
        b = whole_number("opp_away", opp_away, -(2**20))
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        if post_crawford:
            if a != 1 and b != 1:
                raise ValueError(f"post_crawford needs away or opp_away to be 1 (got {a} and {b})")
            trailer = b if a == 1 else a
            if trailer > self.post_length:
                raise ValueError(
                    f"the post-Crawford column of {self.name} covers 1..{self.post_length} away"
                    f" (got {trailer})"
                )
            value = float(self.post[trailer - 1])
            return value if a != 1 or b == 1 else 1.0 - value
        if max(a, b) > self.length:
            raise ValueError(
                f"{self.name} covers scores up to {self.length}-away (got {a}-away/{b}-away)"
            )
        return float(self.pre[a - 1, b - 1])
