"""Time one page with AppTest in a fresh process; print the timings as JSON.

Run by :mod:`bench.pages` once per page and repeat, never by hand. Timings:

``cold_process``
    First run of the page in this process: the page's modules are imported, the
    ``cubecore`` tables are built and every cache is empty (the first visitor
    after a deploy). Streamlit's own runtime is warmed first by a trivial run,
    as it is in a running server.
``cold_caches``
    First run of the page in a new session after clearing ``st.cache_data``,
    ``st.cache_resource`` and every ``functools.lru_cache`` in ``cubecore``: a
    running server meeting new parameters.
``warm``
    A rerun with the same state (every cache hit).
``move``
    A rerun after moving one random control to a new random value.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl

if TYPE_CHECKING:  # imported where used: streamlit loads inside the measured process
    from streamlit.testing.v1 import AppTest
    from streamlit.testing.v1.element_tree import Widget

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")
BASELINE = str(Path(__file__).with_name("baseline_app.py"))
#: Yardsticks run as bare scripts (not through app.py): target name -> script.
YARDSTICKS = {"baseline": BASELINE, "floor": str(Path(__file__).with_name("element_floor_app.py"))}
#: A control as the worker moves it: (key, kind, low, high, step, options).
_ControlSpec = tuple[str, str, float, float, float, tuple[str, ...]]
_WARMUP = "import streamlit as st\nst.write('warm-up')\n"


def _timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def clear_cubecore_caches() -> int:
    """Clear every ``functools`` cache of the loaded ``cubecore`` modules; return how many."""
    cleared = 0
    for name, module in list(sys.modules.items()):
        if not name.startswith("cubecore") or module is None:
            continue
        for value in vars(module).values():
            if isinstance(value, functools._lru_cache_wrapper):
                value.cache_clear()
                cleared += 1
    return cleared


def _clear_all_caches() -> None:
    import streamlit as st

    st.cache_data.clear()
    st.cache_resource.clear()
    clear_cubecore_caches()


@contextmanager
def _navigation_mode() -> Iterator[None]:
    """Behave like a server already in st.navigation mode (as tests/test_page_giveup.py).

    AppTest resets ``PagesManager.uses_pages_directory`` before every run; in that
    legacy mode ``ui.router.ensure_navigation`` reruns and the rerun loses a page
    whose URL path differs from its file name (the run lands on Home).
    """
    from streamlit.runtime.pages_manager import PagesManager

    original = PagesManager.__init__

    def init(self: PagesManager, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    PagesManager.__init__ = init  # type: ignore[method-assign]  # a benchmark-only patch
    try:
        yield
    finally:
        PagesManager.__init__ = original  # type: ignore[method-assign]


@contextmanager
def _server_script_cache() -> Iterator[None]:
    """Share one compiled-script cache across runs, as a server does.

    A server compiles each script once per process (``Runtime``'s ``ScriptCache``);
    AppTest makes a new cache for every run and so recompiles ``app.py`` and the
    page each time, a cost that grows with the page's source and that no visitor
    pays. The timings are of the script run as a server runs it.
    """
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache
    from streamlit.testing.v1 import app_test, local_script_runner

    shared = ScriptCache()
    originals = (app_test.ScriptCache, local_script_runner.ScriptCache)
    # A benchmark-only patch of two module attributes (restored below).
    app_test.ScriptCache = local_script_runner.ScriptCache = lambda: shared  # type: ignore[misc, assignment]
    try:
        yield
    finally:
        app_test.ScriptCache, local_script_runner.ScriptCache = originals  # type: ignore[misc]


def _open(target: str) -> tuple[AppTest, Callable[[], object]]:
    from streamlit.testing.v1 import AppTest

    if target in YARDSTICKS:
        at = AppTest.from_file(YARDSTICKS[target], default_timeout=120)
        return at, (lambda: at.run())
    page_file, _, query = target.partition("?")  # a view: "pages/cube.py?sec=...&n=15"
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()  # the router's first run lands on the default page (untimed)
    for key, value in parse_qsl(query):
        at.query_params[key] = value

    def first_run() -> None:
        at.switch_page(page_file).run()
        if at._finished_page_script_hash != at._page_hash:
            raise RuntimeError(f"the run landed elsewhere than {target}")

    return at, first_run


def _count_nodes(node: object) -> int:
    """Elements and blocks (containers, columns) in a run's element tree."""
    children = getattr(node, "children", None) or {}
    return 1 + sum(_count_nodes(child) for child in children.values())


def _controls(target: str) -> list[_ControlSpec]:
    """The page's control specs: (key, kind, low, high, step, options)."""
    if target in YARDSTICKS:
        return [("f", "float", 0.5, 5.0, 0.05, ())]
    from ui.pages import PAGES

    spec = next((page for page in PAGES if page.file == target.partition("?")[0]), None)
    if spec is None:
        return []
    return [(c.key, c.kind, c.low, c.high, c.step, c.options) for c in spec.controls]


def _move(at: AppTest, control: _ControlSpec, rng: random.Random) -> bool:
    from streamlit.testing.v1.errors import AppTestError

    """Set one control to a random new value; False when its widget is not on the page."""
    key, kind, low, high, step, options = control
    widget: Widget  # a toggle, a select box or a slider
    try:
        if kind == "bool":
            widget = at.toggle(key=key)
            widget.set_value(not widget.value)
        elif kind == "select":
            widget = at.selectbox(key=key)
            widget.set_value(rng.choice(options))
        else:
            widget = at.slider(key=key)
            steps = round((high - low) / step)
            value = low + step * rng.randint(0, steps)
            widget.set_value(int(value) if kind == "int" else round(value, 10))
    except (KeyError, IndexError, ValueError):
        return False
    except AppTestError:  # a disabled control: a user cannot move it either
        return False
    return not getattr(widget, "disabled", False)


def measure(target: str, warm: int, moves: int, cold_caches: int, seed: int) -> dict[str, Any]:
    """Timings of ``target`` (see the module docstring); exceptions the page showed."""
    with _navigation_mode(), _server_script_cache():
        return _measure(target, warm, moves, cold_caches, seed)


def _measure(target: str, warm: int, moves: int, cold_caches: int, seed: int) -> dict[str, Any]:
    from streamlit.testing.v1 import AppTest

    AppTest.from_string(_WARMUP, default_timeout=60).run()  # Streamlit runtime, as in a server
    at, first_run = _open(target)
    result: dict[str, Any] = {"target": target, "cold_process": _timed(first_run)}
    result["exceptions"] = [e.message for e in at.exception]
    result["elements"] = _count_nodes(at._tree)
    result["warm"] = [_timed(at.run) for _ in range(warm)]
    rng = random.Random(seed)
    controls = _controls(target)
    move_times = []
    for _ in range(moves if controls else 0):
        for _attempt in range(10):
            if _move(at, rng.choice(controls), rng):
                break
        move_times.append(_timed(at.run))
        result["exceptions"] += [e.message for e in at.exception]
    result["move"] = move_times
    cold = []
    for _ in range(cold_caches):
        _clear_all_caches()
        at, first_run = _open(target)
        cold.append(_timed(first_run))
        result["exceptions"] += [e.message for e in at.exception]
    result["cold_caches"] = cold
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", help='"baseline", "floor" or a page file such as pages/race.py')
    parser.add_argument("--warm", type=int, default=10)
    parser.add_argument("--moves", type=int, default=10)
    parser.add_argument("--cold-caches", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    result = measure(args.target, args.warm, args.moves, args.cold_caches, args.seed)
    print("BENCH-RESULT " + json.dumps(result))


if __name__ == "__main__":
    main()
