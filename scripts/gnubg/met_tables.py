"""Oracle fixture: every match equity table of gnubg-data, as GNU Backgammon 1.07 uses it.

Run inside gnubg's embedded Python (stdlib only, no numpy there)::

    /usr/games/gnubg -t -q -r -p scripts/gnubg/met_tables.py

For each ``/usr/share/gnubg/met/*.xml`` (``catalog.xml`` excepted) it runs
``set matchequitytable FILE`` and records ``show matchequitytable 25`` (the numbers
as gnubg prints them, percent with 4 decimals, under ``printed``) and
``gnubg.met(25)``: gnubg's pre-Crawford
table ``pre[a-1][b-1]`` (a = player 0's away score) and its two post-Crawford columns
(``post0[t-1]``: player 0's MWC trailing t-away against a 1-away leader; ``post1``
the same for player 1), after gnubg has extended the file to its internal 64-away.
Values are gnubg's float32 numbers written with 9 decimals; gnubg prints them with
``show matchequitytable`` as percentages to 4 decimals (1e-6 in MWC). It also keeps
the header gnubg prints (the table's name and file).

Writes ``tests/data/gnubg_met_tables.json`` (path relative to the working directory,
which must be the repository root), with a ``_meta`` header (scipy's tests/data
convention).
"""

import datetime
import glob
import json
import os
import subprocess

import gnubg

MET_DIR = "/usr/share/gnubg/met"
OUT = os.path.join("tests", "data", "gnubg_met_tables.json")
LENGTH = 25


def _printed(text):
    """Numbers of ``show matchequitytable N`` (percent, 4 decimals) by section."""
    sections = {}
    current = None
    for line in text.splitlines():
        if line.startswith("Pre-Crawford table"):
            current = sections.setdefault("pre", [])
        elif line.startswith("Post-Crawford table for player 0"):
            current = sections.setdefault("post0", [])
        elif line.startswith("Post-Crawford table for player 1"):
            current = sections.setdefault("post1", [])
        elif current is not None and "-away" in line:
            label, _, rest = line.strip().partition("-away")
            tokens = rest.split()
            if label.isdigit() and tokens and all("away" not in t for t in tokens):
                current.append([float(t) for t in tokens])
    return {
        "pre": sections["pre"],
        "post0": sections["post0"][0],
        "post1": sections["post1"][0],
    }


def _rounded(values):
    return [round(float(v), 9) for v in values]


def _layout(document):
    """JSON with one table row per line (small diffs, readable)."""
    lines = ["{", '"_meta": ' + json.dumps(document["_meta"], indent=1) + ",", '"tables": {']
    names = list(document["tables"])
    for i, name in enumerate(names):
        table = document["tables"][name]
        lines.append(json.dumps(name) + ": {")
        lines.append('"header": ' + json.dumps(table["header"]) + ",")
        lines.append('"pre": [')
        rows = [json.dumps(row) for row in table["pre"]]
        lines.append(",\n".join(rows))
        lines.append("],")
        lines.append('"post0": ' + json.dumps(table["post0"]) + ",")
        lines.append('"post1": ' + json.dumps(table["post1"]) + ",")
        printed = table["printed"]
        lines.append('"printed": {"pre": [')
        lines.append(",\n".join(json.dumps(row) for row in printed["pre"]))
        lines.append("],")
        lines.append('"post0": ' + json.dumps(printed["post0"]) + ",")
        lines.append('"post1": ' + json.dumps(printed["post1"]) + "}")
        lines.append("}" + ("," if i < len(names) - 1 else ""))
    lines.append("}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    tables = {}
    for path in sorted(glob.glob(os.path.join(MET_DIR, "*.xml"))):
        name = os.path.basename(path)
        if name == "catalog.xml":
            continue
        gnubg.command("set matchequitytable " + path)
        pre, post0, post1 = gnubg.met(LENGTH)
        shown = gnubg.show(f"matchequitytable {LENGTH}")
        tables[name] = {
            "header": [line for line in shown.splitlines()[:3] if line.strip()],
            "pre": [_rounded(row) for row in pre],
            "post0": _rounded(post0),
            "post1": _rounded(post1),
            "printed": _printed(shown),
        }
    version = subprocess.run(
        ["/usr/games/gnubg", "--version"], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    document = {
        "_meta": {
            "made_by": "scripts/gnubg/met_tables.py",
            "command": "/usr/games/gnubg -t -q -r -p scripts/gnubg/met_tables.py",
            "gnubg": version[0],
            "gnubg_calls": (
                "set matchequitytable FILE; gnubg.met(25) (pre, post0, post1);"
                " gnubg.show('matchequitytable 25') (printed: its numbers, percent)"
            ),
            "source_files": MET_DIR + "/*.xml (Debian gnubg-data)",
            "length": LENGTH,
            "digits": "float32 values written with 9 decimals; gnubg prints 4 decimals of percent",
            "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        },
        "tables": tables,
    }
    with open(OUT, "w", encoding="utf-8") as handle:
        handle.write(_layout(document))


main()
