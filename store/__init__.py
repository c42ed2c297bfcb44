"""The app's own store (SQLAlchemy): the live classroom's rooms, questions, students and
answers, the per-client limits' counts, and the drills' answers by student token.

No streamlit here: the page ``ui/classroom`` and the load bench are its clients. The
package's public names are those of :mod:`store.classroom` (its ``__all__``), listed once
there.
"""

from store import classroom
from store.classroom import *  # noqa: F403  (the names of classroom.__all__)

__all__: list[str] = []
__all__ += classroom.__all__
