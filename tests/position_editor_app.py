"""The board editor alone on a page, for ``tests/test_browser_position_editor.py``.

Served with ``bench.server.streamlit_servers(script="tests/position_editor_app.py")``;
the body runs only as Streamlit's main script (pytest's doctest collection imports this
file and must draw nothing).
"""

if __name__ == "__main__":
    import streamlit as st

    from cubecore.position import position_id
    from ui.position.editor import START, edit_position

    edited = edit_position(START, "ed")
    st.text(f"edited: {position_id(edited) if edited is not None else 'none'}")
