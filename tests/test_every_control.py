"""Every control of every page over its whole grid, through the link: no exception, finite numbers.

The walk reads the page registry (:data:`ui.pages.PAGES`), so a new page is walked
too. One control at a time, the others at their defaults, its section open and any
control it depends on set as it requires; each value is put in the link and the
page opened as a shared link opens it (``open_page``). Values: the grid's ends,
every value of a small grid (choices, toggles, tabs, sliders of a few steps), and
for a large grid a fixed, derandomized hypothesis sample of values anywhere in the
range (between grid points too: they snap, with a notice). A section's own link at
the defaults is read from that view's shared run (:mod:`tests.views`).

The page must not raise, and no metric, text or caption may show ``nan``, ``inf``
or ``None``; no table cell and no chart value may be infinite. The cost is fixed:
:data:`EXAMPLES` sampled values per slider, one test per control (``-n 2`` splits
them).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as hst

from tests.test_hostile_links import assert_finite_page, read_as_markdown
from tests.views import View, open_view
from ui.controls import Control
from ui.pages import PAGES, PageSpec
from ui.skeleton import SECTION_KEY

# reads pages as a visitor would, never patches: on the caches earlier such tests left
pytestmark = pytest.mark.shared_caches

#: A grid of at most this many values is walked in full.
SMALL_GRID = 6
#: Sampled values per slider with a larger grid (beside its two ends).
EXAMPLES = 2


def _section_of(spec: PageSpec, control: Control) -> dict[str, str]:
    """The link that opens the section where ``control`` acts (none for page-wide ones)."""
    page = spec.page
    if page is None:
        return {}
    for section in page.sections[1:]:
        if control in section.controls:
            return {SECTION_KEY: section.title}
    return {}


def _cases() -> list[tuple[PageSpec, Control]]:
    return [(spec, control) for spec in PAGES for control in spec.controls]


def _grid(control: Control) -> list[str]:
    """Every value of a small grid, else its ends (the sample adds the rest)."""
    if control.kind in ("select", "tabs"):
        return list(control.options)
    if control.kind == "bool":
        return ["true", "false"]
    if control.kind == "text":
        return [control.format(control.default)]
    steps = round((control.high - control.low) / control.step)
    if steps + 1 <= SMALL_GRID:
        grid = (control.snap(control.low + k * control.step) for k in range(steps + 1))
        return [control.format(value) for value in grid]
    return [control.format(control.low), control.format(control.high)]


def assert_finite_data(at) -> None:
    """No table cell and no chart value is infinite."""
    for frame in at.dataframe:
        numbers = frame.value.select_dtypes(include=[np.number])
        assert not np.isinf(numbers.to_numpy(dtype=float)).any(), frame.value
        texts = frame.value.select_dtypes(exclude=[np.number]).astype(str)
        assert not texts.isin(["inf", "-inf", "nan", "None"]).to_numpy().any(), frame.value
    for chart in at.get("plotly_chart"):
        spec = chart.proto.spec
        assert "Infinity" not in spec, spec[:200]
        json.loads(spec)  # well-formed


def _open(open_page, spec: PageSpec, control: Control, value: str):
    params = dict(_section_of(spec, control))
    dependent = control
    while dependent.requires is not None:  # raccoon needs raccoons, which need beavers
        needed_key, needed_value = dependent.requires
        dependent = next(c for c in spec.controls if c.key == needed_key)
        params[needed_key] = dependent.format(needed_value)
    params[control.key] = value
    if params == {SECTION_KEY: value}:  # a section at its defaults: its shared run
        at = open_view(View(spec.file, value))
    else:
        at = open_page(spec.file, **params)
    assert not at.exception, (params, [e.message for e in at.exception])
    assert_finite_page(at)
    assert_finite_data(at)
    return at


@pytest.mark.parametrize(
    ("spec", "control"),
    _cases(),
    ids=[f"{spec.url_path}-{control.key}" for spec, control in _cases()],
)
def test_every_value_of_every_control(open_page, spec, control):
    for value in _grid(control):
        _open(open_page, spec, control, value)
    if not control.is_slider:
        return
    if round((control.high - control.low) / control.step) + 1 <= SMALL_GRID:
        return

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        phases=(Phase.generate,),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(number=hst.floats(control.low, control.high, allow_nan=False))
    def anywhere(number: float) -> None:
        value = control.format(round(number) if control.kind == "int" else number)
        _open(open_page, spec, control, value)

    anywhere()


def test_every_slider_has_a_finite_grid_to_walk():
    sliders = [c for _, c in _cases() if c.is_slider]
    assert sliders
    for control in sliders:
        assert math.isfinite(control.low) and math.isfinite(control.high), control.key
        assert control.step > 0, control.key


SLIDERS = [(spec, c) for spec, c in _cases() if c.is_slider]


@pytest.mark.parametrize(
    ("spec", "control"), SLIDERS, ids=[f"{spec.url_path}-{c.key}" for spec, c in SLIDERS]
)
def test_a_value_between_steps_is_named_and_not_used_as_it_is(open_page, spec, control):
    """A float slider snaps to its grid, an integer one keeps its default; a notice says so."""
    between = control.low + (control.step / 3 if control.kind == "float" else 0.5)
    at = _open(open_page, spec, control, f"{between:.10g}")
    notices = [w.value for w in at.warning if w.value.startswith("Link parameter")]
    assert len(notices) == 1 and f"**{control.key}**" in notices[0], notices
    notice = read_as_markdown(notices[0])
    if control.kind == "float":
        assert "between the slider's steps" in notice, notice
        assert at.slider(key=control.key).value == pytest.approx(control.low)
    else:
        assert "not a whole number" in notice, notice
        assert at.slider(key=control.key).value == control.default
