"""Read an AppTest run back: its charts (plotly JSON) and its metrics by label."""

from tests.plotly_spec import plotly_spec


def chart_specs(at) -> list[dict]:
    """Every chart of the run, as plotly JSON with typed arrays decoded."""
    return [plotly_spec(element) for element in at.get("plotly_chart")]


def metric(at, label: str) -> str:
    """The value of the metric labelled exactly ``label`` (the first, if several)."""
    matches = [m.value for m in at.metric if m.label == label]
    assert matches, f"no metric {label!r}: {[m.label for m in at.metric]}"
    return matches[0]


def share_link(at) -> str:
    """The "Share this view" link of the run (the last code block in the sidebar)."""
    codes = [code.value for code in at.sidebar.code]
    assert codes, "no share link in the sidebar"
    return codes[-1]
