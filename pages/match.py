"""Match play: a generated match equity table, take points at every score, the rules in numbers."""

from ui.warmup import import_pages

import_pages()  # the app's code, once per process, one thread at a time (ui.warmup)

from ui.match import session_page
from ui.skeleton import run_page

run_page(session_page(), __file__)  # the uploaded table is offered once there is one
