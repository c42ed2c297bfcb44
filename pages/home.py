"""Home: the model atlas, one view of all the models."""

from ui.home import PAGE
from ui.skeleton import run_page

run_page(PAGE, __file__)
