"""Keeler & Spencer (1969): raising points, from the continuous game to raise potentials."""

from ui.warmup import import_pages

import_pages()  # the app's code, once per process, one thread at a time (ui.warmup)

from ui.keeler_spencer import PAGE
from ui.skeleton import run_page

run_page(PAGE, __file__)
