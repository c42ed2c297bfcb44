"""The live classroom: rooms, questions, live answers and the reveal."""

from ui.classroom import PAGE
from ui.skeleton import run_page

run_page(PAGE, __file__)
