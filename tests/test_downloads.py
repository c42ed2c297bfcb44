"""Every download button in the app downloads without rerunning the page.

A download button that reruns the page on its click (Streamlit's default) races its own
download: the click sends the rerun and the request for the file's bytes together, and a
rerun that reaches the button first revokes the file being asked for, so the player gets
no file (seen on a loaded machine: the drills' "Your attempt" CSV never came). A
download changes nothing a page shows, so each button says ``on_click="ignore"``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _download_buttons() -> list[tuple[str, ast.Call]]:
    calls = []
    for path in sorted([*ROOT.glob("ui/**/*.py"), *ROOT.glob("pages/*.py"), ROOT / "app.py"]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "download_button"
            ):
                calls.append((f"{path.relative_to(ROOT)}:{node.lineno}", node))
    return calls


def test_the_app_has_download_buttons():
    assert len(_download_buttons()) >= 4


def test_every_download_button_ignores_its_click():
    rerunning = [
        where
        for where, call in _download_buttons()
        if not any(
            k.arg == "on_click" and isinstance(k.value, ast.Constant) and k.value.value == "ignore"
            for k in call.keywords
        )
    ]
    assert not rerunning, f"download buttons that rerun the page on a click: {rerunning}"
