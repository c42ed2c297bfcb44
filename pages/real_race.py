"""Real races: positions, the race formulas, exact bear-off databases."""

from ui.warmup import import_pages

import_pages()  # the app's code, once per process, one thread at a time (ui.warmup)

from ui.real_race import PAGE
from ui.skeleton import run_page

run_page(PAGE, __file__)
