"""Tests of cubecore._docs: shared docstring fragments filled into docstrings."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import pytest
from hypothesis import given
from hypothesis import strategies as hst

import cubecore
from cubecore._docs import _PLACEHOLDER, fill_doc


def _documented(doc: str) -> object:
    """A function with the given docstring."""

    def f() -> None:
        pass

    f.__doc__ = doc
    return f


def test_fill_doc_indents_fragment_as_placeholder():
    f = fill_doc(x="x : float\n    The cube life.")(
        _documented("Summary.\n\n    Parameters\n    ----------\n    {x}\n    ")
    )
    assert f.__doc__ == (
        "Summary.\n\n    Parameters\n    ----------\n    x : float\n        The cube life.\n    "
    )


def test_fill_doc_dedents_fragment_and_keeps_blank_lines_empty():
    fragment = """
    Returns
    -------
    float

    Raises
    ------
    ValueError
    """
    f = fill_doc(r=fragment)(_documented("Summary.\n\n        {r}\n"))
    lines = f.__doc__.splitlines()
    assert lines[2:] == [
        "        Returns",
        "        -------",
        "        float",
        "",  # no trailing whitespace on the blank line
        "        Raises",
        "        ------",
        "        ValueError",
    ]


def test_fill_doc_leaves_other_braces_alone():
    doc = 'Summary {x}.\n\n    cube : {"center", "owned"}\n    {x} and more\n    {x}\n'
    f = fill_doc(x="filled")(_documented(doc))
    assert f.__doc__ == doc.replace("    {x}\n", "    filled\n")


def test_fill_doc_fills_every_placeholder_of_a_docstring():
    f = fill_doc(a="A", b="B")(_documented("S.\n\n    {a}\n    {b}\n    {a}\n"))
    assert f.__doc__ == "S.\n\n    A\n    B\n    A\n"


def test_fill_doc_unknown_placeholder_names_it():
    with pytest.raises(ValueError, match=r"\{missing\} has no fragment"):
        fill_doc(x="X")(_documented("S.\n\n    {missing}\n"))


def test_fill_doc_without_docstring_returns_object_unchanged():
    def f() -> None:
        pass

    assert fill_doc(x="X")(f) is f
    assert f.__doc__ is None


def test_fill_doc_on_a_class():
    @fill_doc(attrs="Attributes\n----------\nvalue : int")
    class C:
        """A class.

        {attrs}
        """

    assert "        value : int" in C.__doc__.splitlines()


@given(
    indent=hst.integers(0, 12),
    lines=hst.lists(
        hst.text(alphabet="abcXYZ019 ,.:`()=-", max_size=30).map(str.strip), min_size=1, max_size=8
    ),
)
def test_fill_doc_property_each_line_indented_once(indent, lines):
    fragment = "\n".join(line.rstrip() for line in lines).strip("\n")
    doc = "S.\n\n" + " " * indent + "{frag}\n"
    filled = fill_doc(frag=fragment)(_documented(doc)).__doc__
    body = filled.split("\n")[2:-1]  # between the summary and the docstring's last newline
    expected = [(" " * indent + line) if line.strip() else line for line in fragment.split("\n")]
    assert body == expected


def _public_objects():
    """Every public function and class of every cubecore module, by qualified name."""
    for info in pkgutil.iter_modules(cubecore.__path__):
        module = importlib.import_module(f"cubecore.{info.name}")
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if inspect.isfunction(obj) or inspect.isclass(obj):
                yield f"cubecore.{info.name}.{name}", obj


def test_no_public_docstring_keeps_a_placeholder():
    objects = dict(_public_objects())
    assert len(objects) > 50  # the walk found the package
    left = {
        name: match.group(0).strip()
        for name, obj in objects.items()
        if (match := _PLACEHOLDER.search(inspect.getdoc(obj) or "")) is not None
    }
    assert left == {}


def test_placeholder_pattern_matches_only_a_whole_line():
    assert _PLACEHOLDER.search("    {name}")
    assert not _PLACEHOLDER.search("    {name} text")
    assert not _PLACEHOLDER.search('    {"center"}')
    assert re.fullmatch(r"\w+", _PLACEHOLDER.search("  {a_1}")["name"])
