"""UI support layer: settings, URL state, cached compute wrappers, figure builders, widgets.

Imports point one way: ``cubecore`` <- ``ui`` <- ``app.py`` and ``pages/``.
``ui.figures`` and ``ui.settings`` are pure (no streamlit); ``ui.cached``,
``ui.links`` and ``ui.widgets`` talk to streamlit.
"""
