"""Every table the app shows reads as a person writes (issue #20, item 3).

Over the page registry (:data:`ui.pages.PAGES`): every section at its defaults and
after every preset, every dataframe shown has human column labels (no snake_case
header), no "None" or "nan" cell (not applicable is "—") and no float within 1e-12
of zero that is not zero (Streamlit would print it in scientific notation).
"""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest

from tests.views import View, open_view, param
from ui.pages import PAGES

# reads pages as a visitor would, never patches: on the caches earlier such tests left
pytestmark = pytest.mark.shared_caches

#: A header written as code: lowercase words joined by underscores (``take_point``,
#: ``opening_won_A``), not a subscript of notation (``P[K_a = k]``).
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(_[A-Za-z0-9]+)+\b")
#: What a cell shows for a missing value when nobody chose a word for it.
MISSING_TEXT = {"None", "nan", "NaN", "<NA>", "NaT"}
#: Float noise: printed in scientific notation, meaning zero.
NOISE = 1e-12


def _views() -> list[View]:
    """Every section at its defaults, then after every preset it offers."""
    views = []
    for spec in PAGES:
        page = spec.page
        if page is None:
            continue
        for section in page.sections:
            views.append(View(spec.file, section.title))
            for label in {**page.presets, **section.presets}:
                views.append(View(spec.file, section.title, label))
    return views


def _config(element) -> dict:
    """The dataframe's column configuration, by column name."""
    return json.loads(element.proto.columns or "{}")


def _headers(element) -> list[str]:
    """The column headers as shown: a column_config label wins over the column name."""
    config = _config(element)
    return [str(config.get(str(c), {}).get("label") or c) for c in element.value.columns]


def _fixed_decimals(element, column) -> bool:
    """Whether ``column`` is shown with a fixed number of decimals (no scientific notation)."""
    number_format = _config(element).get(str(column), {}).get("type_config", {}).get("format")
    return bool(number_format) and re.fullmatch(r"%\.\d+f", number_format) is not None


def table_problems(element) -> list[str]:
    """What in one shown dataframe does not read as a person writes."""
    frame = element.value
    problems = [f"header {h!r}" for h in _headers(element) if SNAKE.search(h)]
    for column in frame.columns:
        values = frame[column]
        for value in values.tolist():
            if value is None or (isinstance(value, float) and math.isnan(value)):
                problems.append(f"column {column!r}: missing value shown as None")
                break
            if isinstance(value, str) and value.strip() in MISSING_TEXT:
                problems.append(f"column {column!r}: cell {value!r}")
                break
            noise = isinstance(value, float | np.floating) and 0 < abs(value) <= NOISE
            if noise and not _fixed_decimals(element, column):
                problems.append(f"column {column!r}: float noise {value!r}")
                break
    return problems


@pytest.mark.parametrize(
    ("page", "section", "preset"),
    [param(view, view.page, view.section, view.preset) for view in _views()],
    ids=str,
)
def test_every_table_reads_as_written(page, section, preset):
    at = open_view(View(page, section, preset))
    assert not at.exception, [e.message for e in at.exception]
    problems = [
        f"table {index}: {problem}"
        for index, element in enumerate(at.dataframe)
        for problem in table_problems(element)
    ]
    assert not problems, problems
