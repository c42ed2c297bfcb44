"""Write tests/data/gnubg_bearoff_os.json and gnubg_bearoff_ts.json from gnubg's databases.

Run from the project root with gnubg installed (Debian package ``gnubg``):

    .venv/bin/python scripts/gnubg/bearoff_fixtures.py

It asks GNU Backgammon's ``bearoffdump`` (``/usr/games/bearoffdump``) for a fixed,
seeded sample of positions by Position ID:

* one-sided: ``bearoffdump /usr/share/gnubg/gnubg_os0.bd -p ID`` for positions of up to
  15 checkers (the position as the player on roll, the opponent with none); records the
  printed mean rolls and the printed distribution (percent, three decimals);
* two-sided: ``bearoffdump /var/lib/gnubg/gnubg_ts0.bd -p ID`` for pairs of up to 6
  checkers each (built by the Debian postinst with ``makebearoff -t 6x6``); records the
  printed cubeless equity and the three cubeful equities (four decimals).

The Position IDs are written by :func:`cubecore.position.position_id` (checked against
gnubg's own ``positionid`` in ``gnubg_race_counts.json``); bearoffdump's echo of the
board is not parsed. Each output file starts with a ``_meta`` entry (scipy's
tests/data convention): what made it, gnubg's version, the commands, the date.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cubecore.bearoff import bearoff_positions  # noqa: E402
from cubecore.position import Position, position_id  # noqa: E402

BEAROFFDUMP = "/usr/games/bearoffdump"
OS_DB = "/usr/share/gnubg/gnubg_os0.bd"
TS_DB = "/var/lib/gnubg/gnubg_ts0.bd"
SEED = 20261123
ONE_SIDED_SAMPLE = 60
TWO_SIDED_SAMPLE = 60
# hand-picked extremes, besides the random sample
ONE_SIDED_EXTRA = [
    (0, 0, 0, 0, 0, 15),
    (15, 0, 0, 0, 0, 0),
    (3, 3, 3, 2, 2, 2),
    (0, 0, 0, 0, 0, 1),
    (1, 1, 1, 1, 1, 1),
    (0, 2, 2, 3, 4, 4),
]
TWO_SIDED_EXTRA = [
    ((0, 0, 0, 0, 0, 1), (1, 0, 0, 0, 0, 0)),
    ((0, 0, 0, 0, 0, 6), (0, 0, 0, 0, 0, 6)),
    ((1, 1, 1, 1, 1, 1), (0, 0, 0, 3, 0, 0)),
    ((2, 0, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0)),
]


def gnubg_version() -> str:
    out = subprocess.run(["/usr/games/gnubg", "--version"], capture_output=True, text=True)
    return out.stdout.strip().splitlines()[0]


def dump(database: str, pid: str) -> str:
    out = subprocess.run(
        [BEAROFFDUMP, database, "-p", pid], capture_output=True, text=True, check=True
    )
    return out.stdout


def home(points: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(points) + (0,) * 18


def one_sided_record(points: tuple[int, ...]) -> dict:
    pid = position_id(Position(home(points), (0,) * 24))
    text = dump(OS_DB, pid)
    mean = re.search(r"^Mean\s+([\d.]+)\s+([\d.]+)", text, re.M)
    rows = re.findall(r"^\s+(\d+)\s+([\d.]+)\s+([\d.]+)", text.split("Bearing off")[1], re.M)
    percent = {}
    for n, player, _opponent in rows:
        if float(player) > 0:
            percent[int(n)] = float(player)
    return {
        "points": list(points),
        "position_id": pid,
        "mean_rolls": float(mean.group(1)),
        "percent_by_rolls": {str(k): v for k, v in sorted(percent.items())},
    }


def two_sided_record(on_roll: tuple[int, ...], opponent: tuple[int, ...]) -> dict:
    pid = position_id(Position(home(on_roll), home(opponent)))
    text = dump(TS_DB, pid)

    def value(label: str) -> float:
        return float(re.search(label + r"\s*:\s*([+-][\d.]+)", text).group(1))

    return {
        "on_roll": list(on_roll),
        "opponent": list(opponent),
        "position_id": pid,
        "cubeless_equity": value("Cubeless equity"),
        "owned": value("Owned cube"),
        "centred": value("Centered cube"),
        "opponent_owns": value("Opponent owns cube"),
    }


def main() -> None:
    rng = random.Random(SEED)
    now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    version = gnubg_version()
    out_dir = ROOT / "tests" / "data"
    out_dir.mkdir(parents=True, exist_ok=True)

    one = [tuple(int(v) for v in p) for p in bearoff_positions(15)[1:]]
    sample = ONE_SIDED_EXTRA + rng.sample(one, ONE_SIDED_SAMPLE)
    os_meta = {
        "made_by": "scripts/gnubg/bearoff_fixtures.py",
        "gnubg": version,
        "command": f"{BEAROFFDUMP} {OS_DB} -p <PositionID>",
        "when": now,
        "seed": SEED,
        "notes": "points: checkers on points 1..6 of the player on roll (the opponent has "
        "none); mean_rolls and percent_by_rolls as printed (3 decimals); only nonzero "
        "percentages kept.",
    }
    records = [one_sided_record(p) for p in sample]
    (out_dir / "gnubg_bearoff_os.json").write_text(
        json.dumps({"_meta": os_meta, "positions": records}, indent=1) + "\n"
    )

    six = [tuple(int(v) for v in p) for p in bearoff_positions(6)[1:]]
    pairs = TWO_SIDED_EXTRA + [(rng.choice(six), rng.choice(six)) for _ in range(TWO_SIDED_SAMPLE)]
    ts_meta = {
        "made_by": "scripts/gnubg/bearoff_fixtures.py",
        "gnubg": version,
        "command": f"{BEAROFFDUMP} {TS_DB} -p <PositionID>",
        "database": "built by Debian's postinst with makebearoff -t 6x6",
        "when": now,
        "seed": SEED,
        "notes": "on_roll/opponent: checkers on points 1..6; equities of the player on "
        "roll per unit cube, money, as printed (4 decimals).",
    }
    records = [two_sided_record(a, b) for a, b in pairs]
    (out_dir / "gnubg_bearoff_ts.json").write_text(
        json.dumps({"_meta": ts_meta, "pairs": records}, indent=1) + "\n"
    )
    print(f"wrote {len(sample)} one-sided positions and {len(pairs)} two-sided pairs")


if __name__ == "__main__":
    main()
