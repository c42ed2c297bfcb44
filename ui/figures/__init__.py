"""Pure plotly figure builders (dicts), one module per page. No streamlit here."""
