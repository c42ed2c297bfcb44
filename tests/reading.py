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
    """The "Share this view" link of the run (the code block of its panel, after the
    open section)."""
    panels = [panel for panel in at.main.expander if panel.label == "Share this view"]
    assert len(panels) == 1, f"not one share panel: {len(panels)}"
    codes = [code.value for code in panels[0].code]
    assert len(codes) == 1, f"not one share link: {codes}"
    return codes[0]


def proper_action(at) -> tuple[str, dict[str, tuple[str, str]], str]:
    """The proper-action block (``ui.widgets.proper_action``) of the run.

    Returns the action its headline names, the table's rows as ``label -> (equity,
    cost)`` (the proper row's label without its bold and "(proper)" mark) and the
    proper row's label.
    """
    headlines = [s.value for s in at.subheader if s.value.startswith("Proper cube action: ")]
    assert len(headlines) == 1, f"not one proper-action headline: {headlines}"
    tables = [m.value for m in at.markdown if m.value.startswith("| Action | ")]
    assert len(tables) == 1, f"not one proper-action table: {len(tables)}"
    rows, proper = {}, ""
    for line in tables[0].splitlines()[2:]:
        label, equity, cost = (cell.strip() for cell in line.strip("|").split("|"))
        if label.endswith("(proper)"):
            label = label.removesuffix("(proper)").strip().strip("*")
            proper = label
        rows[label] = (equity.strip("*"), cost)
    return headlines[0].removeprefix("Proper cube action: "), rows, proper


def market_windows(at) -> dict[str, list[str]]:
    """The both-players market window of the proper-action block: player -> cells."""
    tables = [m.value for m in at.markdown if m.value.startswith("| Market window |")]
    assert len(tables) == 1, f"not one market-window table: {len(tables)}"
    rows = {}
    for line in tables[0].splitlines()[2:]:
        player, *cells = (cell.strip() for cell in line.strip("|").split("|"))
        rows[player] = cells
    return rows
