"""The classroom store, one per server process (its connection pool is thread-safe)."""

from __future__ import annotations

import streamlit as st

from store import Classroom


@st.cache_resource(show_spinner=False)
def classroom() -> Classroom:
    """The store on ``CUBE_LAB_DATABASE_URL`` or the data directory's SQLite file."""
    return Classroom()
