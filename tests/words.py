"""Every text a reader can see in an AppTest run, and the developer words that must not be
in it (issue #37 item 15: "every message a user can see is in a player's words").

:func:`visible_texts` walks the run's element tree (main area and sidebar) and returns
each text with where it stands: markdown, captions, notices, titles, metrics, widget
labels, options and help, tab and panel labels, table column names and the charts'
titles, axis titles, legend names and annotations. It leaves out what is not prose a
player reads: the share box's link (a code block), formulas (LaTeX), the page's own
style and script (``st.html``), the tags of the app's own HTML links, and the values of
a widget, which are the reader's. A table's text cells are read too.

:func:`developer_words` names what in a text reads like code: backticks, identifiers
(``snake_case``, ``name=True``, ``f()``, dotted module names), Python's literals,
quoted internal keys (an option's slug beside its label), developer remarks
("(tests)", "got '...'") and issue numbers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator

from google.protobuf.message import Message

#: Element types whose text is not prose a player reads, or is the reader's own.
_SKIPPED_ELEMENTS = frozenset({"html", "code", "latex", "exception", "empty", "image", "imgs"})
#: An HTML tag in Markdown (the app's own links): its name and attributes are not shown.
_TAG = re.compile(r"<[^<>]*>")
#: Proto fields that are not shown as text (ids, links, formats, icons, data).
_SKIPPED_FIELDS = frozenset(
    {
        "id",
        "form_id",
        "query_param_key",
        "key",
        "page",
        "page_script_hash",
        "query_string",
        "url",
        "spec",
        "data",
        "format",
        "icon",
        "theme",
        "value",
        "default",
        "raw_value",
        "file_name",
        "mime_type",
        "columns",
        "selection_mode",
        "editing_mode",
        "column_order",
        "styler",
        "label_visibility",
        "type",
        "placeholder_text",
        "deploy_params",
        "element_id",
    }
)


def _proto_strings(message: Message, path: str) -> Iterator[tuple[str, str]]:
    for field, value in message.ListFields():
        if field.name in _SKIPPED_FIELDS:
            continue
        where = f"{path}.{field.name}"
        items = value if field.is_repeated else [value]
        for item in items:
            if isinstance(item, Message):
                yield from _proto_strings(item, where)
            elif isinstance(item, str) and item.strip():
                yield where, item


def _chart_texts(spec_json: str) -> Iterator[tuple[str, str]]:
    spec = json.loads(spec_json)
    layout = spec.get("layout", {})

    def title(node: object) -> str:
        if isinstance(node, dict):
            return str(node.get("text", ""))
        return str(node or "")

    yield "chart title", title(layout.get("title"))
    for name, axis in layout.items():
        if name.startswith(("xaxis", "yaxis")) and isinstance(axis, dict):
            yield f"chart {name}", title(axis.get("title"))
    for annotation in layout.get("annotations", []):
        yield "chart annotation", str(annotation.get("text", ""))
    for trace in spec.get("data", []):
        if trace.get("showlegend", True) and trace.get("name"):
            yield "chart legend", str(trace["name"])


def _walk(node: object, where: str) -> Iterator[tuple[str, str]]:
    children = getattr(node, "children", None)
    proto = getattr(node, "proto", None)
    kind = getattr(node, "type", "")
    if isinstance(children, dict):  # a block: its label (a tab, a panel), then its children
        if isinstance(proto, Message):
            for field, text in _proto_strings(proto, kind or "block"):
                yield f"{where} > {field}", text
        for index, child in children.items():
            yield from _walk(child, f"{where}/{index}")
        return
    if kind in _SKIPPED_ELEMENTS or not isinstance(proto, Message):
        return
    if kind == "markdown" and proto.body.lstrip().startswith("$$"):
        return  # a formula (st.latex)
    if kind == "plotly_chart":
        for field, text in _chart_texts(proto.spec):
            if text.strip():
                yield f"{where} > {field}", text
        return
    if kind in ("dataframe", "table"):
        frame = getattr(node, "value", None)
        if frame is not None:
            config = json.loads(getattr(proto, "columns", "") or "{}")
            for column in frame.columns:
                header = (config.get(str(column)) or {}).get("label") or column
                yield f"{where} > table column", str(header)
            for column in frame.select_dtypes(include=["object", "string"]).columns:
                for cell in frame[column].dropna().astype(str).unique():
                    yield f"{where} > table cell of {column}", cell
        return
    for field, text in _proto_strings(proto, kind):
        yield f"{where} > {field}", _TAG.sub(" ", text)


def visible_texts(at) -> list[tuple[str, str]]:
    """Every ``(where, text)`` a reader can see in the run ``at`` (main area and sidebar)."""
    return [*_walk(at.main, "main"), *_walk(at.sidebar, "sidebar")]


#: What reads like code in a text a player sees, each with what it is.
_DEVELOPER_PATTERNS = (
    (re.compile(r"`"), "a backtick"),
    (re.compile(r"\b[a-z][a-z0-9]+_[a-z0-9_]+\b"), "a snake_case identifier"),
    (re.compile(r"\b\w+=(True|False|None)\b"), "a Python keyword argument"),
    (re.compile(r"\b(True|False|None)\b"), "a Python literal"),
    (re.compile(r"\b[A-Za-z_]\w*\(\)"), "a function call"),
    # not a web address's host (https://numpy.org/neps/...: a source's URL)
    (
        re.compile(r"(?<![/.])\b(cubecore|streamlit|ui|st|np|pd|numpy|pandas)\.[a-z_]\w*"),
        "a module",
    ),
    (re.compile(r"\bcubecore\b"), "the compute package's name"),
    (re.compile(r"\(tests?\)"), "a developer remark"),
    (re.compile(r"\(got '"), "a programmer's error message"),
    (re.compile(r"(?i)\bissue #?\d+|#\d{2,}\b"), "an issue number"),
)


def developer_words(text: str, internal_keys: Iterable[str] = ()) -> list[str]:
    """What in ``text`` reads like code, as ``"what: the words"``; empty if nothing.

    ``internal_keys`` are names the code knows and the reader does not (the slugs of
    options shown by their labels): one in quotes is reported.
    """
    found = [
        f"{what}: {match.group(0)!r}"
        for pattern, what in _DEVELOPER_PATTERNS
        for match in pattern.finditer(text)
    ]
    for key in internal_keys:
        if re.search(rf"['\"]{re.escape(key)}['\"]", text):
            found.append(f"an internal key: {key!r}")
    return found


#: A decimal number written in a text cell ("0.21277", "-1.5", "12.3456%").
_WRITTEN_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+\.(\d+)(?![\w.])")
#: A column's number format as the app writes it (``%.4f``).
_PRINTF = re.compile(r"%[-+ 0#]*\d*\.(\d+)[fe%]")


def _needed_decimals(values: Iterable[float], most: int = 12) -> int:
    """The decimals a float column needs to show every value as it is (up to ``most``)."""
    import numpy as np

    numbers = np.asarray(list(values), dtype=float)
    numbers = numbers[np.isfinite(numbers) & (np.abs(numbers) >= 1e-12)]
    tolerance = 1e-9 * np.maximum(1.0, np.abs(numbers))
    for places in range(most + 1):
        if np.all(np.abs(numbers - np.round(numbers, places)) <= tolerance):
            return places
    return most


def table_decimals(at) -> list[tuple[str, str, int]]:
    """Every table's columns as the reader sees them: ``(where, header, decimals)``, the
    decimals a number of the column shows at most (its format's, else what its values
    need; a text column's written numbers)."""
    found: list[tuple[str, str, int]] = []
    tables = [*at.get("dataframe"), *at.get("table")]
    for index, element in enumerate(tables):
        frame = element.value
        config = json.loads(getattr(element.proto, "columns", "") or "{}")
        for name in frame.columns:
            settings = config.get(str(name), config.get(f"col:{name}", {})) or {}
            header = str(settings.get("label") or name)
            column = frame[name]
            kind = getattr(column.dtype, "kind", "O")
            if kind == "f":
                fmt = str((settings.get("type_config") or {}).get("format") or "")
                match = _PRINTF.search(fmt)
                places = int(match.group(1)) if match else _needed_decimals(column)
            elif kind in "iub":
                places = 0
            else:
                places = max(
                    (
                        len(m.group(1))
                        for cell in column.dropna().astype(str)
                        for m in _WRITTEN_NUMBER.finditer(cell)
                    ),
                    default=0,
                )
            found.append((f"table {index}", header, places))
    return found
