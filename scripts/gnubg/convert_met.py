"""Convert gnubg-data's match equity tables into the project's bundled JSON format.

Run from the repository root with the project's Python (gnubg itself is not needed)::

    .venv/bin/python scripts/gnubg/convert_met.py

Reads ``/usr/share/gnubg/met/*.xml`` (Debian ``gnubg-data`` 1.07.001, all-permissive
licence) and writes ``cubecore/data/met/<key>.json``, one per table, plus
the sample upload
files ``samples/met/woolsey.{xml,met,csv}``.

- Explicit tables are read with :func:`cubecore.met_io.parse_gnubg_xml` and stored
  with the file's own numbers, up to the length the file states.
- ``zadeh.xml`` and ``mec.xml`` hold only a formula's parameters. For them the table
  gnubg 1.07 generates is stored: the numbers come from the oracle fixture
  ``tests/data/gnubg_met_tables.json`` (written by ``scripts/gnubg/met_tables.py``),
  as gnubg's ``show matchequitytable 25`` prints them (percent with 4 decimals, i.e.
  6 decimals of MWC), to 25-away.

Each JSON keeps the XML file's comment (its copyright notice and the permission
notice) beside the numbers, as the licence asks.
"""

from __future__ import annotations

import datetime
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cubecore.met import TABLES, MatchEquityTable  # noqa: E402
from cubecore.met_io import parse_gnubg_xml, to_csv, to_xg_met  # noqa: E402

MET_DIR = Path("/usr/share/gnubg/met")
OUT = ROOT / "cubecore" / "data" / "met"
SAMPLES = ROOT / "samples" / "met"
FIXTURE = ROOT / "tests" / "data" / "gnubg_met_tables.json"
GENERATED_LENGTH = 25
LICENCE = (
    "all-permissive (Debian gnubg-data copyright file): Copying and distribution of this"
    " file, with or without modification, are permitted in any medium without royalty"
    " provided the copyright notice and this notice are preserved. This file is offered"
    " as-is, without any warranty."
)

#: key, file, in display order (Kazaross-XG2 first: the default).
KEYS = [
    ("kxg2", "Kazaross-XG2.xml"),
    ("rk", "Rockwell-Kazaross.xml"),
    ("g11", "g11.xml"),
    ("jt", "jacobs.xml"),
    ("jt50", "jac050.xml"),
    ("jt100", "jac100.xml"),
    ("snowie", "snowie.xml"),
    ("woolsey", "woolsey.xml"),
    ("ortega", "ortega.xml"),
    ("mec26", "mec26.xml"),
    ("mec", "mec.xml"),
    ("zadeh", "zadeh.xml"),
]
GENERATED = {"mec.xml", "zadeh.xml"}


def _beyond_explicit(n: int) -> str:
    return (
        f"The file covers 1..{n} away; this library keeps its numbers and does not extend"
        f" them. gnubg 1.07 extends every table to 64-away: pre-Crawford by David"
        f" Montgomery's normal-distribution extension, post-Crawford by its own"
        f" post-Crawford formula (gammon rate 0.25, free drops 0.015 at 2-away and 0.004"
        f" at 4-away). It keeps only the first {n - 1} post-Crawford entries of the file"
        f" (the first post-Crawford score of a {n}-point match is {n - 1}-away) and"
        f" computes the {n}-away entry with that formula."
    )


def _beyond_generated(xml_name: str) -> str:
    return (
        f"{xml_name} gives only a formula's parameters; gnubg 1.07 generates the table to"
        f" 64-away. Stored here: gnubg's numbers to {GENERATED_LENGTH}-away as its"
        " show matchequitytable prints them (6 decimals of MWC)."
    )


def _record(key: str, table: MatchEquityTable, extra: dict[str, object]) -> dict[str, object]:
    record: dict[str, object] = {
        "format": "cube-theory-lab match equity table, version 1",
        "key": key,
        "name": table.name,
        "description": table.description,
        "length": table.length,
    }
    record.update(extra)
    record["notice"] = table.notice
    record["pre"] = table.pre.tolist()
    record["post"] = table.post.tolist()
    if table.post_opponent is not None:
        record["post_opponent"] = table.post_opponent.tolist()
    return record


def _dump(record: dict[str, object]) -> str:
    """JSON with one table row per line."""
    lines = ["{"]
    items = list(record.items())
    for i, (name, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if name == "pre":
            rows = ",\n".join("  " + json.dumps(row) for row in value)  # type: ignore[attr-defined]
            lines.append(f' "pre": [\n{rows}\n ]{comma}')
        else:
            lines.append(f" {json.dumps(name)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> None:
    fixture = json.loads(FIXTURE.read_text(encoding="utf-8"))
    today = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d")
    OUT.mkdir(parents=True, exist_ok=True)
    if [key for key, _ in KEYS] != list(TABLES):
        raise SystemExit("KEYS here and cubecore.met.TABLES must list the same keys in order")
    for key, xml_name in KEYS:
        path = MET_DIR / xml_name
        source = parse_gnubg_xml_any(path)
        made_by = f"scripts/gnubg/convert_met.py on {today} from {path} (gnubg-data 1.07.001)"
        if xml_name in GENERATED:
            printed = fixture["tables"][xml_name]["printed"]  # percent, 4 decimals
            post0 = [round(v / 100, 6) for v in printed["post0"]]
            post1 = [round(v / 100, 6) for v in printed["post1"]]
            table = MatchEquityTable(
                key,
                source.name,
                [[round(v / 100, 6) for v in row] for row in printed["pre"]],
                post0,
                description=source.description,
                notice=source.notice,
                post_opponent=None if post0 == post1 else post1,
            )
            extra = {
                "numbers": "generated by gnubg 1.07, as show matchequitytable 25 prints them",
                "beyond": _beyond_generated(xml_name)
                + (
                    " gnubg 1.07 gives the two players different post-Crawford columns for"
                    " this table; both are kept, as gnubg uses them."
                    if post0 != post1
                    else ""
                ),
            }
            made_by += f" and {FIXTURE.relative_to(ROOT)} ({fixture['_meta']['gnubg']})"
        else:
            table = source
            extra = {
                "numbers": "the XML file's own numbers",
                "beyond": _beyond_explicit(table.length),
            }
        extra = {
            "source": f"GNU Backgammon's gnubg-data, met/{xml_name}",
            "licence": LICENCE,
            "made_by": made_by,
            **extra,
        }
        if table.name != TABLES[key]:
            raise SystemExit(f"{xml_name} is named {table.name!r}; TABLES says {TABLES[key]!r}")
        (OUT / f"{key}.json").write_text(_dump(_record(key, table, extra)), encoding="utf-8")
    SAMPLES.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(MET_DIR / "woolsey.xml", SAMPLES / "woolsey.xml")
    woolsey = parse_gnubg_xml_any(MET_DIR / "woolsey.xml")
    (SAMPLES / "woolsey.met").write_text(to_xg_met(woolsey), encoding="utf-8")
    (SAMPLES / "woolsey.csv").write_text(to_csv(woolsey), encoding="utf-8")


def parse_gnubg_xml_any(path: Path) -> MatchEquityTable:
    """Explicit tables through the project's reader; for generated ones only the info."""
    text = path.read_text(encoding="utf-8")
    try:
        table = parse_gnubg_xml(text, key=path.stem)
    except ValueError as exc:
        if "only explicit tables" not in str(exc):
            raise
        stub = text.split("<pre-crawford-table", 1)[0] + (
            "<pre-crawford-table><row><me>0.5</me></row></pre-crawford-table>"
            "<post-crawford-table><row><me>0.5</me></row></post-crawford-table></met>"
        )
        stub = stub.replace("<length>-1</length>", "<length>1</length>")
        table = parse_gnubg_xml(stub, key=path.stem)
    return MatchEquityTable(
        table.key,
        table.name,
        table.pre,
        table.post,
        description=table.description,
        notice=table.notice,
        meta=table.meta,
        post_opponent=table.post_opponent,
    )


if __name__ == "__main__":
    main()
