"""Zadeh & Kobliska (1977): the race model and its exact optimal cube strategy."""

from ui.race import PAGE
from ui.skeleton import run_page

run_page(PAGE, __file__)
