"""Run GNU Backgammon 1.07 on a file of commands and return what it printed.

Shared by the fixture scripts that capture gnubg's printed text (``cube_paste_samples.py``,
``position_text_samples.py``): ``/usr/games/gnubg -t -q -r -c <command file>`` (text mode,
quiet, no rc file), the commands written to a temporary file that is removed afterwards.
gnubg is a separate program and the test oracle only: it is never imported or bundled.
"""

import subprocess
import tempfile
from pathlib import Path

GNUBG = "/usr/games/gnubg"


def run_commands(commands, timeout=300):
    """What gnubg printed for ``commands`` (a list of its command lines)."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write("\n".join(commands) + "\n")
        name = fh.name
    try:
        done = subprocess.run(
            [GNUBG, "-t", "-q", "-r", "-c", name],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=True,
        )
    finally:
        Path(name).unlink()
    return done.stdout
