"""Janowski's cube life index: cubeful equity between the dead and the live cube."""

from ui.warmup import import_pages

import_pages()  # the app's code, once per process, one thread at a time (ui.warmup)

from ui.janowski import PAGE
from ui.skeleton import run_page

run_page(PAGE, __file__)
