"""Tests for cubecore.met_io: the gnubg XML, XG .met and CSV readers and writers.

Every malformed-file case of issue 13 (empty, wrong root, missing entries, text in a
number, 10 MB of junk, a 200x200 table) has a test per format with its message.
"""

from __future__ import annotations

from pathlib import Path

import hypothesis.strategies as hst
import numpy as np
import pytest
from hypothesis import given, settings
from numpy.testing import assert_allclose

from cubecore.met import MAX_TABLE_LENGTH, MatchEquityTable, load_table, model_table
from cubecore.met_io import (
    MAX_FILE_BYTES,
    parse_csv,
    parse_gnubg_xml,
    parse_xg_met,
    read_table,
    to_csv,
    to_xg_met,
)

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "met"
READERS = {"xml": parse_gnubg_xml, "met": parse_xg_met, "csv": parse_csv}


def _entry(middle: float, steps: int, n: int) -> str:
    """A table entry ``steps`` steps from ``middle``: 0.01 a step (two decimals), 0.005
    (three) for a table longer than 40-away, whose entries must stay in [0, 1]."""
    return f"{middle + 0.01 * steps:.2f}" if n <= 40 else f"{middle + 0.005 * steps:.3f}"


def _xml(n: int, rows: list[str] | None = None, post: str | None = None, head: str = "") -> str:
    """A gnubg XML table of length ``n`` (rows and the post row replaceable)."""
    if rows is None:
        rows = [
            "<row>" + "".join(f"<me>{_entry(0.5, j - i, n)}</me>" for j in range(n)) + "</row>"
            for i in range(n)
        ]
    if post is None:
        post = "<row>" + "".join(f"<me>{_entry(0.5, -j, n)}</me>" for j in range(n)) + "</row>"
    return (
        f"{head}<met><info><name>x</name><description>d</description><length>{n}</length>"
        f"</info>\n<pre-crawford-table type='explicit'>\n"
        + "\n".join(rows)
        + "\n</pre-crawford-table>\n<post-crawford-table type='explicit' player='both'>\n"
        + post
        + "\n</post-crawford-table></met>\n"
    )


# ----------------------------------------------------------------------------------
# The sample files: Woolsey's table, one per format, equal to the bundled one
# ----------------------------------------------------------------------------------
@pytest.mark.parametrize("suffix", ["xml", "met", "csv"])
def test_uploaded_woolsey_equals_the_bundled_table(suffix):
    data = (SAMPLES / f"woolsey.{suffix}").read_bytes()
    table = read_table(data, f"woolsey.{suffix}")
    bundled = load_table("woolsey")
    assert table.name == "Kit Woolsey"
    assert table.length == bundled.length == 15
    assert_allclose(table.pre, bundled.pre, rtol=0, atol=0)
    assert_allclose(table.post, bundled.post, rtol=0, atol=0)
    assert "Copyright (C) 1992 Kit Woolsey" in table.notice


def test_gnubg_xml_reads_every_explicit_gnubg_data_table():
    # the bundled tables were read with this reader; re-read the Jacobs & Trice +50
    # sample of two post-Crawford columns from its own bundled numbers
    jt50 = load_table("jt50")
    rows = [
        "<row>" + "".join(f"<me>{v!r}</me>" for v in row) + "</row>" for row in jt50.pre.tolist()
    ]
    post = "".join(
        f"<post-crawford-table type='explicit' player='{p}'><row>"
        + "".join(f"<me>{v!r}</me>" for v in column.tolist())
        + "</row></post-crawford-table>"
        for p, column in (("0", jt50.post), ("1", jt50.post_opponent))
    )
    text = (
        "<met><info><name>j</name><length>25</length></info><pre-crawford-table>"
        + "".join(rows)
        + "</pre-crawford-table>"
        + post
        + "</met>"
    )
    table = parse_gnubg_xml(text)
    assert_allclose(table.post_opponent, jt50.post_opponent, rtol=0, atol=0)
    assert table.mwc(1, 3, post_crawford=True) == pytest.approx(1 - 0.298)


# ----------------------------------------------------------------------------------
# The malformed-file cases of the issue
# ----------------------------------------------------------------------------------
@pytest.mark.parametrize("reader", READERS.values(), ids=READERS)
@pytest.mark.parametrize("data", ["", b"", "  \n\t\n"])
def test_empty_file(reader, data):
    with pytest.raises(ValueError, match=r"^the (XML|\.met|CSV) file is empty$"):
        reader(data)


@pytest.mark.parametrize("reader", READERS.values(), ids=READERS)
def test_ten_megabytes_of_junk_are_refused_before_parsing(reader):
    junk = np.random.default_rng(13).integers(0, 256, 10 * 2**20, dtype=np.uint8).tobytes()
    with pytest.raises(ValueError, match=r"is 10,485,760 bytes; files up to 1,000,000 bytes"):
        reader(junk)
    with pytest.raises(ValueError, match=r"files up to 1,000,000 bytes are accepted"):
        reader("x" * (MAX_FILE_BYTES + 1))


def test_not_a_str_or_bytes():
    with pytest.raises(
        TypeError, match=r"`data` \(the XML file\) must be bytes or str \(got int\)"
    ):
        parse_gnubg_xml(5)  # type: ignore[arg-type]


def test_xml_wrong_root():
    text = "<?xml version='1.0'?>\n<html><body/></html>"
    with pytest.raises(ValueError, match=r"^line 2: the root element must be <met>, found <html>$"):
        parse_gnubg_xml(text)


def test_xml_junk_is_not_well_formed():
    with pytest.raises(
        ValueError, match=r"^line 1: not well-formed XML \(not well-formed \(invalid token\)\)$"
    ):
        parse_gnubg_xml(b"\x89PNG junk")


def test_xml_missing_entries():
    rows = _xml(3).split("\n")[2:5]
    short = [rows[0], rows[1].replace("<me>0.51</me></row>", "</row>"), rows[2]]
    with pytest.raises(
        ValueError,
        match=r"^line 4: row 2 of <pre-crawford-table> has 2 <me> entries, expected 3$",
    ):
        parse_gnubg_xml(_xml(3, rows=short))
    with pytest.raises(ValueError, match=r"has 2 rows, expected 3 \(the table's length\)"):
        parse_gnubg_xml(_xml(3, rows=rows[:2]))
    with pytest.raises(ValueError, match=r"expected 2 or 3 post-Crawford entries .* found 1"):
        parse_gnubg_xml(_xml(3, post="<row><me>0.5</me></row>"))
    with pytest.raises(ValueError, match=r"^line 1: <met> has no <pre-crawford-table>$"):
        parse_gnubg_xml("<met><info><name>x</name></info></met>")
    no_post = _xml(2).split("<post-crawford-table")[0] + "</met>"
    with pytest.raises(ValueError, match=r"<met> has no <post-crawford-table>$"):
        parse_gnubg_xml(no_post)
    only_0 = _xml(2).replace("player='both'", "player='0'")
    with pytest.raises(ValueError, match=r"no post-Crawford table for player 1"):
        parse_gnubg_xml(only_0)


def test_xml_text_in_a_number():
    text = _xml(3).replace("<me>0.51</me>", "<me>abc</me>", 1)
    with pytest.raises(
        ValueError,
        match=r"^line 3: <me> 2 of row 1 of <pre-crawford-table>: expected a number, found 'abc'$",
    ):
        parse_gnubg_xml(text)
    with pytest.raises(ValueError, match=r"expected a finite number, found 'nan'"):
        parse_gnubg_xml(_xml(2).replace("<me>0.51</me>", "<me>nan</me>", 1))
    with pytest.raises(ValueError, match=r"<length> must be a whole number, found 'ten'"):
        parse_gnubg_xml(_xml(2).replace("<length>2</length>", "<length>ten</length>"))


def test_xml_a_200x200_table_is_refused():
    text = _xml(200)
    assert len(text.encode()) < MAX_FILE_BYTES  # refused for its length, not its size
    with pytest.raises(
        ValueError, match=r"^line 1: <length>: the table length must be 1\.\.64 away \(got 200\)$"
    ):
        parse_gnubg_xml(text)
    # without a <length>, at the 65th entry of the first row, before reading the rest
    unstated = text.replace("<length>200</length>", "")
    with pytest.raises(
        ValueError,
        match=r"^line 3: <row> has more than 64 <me> entries; tables up to 64 away are accepted$",
    ):
        parse_gnubg_xml(unstated)


def test_xml_entity_declarations_are_refused():
    laughs = (
        '<?xml version="1.0"?>\n<!DOCTYPE met [\n <!ENTITY lol "lol">\n'
        ' <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">\n]>\n'
        "<met><info><name>&lol2;</name></info></met>"
    )
    with pytest.raises(
        ValueError, match=r"^line 3: entity declarations are not accepted \(found 'lol'\)$"
    ):
        parse_gnubg_xml(laughs)
    external = (
        '<?xml version="1.0"?>\n<!DOCTYPE met [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
        "<met>&x;</met>"
    )
    with pytest.raises(ValueError, match=r"entity declarations are not accepted \(found 'x'\)"):
        parse_gnubg_xml(external)


def test_xml_external_dtd_is_not_loaded():
    # gnubg's own files name met.dtd as an external DTD; it is never fetched
    head = (
        '<?xml version = "1.0"?>\n<!DOCTYPE met PUBLIC "-//GNU Backgammon//DTD Match'
        ' Equity Tables//EN" "http://example.invalid/met.dtd">\n'
    )
    assert parse_gnubg_xml(_xml(2, head=head)).length == 2


def test_xml_generated_tables_are_refused():
    text = (
        "<met><info><name>N. Zadeh</name><length>-1</length></info>\n"
        "<pre-crawford-table type='zadeh'><parameters/></pre-crawford-table></met>"
    )
    with pytest.raises(
        ValueError,
        match=r"^line 2: <pre-crawford-table type='zadeh'> is generated by gnubg from a"
        r" formula's parameters; only explicit tables",
    ):
        parse_gnubg_xml(text)


def _met(n: int, rows: list[str] | None = None, post: str | None = None) -> str:
    if rows is None:
        rows = [
            f"{i + 1:2d}=" + " ".join(_entry(0.5, j - i, n) for j in range(n)) for i in range(n)
        ]
    if post is None:
        post = "Data=" + " ".join(_entry(0.5, -j, n) for j in range(n))
    return (
        "[Current]\nName=x\nDescription=d\nCopyright=(c) me\n\n"
        f"[PostCrawford]\nSize={n}\n{post}\n\n[PreCrawford]\nSize={n}\n" + "\n".join(rows) + "\n"
    )


def test_met_wrong_root():
    with pytest.raises(ValueError, match=r"^the \.met file has no \[PreCrawford\] section$"):
        parse_xg_met("[Current]\nName=x\n")
    with pytest.raises(ValueError, match=r"^line 1: expected 'key=value' or '\[Section\]'"):
        parse_xg_met("<met></met>")
    with pytest.raises(ValueError, match=r"^line 1: 'Name=x' comes before any \[Section\]$"):
        parse_xg_met("Name=x\n")


def test_met_missing_entries():
    rows = _met(3).splitlines()[-3:]
    with pytest.raises(ValueError, match=r"^\[PreCrawford\] \(Size=3\) is missing row 3$"):
        parse_xg_met(_met(3, rows=rows[:2]))
    with pytest.raises(
        ValueError, match=r"^line 12: row 1 of \[PreCrawford\] has 2 numbers, expected 3$"
    ):
        parse_xg_met(_met(3, rows=["1=0.5 0.6", *rows[1:]]))
    with pytest.raises(ValueError, match=r"^line 8: Data in \[PostCrawford\] has 2 numbers"):
        parse_xg_met(_met(3, post="Data=0.5 0.49"))
    with pytest.raises(ValueError, match=r"^\[PostCrawford\] has no Data= line$"):
        parse_xg_met(_met(3, post=""))
    with pytest.raises(ValueError, match=r"row 2 of \[PreCrawford\] is given twice"):
        parse_xg_met(_met(3, rows=[rows[0], rows[1], rows[1]]))


def test_met_text_in_a_number():
    text = _met(3).replace(" 1=0.50 0.51", " 1=0.50 abc")
    with pytest.raises(
        ValueError, match=r"^line 12: entry 2 of row 1: expected a number, found 'abc'$"
    ):
        parse_xg_met(text)
    with pytest.raises(ValueError, match=r"Size in \[PreCrawford\] must be a whole number"):
        parse_xg_met(_met(2).replace("[PreCrawford]\nSize=2", "[PreCrawford]\nSize=two"))


def test_met_a_200x200_table_is_refused():
    text = _met(200)
    assert len(text.encode()) < MAX_FILE_BYTES
    with pytest.raises(
        ValueError,
        match=r"^line 11: Size in \[PreCrawford\]: the table length must be 1\.\.64 away",
    ):
        parse_xg_met(text)


def _csv(n: int, rows: list[str] | None = None, post: str | None = None) -> str:
    if rows is None:
        rows = [f"{i + 1}," + ",".join(_entry(0.5, j - i, n) for j in range(n)) for i in range(n)]
    if post is None:
        post = "post," + ",".join(_entry(0.5, -j, n) for j in range(n))
    header = "away," + ",".join(str(b) for b in range(1, n + 1))
    return "# name: x\n" + header + "\n" + "\n".join(rows) + "\n" + post + "\n"


def test_csv_wrong_root():
    with pytest.raises(ValueError, match=r"^line 1: expected the header 'away,1,2,...'"):
        parse_csv("a,b,c\n1,2,3\n")
    with pytest.raises(ValueError, match=r"^line 2: header columns must be 1,2,...,3 in order$"):
        parse_csv("# name: x\naway,1,3,2\n")


def test_csv_missing_entries():
    rows = _csv(3).splitlines()[2:5]
    with pytest.raises(
        ValueError, match=r"^line 5: the 'post' row comes after 2 rows; expected 3$"
    ):
        parse_csv(_csv(3, rows=rows[:2]))
    with pytest.raises(ValueError, match=r"^line 4: row 2 has 2 numbers, expected 3$"):
        parse_csv(_csv(3, rows=[rows[0], "2,0.4,0.5", rows[2]]))
    with pytest.raises(ValueError, match=r"^line 4: expected row 2, found '3'$"):
        parse_csv(_csv(3, rows=[rows[0], rows[2], rows[1]]))
    with pytest.raises(ValueError, match=r"^the CSV file has no 'post' row"):
        parse_csv(_csv(3, post=""))
    with pytest.raises(ValueError, match=r"expected 2 or 3 post-Crawford entries"):
        parse_csv(_csv(3, post="post,0.5"))


def test_csv_text_in_a_number():
    with pytest.raises(
        ValueError, match=r"^line 3: column 2 of row 1: expected a number, found 'abc'$"
    ):
        parse_csv(_csv(3).replace("1,0.50,0.51", "1,0.50,abc"))


def test_csv_a_200x200_table_is_refused():
    text = _csv(200)
    assert len(text.encode()) < MAX_FILE_BYTES
    with pytest.raises(
        ValueError, match=r"^line 2: header: the table length must be 1\.\.64 away \(got 200\)$"
    ):
        parse_csv(text)


def test_percent_tables_are_refused_with_a_hint():
    with pytest.raises(
        ValueError,
        match=r"^the CSV table's numbers look like percentages \(median 50\); give match"
        r" winning chances in \[0, 1\], e\.g\. 0\.5 for 50%$",
    ):
        parse_csv("away,1,2\n1,50,70\n2,30,50\npost,50,49\n")
    # a single cell out of range is refused, named
    with pytest.raises(ValueError, match=r"M\(1, 2\) = 1\.7 is outside \[0, 1\]"):
        parse_csv("away,1,2\n1,0.5,1.7\n2,0.3,0.5\npost,0.5,0.49\n")


@pytest.mark.parametrize(
    ("cells", "named"),
    [
        (("0", "0", "0", "0"), r"M\(1, 1\) \+ M\(1, 1\) = 0, off by 1"),
        (("1", "1", "1", "1"), r"M\(1, 1\) \+ M\(1, 1\) = 2, off by 1"),
        (("-0.5", "0.5", "0.5", "0.5"), r"M\(1, 1\) = -0\.5 is outside \[0, 1\]"),
        (("1e300", "0.5", "0.5", "0.5"), r"M\(1, 1\) = 1e\+300 is outside \[0, 1\]"),
        (("0.5", "-1e300", "1e300", "0.5"), r"M\(1, 2\) = -1e\+300 is outside \[0, 1\]"),
    ],
)
def test_degenerate_tables_are_refused_naming_the_cells(cells, named):
    # issue #38, item 5: they were read, and the page showed nan, inf and 309 digits
    m11, m12, m21, m22 = cells
    text = f"away,1,2\n1,{m11},{m12}\n2,{m21},{m22}\npost,0.5,0.49\n"
    with pytest.raises(ValueError, match=r"^the CSV table is not a match equity table: .*" + named):
        parse_csv(text)


def test_misprints_within_a_point_are_read_as_published():
    # Ortega & Kleinman (M(7, 8) + M(8, 7) = 0.998) and mec (P(4) above P(3) by 0.003)
    for key in ("ortega", "mec"):
        table = load_table(key)
        assert parse_csv(to_csv(table)).length == table.length
    with pytest.raises(ValueError, match=r"M\(1, 2\) \+ M\(2, 1\) = 1\.02, off by 0\.02"):
        parse_csv("away,1,2\n1,0.5,0.72\n2,0.3,0.5\npost,0.5,0.49\n")


@pytest.mark.parametrize(("suffix", "writer"), [("met", to_xg_met), ("csv", to_csv)])
def test_sample_files_are_what_the_writers_make(suffix, writer):
    text = (SAMPLES / f"woolsey.{suffix}").read_text(encoding="utf-8")
    assert text == writer(parse_gnubg_xml((SAMPLES / "woolsey.xml").read_bytes()))


def test_read_table_picks_the_reader_by_name():
    assert read_table(_csv(2), "Mine.CSV").length == 2
    assert read_table(_met(2), "x.met").length == 2
    assert read_table(_xml(2), "x.xml").length == 2
    with pytest.raises(ValueError, match=r"`file_name` must end in one of .xml, .met, .csv, .txt"):
        read_table(_csv(2), "table.xlsx")


def test_the_longest_accepted_table_reads():
    assert parse_gnubg_xml(_xml(MAX_TABLE_LENGTH)).length == MAX_TABLE_LENGTH
    assert parse_xg_met(_met(MAX_TABLE_LENGTH)).length == MAX_TABLE_LENGTH
    assert parse_csv(_csv(MAX_TABLE_LENGTH)).length == MAX_TABLE_LENGTH


# ----------------------------------------------------------------------------------
# Writers: what they write reads back
# ----------------------------------------------------------------------------------
@settings(max_examples=20, deadline=None)
@given(g=hst.floats(0.0, 0.5), x=hst.floats(0.0, 1.0), n=hst.integers(1, 6))
def test_writers_round_trip_to_six_decimals(g, x, n):
    table = model_table(g, x, n)
    for text, reader in ((to_csv(table), parse_csv), (to_xg_met(table), parse_xg_met)):
        back = reader(text)
        assert back.name == table.name
        assert_allclose(back.pre, table.pre, rtol=0, atol=5e-7 + 1e-12)
        assert_allclose(back.post, table.post, rtol=0, atol=5e-7 + 1e-12)


@settings(max_examples=40, deadline=None)
@given(junk=hst.binary(max_size=400) | hst.text(max_size=400))
def test_any_input_gives_a_table_or_a_value_error(junk):
    for reader in READERS.values():
        try:
            result = reader(junk)
        except ValueError:
            continue
        assert isinstance(result, MatchEquityTable)


@pytest.mark.parametrize(
    ("reader", "data", "message"),
    [
        (
            parse_gnubg_xml,
            "<met><info><length>" + "9" * 5000 + "</length></info></met>",
            r"^line 1: <length>: the table length must be 1\.\.64 away \(got 9{20}\)$",
        ),
        (
            parse_gnubg_xml,
            '<!DOCTYPE met [<!ENTITY % p "x">]><met/>',
            r"^line 1: entity declarations are not accepted \(found 'p'\)$",
        ),
        (
            parse_gnubg_xml,
            "<met>" + "<a>" * 20000 + "</a>" * 20000 + "</met>",
            r"^line 1: too many elements for a match equity table$",
        ),
        (
            parse_xg_met,
            "[PreCrawford]\nSize=" + "9" * 5000 + "\n[PostCrawford]\nSize=1\nData=0.5\n",
            r"^line 2: Size in \[PreCrawford\] must be a whole number",
        ),
        (
            parse_csv,
            "away,1\n1,0_5\npost,0.5\n",
            r"^line 2: column 1 of row 1: expected a number, found '0_5'$",
        ),
    ],
)
def test_hostile_inputs_get_a_named_message(reader, data, message):
    with pytest.raises(ValueError, match=message):
        reader(data)


def test_read_table_needs_a_file_name_string():
    with pytest.raises(TypeError, match=r"`file_name` must be a str \(got NoneType\)"):
        read_table("away,1\n1,0.5\npost,0.5\n", None)  # type: ignore[arg-type]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32", "utf-8-sig"])
@pytest.mark.parametrize("name", ["woolsey.xml", "woolsey.met", "woolsey.csv"])
def test_a_unicode_file_with_a_byte_order_mark_is_read(name, encoding):
    # issue #38, item 9: a UTF-16 upload (Windows' "Unicode") was refused with a message
    # showing its bytes decoded as Windows-1252 ('ÿþ#\x00 \x00C...')
    text = (SAMPLES / name).read_bytes().decode("utf-8")
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + text.encode("utf-16-be")
    else:
        data = text.encode(encoding)
    assert_allclose(read_table(data, name).pre, load_table("woolsey").pre, rtol=0, atol=0)


def test_utf16_without_a_byte_order_mark_is_named():
    data = (SAMPLES / "woolsey.csv").read_bytes().decode("utf-8").encode("utf-16-le")
    with pytest.raises(
        ValueError, match=r"^the CSV file has NUL bytes: it looks like UTF-16 or UTF-32 text"
    ):
        read_table(data, "woolsey.csv")
    with pytest.raises(ValueError, match=r"starts as UTF-16 text but byte 4 is not UTF-16"):
        read_table(b"\xff\xfea\x00\x00\xdc", "broken.csv")  # a lone low surrogate
