"""Capture GNU Backgammon 1.07's printed evaluations for the paste-parser tests.

Usage (from the repository root, any Python 3.11; gnubg is a test oracle only)::

    python scripts/gnubg/cube_paste_samples.py

For a few positions of ``tests/data/gnubg_cube_money.json`` (one per position
class) it runs ``/usr/games/gnubg -t -q -r -c <command file>`` with 0-ply
``eval`` and ``hint`` (cube decision), once with probabilities as fractions
(``set output winpc off``) and once as percentages (``set output winpc on``), and
writes the printed text with the 0-ply probabilities gnubg's ``evaluate`` gave for
the same position (from the money fixture) to ``tests/data/gnubg_cube_paste.json``.
"""

import datetime
import json
from pathlib import Path

from command_file import run_commands  # scripts/gnubg is on sys.path when run

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"


def run(commands):
    return run_commands(commands, timeout=300)


def blocks(stdout):
    """The ``eval`` table block and the ``hint`` cube-analysis block of one run."""
    start = stdout.index("Evaluator:")
    end = stdout.index("Cube analysis")
    table = stdout[start:end].strip()
    hint = stdout[end:].split("Proper cube action:")[0]
    action = stdout[end:].split("Proper cube action:")[1].splitlines()[0]
    return table, (hint + "Proper cube action:" + action).strip()


def main():
    money = json.loads((DATA / "gnubg_cube_money.json").read_text())
    chosen = {}
    for case in money["cases"]:
        chosen.setdefault(case["class"], case)
    version = run(["show version"]).splitlines()
    samples = []
    for cls, case in sorted(chosen.items()):
        for winpc in ("off", "on"):
            stdout = run(
                [
                    "set player 0 human",
                    "set player 1 human",
                    "set jacoby off",
                    "new session",
                    "set turn 0",
                    "set turn 1",
                    f"set board {case['position_id']}",
                    "set evaluation chequerplay evaluation plies 0",
                    "set evaluation cubedecision evaluation plies 0",
                    f"set output winpc {winpc}",
                    "eval",
                    "hint",
                ]
            )
            table, hint = blocks(stdout)
            samples.append(
                {
                    "position_id": case["position_id"],
                    "class": cls,
                    "percent": winpc == "on",
                    "probabilities": case["probabilities"],
                    "eval_table": table,
                    "cube_analysis": hint,
                }
            )
    doc = {
        "_meta": {
            "what": "gnubg 1.07 printed 0-ply `eval` tables and `hint` cube analyses, with "
            "the probabilities gnubg.evaluate gave (tests/data/gnubg_cube_money.json)",
            "made_by": "scripts/gnubg/cube_paste_samples.py",
            "gnubg_version": next((v for v in version if "GNU Backgammon" in v), ""),
            "gnubg_binary": "Debian gnubg 1.07.001-1+b1 (GNU Backgammon 1.07.001 20230103)",
            "command": "gnubg -t -q -r -c FILE: set board ID; set evaluation ... plies 0; "
            "set output winpc off|on; eval; hint",
            "generated": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        },
        "samples": samples,
    }
    (DATA / "gnubg_cube_paste.json").write_text(json.dumps(doc, indent=1) + "\n")
    print(len(samples), "samples")


main()
