"""Read a rendered chart back: the plotly JSON of an AppTest element, typed arrays decoded.

``ui.style.line`` passes numpy arrays, which plotly serialises as base64 typed arrays
(``{"dtype": "f8", "bdata": ...}``); tests compare plain lists of numbers.
"""

import base64
import json

import numpy as np


def _decode(node):
    if isinstance(node, dict):
        if set(node) >= {"dtype", "bdata"}:
            values = np.frombuffer(base64.b64decode(node["bdata"]), dtype=node["dtype"])
            if "shape" in node:
                shape = [int(n) for n in str(node["shape"]).split(",")]
                values = values.reshape(shape)
            return values.tolist()
        return {key: _decode(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_decode(item) for item in node]
    return node


def plotly_spec(element) -> dict:
    """The figure of an AppTest ``plotly_chart`` element, with typed arrays as lists."""
    return _decode(json.loads(element.proto.spec))
