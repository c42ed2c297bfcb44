"""Janowski's cube life index: cubeful equity between the dead and the live cube."""

from ui.janowski import PAGE
from ui.skeleton import run_page

run_page(PAGE, __file__)
