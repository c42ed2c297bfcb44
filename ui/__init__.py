"""UI support layer: the page skeleton, one folder per page, shared widgets and style.

Imports point one way: ``cubecore`` <- ``ui`` <- ``app.py`` and ``pages/``. A page's
folder holds its ``controls`` (pure), ``data`` (cached wrappers of cubecore), ``charts``
(pure plotly dict builders) and ``sections`` (rendering); ``ui.controls`` and
``ui.style`` are pure, ``ui.skeleton``, ``ui.links`` and ``ui.widgets`` talk to streamlit.

Prepared views: a page's ``data`` may hold ``*_view`` functions (``st.cache_resource``,
bounded) that build what a section shows, once per process for its arguments: figures,
shown frames and the values its metrics read. A warm rerun of the section reads them as
they are, without a copy (``st.cache_data`` unpickles its value on every read) and
without rebuilding a figure. They are shared by every session and never changed after
they are made (``ui.widgets.chart`` and ``ui.widgets.table`` do not change what they
get). They are called by keyword: Streamlit 1.67 looks up a cached function's signature
once per positional argument on every call.
"""
