"""Controls of the classroom page: the room code is the one value in the link.

The presenter key is never a control and never in a link: it stays in the
presenter's session (and is typed into a password field to resume a room).
"""

from store.classroom import CODE_ALPHABET
from store.schema import CODE_LENGTH
from ui.controls import Control

ROOM = Control(
    "room",
    "Room code",
    "text",
    "",
    pattern=f"|[{CODE_ALPHABET}{CODE_ALPHABET.lower()}]{{{CODE_LENGTH}}}",
    help=f"The {CODE_LENGTH}-character code your presenter shows. "
    "Part of the link: ?room=ABCD23456",
)

PAGE_CONTROLS = (ROOM,)
PRESETS = {
    "I am a student": {"sec": "Join"},
    "I am the presenter": {"sec": "Present"},
}

#: Seconds between refreshes of the live views (the presenter's count and histogram,
#: a student's question and result).
PRESENTER_REFRESH = 1.5
STUDENT_REFRESH = 2.0
