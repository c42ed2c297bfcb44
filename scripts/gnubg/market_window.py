"""Reference data for cubecore.match_points: gnubg's market windows and gammon values.

Run from the repository root with GNU Backgammon's embedded Python (gnubg 1.07)::

    /usr/games/gnubg -t -q -r -p scripts/gnubg/market_window.py

It writes two fixtures under ``tests/data/``:

- ``gnubg_market_window.json``: ``show marketwindow g0 g1 b0 b1`` in a 25-point match
  on gnubg's default table (Kazaross-XG2) at every score, cube level and gammon-rate
  setting listed below, the text gnubg printed and the percentages parsed from it;
- ``gnubg_gammon_values.json``: ``show gammonvalues`` at the same scores and cube levels.

Both carry the match equity table gnubg itself reports (``gnubg.met(25)``: the
pre-Crawford square and the post-Crawford column, in gnubg's float32 precision), so
the tests compute from exactly the numbers gnubg used. Player 0 is "gnubg", player 1
is "root"; ``away`` is player 0's points to go and ``opp_away`` player 1's.
gnubg prints the market window as percentages with 2 decimals (``%6.2f%%``) and the
gammon values with 5 decimals (``%7.5f``).
"""

import datetime
import json
import os
import re

import gnubg

MATCH_LENGTH = 25
OUT_DIR = os.environ.get("GNUBG_FIXTURE_DIR", "tests/data")

# (player 0 away, player 1 away, phase)
SCORES = [
    (2, 2, "pre-Crawford"),
    (3, 2, "pre-Crawford"),
    (2, 3, "pre-Crawford"),
    (4, 2, "pre-Crawford"),
    (2, 4, "pre-Crawford"),
    (3, 3, "pre-Crawford"),
    (5, 3, "pre-Crawford"),
    (3, 5, "pre-Crawford"),
    (4, 4, "pre-Crawford"),
    (5, 5, "pre-Crawford"),
    (7, 4, "pre-Crawford"),
    (4, 7, "pre-Crawford"),
    (6, 2, "pre-Crawford"),
    (9, 5, "pre-Crawford"),
    (5, 9, "pre-Crawford"),
    (7, 7, "pre-Crawford"),
    (8, 3, "pre-Crawford"),
    (10, 6, "pre-Crawford"),
    (6, 10, "pre-Crawford"),
    (11, 11, "pre-Crawford"),
    (13, 10, "pre-Crawford"),
    (25, 20, "pre-Crawford"),
    (6, 6, "pre-Crawford"),
    (8, 5, "pre-Crawford"),
    (5, 8, "pre-Crawford"),
    (6, 8, "pre-Crawford"),
    (8, 6, "pre-Crawford"),
    (9, 9, "pre-Crawford"),
    (12, 7, "pre-Crawford"),
    (7, 12, "pre-Crawford"),
    (15, 15, "pre-Crawford"),
    (17, 9, "pre-Crawford"),
    (9, 17, "pre-Crawford"),
    (20, 14, "pre-Crawford"),
    (14, 20, "pre-Crawford"),
    (1, 5, "Crawford"),
    (4, 1, "Crawford"),
    (1, 2, "post-Crawford"),
    (1, 3, "post-Crawford"),
    (4, 1, "post-Crawford"),
    (1, 6, "post-Crawford"),
    (7, 1, "post-Crawford"),
]
# (cube value, owner: -1 centred, 0 player 0, 1 player 1)
CUBES = [(1, -1), (2, 0), (4, 1)]
# (player 0 gammon, player 1 gammon, player 0 backgammon, player 1 backgammon), as
# fractions of each player's wins; gnubg's argument order.
RATES = [(0.0, 0.0, 0.0, 0.0), (0.25, 0.20, 0.01, 0.02), (0.30, 0.12, 0.05, 0.0)]

_WINDOW = re.compile(
    r"^(Dead cube|Dead cube \(opponent doesn't redouble\)|Dead cube \(opponent redoubles\)"
    r"|Live cube):\s*(-?nan|[0-9.]+)% -\s*(-?nan|[0-9.]+)%$"
)
_KEYS = {
    "Dead cube": "dead",
    "Dead cube (opponent doesn't redouble)": "dead",
    "Dead cube (opponent redoubles)": "dead_redoubled",
    "Live cube": "live",
}


def _setup(away0, away1, phase, cube, owner):
    gnubg.command(f"set score -{away0} -{away1}")
    if min(away0, away1) == 1:
        gnubg.command("set postcrawford on")  # the cube can be set only outside Crawford
    gnubg.command(f"set cube value {cube}")
    gnubg.command("set cube centre" if owner < 0 else f"set cube owner {owner}")
    if phase == "Crawford":
        gnubg.command("set crawford on")
    info = gnubg.cubeinfo()
    expected = (MATCH_LENGTH - away0, MATCH_LENGTH - away1)
    assert tuple(info["score"]) == expected, (info, expected)
    assert info["crawford"] == (phase == "Crawford"), info
    assert info["cube"] == cube and info["cubeowner"] == owner, info
    return info


def _parse_windows(text):
    windows = {}
    player = None
    for line in text.splitlines():
        line = line.strip()
        head = re.match(r"^Player (\S+) market window:$", line)
        if head:
            player = {"gnubg": "player0", "root": "player1"}[head.group(1)]
            windows[player] = {}
            continue
        found = _WINDOW.match(line)
        if found:
            # gnubg prints "-nan%" where a point is 0/0 (no risk and no gain): null here
            windows[player][_KEYS[found.group(1)]] = [
                None if "nan" in number else float(number) / 100.0 for number in found.group(2, 3)
            ]
    assert set(windows) == {"player0", "player1"}, text
    assert text.count("% - ") == sum(len(found) for found in windows.values()), text
    return windows


def _parse_gammon_values(text):
    values = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] in ("gnubg", "root"):
            key = {"gnubg": "player0", "root": "player1"}[parts[0]]
            values[key] = {"gammon": float(parts[1]), "backgammon": float(parts[2])}
    assert set(values) == {"player0", "player1"}, text
    return values


def main():
    for command in ("set player 0 human", "set player 1 human", "set jacoby off"):
        gnubg.command(command)
    gnubg.command(f"new match {MATCH_LENGTH}")
    table = gnubg.met(MATCH_LENGTH)
    met = {
        "name": "Kazaross-XG2 (gnubg 1.07 default, /usr/share/gnubg/met/Kazaross-XG2.xml)",
        "pre": [list(map(float, row)) for row in table[0]],
        "post": list(map(float, table[1])),
    }
    assert list(table[1]) == list(table[2])
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    version = "GNU Backgammon 1.07.001 20230103 (Debian gnubg 1.07.001-1+b1)"
    market, gammons = [], []
    for away0, away1, phase in SCORES:
        # The Crawford game has no cube: gnubg keeps it at 1, centred.
        for cube, owner in CUBES[:1] if phase == "Crawford" else CUBES:
            _setup(away0, away1, phase, cube, owner)
            text = gnubg.show("gammonvalues")
            gammons.append(
                {
                    "away": away0,
                    "opp_away": away1,
                    "phase": phase,
                    "cube_value": cube,
                    "command": "show gammonvalues",
                    "printed": text,
                    "values": _parse_gammon_values(text),
                }
            )
            for rates in RATES:
                command = "show marketwindow " + " ".join(f"{r:g}" for r in rates)
                text = gnubg.show(command[len("show ") :])
                market.append(
                    {
                        "away": away0,
                        "opp_away": away1,
                        "phase": phase,
                        "cube_value": cube,
                        "cube_owner": owner,
                        "rates": dict(zip(("g0", "g1", "b0", "b1"), rates, strict=True)),
                        "command": command,
                        "printed": text,
                        "windows": _parse_windows(text),
                    }
                )
    common = {
        "made_by": "scripts/gnubg/market_window.py",
        "how": "/usr/games/gnubg -t -q -r -p scripts/gnubg/market_window.py (embedded Python)",
        "gnubg_version": version,
        "when": when,
        "match": f"new match {MATCH_LENGTH}; set score -<away> -<opp_away>; set crawford on |"
        " set postcrawford on; set cube value <c>; set cube owner <o> | centre",
        "players": "player0 = gnubg (away), player1 = root (opp_away)",
        "met": f"gnubg.met({MATCH_LENGTH}): [pre, post player 0, post player 1] (float32)",
    }
    outputs = {
        "gnubg_market_window.json": (
            market,
            "show marketwindow g0 g1 b0 b1 (gammon-only and backgammon rates of each"
            " player's wins); printed precision: percentages with 2 decimals (%6.2f%%),"
            " i.e. +-5e-5 as a fraction. 'dead' = 'Dead cube' or 'Dead cube (opponent"
            " doesn't redouble)', 'dead_redoubled' = 'Dead cube (opponent redoubles)',"
            " 'live' = 'Live cube'; each [double point, cash point].",
        ),
        "gnubg_gammon_values.json": (
            gammons,
            "show gammonvalues; printed precision: 5 decimals (%7.5f), i.e. +-5e-6.",
        ),
    }
    for name, (cases, what) in outputs.items():
        meta = dict(common, what=what)
        with open(os.path.join(OUT_DIR, name), "w") as handle:
            json.dump({"_meta": meta, "met": met, "cases": cases}, handle, indent=1)
            handle.write("\n")


main()
