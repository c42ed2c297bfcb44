"""Check that every Streamlit cache of the pages (``ui/<page>/data.py``) is bounded.

A ``st.cache_data`` keyed by URL values grows with every distinct link unless it
has ``max_entries`` (or a ``ttl``); a ``st.cache_resource`` with parameters grows
the same way. A parameterless ``st.cache_resource`` holds one object: fine.
"""

from __future__ import annotations

import ast
from pathlib import Path

from bench.stats import markdown_table

ROOT = Path(__file__).resolve().parents[1]


def _decorator_kind(node: ast.expr) -> tuple[str, dict[str, str]] | None:
    call = node if isinstance(node, ast.Call) else None
    target = call.func if call else node
    if isinstance(target, ast.Attribute) and target.attr in ("cache_data", "cache_resource"):
        keywords = {k.arg: ast.unparse(k.value) for k in (call.keywords if call else ()) if k.arg}
        return target.attr, keywords
    return None


def audit(folder: Path = ROOT / "ui") -> list[tuple[str, str, str, str, str]]:
    """(function, decorator, parameters, bound, verdict) for every cached function."""
    rows = []
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for decorator in node.decorator_list:
                found = _decorator_kind(decorator)
                if found is None:
                    continue
                kind, keywords = found
                params = [a.arg for a in (*node.args.posonlyargs, *node.args.args)]
                params += [a.arg for a in node.args.kwonlyargs]
                limits = [k for k in ("max_entries", "ttl", "max_size") if k in keywords]
                bound = ", ".join(f"{k}={keywords[k]}" for k in limits)
                ok = bool(bound) or (kind == "cache_resource" and not params)
                rows.append(
                    (
                        f"{path.relative_to(ROOT)}:{node.lineno} {node.name}",
                        kind,
                        ", ".join(params) or "-",
                        bound or "-",
                        "ok" if ok else "UNBOUNDED",
                    )
                )
    return rows


def caches_table() -> str:
    header = ["function", "decorator", "parameters", "bound", "verdict"]
    return markdown_table(header, audit())
