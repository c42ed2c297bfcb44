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
