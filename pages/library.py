"""The position library: real positions with the engine's verdicts, by theme and score."""

from ui.warmup import import_pages

import_pages()  # the app's code, once per process, one thread at a time (ui.warmup)

from ui.library import PAGE
from ui.skeleton import run_page

run_page(PAGE, __file__)
