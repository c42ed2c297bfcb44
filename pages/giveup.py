"""Woolsey's give-up points: the doubling cube as a game that ends at a give-up point."""

from ui.warmup import import_pages

import_pages()  # the app's code, once per process, one thread at a time (ui.warmup)

from ui.giveup import PAGE
from ui.skeleton import run_page

run_page(PAGE, __file__)
