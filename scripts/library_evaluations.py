"""Write cubecore/data/positions/evaluations.json: the engine's verdicts on the library.

Usage (from the repository root, with the dev lock installed)::

    .venv/bin/python scripts/library_evaluations.py

For every position of ``cubecore/data/positions/library.toml`` and every score of
:data:`cubecore.library.SCORES` (money; 3-away/3-away, 5-away/3-away, 3-away/5-away,
2-away/4-away; 3-away/1-away post-Crawford), the position's own cube is evaluated by
:func:`cubecore.engine.evaluate` (the app's one engine adapter) at each level of
:data:`cubecore.library.LEVELS`: 3-ply, the verdict the app shows, and 1-ply, which
``tests/test_library.py`` recomputes to check the file. Money play is without the
Jacoby rule and without beavers (the position page's defaults).

Where a 3-ply decision is close (:data:`CLOSE`, in units of the cube), the script also
evaluates it at 4-ply and stores that beside it, so a reader sees whether one more ply
changes the verdict; where the two verdicts differ, it rolls the decision out
(:data:`ROLLOUT_TRIALS` games, the engine's fixed seed) and stores that too. A rollout
took about a minute on this machine (2 shared cores): the few decisions on which the
two depths disagree fit, the hundred or so close ones would take two hours.

n-ply evaluations draw no dice and a rollout's dice come from its seed: the file is the
same on every run with the same engine version (its header says which), apart from the
date and the time taken.

A rollout the engine adapter refuses (its ``ValueError``: 2026-11-29, a rollout's
variance reduction gave a backgammon chance of -0.000004) is listed in the header's
``rollouts_refused`` with the adapter's reason, never left out silently.
"""

from __future__ import annotations

import datetime as dt
import json
import platform
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cubecore import engine, library  # noqa: E402

#: A 3-ply decision this close (cube units, :attr:`StoredEvaluation.margin`) is checked at 4-ply.
CLOSE = 0.04
CHECK_LEVEL = library.CHECK_LEVEL
#: Games of each rollout (the engine's default: a multiple of 36).
ROLLOUT_TRIALS = engine.DEFAULT_ROLLOUT_TRIALS


def _record(decision: engine.EngineCubeDecision) -> dict[str, Any]:
    p = decision.probabilities
    return {
        "win": p.win,
        "win_gammon": p.win_gammon,
        "win_backgammon": p.win_backgammon,
        "lose_gammon": p.lose_gammon,
        "lose_backgammon": p.lose_backgammon,
        "cubeless_equity": decision.cubeless_equity,
        "no_double": decision.no_double,
        "double_take": decision.double_take,
        "double_pass": decision.double_pass,
        "optimal": decision.optimal,
        "action": decision.action,
        "verdict": library.verdict_of(
            decision.action, decision.doubles, decision.taker_passes, decision.cube_available
        ),
    }


def evaluate(item: library.LibraryPosition, score: library.Score, level: str) -> dict[str, Any]:
    """The stored record of one position at one score and level."""
    decision = engine.evaluate(
        item.position,
        level=level,
        cube=item.cube,
        owner=item.owner,
        away=score.away,
        opp_away=score.opp_away,
        crawford=score.crawford,
        trials=ROLLOUT_TRIALS,
    )
    record = _record(decision)
    if level == library.ROLLOUT:
        record["trials"] = ROLLOUT_TRIALS
        record["standard_errors"] = decision.standard_errors
    return record


def main() -> None:
    if engine.installed_version() != engine.ENGINE_VERSION:
        sys.exit(
            f"bgsage {engine.installed_version()} is installed; the adapter is tested "
            f"with {engine.ENGINE_VERSION}: install the lock first"
        )
    start = time.perf_counter()
    positions: dict[str, Any] = {}
    checked = rolled = 0
    refused: list[dict[str, str]] = []
    for item in library.library():
        scores: dict[str, Any] = {}
        for score in library.SCORES.values():
            levels = {level: evaluate(item, score, level) for level in library.LEVELS}
            shown = library.StoredEvaluation(**levels["3-ply"])
            if shown.margin is not None and shown.margin < CLOSE:
                levels[CHECK_LEVEL] = evaluate(item, score, CHECK_LEVEL)
                checked += 1
                if levels[CHECK_LEVEL]["verdict"] != shown.verdict:
                    try:
                        levels[library.ROLLOUT] = evaluate(item, score, library.ROLLOUT)
                        rolled += 1
                    except ValueError as error:  # the adapter refused the rollout's output
                        refused.append({"id": item.id, "score": score.key, "reason": str(error)})
            scores[score.key] = levels
        positions[item.id] = {
            "position_id": item.position_id,
            "cube": item.cube,
            "owner": item.owner,
            "scores": scores,
        }
        print(f"{item.id}: {scores['money']['3-ply']['action']}", flush=True)
    seconds = time.perf_counter() - start
    header = {
        "made_by": "scripts/library_evaluations.py",
        "engine": "Open Sage (bgsage), through cubecore.engine.evaluate",
        "engine_version": engine.ENGINE_VERSION,
        "levels": list(library.LEVELS),
        "close_check": f"{CHECK_LEVEL} where the 3-ply margin is under {CLOSE}",
        "close_checked": checked,
        "rollouts": f"{ROLLOUT_TRIALS} games where the 3-ply and {CHECK_LEVEL} verdicts differ",
        "rolled_out": rolled,
        "rollouts_refused": refused,
        "seed": engine.ROLLOUT_SEED,
        "seed_note": "the rollouts' seed; n-ply evaluations draw no dice",
        "rules": "money: no Jacoby rule, no beavers; match: the engine's Kazaross-XG2 table",
        "scores": {
            key: {"away": s.away, "opp_away": s.opp_away, "crawford": s.crawford}
            for key, s in library.SCORES.items()
        },
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.machine()}, Python {platform.python_version()}",
        "seconds": round(seconds, 1),
    }
    out = library.EVALUATIONS_FILE
    out.write_text(json.dumps({"header": header, "positions": positions}, indent=1) + "\n")
    print(f"wrote {out.relative_to(ROOT)}: {len(positions)} positions in {seconds:.1f} s")


if __name__ == "__main__":
    main()
