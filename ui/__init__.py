"""UI support layer: the page skeleton, one folder per page, shared widgets and style.

Imports point one way: ``cubecore`` <- ``ui`` <- ``app.py`` and ``pages/``. A page's
folder holds its ``controls`` (pure), ``data`` (cached wrappers of cubecore), ``charts``
(pure plotly dict builders) and ``sections`` (rendering); ``ui.controls`` and
``ui.style`` are pure, ``ui.skeleton``, ``ui.links`` and ``ui.widgets`` talk to streamlit.
"""
