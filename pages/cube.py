"""The cube calculator: any engine's probabilities to a cube decision, money and match."""

from ui.cube import PAGE
from ui.skeleton import run_page

run_page(PAGE, __file__)
