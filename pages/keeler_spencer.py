"""Keeler & Spencer (1969): raising points, from the continuous game to raise potentials."""

from ui.keeler_spencer import PAGE
from ui.skeleton import run_page

run_page(PAGE, __file__)
