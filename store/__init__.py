"""The app's own store: the live classroom's rooms, questions and answers (SQLAlchemy).

No streamlit here: the page ``ui/classroom`` and the load bench are its clients.
"""

from store.classroom import (
    CODE_ALPHABET,
    MAX_SUBMISSIONS,
    RETENTION,
    ROOM_LIFETIME,
    Classroom,
    JoinLimiter,
    OpenedRoom,
    Question,
    RoomInfo,
    Tally,
    clean_code,
    clean_nickname,
    database_url,
    migrate,
    new_student_id,
)

__all__ = [
    "CODE_ALPHABET",
    "MAX_SUBMISSIONS",
    "RETENTION",
    "ROOM_LIFETIME",
    "Classroom",
    "JoinLimiter",
    "OpenedRoom",
    "Question",
    "RoomInfo",
    "Tally",
    "clean_code",
    "clean_nickname",
    "database_url",
    "migrate",
    "new_student_id",
]
