"""The cube calculator: any engine's probabilities to a cube decision, money and match."""

from ui.warmup import import_pages

import_pages()  # the app's code, once per process, one thread at a time (ui.warmup)

from ui.cube import PAGE
from ui.skeleton import run_page

run_page(PAGE, __file__)
