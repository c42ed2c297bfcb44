"""Cube Theory Lab: entry point and router."""

from ui.warmup import WARM_UP, import_pages, serving

# Every page's code, once per process and one thread at a time: the first visitors of a
# fresh server would otherwise import the app's module cycles in several threads together.
import_pages()

import streamlit as st

from ui import links, throttle
from ui.controls import PRESENT, THEME
from ui.router import ensure_navigation, freeze_long_lived_heap, navigation_pages
from ui.serve import send_without_delay
from ui.skeleton import LAYOUT_CSS, PRESENTER_CSS

ensure_navigation()  # a fresh process starts in legacy pages/ mode: leave it before rendering
freeze_long_lived_heap()  # once a minute: keeps garbage collection off the hot path
if serving():  # once per process (a no-op after): `streamlit run app.py` warms up here
    WARM_UP.start()
    send_without_delay()  # the connections after this one (the launcher: all of them)

# The toggle's value as this run will see it: Session State once it exists (a click is
# there before the run starts), the link on a session's first run.
presenting = bool(st.session_state.get(PRESENT.key, st.query_params.get(PRESENT.key) == "true"))
# Set once per run: a projector starts with the sidebar folded, a phone too ("auto" folds
# it on narrow screens); whatever the reader does with it afterwards is left alone.
st.set_page_config(
    page_title="Cube Theory Lab",
    page_icon=":material/casino:",
    layout="wide",
    initial_sidebar_state="collapsed" if presenting else "auto",
)

# expanded: every page listed (with more than twelve, Streamlit folds the list to ten)
navigation = st.navigation(navigation_pages(), expanded=True)

throttle.notice()  # this run waited for its address's budget of page runs: say so

links.refuse_long_link()  # before anything reads the link
links.check_app_flags()  # before the toggle binds ?present= (Streamlit drops bad values)
present = st.sidebar.container().toggle(
    PRESENT.label,
    value=bool(PRESENT.default),
    key=PRESENT.key,
    bind="query-params",
    help=PRESENT.help,
)
theme = st.sidebar.container().segmented_control(
    THEME.label,
    THEME.options,
    default=THEME.default,
    required=True,
    key=THEME.key,
    bind="query-params",
    help=THEME.help,
)
st.html(LAYOUT_CSS)
st.html(links.theme_script(str(theme or THEME.default)), unsafe_allow_javascript=True)
if present:
    # A projector: large type everywhere.
    st.html(PRESENTER_CSS)
navigation.run()
