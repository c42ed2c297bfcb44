"""The app's launcher: ``python -m ui.serve [streamlit run options]``.

The same server as ``streamlit run app.py`` (same options, same ``.streamlit/config.toml``),
warm from its first request (issue #17): before the server listens, every page's code is
imported (numpy, pandas, scipy, plotly and the app: ~3 s that the first visitor of a
plain ``streamlit run`` waits for), and the expensive tables are built in the
background from the start (:mod:`ui.warmup`). ``make run``, the systemd unit, the
benches and the browser tests start the app this way; ``python -m bench coldstart``
measures both.
"""

from __future__ import annotations

import sys
from pathlib import Path

from streamlit.logger import get_logger
from streamlit.web import cli

from ui.warmup import WARM_UP, import_pages

APP = Path(__file__).resolve().parents[1] / "app.py"

_log = get_logger(__name__)


def main(options: list[str]) -> None:
    """Import every page, start the warm-up, then run Streamlit's ``run`` on ``app.py``."""
    seconds = import_pages()
    _log.info("launcher: every page imported in %.2f s", seconds)
    WARM_UP.start()  # waits for Streamlit's runtime, then builds the tables
    sys.argv = ["streamlit", "run", str(APP), *options]
    cli.main()  # Streamlit's own command line (the `streamlit` script's entry point)


if __name__ == "__main__":
    main(sys.argv[1:])
