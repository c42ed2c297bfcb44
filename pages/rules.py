"""The rules of the doubling cube: stepped through, priced in theory, and simulated."""

from ui.rules import PAGE
from ui.skeleton import run_page

run_page(PAGE, __file__)
