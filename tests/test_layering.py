"""The compute package stays pure: nothing under cubecore/ imports streamlit or plotly."""

import ast
from pathlib import Path

FORBIDDEN = {"streamlit", "plotly"}
CUBECORE = Path(__file__).resolve().parents[1] / "cubecore"


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_cubecore_imports_no_ui_library():
    modules = sorted(CUBECORE.rglob("*.py"))
    assert len(modules) >= 3  # the package is really there
    offenders = {str(m.name): imported_roots(m) & FORBIDDEN for m in modules}
    assert {name: bad for name, bad in offenders.items() if bad} == {}


def test_detector_catches_a_forbidden_import(tmp_path):
    sample = tmp_path / "bad.py"
    sample.write_text("import numpy\nfrom plotly import graph_objects\nimport streamlit as st\n")
    assert imported_roots(sample) & FORBIDDEN == {"plotly", "streamlit"}


UI = CUBECORE.parent / "ui"
#: Pure parts of the UI layer: control specs and chart builders import no streamlit.
PURE_UI = sorted(
    [
        UI / "controls.py",
        UI / "concepts.py",
        UI / "style.py",
        UI / "charts.py",
        *UI.glob("*/controls.py"),
        *UI.glob("*/charts.py"),
    ]
)


def test_chart_builders_and_controls_import_no_streamlit():
    assert len(PURE_UI) >= 12  # every page folder has its controls and charts here
    offenders = {
        str(path.relative_to(UI)): imported_roots(path) & {"streamlit"} for path in PURE_UI
    }
    assert {name: bad for name, bad in offenders.items() if bad} == {}


def test_no_development_path_in_the_app():
    # users never have the project's shared/ folder: sources are cited as publications
    app_files = [*UI.rglob("*.py"), *CUBECORE.rglob("*.py"), *(UI.parent / "pages").glob("*.py")]
    cited = {str(p.name) for p in app_files if "shared/seeds" in p.read_text(encoding="utf-8")}
    assert cited == set()
