"""Guards for the third-party internals in ui/internals.py: an upgrade that changes them fails here.

Each test checks the exact behaviour the app relies on, on the installed versions, and
that these are the versions it was checked on (requirements pin them).
"""

import inspect

import plotly
import plotly.tools
import streamlit
from streamlit.runtime.pages_manager import PagesManager
from streamlit.runtime.scriptrunner import script_runner

from ui.internals import CHECKED_VERSIONS, PrevalidatedFigure


def test_installed_versions_are_the_checked_ones():
    installed = {"streamlit": streamlit.__version__, "plotly": plotly.__version__}
    for name, checked in CHECKED_VERSIONS.items():
        assert installed[name].startswith(checked + "."), (
            f"{name} {installed[name]} is not the version ui/internals.py was checked on "
            f"({checked}.x): check both internals, then update CHECKED_VERSIONS and the pins"
        )


def test_the_legacy_pages_flag_is_what_the_script_runner_reads():
    # The flag exists on the class, is set from the pages/ folder at the first session,
    # and decides between the legacy runner and executing the entry point.
    assert "uses_pages_directory" in vars(PagesManager)
    assert "PagesManager.uses_pages_directory = Path(" in inspect.getsource(PagesManager)
    runner = inspect.getsource(script_runner)
    assert "if PagesManager.uses_pages_directory:" in runner
    assert "_mpa_v1(" in runner


def test_st_navigation_clears_the_same_flag():
    from streamlit.commands import navigation

    assert "PagesManager.uses_pages_directory = False" in inspect.getsource(navigation)


def test_plotly_chart_takes_a_prevalidated_figure_as_is():
    spec = {"data": [{"type": "scatter", "x": [0, 1], "y": [1, 2]}], "layout": {}}
    figure = PrevalidatedFigure(spec)
    # st.plotly_chart hands any BaseFigure to this function: it must come back untouched
    assert plotly.tools.return_figure_from_figure_or_data(figure, validate_figure=True) is spec
    from streamlit.elements import plotly_chart

    source = inspect.getsource(plotly_chart)
    assert "return_figure_from_figure_or_data" in source


def test_a_client_cannot_clear_every_users_cache():
    """A clear_cache back message reaches AppSession's handler; outside development mode
    the app's replacement clears nothing (and in development mode it still does)."""
    from streamlit import config
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.runtime.app_session import AppSession

    from ui.internals import _streamlit_handle_backmsg, refuse_cache_clearing

    # Streamlit's own handler: once a page ran in this process, AppSession's attribute is
    # the app's guard (ui.internals.guard_back_messages), which calls this one
    source = inspect.getsource(_streamlit_handle_backmsg)
    assert 'msg_type == "clear_cache"' in source
    assert "self._handle_clear_cache_request()" in source
    assert "clear_cache" in BackMsg.DESCRIPTOR.fields_by_name

    calls = []

    @streamlit.cache_data
    def cached(value: int) -> int:
        calls.append(value)
        return value

    class Session:  # what the handler touches of a session
        id = "test"

        class _session_state:
            cleared = False

            @classmethod
            def clear(cls):
                cls.cleared = True

    refuse_cache_clearing()
    cached(1)
    AppSession._handle_clear_cache_request(Session)
    cached(1)
    assert calls == [1], "a client's clear_cache message cleared the cache"
    assert not Session._session_state.cleared

    config.set_option("global.developmentMode", True)
    try:
        AppSession._handle_clear_cache_request(Session)
    finally:
        config.set_option("global.developmentMode", False)
    cached(1)
    assert calls == [1, 1], "in development mode the menu's Clear cache must still work"
    assert Session._session_state.cleared


def test_every_back_message_passes_app_session_handle_backmsg():
    from streamlit.runtime import runtime
    from streamlit.runtime.app_session import AppSession

    from ui import internals

    # the guard wraps Streamlit's handler, which reads rerun_script's widget states
    assert internals._streamlit_handle_backmsg.__qualname__ == "AppSession.handle_backmsg"
    assert "self._handle_rerun_script_request(msg.rerun_script)" in inspect.getsource(
        internals._streamlit_handle_backmsg
    )
    assert "session_info.session.handle_backmsg(msg)" in inspect.getsource(runtime)
    assert "widget_states=client_state.widget_states" in inspect.getsource(AppSession)
    from streamlit.runtime.state import common

    assert common.GENERATED_ELEMENT_ID_PREFIX == "$$ID"


def test_the_websocket_route_is_made_by_the_handler_factory_the_launcher_wraps():
    from streamlit.web.server.starlette import starlette_websocket

    source = inspect.getsource(starlette_websocket.create_websocket_routes)
    assert "create_websocket_handler(runtime)" in source
