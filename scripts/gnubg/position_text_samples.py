"""Capture GNU Backgammon 1.07's printed boards for the position-paste parser's tests.

Usage (from the repository root, the project's venv; gnubg is a test oracle only)::

    .venv/bin/python scripts/gnubg/position_text_samples.py

For each case it tells ``/usr/games/gnubg -t -q -r -c <command file>`` the match (or
money session), the score and Crawford flag, who is on roll (``set turn``), the
checkers (``set board <Position ID>``, read from the view of the player on roll), the
cube (``set cube value``/``owner``) and the dice, then prints the board with ``show
board`` (the text players copy from gnubg's console and its "Copy position as ASCII"),
and for a few cases also writes ``export position text`` (gnubg's text export, the
board after ``Position ID``/``Match ID`` lines and a match header).

The named cases cover contact, race, bear-off, checkers on the bar, stacks of more than
five checkers (gnubg then writes the count as a digit, ``A``-``F`` for 10-15), the cube
owned by either side, money and match scores, the Crawford game and post-Crawford play,
either side on roll and rolled dice. Forty more are seeded random positions (checkers on
the bar and borne off included).

Writes ``tests/data/gnubg_position_text.json``: ``_meta`` (what, gnubg version, command,
date) and ``cases``, each with what gnubg was told (``position_id`` from the view of the
player on roll, ``x_on_roll``: gnubg's player 1 "X" on roll, ``match_length`` 0 for
money, ``score_x``/``score_o``, ``crawford``, ``cube_value``, ``cube_owner`` ``"x"``,
``"o"`` or ``null``, ``dice``) and the ``text`` it printed.
"""

import datetime
import json
import random
import sys
import tempfile
from pathlib import Path

from command_file import run_commands  # scripts/gnubg is on sys.path when run

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cubecore.position import Position, position_id  # noqa: E402

DATA = ROOT / "tests" / "data"
SEED = 20261128
RANDOM_CASES = 40
HEADER = " GNU Backgammon  Position ID: "
START = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2,)


def home(*counts):
    return tuple(counts) + (0,) * (24 - len(counts))


def points(**where):
    """24 counts from keyword arguments ``p<point>=<count>``."""
    counts = [0] * 24
    for key, count in where.items():
        counts[int(key[1:]) - 1] = count
    return tuple(counts)


def case(
    name,
    position,
    *,
    x_on_roll=True,
    match=0,
    score=(0, 0),
    crawford=False,
    cube=1,
    owner=None,
    dice=None,
    export=False,
):
    return {
        "name": name,
        "position_id": position_id(position),
        "x_on_roll": x_on_roll,
        "match_length": match,
        "score_x": score[0],
        "score_o": score[1],
        "crawford": crawford,
        "cube_value": cube,
        "cube_owner": owner,
        "dice": dice,
        "export": export,
    }


def named_cases():
    contact = Position(
        points(p6=5, p8=3, p13=4, p24=2, p22=1), points(p6=4, p8=2, p13=5, p24=2, p5=2)
    )
    blitz = Position(
        points(p1=2, p2=2, p3=2, p4=2, p6=3, p8=2, p13=2),
        points(p6=5, p8=3, p13=5, p20=1),
        opponent_bar=1,
    )
    return [
        case("starting position, money, X on roll", Position(START, START), export=True),
        case("starting position, money, O on roll", Position(START, START), x_on_roll=False),
        case("contact, cube 2 owned by X (on roll)", contact, cube=2, owner="x"),
        case("contact, cube 4 owned by O, O on roll", contact, x_on_roll=False, cube=4, owner="o"),
        case(
            "blitz, opponent on the bar, 7-point match 3-5",
            blitz,
            match=7,
            score=(3, 5),
            export=True,
        ),
        case(
            "both sides on the bar, 2 and 3 checkers",
            Position(
                points(p6=5, p8=3, p13=3, p24=2),
                points(p6=5, p8=3, p13=4),
                on_roll_bar=2,
                opponent_bar=3,
            ),
        ),
        case(
            "race 68 v 79, cube 2 owned by O (opponent)",
            Position(
                points(p1=2, p2=2, p3=2, p4=3, p5=3, p6=2, p7=1),
                points(p1=1, p2=3, p3=2, p4=3, p5=2, p6=3, p9=1),
            ),
            cube=2,
            owner="o",
        ),
        case(
            "bear-off 3 v 4 checkers, 5-point match 4-2 Crawford",
            Position(home(1, 1, 1), home(0, 2, 1, 1)),
            match=5,
            score=(2, 4),
            crawford=True,
            export=True,
        ),
        case(
            "post-Crawford 5-point match 4-3, O on roll",
            Position(home(2, 2, 2, 3, 3), home(3, 3, 3, 3)),
            x_on_roll=False,
            match=5,
            score=(4, 3),
        ),
        case(
            "stacks of 6, 11 and 15 checkers",
            Position(points(p6=11, p8=4), points(p1=15)),
            cube=8,
            owner="o",
        ),
        case(
            "stacks of 6, 9 and 10, 9-point match, cube 2 owned by X",
            Position(points(p5=6, p6=9), points(p23=10, p24=5)),
            match=9,
            score=(1, 6),
            cube=2,
            owner="x",
        ),
        case("rolled 64 in the opening, money", Position(START, START), dice=(6, 4)),
    ]


def random_position(rng):
    """A legal random position: each side 15 checkers, some on the bar or borne off."""
    on_roll, opponent = [0] * 24, [0] * 24
    bars = [0, 0]
    for side, (mine, theirs) in enumerate(((on_roll, opponent), (opponent, on_roll))):
        off = rng.choice([0, 0, 0, rng.randint(1, 14)])
        for _ in range(15 - off):
            if rng.random() < 0.04:
                bars[side] += 1
                continue
            free = [p for p in range(24) if not theirs[23 - p]]
            mine[rng.choice(free)] += 1
    return Position(tuple(on_roll), tuple(opponent), bars[0], bars[1])


def random_cases():
    rng = random.Random(SEED)
    cases = []
    for k in range(RANDOM_CASES):
        match = rng.choice([0, 0, 3, 5, 7, 11])
        score = (rng.randrange(match), rng.randrange(match)) if match else (0, 0)
        crawford = bool(match) and (match - 1 in score) and rng.random() < 0.5
        if crawford and score[0] == score[1]:
            crawford = False
        cube, owner = 1, None
        if not crawford and rng.random() < 0.5:
            cube, owner = rng.choice([2, 4, 8]), rng.choice(["x", "o"])
        cases.append(
            case(
                f"random {k + 1}",
                random_position(rng),
                x_on_roll=rng.random() < 0.5,
                match=match,
                score=score,
                crawford=crawford,
                cube=cube,
                owner=owner,
            )
        )
    return cases


def commands(c, export_file):
    lines = ["set player 0 human", "set player 1 human"]
    if c["match_length"]:
        lines += [f"new match {c['match_length']}", f"set score {c['score_o']} {c['score_x']}"]
        lines.append(f"set crawford {'on' if c['crawford'] else 'off'}")
    else:
        lines.append("new session")
    turn = 1 if c["x_on_roll"] else 0
    lines += [f"set turn {1 - turn}", f"set turn {turn}", f"set board {c['position_id']}"]
    if c["cube_owner"] is None:
        lines += ["set cube centre", f"set cube value {c['cube_value']}"]
    else:
        lines += [
            f"set cube value {c['cube_value']}",
            f"set cube owner {1 if c['cube_owner'] == 'x' else 0}",
        ]
    if c["dice"]:
        lines.append(f"set dice {c['dice'][0]} {c['dice'][1]}")
    lines.append("show board")
    if c["export"]:
        lines.append(f"export position text {export_file}")
    return lines


def run(lines):
    return run_commands(lines, timeout=120)


def board_block(stdout):
    """The last ``show board`` block: the Position ID line through the bottom numbers."""
    start = stdout.rindex(HEADER)
    lines = stdout[start:].splitlines()
    end = next(k for k, line in enumerate(lines) if k > 2 and line.startswith(" +"))
    return "\n".join(lines[: end + 1]) + "\n"


def main():
    version = next(v for v in run(["show version"]).splitlines() if "GNU Backgammon" in v)
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        for c in named_cases() + random_cases():
            export_file = Path(tmp) / "export.txt"
            stdout = run(commands(c, export_file))
            c["text"] = board_block(stdout)
            c["export_text"] = export_file.read_text() if c.pop("export") else None
            cases.append(c)
    out = {
        "_meta": {
            "what": "GNU Backgammon 1.07's `show board` text (and `export position text` for "
            "a few cases) for positions, cubes, scores and sides on roll set by command",
            "made_by": "scripts/gnubg/position_text_samples.py",
            "gnubg_version": version,
            "gnubg_binary": "Debian gnubg 1.07.001-1+b1 (GNU Backgammon 1.07.001 20230103)",
            "command": "gnubg -t -q -r -c FILE: new match N | new session; set score O X; "
            "set crawford on|off; set turn; set board ID; set cube value/owner; "
            "set dice; show board; export position text",
            "seed": SEED,
            "generated": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        },
        "cases": cases,
    }
    path = DATA / "gnubg_position_text.json"
    path.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {len(cases)} cases to {path}")


if __name__ == "__main__":
    main()
