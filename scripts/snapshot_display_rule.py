"""One-off, reviewed: re-store the snapshot views whose tables issue #20's display rule rewrote.

The display rule (:func:`ui.style.table_display`) shows "—" where a value does not
apply; a float column with such a cell becomes text, each number written with the
column's fixed decimals. The rules page writes its walkthrough's actions as words
(:func:`ui.rules.walkthroughs.action_words`). Neither changes a number, but both
change what ``tests/snapshot.py`` reads from those tables, and tables of more than
``FULL_ARRAY_MAX`` cells are stored as a hash.

For each view given (the keys ``tests/test_page_snapshot.py`` reported), this script
captures the view in full (no hashing) twice: with the code of ``--base`` (a
directory holding the tree before the change, e.g. ``git archive <commit> | tar -x``)
and with today's. It requires the two to agree exactly in every metric, JSON block
and chart, and in every table's columns; cell by cell a table may differ only as the
display rule says (:func:`same_shown`). Only then does it store today's capture of
those views in ``tests/data/page_snapshot.json`` and list, in the snapshot's
``_meta``, which views it re-stored and why.

Usage: ``python -m scripts.snapshot_display_rule --base DIR KEY [KEY ...]``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
from pathlib import Path

from tests import snapshot
from ui.rules.walkthroughs import action_words
from ui.style import NOT_APPLICABLE

_FULL = """
import json, sys
import tests.snapshot as s
s.FULL_ARRAY_MAX = 10**9
views = json.loads(sys.argv[1])
print(json.dumps({key: s.capture(*case) for key, case in views.items()}))
"""


def full_captures(root: Path, views: dict[str, list]) -> dict[str, dict]:
    """Each view captured with the code under ``root``, arrays in full."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", _FULL, json.dumps(views)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def same_shown(old: object, new: object) -> bool:
    """Whether table cell ``new`` shows what ``old`` showed, by the display rule."""
    if old == new and type(old) is type(new):
        return True
    if old in ("nan", "<NA>", None) and new == NOT_APPLICABLE:
        return True  # not applicable, now "—"
    if isinstance(old, str) and new == action_words(old):
        return True  # an action's name, now in words
    is_number = isinstance(old, int | float) and not isinstance(old, bool)
    if is_number and isinstance(new, str):
        places = len(new.partition(".")[2])
        try:
            shown = float(new)
        except ValueError:
            return False
        return math.isclose(round(old, places), shown, abs_tol=1e-12)  # fixed decimals
    return False


def differences(old: dict, new: dict) -> list[str]:
    """What differs between two full captures beyond the display rule."""
    found = [part for part in ("exceptions", "metrics", "json", "charts") if old[part] != new[part]]
    if len(old["dataframes"]) != len(new["dataframes"]):
        return [*found, "number of tables"]
    for index, (a, b) in enumerate(zip(old["dataframes"], new["dataframes"], strict=True)):
        if a["columns"] != b["columns"] or a.get("index") != b.get("index"):
            found.append(f"table {index}: columns or index")
            continue
        rows_a, rows_b = a["values"], b["values"]
        if len(rows_a) != len(rows_b):
            found.append(f"table {index}: rows")
            continue
        for r, (row_a, row_b) in enumerate(zip(rows_a, rows_b, strict=True)):
            for c, (cell_a, cell_b) in enumerate(zip(row_a, row_b, strict=True)):
                if not same_shown(cell_a, cell_b):
                    found.append(f"table {index} cell ({r}, {c}): {cell_a!r} -> {cell_b!r}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True)
    parser.add_argument("keys", nargs="+")
    args = parser.parse_args()
    stored = json.loads(snapshot.SNAPSHOT.read_text(encoding="utf-8"))
    views = {
        key: [stored["views"][key][f] for f in ("page", "section", "preset")] for key in args.keys
    }
    before = full_captures(args.base.resolve(), views)
    after = full_captures(snapshot.ROOT, views)
    problems = {key: differences(before[key], after[key]) for key in views}
    problems = {key: found for key, found in problems.items() if found}
    if problems:
        sys.exit(json.dumps(problems, indent=1, ensure_ascii=False)[:5000])
    for key, (page, section, preset) in views.items():
        stored["views"][key]["view"] = snapshot.capture(page, section, preset)
        print(f"re-stored {key}", file=sys.stderr)
    stored["_meta"]["display_rule_update"] = {
        "made_by": "python -m scripts.snapshot_display_rule (issue #20, item 3)",
        "why": "tables show '—' for not applicable (a float column with one becomes text "
        "with fixed decimals) and the rules walkthrough's actions as words; checked cell "
        "by cell against a full capture of the code before the change, every metric, "
        "JSON block and chart equal",
        "views": sorted(views),
    }
    text = json.dumps(stored, indent=1, ensure_ascii=False)
    snapshot.SNAPSHOT.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
