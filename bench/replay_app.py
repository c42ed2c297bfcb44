"""A section's recorded move sent again, built by nothing: the floor of a section move.

The fragments bench (:mod:`bench.fragments`) records, for every section it moves, the
deltas two moves of the section's own slider sent (its fragment's blocks, elements and
widgets, between the slider's two values), one file per section (``<index>.json``) in
the folder :data:`RECORDING` names, and serves this page. ``?s=<index>`` picks the
section. The page's one slider stands in a fragment, as a section's own slider does;
each move sends one of the two recorded moves again (the other one on the next move),
every block nested as it was, with the same protobuf messages, and computes nothing. Its
time is what sending the section's move costs Streamlit; the rest of the section's move
is building it. A move sends the recorded deltas, the page's slider and its fragment's
container (two more than the section's move), but for a transient delta (a spinner's),
which is left out.

The messages are enqueued with Streamlit's internal ``DeltaGenerator._enqueue`` and
``_block`` (what its own replay of a cached function's elements calls), without each
element's width and height settings (a few bytes). A bench page only: the app never does
this.
"""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

import streamlit as st
from streamlit.delta_generator import DeltaGenerator
from streamlit.proto.Delta_pb2 import Delta

#: The environment variable naming the recordings' folder (:func:`bench.fragments.record`).
RECORDING = "CUBELAB_REPLAY"
#: The link key of the page's own slider (no section's control has it).
MOVE_KEY = "replay_move"
#: A recorded move: (delta path, serialized ``Delta``) for each delta, in order.
Move = list[tuple[tuple[int, ...], Delta]]


@st.cache_resource(show_spinner=False)
def _recording(path: str) -> tuple[Move, Move]:
    first, second = (
        [(tuple(where), Delta.FromString(base64.b64decode(raw))) for where, raw in move]
        for move in json.loads(Path(path).read_text())
    )
    return first, second


def _send_again(move: Move, into: DeltaGenerator) -> None:
    """Each recorded delta again under ``into``: a block under its recorded parent, an
    element in it; the fragment's own container (the first delta's parent) is ``into``."""
    if not move:
        return
    parents: dict[tuple[int, ...], DeltaGenerator] = {move[0][0][:-1]: into}
    for where, delta in move:
        parent = parents.get(where[:-1], into)
        kind = delta.WhichOneof("type")
        if kind == "add_block":
            parents[where] = parent._block(delta.add_block)
        elif kind == "new_element":
            element = delta.new_element
            element_kind = element.WhichOneof("type")
            if element_kind is not None:
                parent._enqueue(element_kind, getattr(element, element_kind))


@st.fragment
def _moves(recording: tuple[Move, Move]) -> None:
    value = st.slider("Move", 0.5, 5.0, 1.0, 0.05, key=MOVE_KEY, bind="query-params")
    first, second = recording
    _send_again(first if round(value * 20) % 2 else second, st._main)  # the fragment's


if __name__ == "__main__":  # as Streamlit runs it; the bench imports the names above
    _moves(_recording(str(Path(os.environ[RECORDING]) / f"{int(st.query_params['s'])}.json")))
