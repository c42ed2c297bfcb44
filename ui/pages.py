"""The page registry: every file in pages/ with its title, URL path and section.

``app.py`` builds ``st.navigation`` from this list, and a test checks that every
file in ``pages/`` is registered here (Streamlit ignores unregistered files).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PageSpec:
    """One page: its file, title, URL path (without slash), icon and section."""

    file: str
    title: str
    url_path: str
    icon: str
    section: str
    default: bool = False


PAGES = (
    PageSpec(
        "pages/home.py",
        "Home: the model atlas",
        "home",
        ":material/home:",
        "Overview",
        default=True,
    ),
    PageSpec("pages/janowski.py", "Janowski: cube life", "janowski", ":material/tune:", "Models"),
)
