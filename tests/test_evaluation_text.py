"""Tests of cubecore.evaluation_text: every accepted format, and malformed pastes.

gnubg's formats come from its real output (``tests/data/gnubg_cube_paste.json``,
written by ``scripts/gnubg/cube_paste_samples.py``); XG's from public posts
(cited in the module's References).
"""

import json
import random
import string
from pathlib import Path

import hypothesis.strategies as hst
import pytest
from hypothesis import given, settings

from cubecore.cubeful import CubelessProbabilities
from cubecore.evaluation_text import FORMATS, MAX_TEXT_LENGTH, parse_evaluation

PASTE = json.loads((Path(__file__).parent / "data" / "gnubg_cube_paste.json").read_text())


def _values(probabilities):
    p = probabilities
    return [p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon]


@pytest.mark.parametrize(
    "sample", PASTE["samples"], ids=lambda s: f"{s['class']}-{'pc' if s['percent'] else 'fr'}"
)
def test_gnubg_eval_table_and_cube_analysis(sample):
    # printed with 3 decimals (fractions) or 1-2 decimals (percentages): half a unit
    tol = 5e-4 + 1e-9
    table = parse_evaluation(sample["eval_table"])
    assert table.source == "gnubg evaluation table"
    assert _values(table.probabilities) == pytest.approx(sample["probabilities"], abs=tol)
    cube = parse_evaluation(sample["cube_analysis"])
    assert cube.source == "gnubg cube analysis"
    assert _values(cube.probabilities) == pytest.approx(sample["probabilities"], abs=tol)


def test_gnubg_eval_table_reads_the_deepest_row():
    text = (
        "        Win     W(g)    W(bg)   L(g)    L(bg)   Equity    Cubeful\n"
        "static: 0.583   0.261   0.007   0.093   0.004   +0.336    +0.450\n"
        " 1 ply: 0.587   0.262   0.005   0.089   0.003   +0.348    +0.433\n"
        " 2 ply: 0.590   0.272   0.006   0.086   0.003   +0.368    +0.434\n"
    )  # gnubg 1.07 `eval` at 2-ply, money, position jM+JgwCzM4MBQg
    parsed = parse_evaluation(text)
    assert _values(parsed.probabilities) == pytest.approx([0.590, 0.272, 0.006, 0.086, 0.003])
    assert parsed.matched.startswith("2 ply:")


XG_CUBE = (
    "Player Winning Chances:   74.31% (G:26.06% B:0.96%)\n"
    "Opponent Winning Chances: 25.69% (G:5.12% B:0.21%)\n"
)
# bgonline.org, "Stick", 1 April 2014 (XG 2.10): two columns, ND then D/T, on one line
XG_CUBE_TWO_COLUMNS = (
    "Analyzed in XG Roller+ No double Double/Take Player Winning Chances: 86.11% "
    "(G:0.00% B:0.00%) 86.11% (G:0.00% B:0.00%) Opponent Winning Chances: 13.89% "
    "(G:0.00% B:0.00%) 13.89% (G:0.00% B:0.00%) Cubeless Equities +0.722 +1.444"
)
# bigmoneybill.blogspot.com, March 2012 (XG 2.02): a table copied with | separators
XG_CUBE_TABLE = (
    "Analyzed in Rollout | No redouble | Redouble/Take |\n"
    "Player Winning Chances: | 72.31% (G:0.00% B:0.00%) | 72.29% (G:0.00% B:0.00%) |\n"
    "Opponent Winning Chances: | 27.69% (G:0.00% B:0.00%) | 27.71% (G:0.00% B:0.00%) |\n"
)
# GammonVillage, "Stick", 4 November 2014 (XG 2.19): a move and its two lines
XG_MOVE = (
    "1.XG Roller++Bar/10 13/8eq: +0.105\n54.21% (G:7.39% B:0.19%)\n45.79% (G:16.46% B:0.23%)\n"
)
XG_MOVE_LABELLED = "Player:   54.21% (G:7.39% B:0.19%)\nOpponent: 45.79% (G:16.46% B:0.23%)\n"


@pytest.mark.parametrize(
    ("text", "source", "expected"),
    [
        (XG_CUBE, "XG cube analysis", [0.7431, 0.2606, 0.0096, 0.0512, 0.0021]),
        (XG_CUBE_TWO_COLUMNS, "XG cube analysis", [0.8611, 0.0, 0.0, 0.0, 0.0]),
        (XG_CUBE_TABLE, "XG cube analysis", [0.7231, 0.0, 0.0, 0.0, 0.0]),
        (XG_MOVE, "XG move", [0.5421, 0.0739, 0.0019, 0.1646, 0.0023]),
        (XG_MOVE_LABELLED, "XG move", [0.5421, 0.0739, 0.0019, 0.1646, 0.0023]),
        (  # issue #14's informal copy of an XG evaluation
            "Player winning chances 74.31% (G: 26.06% B: 0.96%), opponent 25.69% "
            "(G: 5.12% B: 0.21%)",
            "XG move",
            [0.7431, 0.2606, 0.0096, 0.0512, 0.0021],
        ),
        (
            "  0.583 0.261 0.007 - 0.417 0.093 0.004",
            "gnubg cube analysis",
            [0.583, 0.261, 0.007, 0.093, 0.004],
        ),
        (
            "   58.27  26.11   0.68 -  41.73   9.28   0.44",
            "gnubg cube analysis",
            [0.5827, 0.2611, 0.0068, 0.0928, 0.0044],
        ),
        (
            "static:  58.27   26.11    0.68    9.28    0.44  +0.3361   +0.4498",
            "gnubg evaluation table",
            [0.5827, 0.2611, 0.0068, 0.0928, 0.0044],
        ),
    ],
)
def test_every_accepted_format(text, source, expected):
    parsed = parse_evaluation(text)
    assert parsed.source == source
    assert source in FORMATS
    assert _values(parsed.probabilities) == pytest.approx(expected, abs=1e-12)


def _junk(n: int) -> str:
    rng = random.Random(14)
    alphabet = string.ascii_letters + string.digits + string.punctuation + " \n\t"
    return "".join(rng.choice(alphabet) for _ in range(n))


HTML = (
    "<!DOCTYPE html><html><head><title>XG</title></head><body><table><tr><td>Player "
    "Winning Chances:</td><td>74.31%</td></tr></table><script>var x = 1;</script></body></html>"
)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("   \n\t  ", "empty"),
        (_junk(10 * 1024), "no engine evaluation recognised"),
        (HTML, "no engine evaluation recognised"),
        (XG_CUBE.replace("74.31%", "174.31%"), "above 100%"),
        (XG_MOVE.replace("16.46%", "116.46%"), "above 100%"),
        ("static: 158.27 26.11 0.68 9.28 0.44 +0.3361 +0.4498", "above 100%"),
        ("Player Winning Chances:   74.31% (G:26.06% B:0.96%)", "found 1 XG line"),
        (XG_CUBE.replace("25.69%", "35.69%"), "add up to"),
        (XG_MOVE + "33.00% (G:1.00% B:0.00%)\n", "found 3 XG line"),
        (XG_CUBE.replace("G:26.06%", "G:80.00%"), "gammons are counted within wins"),
        ("  0.583 0.261 0.007 - 0.517 0.093 0.004", "add up to"),
        ("static: 0.583 1.261 0.007 0.093 0.004 +0.336 +0.450", "mixed fractions"),
        ("Player Winning Chances: -74.31% (G:26.06% B:0.96%)", "no engine evaluation"),
        ("Win 74% gammons 26%", "no engine evaluation recognised"),
        ("x" * (MAX_TEXT_LENGTH + 1), "characters long"),
        (None, "must be a string"),
        (b"static: 0.583 0.261 0.007 0.093 0.004", "must be a string"),
    ],
    ids=lambda v: str(v)[:30] if not isinstance(v, str) or len(v) < 40 else f"{len(v)} chars",
)
def test_malformed_pastes_name_what_was_expected(text, message):
    with pytest.raises(ValueError, match=message):
        parse_evaluation(text)


def test_unrecognised_text_lists_the_formats():
    with pytest.raises(ValueError, match=r"Player Winning Chances.*gnubg's cube analysis line"):
        parse_evaluation("double take?")


@settings(max_examples=150, deadline=None)
@given(
    hst.floats(0.01, 0.99),
    hst.floats(0.0, 1.0),
    hst.floats(0.0, 1.0),
    hst.floats(0.0, 1.0),
    hst.floats(0.0, 1.0),
)
def test_printed_probabilities_read_back_within_rounding(w, g, b, lg, lb):
    win = round(w, 4)
    probs = CubelessProbabilities(
        win, win * g, win * g * b, (1 - win) * lg, (1 - win) * lg * b * lb
    )
    v = _values(probs)
    xg = (
        f"Player Winning Chances: {100 * v[0]:.2f}% (G:{100 * v[1]:.2f}% B:{100 * v[2]:.2f}%)\n"
        f"Opponent Winning Chances: {100 * (1 - v[0]):.2f}% "
        f"(G:{100 * v[3]:.2f}% B:{100 * v[4]:.2f}%)"
    )
    gnubg = f"  {v[0]:.3f} {v[1]:.3f} {v[2]:.3f} - {1 - v[0]:.3f} {v[3]:.3f} {v[4]:.3f}"
    for text, tol in ((xg, 5e-5 + 1e-12), (gnubg, 5e-4 + 1e-12)):
        try:
            parsed = parse_evaluation(text)
        except ValueError as error:  # rounding may put a gammon a hair above its wins
            assert "counted within" in str(error)
            continue
        assert _values(parsed.probabilities) == pytest.approx(v, abs=tol)
