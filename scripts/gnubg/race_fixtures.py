"""Write tests/data/gnubg_race_counts.json: gnubg 1.07's race counts, Position IDs, XGIDs.

Run inside GNU Backgammon's embedded Python, from the project root:

    /usr/games/gnubg -t -q -r -p scripts/gnubg/race_fixtures.py

For a fixed seeded sample of race positions (and a few hand-picked ones) it records

* ``gnubg.positionid(board)``: gnubg's own Position ID of the board (board[1] = the
  player on roll, as gnubg's ``show`` commands call him "leader");
* the text of ``show keith|thorp|8912|kleinman|isight <PositionID>`` and the numbers
  parsed from it (``show thorp`` prints to C stdout, so file descriptor 1 is captured
  around every command);
* for each position an XGID written by this script (the player on roll as the bottom
  player, turn 1; and once with the top player on roll, turn -1), read back by gnubg
  with ``set xgid``, and the Position ID gnubg gives the board it read.

The output starts with a ``_meta`` entry (scipy's tests/data convention): what made
it, gnubg's version, the commands, the date. Nothing here imports the project's code:
the fixture checks cubecore against gnubg, not against itself.
"""

import ctypes
import datetime as dt
import json
import os
import random
import re
import sys
import tempfile

import gnubg

SEED = 15
RANDOM_POSITIONS = 40
LIBC = ctypes.CDLL(None)
OUT = os.path.join(os.getcwd(), "tests", "data", "gnubg_race_counts.json")


def home_board(points):
    """A 25-slot side from a dict {point: count}."""
    side = [0] * 25
    for p, n in points.items():
        side[p - 1] = n
    return side


HAND_PICKED = [
    # (on roll, opponent) as {point: checkers}
    ({1: 3}, {6: 1}),
    ({6: 5, 5: 5, 4: 5}, {6: 5, 5: 5, 4: 5}),
    ({8: 3, 6: 4, 5: 4, 4: 4}, {9: 2, 6: 5, 5: 4, 3: 4}),
    ({1: 6, 2: 5, 3: 4}, {6: 4, 5: 4, 4: 4, 12: 3}),
    ({10: 2, 7: 3, 6: 4, 5: 2, 3: 2, 2: 2}, {11: 1, 8: 4, 6: 5, 4: 3, 2: 2}),
    ({3: 2, 2: 2}, {4: 2, 1: 1}),
    ({20: 1, 6: 4, 5: 4, 4: 3, 3: 3}, {4: 5, 3: 5, 2: 5}),
    ({6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2}, {6: 3, 5: 3, 4: 3, 3: 3, 2: 3}),
    # pip leads around the 8-9-12 thresholds (100 or 150 pips on roll)
    ({12: 8, 4: 1}, {12: 9}),  # 8 % exactly
    ({12: 8, 4: 1}, {12: 9, 1: 1}),  # 9 % exactly
    ({12: 8, 4: 1}, {12: 9, 3: 1}),  # 11 %
    ({12: 8, 4: 1}, {12: 9, 4: 1}),  # 12 % exactly
    ({12: 8, 4: 1}, {12: 9, 5: 1}),  # 13 %
    ({12: 12, 6: 1}, {12: 13, 7: 1}),  # 8.67 %
    ({12: 12, 6: 1}, {12: 13, 8: 1}),  # 9.33 %
]


def random_side(rng, back):
    """Up to 15 checkers on points 1..back, with at least one on ``back``."""
    on_board = rng.randint(1, 15)
    side = [0] * 25
    side[back - 1] = 1
    for _ in range(on_board - 1):
        side[rng.randint(1, back) - 1] += 1
    return side


def random_race(rng):
    back_on_roll = rng.randint(1, 20)
    back_opponent = rng.randint(1, min(20, 24 - back_on_roll))
    return random_side(rng, back_on_roll), random_side(rng, back_opponent)


def captured(command):
    """Everything gnubg prints (C stdout included) while running ``command``."""
    sys.stdout.flush()
    LIBC.fflush(None)
    with tempfile.TemporaryFile() as tmp:
        saved = os.dup(1)
        os.dup2(tmp.fileno(), 1)
        try:
            gnubg.command(command)
            sys.stdout.flush()
            LIBC.fflush(None)  # C stdio buffers what g_print wrote
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        tmp.seek(0)
        return tmp.read().decode("utf-8", "replace")


def number(pattern, text):
    match = re.search(pattern, text)
    if match is None:
        raise RuntimeError(f"pattern {pattern!r} not in {text!r}")
    return float(match.group(1))


def verdict(text):
    for line in text.splitlines():
        if re.match(r"\s*(Double|Redouble|No ?Double)", line):
            return line.strip()
    raise RuntimeError(f"no verdict in {text!r}")


def xg_char(n, upper):
    if n == 0:
        return "-"
    return chr((65 if upper else 97) + n - 1)


def xgid_of(bottom, top, turn):
    """XGID with ``bottom`` (upper case) and ``top`` (lower case) sides; 25 = bar."""
    chars = [xg_char(top[24], False)]
    for p in range(1, 25):
        mine, theirs = bottom[p - 1], top[24 - p]
        chars.append(xg_char(mine, True) if mine else xg_char(theirs, False))
    chars.append(xg_char(bottom[24], True))
    return "XGID=" + "".join(chars) + f":0:0:{turn}:00:0:0:0:0:10"


def record(on_roll, opponent):
    board = (tuple(opponent), tuple(on_roll))
    pid = gnubg.positionid(board)
    shows = {}
    for name in ("keith", "thorp", "8912", "kleinman", "isight"):
        shows[name] = captured(f"show {name} {pid}")
    k, t, e, kl, i = (shows[n] for n in ("keith", "thorp", "8912", "kleinman", "isight"))
    xgids = []
    for turn, bottom, top in ((1, on_roll, opponent), (-1, opponent, on_roll)):
        text = xgid_of(bottom, top, turn)
        captured(f"set xgid {text}")
        xgids.append({"xgid": text, "gnubg_position_id": gnubg.positionid(gnubg.board())})
    return {
        "on_roll": on_roll[:24],
        "on_roll_bar": on_roll[24],
        "opponent": opponent[:24],
        "opponent_bar": opponent[24],
        "position_id": pid,
        "keith": {
            "leader": number(r"Keith Count Leader\s+:\s*(-?\d+)", k),
            "leader_adjusted": number(r"Keith Count Leader\(\+1/7\)\s+L:\s*([\d.]+)", k),
            "trailer": number(r"Keith Count Trailer\s+T:\s*(-?\d+)", k),
            "verdict": verdict(k),
        },
        "thorp": {
            "leader": number(r"Thorp Count Leader\s+:\s*(-?\d+)", t),
            "leader_adjusted": number(r"Thorp Count Leader\(\+1/10\)\s+L:\s*([\d.]+)", t),
            "trailer": number(r"Thorp Count Trailer\s+T:\s*(-?\d+)", t),
            "verdict": verdict(t),
        },
        "8912": {
            "leader_pips": number(r"Leader Pip Count\s*:\s*(\d+)", e),
            "trailer_pips": number(r"Trailer Pip Count\s*:\s*(\d+)", e),
            "ahead_percent": number(r"Leader is\s+(-?[\d.]+) percent ahead", e),
            "verdict": verdict(e),
        },
        "kleinman": {
            "K": number(r"K = \(diff\+4\)/\(2 sqrt\(sum-4\)\) =\s*(-?[\d.eE+-]+)", kl),
            "win": number(r"Cubeless Winning Chance:\s*([\d.]+)", kl),
        },
        "isight": {
            "leader": number(r"Isight Count Leader\s+L:\s*(-?\d+)", i),
            "trailer": number(r"Isight Count Trailer\s+T:\s*(-?\d+)", i),
            "gwc_percent": number(r"Estimated GWC:\s*(-?[\d.]+)%", i),
            "verdict": verdict(i),
        },
        "text": shows,
        "xgids": xgids,
    }


def main():
    rng = random.Random(SEED)
    positions = [(home_board(a), home_board(b)) for a, b in HAND_PICKED]
    while len(positions) < len(HAND_PICKED) + RANDOM_POSITIONS:
        on_roll, opponent = random_race(rng)
        if sum(on_roll) and sum(opponent):
            positions.append((on_roll, opponent))
    version = captured("show version").strip().splitlines()[0]
    meta = {
        "made_by": "scripts/gnubg/race_fixtures.py",
        "run": "/usr/games/gnubg -t -q -r -p scripts/gnubg/race_fixtures.py",
        "gnubg": version,
        "commands": "show keith|thorp|8912|kleinman|isight <PositionID>; set xgid <XGID>",
        "when": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "seed": SEED,
        "notes": "on_roll/opponent: checkers on each side's own points 1..24; gnubg's "
        "'leader' is the player on roll. Parsed numbers are as printed; 'text' keeps "
        "gnubg's full output of each command.",
    }
    records = [record(a, b) for a, b in positions]
    with open(OUT, "w") as f:
        json.dump({"_meta": meta, "positions": records}, f, indent=1)
        f.write("\n")
    print(f"wrote {len(records)} positions to {OUT}", file=sys.stderr)


main()
