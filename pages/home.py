"""Home: where to start, and the models one tab further."""

from ui.warmup import import_pages

import_pages()  # the app's code, once per process, one thread at a time (ui.warmup)

from ui.home import PAGE
from ui.skeleton import run_page

run_page(PAGE, __file__)
