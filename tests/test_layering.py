"""The layers stay apart: nothing under cubecore/ imports streamlit or plotly, the pure
parts of ui/ import no streamlit, and neither package has an import cycle."""

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


def test_cubecore_schedules_nothing():
    # rollouts are scheduled by rollouts/cluster.py; cubecore.rollout only plans and combines
    modules = sorted(CUBECORE.rglob("*.py"))
    offenders = {str(m.name): imported_roots(m) & {"dask", "distributed"} for m in modules}
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


def project_imports(path: Path, module: str, known: set[str]) -> set[str]:
    """The project's modules that ``module`` (at ``path``) imports when it runs.

    Imports inside functions count (they run on a call); imports under
    ``if TYPE_CHECKING:`` do not (they are for the type checker only). ``from a import b``
    names the module ``a.b`` when there is one, else ``a``.
    """
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    parent = package[: len(package) - (child.level - 1)]
                    base = ".".join([*parent, base] if base else parent)
                for alias in child.names:
                    name = f"{base}.{alias.name}"
                    found.add(name if name in known else base)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
    return (found & known) - {module}


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Each module of ``package`` (a folder under ``root``) -> the package's modules it imports."""
    files = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    known = set(files)
    return {module: project_imports(path, module, known) for module, path in files.items()}


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The modules that import one another in a circle: strongly connected components
    of two or more modules (Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def connect(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in sorted(graph[module]):
            if target not in index:
                connect(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while (member := stack.pop()) != module:
                component.append(member)
            if component:
                cycles.append(sorted([*component, module]))

    for module in sorted(graph):
        if module not in index:
            connect(module)
    return cycles


def test_no_import_cycle_in_ui_or_cubecore():
    root = CUBECORE.parent
    for package, at_least in (("ui", 40), ("cubecore", 29)):
        graph = import_graph(root, package)
        assert len(graph) >= at_least  # the package is really there
        assert import_cycles(graph) == [], package


def reachable(graph: dict[str, set[str]], module: str) -> set[str]:
    """Every module that importing ``module`` (and calling its functions) may import."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        for target in graph[todo.pop()] - seen:
            seen.add(target)
            todo.append(target)
    return seen


def test_page_registry_is_plain_data_at_the_bottom():
    # ui.pages reaches no other module of the app but the control specs and the link
    # writer (link_query's handover): the skeleton, the router and the warm-up import
    # the registry, never the other way round
    graph = import_graph(CUBECORE.parent, "ui")
    assert reachable(graph, "ui.pages") == {"ui.controls", "ui.links"}
    assert "ui.pages" in graph["ui.skeleton"] & graph["ui.router"] & graph["ui.warmup"]


def test_cycle_detector_catches_a_circle(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.b import thing\n")
    (package / "b.py").write_text("def f():\n    from . import c\n")
    (package / "c.py").write_text("import pkg.a\n")
    (package / "d.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import a\n"
    )
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.d"] == set()  # an annotation's import is no cycle
    assert import_cycles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]
