"""Stand-in page for ``python -m bench position``'s load run, until the position page is
merged: the engine's evaluation of the linked position (``?pos=<Position ID>&level=``)
through the position page's own cached evaluation (:func:`ui.position.matrix.evaluation`),
and its proper action in the page's words ("Proper cube action: ...")."""

import streamlit as st

from cubecore import engine
from ui import widgets
from ui.position.matrix import evaluation

text = st.query_params.get("pos", "4HPwATDgc/ABMA")
level = st.query_params.get("level", "2-ply")
if level not in engine.LEVELS:
    st.error(f"Unknown level {level!r}.")
else:
    try:
        decision = evaluation(
            text, level, 1, "center", None, None, False, False, False,
            engine.DEFAULT_ROLLOUT_TRIALS,
        )  # fmt: skip
    except ValueError as error:
        st.error(f"{text!r} is not a position the app can read: {error}.")
    else:
        widgets.proper_action_line(decision.action)
        st.caption(f"{level}: {decision.probabilities.win:.2%} to win.")
