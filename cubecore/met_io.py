"""Reading match equity tables from files: gnubg's XML, XG's ``.met`` text, a plain CSV.

Every reader takes the file's contents (``bytes`` or ``str``) and returns a
:class:`~cubecore.met.MatchEquityTable`, or raises ``ValueError`` whose message names
the line (and element) that is wrong and what was expected. The work is bounded
before any parsing: a file above :data:`MAX_FILE_BYTES` or a table longer than
:data:`cubecore.met.MAX_TABLE_LENGTH` (64) is refused first.

The formats
-----------
**gnubg XML** ([GNUBG]_ ``met.dtd``)::

    <met>
      <info><name>..</name><description>..</description><length>n</length></info>
      <pre-crawford-table type="explicit">
        <row><me>M(1,1)</me> ... <me>M(1,n)</me></row>  ... n rows
      </pre-crawford-table>
      <post-crawford-table type="explicit" player="both">
        <row><me>P(1)</me> ... </row>       n - 1 or n entries
      </post-crawford-table>
    </met>

Row ``a`` holds ``M(a, 1..n)``, the MWC of player 0 at ``a``-away against
``b``-away (row 1 is the Crawford game); the post-Crawford row holds the trailer's
MWC at 1, 2, ... away against a 1-away leader. ``player="0"`` and ``player="1"``
give one column per player (tables with a favourite, e.g. Jacobs & Trice +50 Elo).
Only explicit tables are read: a table given by a formula's parameters
(``type="zadeh"`` or ``"mec"``) is refused with a message saying so. The XML is
parsed with the standard library's expat with every entity declaration refused
(no internal or external entity is ever expanded) and no external DTD loaded.

**XG .met** (eXtreme Gammon's table files; no published specification was found,
the layout below is the one of the ``.met`` files XG installs, as reproduced in the
public ``lassehjorthmadsen/bglab`` repository, ``inst/extdata/*.met``): an INI-style
text::

    [Current]
    Name=Kazaross XG2
    Description=...
    Copyright=...
    [PostCrawford]
    Size=25
    Data=0.5 0.48803 0.32264 ...        trailer's MWC at 1..Size away
    [PreCrawford]
    Size=25
     1=0.50000 0.67736 ...              row a: M(a, 1..Size)
     2=0.32264 0.50000 ...

Other sections (``[Version]``) and keys are ignored; names are case-insensitive.
Lines starting with ``;`` are comments (INI style); they are kept as the table's
notice (else ``Copyright=`` is).

**CSV** (this project's plain format): lines starting with ``#`` are comments
(``# name: ...`` and ``# description: ...`` set those fields, the other comment
lines are kept as the table's notice). Then a header
``away,1,2,...,n``, then ``n`` rows ``a,M(a,1),...,M(a,n)`` for ``a = 1..n``, then
one row ``post,P(1),...,P(m)`` with ``m = n - 1`` or ``n``. Numbers are MWC in
[0, 1] (a decimal point, no percent sign). Commas or semicolons separate fields.

A table whose entries are not match winning chances is refused, naming up to three
of the faulty cells (:func:`cubecore.met.check_table`): an entry outside [0, 1] (by
more than 0.001), or an identity (``M(a, b) + M(b, a) = 1``, monotone in both scores
and post-Crawford) broken by more than :data:`REFUSAL_SLACK` (1 pp); smaller
misprints are read as given, and ``check_table`` names them. A table whose median
entry is above 1 and at most 100 (percentages, 50 for 50%) is refused with a message
saying so.

References
----------
.. [GNUBG] GNU Backgammon 1.07, ``met.dtd`` and the tables in ``gnubg-data``,
   https://www.gnu.org/software/gnubg/ (all-permissive licence).
.. [XGMET] eXtreme Gammon ``.met`` files as found in L. H. Madsen, ``bglab``,
   https://github.com/lassehjorthmadsen/bglab (``inst/extdata``).
"""

from __future__ import annotations

import math
import re
import textwrap
from dataclasses import dataclass, field
from xml.parsers import expat

import numpy as np

from cubecore._docs import fill_doc
from cubecore.met import DEFAULT_TOLERANCE, MAX_TABLE_LENGTH, MatchEquityTable, check_table

__all__ = [
    "FORMATS",
    "MAX_FILE_BYTES",
    "REFUSAL_SLACK",
    "parse_csv",
    "parse_gnubg_xml",
    "parse_xg_met",
    "read_table",
    "to_csv",
    "to_xg_met",
]

#: Largest file any reader accepts, in bytes (a 64-away table in XML is ~100 kB).
MAX_FILE_BYTES = 1_000_000
#: How far a table's identities may be off before the table is refused (0.01 MWC, 1 pp):
#: published tables print 2-6 decimals and carry misprints up to 0.003 (Ortega &
#: Kleinman's M(7, 8) + M(8, 7) = 0.998, mec's post-Crawford P(4) above P(3)); a table
#: off by more is not a match equity table. Cells off by less than this are read and
#: named by :func:`cubecore.met.check_table`.
REFUSAL_SLACK = 0.01
#: How many faulty cells a refusal names.
_SHOWN_FAULTS = 3
#: File name endings and the reader each selects in :func:`read_table`.
FORMATS = {".xml": "gnubg XML", ".met": "XG .met", ".csv": "CSV", ".txt": "CSV"}

_table_doc = fill_doc(
    data="""
    data : bytes or str
        The file's contents, at most :data:`MAX_FILE_BYTES` bytes.
    """,
    key="""
    key : str
        Key of the returned table.
    """,
    returns_raises="""
    Returns
    -------
    MatchEquityTable

    Raises
    ------
    ValueError
        Naming the line and what was expected.
    """,
)


# ----------------------------------------------------------------------------------
# Shared helpers
# ----------------------------------------------------------------------------------
def _text(data: bytes | str, what: str) -> str:
    """Decode ``data`` after the size check (:func:`_decode`)."""
    if isinstance(data, str):
        size = len(data.encode("utf-8", errors="replace"))
    elif isinstance(data, (bytes, bytearray)):
        size = len(data)
    else:
        raise TypeError(f"`data` (the {what}) must be bytes or str (got {type(data).__name__})")
    if size > MAX_FILE_BYTES:
        raise ValueError(
            f"`data`: the {what} is {size:,} bytes;"
            f" files up to {MAX_FILE_BYTES:,} bytes are accepted"
        )
    text = data if isinstance(data, str) else _decode(bytes(data), what)
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise ValueError(f"the {what} is empty")
    return text


#: Byte-order marks and the encoding each names, longest first (UTF-32 LE begins
#: with UTF-16 LE's mark).
_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le", "UTF-32"),
    (b"\x00\x00\xfe\xff", "utf-32-be", "UTF-32"),
    (b"\xff\xfe", "utf-16-le", "UTF-16"),
    (b"\xfe\xff", "utf-16-be", "UTF-16"),
)


def _decode(data: bytes, what: str) -> str:
    """The file's text: UTF-16 or UTF-32 with a byte-order mark (Windows' "Unicode"),
    UTF-8, else Windows-1252 (XG's files); other bytes with NULs are refused, naming
    the encoding they look like."""
    for mark, codec, name in _BOMS:
        if data.startswith(mark):
            try:
                return data[len(mark) :].decode(codec)
            except UnicodeDecodeError as error:
                raise ValueError(
                    f"the {what} starts as {name} text but byte {error.start + len(mark)}"
                    f" is not {name}; save it as UTF-8"
                ) from None
    if b"\x00" in data:
        raise ValueError(
            f"the {what} has NUL bytes: it looks like UTF-16 or UTF-32 text without a"
            " byte-order mark; save it as UTF-8"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _number(token: str, where: str) -> float:
    """A finite decimal number, or a ValueError naming ``where``."""
    try:
        if "_" in token:
            raise ValueError
        value = float(token)
    except ValueError:
        raise ValueError(f"{where}: expected a number, found {token.strip()[:40]!r}") from None
    if not math.isfinite(value):
        raise ValueError(f"{where}: expected a finite number, found {token.strip()[:40]!r}")
    return value


def _length(value: int, where: str) -> int:
    if value < 1 or value > MAX_TABLE_LENGTH:
        raise ValueError(
            f"{where}: the table length must be 1..{MAX_TABLE_LENGTH} away (got {value})"
        )
    return value


def _post_count(count: int, n: int, where: str) -> None:
    if count not in (n - 1, n) or count < 1:
        expected = f"{n - 1} or {n}" if n > 1 else "1"
        raise ValueError(
            f"{where}: expected {expected} post-Crawford entries for a {n}-away table,"
            f" found {count}"
        )


def _table(
    key: str,
    name: str,
    pre: list[list[float]],
    post: list[float],
    post_opponent: list[float] | None,
    description: str,
    notice: str,
    source: str,
) -> MatchEquityTable:
    if not isinstance(key, str):
        raise ValueError(f"`key` must be a string (got {type(key).__name__})")
    middle = float(np.median(np.array(pre, dtype=float)))
    if 1.0 < middle <= 100.0:  # beyond 100 it is no percentage either: refused below
        raise ValueError(
            f"the {source} table's numbers look like percentages (median {middle:g});"
            " give match winning chances in [0, 1], e.g. 0.5 for 50%"
        )
    table = MatchEquityTable(
        key,
        name,
        np.array(pre, dtype=float),
        np.array(post, dtype=float),
        description=description,
        notice=notice,
        meta={"source": source, "length": str(len(pre))},
        post_opponent=None if post_opponent is None else np.array(post_opponent, dtype=float),
    )
    _refuse_inconsistent(table, source)
    return table


def _refuse_inconsistent(table: MatchEquityTable, source: str) -> None:
    """Refuse a table whose entries are not match winning chances (module docstring)."""
    faults = check_table(table, DEFAULT_TOLERANCE, complement=table.post_opponent is None)
    refused = faults[
        (faults["check"] == "range") | (faults["excess"] > REFUSAL_SLACK - DEFAULT_TOLERANCE)
    ]
    if refused.empty:
        return
    shown = "; ".join(refused["message"].head(_SHOWN_FAULTS))
    more = len(refused) - _SHOWN_FAULTS
    rest = f"; and {more} more" if more > 0 else ""
    raise ValueError(
        f"the {source} table is not a match equity table: {len(refused)} cell(s) are not"
        f" match winning chances in [0, 1] or break its identities by more than"
        f" {REFUSAL_SLACK:g} ({shown}{rest})"
    )


# ----------------------------------------------------------------------------------
# gnubg XML
# ----------------------------------------------------------------------------------
@dataclass
class _Node:
    tag: str
    attrs: dict[str, str]
    line: int
    text: str = ""
    children: list[_Node] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    def find(self, tag: str) -> list[_Node]:
        return [child for child in self.children if child.tag == tag]


_MAX_TEXT = 10_000  # characters kept of one element's text (names, numbers)


class _Refused(Exception):
    """Raised inside an expat handler; turned into ValueError with the line."""


def _xml_tree(text: str) -> tuple[_Node, list[str]]:
    """Parse ``text`` into a small tree; entity declarations and DTD loading refused."""
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    stack: list[_Node] = []
    roots: list[_Node] = []
    comments: list[str] = []
    elements = [0]

    def start(tag: str, attrs: dict[str, str]) -> None:
        elements[0] += 1
        if elements[0] > 4 * (MAX_TABLE_LENGTH + 2) ** 2:
            raise _Refused("too many elements for a match equity table")
        node = _Node(tag, dict(attrs), parser.CurrentLineNumber)
        if stack:
            parent = stack[-1]
            count = parent.counts[tag] = parent.counts.get(tag, 0) + 1
            # Bounded work: refuse a table longer than the limit as soon as it shows.
            if tag in ("row", "me") and count > MAX_TABLE_LENGTH:
                where = f"<{stack[-1].tag}>"
                raise _Refused(
                    f"{where} has more than {MAX_TABLE_LENGTH} <{tag}> entries;"
                    f" tables up to {MAX_TABLE_LENGTH} away are accepted"
                )
        if stack:
            stack[-1].children.append(node)
        else:
            roots.append(node)
        stack.append(node)

    def end(tag: str) -> None:
        node = stack.pop()
        raw = node.text.strip()
        if (
            tag == "length"
            and re.fullmatch(r"\d+", raw)
            and (len(raw) > 4 or int(raw) > MAX_TABLE_LENGTH)
        ):
            # Bounded work: a stated length over the limit is refused before the rows.
            raise _Refused(
                f"<length>: the table length must be 1..{MAX_TABLE_LENGTH} away (got {raw[:20]})"
            )

    def chars(data: str) -> None:
        if stack and len(stack[-1].text) < _MAX_TEXT:
            stack[-1].text += data[:_MAX_TEXT]

    def refuse_entity(name: str, *args: object) -> None:
        raise _Refused(f"entity declarations are not accepted (found {name!r})")

    def refuse_external(*args: object) -> int:
        raise _Refused("external entities are not accepted")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    parser.CommentHandler = comments.append
    parser.EntityDeclHandler = refuse_entity
    parser.UnparsedEntityDeclHandler = refuse_entity
    parser.ExternalEntityRefHandler = refuse_external
    try:
        parser.Parse(text, True)
    except _Refused as exc:
        raise ValueError(f"line {parser.CurrentLineNumber}: {exc}") from None
    except expat.ExpatError as exc:
        message = expat.ErrorString(exc.code)
        raise ValueError(f"line {exc.lineno}: not well-formed XML ({message})") from None
    return roots[0], comments


def _me_values(row: _Node, where: str) -> list[float]:
    values = []
    for j, me in enumerate(row.find("me"), start=1):
        values.append(_number(me.text, f"line {me.line}: <me> {j} of {where}"))
    return values


def _explicit(node: _Node) -> None:
    kind = node.attrs.get("type", "explicit")
    if kind != "explicit":
        raise ValueError(
            f"line {node.line}: <{node.tag} type={kind!r}> is generated by gnubg from a"
            " formula's parameters; only explicit tables (type='explicit') are read"
        )


@_table_doc
def parse_gnubg_xml(data: bytes | str, key: str = "upload") -> MatchEquityTable:
    """Read a match equity table in GNU Backgammon's XML format.

    The layout is ``met.dtd`` of [GNUBG]_ (see the module docstring): pre-Crawford
    ``pre[a - 1, b - 1] = M(a, b)`` from ``<row>`` ``a``, ``<me>`` ``b``; post-Crawford
    ``post[t - 1]`` from the ``<post-crawford-table>`` row (player 0's, or ``both``),
    ``post_opponent`` from ``player="1"`` when given.

    Parameters
    ----------
    {data}
    {key}

    Returns
    -------
    MatchEquityTable
        ``notice`` holds the file's first comment (where the copyright is kept).

    Raises
    ------
    ValueError
        Empty or oversized file, not well-formed XML, an entity declaration, a root
        other than ``<met>``, a missing element, a row of the wrong length, a table
        longer than :data:`cubecore.met.MAX_TABLE_LENGTH` (64), text where a number belongs.

    Examples
    --------
    >>> t = parse_gnubg_xml(
    ...     "<met><info><name>t</name><description/><length>2</length></info>"
    ...     "<pre-crawford-table type='explicit'><row><me>0.5</me><me>0.7</me></row>"
    ...     "<row><me>0.3</me><me>0.5</me></row></pre-crawford-table>"
    ...     "<post-crawford-table type='explicit' player='both'>"
    ...     "<row><me>0.5</me></row></post-crawford-table></met>"
    ... )
    >>> t.name, t.length, t.mwc(2, 1)
    ('t', 2, 0.3)
    """
    text = _text(data, "XML file")
    root, comments = _xml_tree(text)
    if root.tag != "met":
        raise ValueError(f"line {root.line}: the root element must be <met>, found <{root.tag}>")
    info = root.find("info")
    name, description, length = "uploaded table", "", None
    if info:
        for tag in ("name", "description"):
            found = info[0].find(tag)
            if found and found[0].text.strip():
                if tag == "name":
                    name = found[0].text.strip()
                else:
                    description = found[0].text.strip()
        found = info[0].find("length")
        if found:
            raw = found[0].text.strip()
            if not re.fullmatch(r"-?\d{1,9}", raw):
                raise ValueError(
                    f"line {found[0].line}: <length> must be a whole number, found {raw[:40]!r}"
                )
            length = int(raw)
            if length > MAX_TABLE_LENGTH:
                _length(length, f"line {found[0].line}: <length>")
    pres = root.find("pre-crawford-table")
    if not pres:
        raise ValueError(f"line {root.line}: <met> has no <pre-crawford-table>")
    pre_node = pres[0]
    _explicit(pre_node)
    rows = pre_node.find("row")
    if not rows:
        raise ValueError(f"line {pre_node.line}: <pre-crawford-table> has no <row>")
    n = length if length is not None and length > 0 else len(rows)
    _length(n, f"line {pre_node.line}: <pre-crawford-table>")
    if len(rows) != n:
        raise ValueError(
            f"line {pre_node.line}: <pre-crawford-table> has {len(rows)} rows,"
            f" expected {n} (the table's length)"
        )
    pre = []
    for i, row in enumerate(rows, start=1):
        values = _me_values(row, f"row {i} of <pre-crawford-table>")
        if len(values) != n:
            raise ValueError(
                f"line {row.line}: row {i} of <pre-crawford-table> has {len(values)}"
                f" <me> entries, expected {n}"
            )
        pre.append(values)
    posts = root.find("post-crawford-table")
    if not posts:
        raise ValueError(f"line {root.line}: <met> has no <post-crawford-table>")
    columns: dict[str, list[float]] = {}
    for node in posts:
        _explicit(node)
        player = node.attrs.get("player", "both")
        if player not in ("both", "0", "1"):
            raise ValueError(
                f"line {node.line}: <post-crawford-table player={player!r}>:"
                " expected player 'both', '0' or '1'"
            )
        post_rows = node.find("row")
        if len(post_rows) != 1:
            raise ValueError(
                f"line {node.line}: <post-crawford-table> must hold one <row>,"
                f" found {len(post_rows)}"
            )
        values = _me_values(post_rows[0], "<post-crawford-table>")
        _post_count(len(values), n, f"line {post_rows[0].line}: <post-crawford-table>")
        for who in ("0", "1") if player == "both" else (player,):
            columns[who] = values
    for who in ("0", "1"):
        if who not in columns:
            raise ValueError(
                f"line {posts[0].line}: no post-Crawford table for player {who}"
                " (give player='both', or one table each for player '0' and '1')"
            )
    same = columns["0"] == columns["1"]
    notice = textwrap.dedent(comments[0].strip("\n")).strip() if comments else ""
    return _table(
        key,
        name,
        pre,
        columns["0"],
        None if same else columns["1"],
        description,
        notice,
        "gnubg XML",
    )


# ----------------------------------------------------------------------------------
# XG .met
# ----------------------------------------------------------------------------------
def _xg_sections(text: str) -> dict[str, list[tuple[int, str, str]]]:
    sections: dict[str, list[tuple[int, str, str]]] = {}
    current: list[tuple[int, str, str]] | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith(";"):
            sections.setdefault(";", []).append((number, ";", line[1:].removeprefix(" ")))
            continue
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1].strip().lower(), [])
            continue
        if "=" not in line:
            raise ValueError(
                f"line {number}: expected 'key=value' or '[Section]', found {line[:40]!r}"
            )
        if current is None:
            raise ValueError(f"line {number}: {line[:40]!r} comes before any [Section]")
        name, value = line.split("=", 1)
        current.append((number, name.strip().lower(), value.strip()))
    return sections


def _xg_size(entries: list[tuple[int, str, str]], section: str, fallback: int) -> int:
    for number, name, value in entries:
        if name == "size":
            if not re.fullmatch(r"\d{1,9}", value):
                raise ValueError(
                    f"line {number}: Size in [{section}] must be a whole number,"
                    f" found {value[:40]!r}"
                )
            return _length(int(value), f"line {number}: Size in [{section}]")
    raise ValueError(f"line {fallback}: [{section}] has no Size=")


@_table_doc
def parse_xg_met(data: bytes | str, key: str = "upload") -> MatchEquityTable:
    """Read a match equity table in eXtreme Gammon's ``.met`` text format.

    Layout as in the module docstring ([XGMET]_): ``[PreCrawford]`` rows ``a=``
    give ``M(a, 1..Size)``; ``[PostCrawford]`` ``Data=`` gives the trailer's MWC at
    ``1..Size`` away; ``[Current]`` the name, description and copyright.

    Parameters
    ----------
    data : bytes or str
        The file's contents, at most :data:`MAX_FILE_BYTES` bytes (UTF-8, or
        Windows-1252 as XG writes them).
    {key}

    {returns_raises}

    Examples
    --------
    >>> t = parse_xg_met("[Current]\\nName=t\\n[PostCrawford]\\nSize=2\\nData=0.5 0.49\\n"
    ...                  "[PreCrawford]\\nSize=2\\n1=0.5 0.7\\n2=0.3 0.5\\n")
    >>> t.mwc(1, 2), t.mwc(2, 1, post_crawford=True)
    (0.7, 0.49)
    """
    text = _text(data, ".met file")
    sections = _xg_sections(text)
    for needed in ("precrawford", "postcrawford"):
        if needed not in sections:
            label = "PreCrawford" if needed == "precrawford" else "PostCrawford"
            raise ValueError(f"the .met file has no [{label}] section")
    last = len(text.splitlines())
    pre_entries = sections["precrawford"]
    n = _xg_size(pre_entries, "PreCrawford", last)
    rows: dict[int, list[float]] = {}
    for number, name, value in pre_entries:
        if name == "size":
            continue
        if not re.fullmatch(r"\d{1,9}", name) or not 1 <= int(name) <= n:
            raise ValueError(
                f"line {number}: expected a row number 1..{n} before '=' in [PreCrawford],"
                f" found {name[:40]!r}"
            )
        a = int(name)
        if a in rows:
            raise ValueError(f"line {number}: row {a} of [PreCrawford] is given twice")
        tokens = value.replace(",", " ").split()
        if len(tokens) != n:
            raise ValueError(
                f"line {number}: row {a} of [PreCrawford] has {len(tokens)} numbers, expected {n}"
            )
        rows[a] = [
            _number(t, f"line {number}: entry {j} of row {a}")
            for j, t in enumerate(tokens, start=1)
        ]
    missing = [a for a in range(1, n + 1) if a not in rows]
    if missing:
        raise ValueError(f"[PreCrawford] (Size={n}) is missing row {missing[0]}")
    post_entries = sections["postcrawford"]
    size = _xg_size(post_entries, "PostCrawford", last)
    data_lines = [(number, value) for number, name, value in post_entries if name == "data"]
    if not data_lines:
        raise ValueError("[PostCrawford] has no Data= line")
    number, value = data_lines[0]
    tokens = value.replace(",", " ").split()
    if len(tokens) != size:
        raise ValueError(
            f"line {number}: Data in [PostCrawford] has {len(tokens)} numbers, Size says {size}"
        )
    post = [
        _number(t, f"line {number}: post-Crawford entry {j}") for j, t in enumerate(tokens, start=1)
    ]
    _post_count(len(post), n, f"line {number}: [PostCrawford]")
    info = {name: value for _, name, value in sections.get("current", [])}
    comments = "\n".join(value for _, _, value in sections.get(";", [])).strip()
    notice = comments or info.get("copyright", "")
    return _table(
        key,
        info.get("name") or "uploaded table",
        [rows[a] for a in range(1, n + 1)],
        post,
        None,
        info.get("description", ""),
        notice,
        "XG .met",
    )


# ----------------------------------------------------------------------------------
# CSV
# ----------------------------------------------------------------------------------
def _fields(line: str) -> list[str]:
    return [cell.strip() for cell in re.split(r"[,;]", line)]


@_table_doc
def parse_csv(data: bytes | str, key: str = "upload") -> MatchEquityTable:
    """Read a match equity table from this project's plain CSV layout.

    Layout (module docstring): optional ``#`` comments (``# name:``,
    ``# description:``), a header ``away,1,...,n``, rows ``a,M(a,1),...,M(a,n)``,
    then ``post,P(1),...`` with ``n - 1`` or ``n`` entries.

    Parameters
    ----------
    {data}
    {key}

    {returns_raises}

    Examples
    --------
    >>> t = parse_csv("# name: t\\naway,1,2\\n1,0.5,0.7\\n2,0.3,0.5\\npost,0.5,0.49\\n")
    >>> t.name, t.mwc(2, 1), t.mwc(2, 1, post_crawford=True)
    ('t', 0.3, 0.49)
    """
    text = _text(data, "CSV file")
    name, description = "uploaded table", ""
    notice: list[str] = []
    lines = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("#"):
            body = line[1:].strip()
            label, _, rest = body.partition(":")
            if label.strip().lower() == "name" and rest.strip():
                name = rest.strip()
            elif label.strip().lower() == "description":
                description = rest.strip()
            else:
                notice.append(line[1:].removeprefix(" "))
            continue
        if line:
            lines.append((number, line))
    if not lines:
        raise ValueError("the CSV file has no header line 'away,1,2,...'")
    number, header = lines[0]
    cells = _fields(header)
    if cells[0].lower() != "away":
        raise ValueError(
            f"line {number}: expected the header 'away,1,2,...', found {header[:40]!r}"
        )
    n = len(cells) - 1
    _length(n, f"line {number}: header")
    if cells[1:] != [str(b) for b in range(1, n + 1)]:
        raise ValueError(f"line {number}: header columns must be 1,2,...,{n} in order")
    pre: list[list[float]] = []
    post: list[float] | None = None
    for number, line in lines[1:]:
        cells = _fields(line)
        label = cells[0].lower()
        if post is not None:
            raise ValueError(f"line {number}: nothing may follow the 'post' row")
        if label == "post":
            if len(pre) != n:
                raise ValueError(
                    f"line {number}: the 'post' row comes after {len(pre)} rows; expected {n}"
                )
            post = [
                _number(c, f"line {number}: post-Crawford entry {j}")
                for j, c in enumerate(cells[1:], start=1)
            ]
            _post_count(len(post), n, f"line {number}: 'post' row")
            continue
        expected = len(pre) + 1
        if label != str(expected):
            if len(pre) >= n:
                raise ValueError(
                    f"line {number}: expected the 'post' row after {n} rows,"
                    f" found {cells[0][:40]!r}"
                )
            raise ValueError(f"line {number}: expected row {expected}, found {cells[0][:40]!r}")
        if len(cells) - 1 != n:
            raise ValueError(
                f"line {number}: row {expected} has {len(cells) - 1} numbers, expected {n}"
            )
        pre.append(
            [
                _number(c, f"line {number}: column {j} of row {expected}")
                for j, c in enumerate(cells[1:], start=1)
            ]
        )
    if len(pre) != n:
        raise ValueError(f"the CSV file has {len(pre)} table rows, expected {n}")
    if post is None:
        raise ValueError("the CSV file has no 'post' row (post-Crawford MWC of the trailer)")
    return _table(key, name, pre, post, None, description, "\n".join(notice).strip(), "CSV")


# ----------------------------------------------------------------------------------
# Dispatch and writers
# ----------------------------------------------------------------------------------
def read_table(data: bytes | str, file_name: str, key: str = "upload") -> MatchEquityTable:
    """Read a table with the reader its file name's ending selects (:data:`FORMATS`).

    Examples
    --------
    >>> read_table("away,1\\n1,0.5\\npost,0.5\\n", "mine.csv").length
    1
    """
    if not isinstance(file_name, str):
        raise TypeError(f"`file_name` must be a str (got {type(file_name).__name__})")
    suffix = "." + file_name.rsplit(".", 1)[-1].lower() if "." in file_name else ""
    if suffix == ".xml":
        return parse_gnubg_xml(data, key)
    if suffix == ".met":
        return parse_xg_met(data, key)
    if suffix in (".csv", ".txt"):
        return parse_csv(data, key)
    known = ", ".join(FORMATS)
    raise ValueError(f"`file_name` must end in one of {known} (got {file_name[-40:]!r})")


def _format(value: float) -> str:
    return f"{value:.6f}".rstrip("0").rstrip(".") if value not in (0.0, 1.0) else f"{value:.1f}"


def to_csv(table: MatchEquityTable) -> str:
    """The table in the CSV layout :func:`parse_csv` reads (6 decimals).

    Examples
    --------
    >>> print(to_csv(parse_csv("away,1\\n1,0.5\\npost,0.5\\n")), end="")
    # name: uploaded table
    away,1
    1,0.5
    post,0.5
    """
    if not isinstance(table, MatchEquityTable):
        raise TypeError(f"`table` must be a MatchEquityTable (got {type(table).__name__})")
    lines = [f"# {line}".rstrip() for line in table.notice.splitlines()]
    lines.append(f"# name: {table.name}")
    if table.description:
        lines.append(f"# description: {table.description}")
    n = table.length
    lines.append("away," + ",".join(str(b) for b in range(1, n + 1)))
    for a in range(1, n + 1):
        lines.append(f"{a}," + ",".join(_format(v) for v in table.pre[a - 1]))
    lines.append("post," + ",".join(_format(v) for v in table.post))
    return "\n".join(lines) + "\n"


def to_xg_met(table: MatchEquityTable) -> str:
    """The table in XG's ``.met`` layout :func:`parse_xg_met` reads (6 decimals).

    Examples
    --------
    >>> "[PreCrawford]" in to_xg_met(parse_csv("away,1\\n1,0.5\\npost,0.5\\n"))
    True
    """
    if not isinstance(table, MatchEquityTable):
        raise TypeError(f"`table` must be a MatchEquityTable (got {type(table).__name__})")
    n = table.length
    lines = [f"; {line}".rstrip() for line in table.notice.splitlines()]
    lines += [
        "[Current]",
        f"Name={table.name}",
        f"Description={table.description}",
        f"Copyright={table.notice.splitlines()[0] if table.notice else ''}",
        "",
        "[PostCrawford]",
        f"Size={table.post_length}",
        "Data=" + " ".join(_format(v) for v in table.post),
        "",
        "[PreCrawford]",
        f"Size={n}",
    ]
    for a in range(1, n + 1):
        lines.append(f"{a:2d}=" + " ".join(_format(v) for v in table.pre[a - 1]))
    return "\n".join(lines) + "\n"
