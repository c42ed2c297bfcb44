"""Position analysis: a real engine's cube decision for any position, read with the theory."""

from ui.warmup import import_pages

import_pages()  # the app's code, once per process, one thread at a time (ui.warmup)

from ui.position import PAGE
from ui.skeleton import run_page

run_page(PAGE, __file__)
