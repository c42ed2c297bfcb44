"""Cube Theory Lab: entry point and router."""

import streamlit as st

from ui.pages import PAGES
from ui.router import ensure_navigation, freeze_long_lived_heap
from ui.settings import PRESENT

ensure_navigation()  # a fresh process starts in legacy pages/ mode: leave it before rendering
freeze_long_lived_heap()  # once a minute: keeps garbage collection off the hot path

st.set_page_config(
    page_title="Cube Theory Lab",
    page_icon=":material/casino:",
    layout="wide",
    initial_sidebar_state="expanded",
)

sections: dict[str, list] = {}
for spec in PAGES:
    sections.setdefault(spec.section, []).append(
        st.Page(
            spec.file,
            title=spec.title,
            url_path=spec.url_path,
            icon=spec.icon,
            default=spec.default,
        )
    )
navigation = st.navigation(sections)

present = st.sidebar.container().toggle(
    PRESENT.label,
    # None once the session holds the value (the binding then sets it); typed bool only.
    value=PRESENT.default if PRESENT.key not in st.session_state else None,  # type: ignore[arg-type]
    key=PRESENT.key,
    bind="query-params",
    help=PRESENT.help,
)
if present:
    # A projector: large type everywhere, the sidebar folded away (it opens on demand).
    st.set_page_config(initial_sidebar_state="collapsed")
    st.html(
        "<style>html{font-size:24px !important}"
        " [data-testid='stMetricValue']{font-size:2.4rem}</style>"
    )
navigation.run()
