"""Read the five cubeless probabilities from an engine's pasted evaluation text.

Accepted formats (one evaluation per paste; the first match in the order below wins):

1. **eXtreme Gammon, cube analysis** ([XG]_, as XG 2 prints it and players post it)::

       Player Winning Chances:   74.31% (G:26.06% B:0.96%)
       Opponent Winning Chances: 25.69% (G:5.12% B:0.21%)

   Where XG prints two columns (No double and Double/Take) on a line, the first
   is read. Separators that forums and blogs add (``|``, tabs) are ignored.
   Informal copies with only the player's line labelled (``Player winning chances
   74.31% (G: 26.06% B: 0.96%), opponent 25.69% (G: 5.12% B: 0.21%)``) are read as
   format 2.
2. **eXtreme Gammon, move list**: the two lines under a move, the player first (any
   text around them, one evaluation per paste)::

       54.21% (G:7.39% B:0.19%)
       45.79% (G:16.46% B:0.23%)

   optionally labelled ``Player:`` and ``Opponent:``.
3. **GNU Backgammon, cube analysis** (the "Cube analysis" block that ``hint`` and
   ``eval`` print for a cube decision, [GNUBG]_ 1.07; the analysis panel writes its
   probability line with the same routine, ``OutputPercents`` in gnubg's
   ``format.c``, but its layout was not checked in the GUI): win, win gammon, win
   backgammon, a dash, lose, lose gammon, lose backgammon::

         0.583 0.261 0.007 - 0.417 0.093 0.004

   or, with ``set output winpc on``, percentages without the sign::

          58.27  26.11   0.68 -  41.73   9.28   0.44

4. **GNU Backgammon, evaluation table** (``eval``): a row ``static:`` or ``N ply:``
   under the header ``Win W(g) W(bg) L(g) L(bg) Equity Cubeful``; the last (deepest)
   row is read::

       static: 0.583   0.261   0.007   0.093   0.004   +0.336    +0.450
        2 ply: 0.590   0.272   0.006   0.086   0.003   +0.368    +0.434

In the gnubg formats the numbers are fractions unless the winning chance (the
first number) is above 1, in which case all five are percentages (a winning
chance below 1% printed as a percentage cannot be told apart: paste it as a
fraction). XG's numbers always carry ``%``. gnubg and XG print gammons including
backgammons (cumulative), as :class:`cubecore.cubeful.CubelessProbabilities`
wants them.

Anything else raises ``ValueError`` saying which formats were expected; so does a
percentage above 100, a winning chance and a losing chance that do not add up to
one (beyond the printed rounding), or probabilities that cannot belong to one game.
Input is limited to :data:`MAX_TEXT_LENGTH` characters.

References
----------
.. [XG] eXtreme Gammon 2 cube analysis text as posted, e.g. "Stick", bgonline.org
   forum, 1 April 2014, https://www.bgonline.org/forums/webbbs_config.pl?noframes;read=158015 ;
   B. Bill, "Cleveland", 2012, http://bigmoneybill.blogspot.com/2012/03/cleveland.html
   (XG 2.02); move lists: "Stick", "XG (ExtremeGammon) Explain to Me", GammonVillage,
   4 November 2014,
   https://www.gammonvillage.com/backgammon/magazine/article_display.cfm?resourceid=6565
.. [GNUBG] GNU Backgammon 1.07 (2023), ``eval`` and ``hint`` output,
   https://www.gnu.org/software/gnubg/
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cubecore.cubeful import CubelessProbabilities

__all__ = ["FORMATS", "MAX_TEXT_LENGTH", "ParsedEvaluation", "parse_evaluation"]

#: Longest paste accepted (characters): an evaluation is a few hundred.
MAX_TEXT_LENGTH = 20_000

#: The formats :func:`parse_evaluation` recognises, in the order they are tried.
FORMATS = ("XG cube analysis", "XG move", "gnubg cube analysis", "gnubg evaluation table")

#: Rounding allowed when a printed winning and losing chance should add up to one.
_SUM_SLACK = 0.0015

_NUM = r"(?<![\w.\-])(\d+(?:\.\d+)?)"
_PCT = _NUM + r"\s*%"
_XG_TRIPLE = _PCT + r"\s*\(\s*G\s*:\s*" + _PCT + r"\s*B\s*:\s*" + _PCT + r"\s*\)"
_XG_CUBE = {
    side: re.compile(side + r"\s+Winning\s+Chances\s*:?[\s|]*" + _XG_TRIPLE, re.IGNORECASE)
    for side in ("Player", "Opponent")
}
_XG_MOVE = re.compile(r"(?:(?:Player|Opponent)\s*:\s*)?" + _XG_TRIPLE, re.IGNORECASE)
_FLOAT = r"(?<![\w.\-])(\d+(?:\.\d+)?)"
_GNUBG_CUBE = re.compile(
    r"^[ \t]*" + r"[ \t]+".join([_FLOAT] * 3) + r"[ \t]+-[ \t]+" + r"[ \t]+".join([_FLOAT] * 3)
    + r"[ \t]*$",
    re.MULTILINE,
)  # fmt: skip
_GNUBG_ROW = re.compile(
    r"^[ \t]*(?:static|\d+[ \t]*ply)[ \t]*:[ \t]*" + r"[ \t]+".join([_FLOAT] * 5)
    + r"(?:[ \t]+[-+]?\d+(?:\.\d+)?){0,2}[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)  # fmt: skip

_EXPECTED = (
    "expected one of: XG's 'Player Winning Chances: 74.31% (G:26.06% B:0.96%)' and"
    " 'Opponent Winning Chances: 25.69% (G:5.12% B:0.21%)' lines; XG's two move-list"
    " lines '54.21% (G:7.39% B:0.19%)' / '45.79% (G:16.46% B:0.23%)'; gnubg's cube"
    " analysis line '0.583 0.261 0.007 - 0.417 0.093 0.004'; or a gnubg eval row"
    " 'static: 0.583 0.261 0.007 0.093 0.004 +0.336 +0.450'"
)


@dataclass(frozen=True)
class ParsedEvaluation:
    """Probabilities read from a paste, with where they came from.

    Attributes
    ----------
    probabilities : CubelessProbabilities
    source : str
        One of :data:`FORMATS`.
    matched : str
        The text that was read (the lines of the evaluation).
    """

    probabilities: CubelessProbabilities
    source: str
    matched: str


def _percent(name: str, text: str) -> float:
    value = float(text)
    if value > 100.0:
        raise ValueError(f"{name} is {text}%: a percentage cannot be above 100%")
    return value / 100.0


def _check_sum(win: float, lose: float, what: str) -> None:
    if abs(win + lose - 1.0) > _SUM_SLACK:
        raise ValueError(
            f"{what}: the winning ({win:.4%}) and losing ({lose:.4%}) chances add up to"
            f" {win + lose:.4%}, not 100%"
        )


def _build(
    values: tuple[float, float, float, float, float], source: str, matched: str
) -> ParsedEvaluation:
    try:
        probabilities = CubelessProbabilities(*values)
    except ValueError as error:
        raise ValueError(f"{source}: impossible probabilities: {error}") from None
    return ParsedEvaluation(probabilities, source, matched.strip())


def _xg_pair(
    player: re.Match[str], opponent: re.Match[str], what: str, source: str
) -> ParsedEvaluation:
    """The player's and the opponent's XG lines (win, gammons, backgammons in percent)."""
    win, wg, wbg = (
        _percent(f"player's {n}", player.group(i + 1))
        for i, n in enumerate(("win", "gammons", "backgammons"))
    )
    lose, lg, lbg = (
        _percent(f"opponent's {n}", opponent.group(i + 1))
        for i, n in enumerate(("win", "gammons", "backgammons"))
    )
    _check_sum(win, lose, what)
    return _build((win, wg, wbg, lg, lbg), source, player.group(0) + "\n" + opponent.group(0))


def _xg_cube(text: str) -> ParsedEvaluation | None:
    player = _XG_CUBE["Player"].search(text)
    opponent = _XG_CUBE["Opponent"].search(text)
    if player is None or opponent is None:
        return None  # one labelled line at most: read as two lines, player first
    return _xg_pair(player, opponent, "XG cube analysis", "XG cube analysis")


def _xg_move(text: str) -> ParsedEvaluation | None:
    found = list(_XG_MOVE.finditer(text))
    if not found:
        return None
    if len(found) != 2:
        raise ValueError(
            f"found {len(found)} XG line(s) 'NN.NN% (G:NN.NN% B:NN.NN%)'; paste exactly two:"
            " the player's ('Player Winning Chances: ...'), then the opponent's"
            " ('Opponent Winning Chances: ...')"
        )
    player, opponent = found
    return _xg_pair(player, opponent, "XG move list", "XG move")


def _scale(numbers: list[float], source: str) -> list[float]:
    if numbers[0] > 1.0:  # percentages (gnubg's "set output winpc on")
        for value in numbers:
            if value > 100.0:
                raise ValueError(f"{source}: {value:g} is above 100%")
        return [value / 100.0 for value in numbers]
    for value in numbers:
        if value > 1.0:
            raise ValueError(
                f"{source}: {value:g} is above 1 while the winning chance {numbers[0]:g} is"
                " a fraction: mixed fractions and percentages"
            )
    return numbers


def _gnubg_cube(text: str) -> ParsedEvaluation | None:
    found = _GNUBG_CUBE.search(text)
    if found is None:
        return None
    source = "gnubg cube analysis"
    win, wg, wbg, lose, lg, lbg = _scale([float(g) for g in found.groups()], source)
    _check_sum(win, lose, source)
    return _build((win, wg, wbg, lg, lbg), source, found.group(0))


def _gnubg_row(text: str) -> ParsedEvaluation | None:
    found = list(_GNUBG_ROW.finditer(text))
    if not found:
        return None
    last = found[-1]
    source = "gnubg evaluation table"
    values = _scale([float(g) for g in last.groups()], source)
    return _build((values[0], values[1], values[2], values[3], values[4]), source, last.group(0))


def parse_evaluation(text: str) -> ParsedEvaluation:
    """Read the five probabilities of the player on roll from a pasted evaluation.

    See the module docstring for the accepted formats, with examples.

    Parameters
    ----------
    text : str
        The pasted text (at most :data:`MAX_TEXT_LENGTH` characters).

    Returns
    -------
    ParsedEvaluation

    Raises
    ------
    ValueError
        Naming the expected formats when none is found, or what is wrong with the
        numbers found.

    Examples
    --------
    >>> parsed = parse_evaluation(
    ...     "Player Winning Chances:   74.31% (G:26.06% B:0.96%)\\n"
    ...     "Opponent Winning Chances: 25.69% (G:5.12% B:0.21%)"
    ... )
    >>> parsed.source, parsed.probabilities.win, parsed.probabilities.lose_gammon
    ('XG cube analysis', 0.7431, 0.0512)
    """
    if not isinstance(text, str):
        raise ValueError(f"`text` must be a string (got {type(text).__name__})")
    if len(text) > MAX_TEXT_LENGTH:
        raise ValueError(
            f"text is {len(text)} characters long; an evaluation is at most"
            f" {MAX_TEXT_LENGTH} (paste only the evaluation lines)"
        )
    if not text.strip():
        raise ValueError("text is empty; " + _EXPECTED)
    for reader in (_xg_cube, _xg_move, _gnubg_cube, _gnubg_row):
        parsed = reader(text)
        if parsed is not None:
            return parsed
    raise ValueError("no engine evaluation recognised; " + _EXPECTED)
