"""Docstring fragments written once and filled into the docstrings that share them.

Several public functions take the same parameters or return the same kind of result,
and their numpydoc sections would repeat each other word for word. Such a section is
written once, as a named fragment, and a docstring names it on a line of its own::

    def thorp_count(position: Position) -> RaceCount:
        '''Thorp count of a race and its cube action.

        {race_count}
            ``measure`` = ...
        '''

:func:`fill_doc` replaces each such line by the fragment, indented as the line was,
when the function is defined, so ``help()``, Sphinx and the doctests (pytest reads
``__doc__`` after import) see the whole text. The idea is that of
``scipy._lib.doccer`` and matplotlib's ``_docstring.interpd``, reimplemented here:
only a line that is exactly ``{name}`` is a placeholder, so braces elsewhere in a
docstring (sets, formulas) are left alone, and a name without a fragment fails at
import, never at a reader's ``help()``.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from typing import TypeVar

__all__ = ["fill_doc"]

_Documented = TypeVar("_Documented")

#: A placeholder: a line holding only ``{name}`` (after its indentation).
_PLACEHOLDER = re.compile(r"^(?P<indent>[ ]*)\{(?P<name>[a-z_][a-z0-9_]*)\}$", re.MULTILINE)


def fill_doc(**fragments: str) -> Callable[[_Documented], _Documented]:
    """Decorator filling the ``{name}`` lines of a docstring with ``fragments[name]``.

    Each fragment is dedented, then indented as its placeholder line. A placeholder
    whose name has no fragment raises ``ValueError`` when the decorator runs. An
    object without a docstring (``python -OO``) is returned unchanged.

    Examples
    --------
    >>> @fill_doc(x="x : float\\n    The cube life.")
    ... def f(x: float) -> float:
    ...     '''Identity.
    ...
    ...     Parameters
    ...     ----------
    ...     {x}
    ...     '''
    ...     return x
    >>> print(f.__doc__.splitlines()[4])
        x : float
    """
    texts = {name: textwrap.dedent(text).strip("\n") for name, text in fragments.items()}

    def fill(match: re.Match[str]) -> str:
        name = match["name"]
        if name not in texts:
            raise ValueError(f"docstring placeholder {{{name}}} has no fragment")
        return textwrap.indent(texts[name], match["indent"], lambda line: bool(line.strip()))

    def decorate(documented: _Documented) -> _Documented:
        doc = getattr(documented, "__doc__", None)
        if doc:
            documented.__doc__ = _PLACEHOLDER.sub(fill, doc)
        return documented

    return decorate
