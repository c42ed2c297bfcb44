"""Real races: positions, the race formulas, exact bear-off databases."""

from ui.real_race import PAGE
from ui.skeleton import run_page

run_page(PAGE, __file__)
