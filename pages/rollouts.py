"""Rollouts: positions rolled out on the cluster, stored once and shared by everyone."""

from ui.warmup import import_pages

import_pages()  # the app's code, once per process, one thread at a time (ui.warmup)

from ui.rollouts import PAGE
from ui.skeleton import run_page

run_page(PAGE, __file__)
