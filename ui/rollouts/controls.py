"""Controls of the rollouts page: the positions, trials and truncation in the link; how
pasted lines are read.

The positions (link key ``pos``, the position page's name for a position) are the paste
box: one a line, each a gnubg Position ID (money play, centred cube) or an XGID (its cube
and score are used), read by the position page's reader (:func:`read_line`). A link fills
the box and nothing more: only the Roll out button submits, so a crafted link never
starts work. The position page and the library link here with their positions written
as XGIDs (:func:`xgid_text`), which carry the cube and the score.
"""

from __future__ import annotations

from cubecore import engine
from cubecore import rollout as ro
from store.rollout_queue import TRUNCATION_RANGE
from ui.controls import Control
from ui.position.controls import canonical, read_position

#: Trials per position offered: multiples of 36 (the first roll is stratified over the
#: 36 rolls) and, above 1,296, of 144 (the batch size there), up to 36**3 = 46,656.
TRIAL_CHOICES = ("72", "144", "324", "648", "1296", "2592", "5184", "11664", "46656")
#: Most positions one submission may paste (a class's 20).
MAX_LINES = 20
#: Most characters of the paste box (20 XGIDs with room for blanks).
MAX_CHARACTERS = 2_000

TRIALS = Control(
    "trials",
    "Trials per position",
    "select",
    "1296",
    options=TRIAL_CHOICES,
    help="How many games each position is played out. 1,296 is the usual full rollout; "
    "fewer give a quick look with larger standard errors.",
)
TRUNCATION = Control(
    "trunc",
    "Truncation (moves; 0 plays every game to the end)",
    "int",
    0,
    TRUNCATION_RANGE[0],
    TRUNCATION_RANGE[1],
    1,
    help="After this many moves (by both players) a game stops and the engine's 1-ply "
    "judges it: faster, a little less exact. 0 plays every game to the end.",
)


def check_positions(text: str) -> None:
    """The paste box's check of a link's value: blank, or every line a position.

    Raises ``ValueError`` in players' words naming the first bad line (the link's notice).
    """
    if text.strip():
        read_lines(text, int(TRIALS.default), int(TRUNCATION.default))


POSITIONS = Control(
    "pos",
    f"Positions to roll out: one gnubg Position ID or XGID a line (at most {MAX_LINES})",
    "text",
    "",
    pattern=rf"[ -~\t\r\n]{{0,{MAX_CHARACTERS}}}",
    validator=check_positions,
    help="A Position ID is rolled out for money with the cube in the centre; an XGID with "
    "its own cube and score. The position page and the library fill this box; nothing "
    "is rolled out until you press Roll out.",
    lines=6,
    max_chars=MAX_CHARACTERS,
)

#: The checker play's levels offered, as the link spells them -> the engine's ply.
PLAY_LEVELS = {f"{ply}-ply": ply for ply in engine.ROLLOUT_PLAYS}
PLAY = Control(
    "play",
    "Checker play in the trials",
    "select",
    "1-ply",
    options=tuple(PLAY_LEVELS),
    help="The level at which the engine picks both sides' moves in each game of the "
    "rollout. 1-ply is its network alone (gnubg's 0-ply) and the fastest; 2-ply takes "
    "about 1.5 times as long, 3-ply about 9 times. Each level is its own rollout.",
)

PAGE_CONTROLS = (TRIALS, TRUNCATION, PLAY)
#: The queue's own controls: the box of positions stands on the page, above the Roll out
#: button (folded under the slide in presenter mode).
QUEUE_CONTROLS = (POSITIONS,)
PRESETS = {
    "Quick look: 324 trials": {"trials": "324", "trunc": 0, "play": "1-ply"},
    "Full rollout: 1,296 trials": {"trials": "1296", "trunc": 0, "play": "1-ply"},
}


def batch_trials(trials: int) -> int:
    """Trials of one batch: 36 up to 1,296 trials (36 batches fill a cluster), else 144."""
    return 36 if trials <= 1296 else 144


def read_line(
    line: str, trials: int, truncation: int, play: int = 1
) -> tuple[str, ro.RolloutSettings]:
    """The Position ID and rollout settings of one pasted line.

    Raises ``ValueError`` in players' words (the position page's reader): not a
    position, an XGID whose cube or score the app does not cover.
    """
    from cubecore.position import position_id

    read = canonical(line)
    if read is None:
        position = read_position(line)
        settings = ro.RolloutSettings(
            trials=trials, batch_trials=batch_trials(trials), truncation=truncation, play=play
        )
        return position_id(position), settings
    values, _ = read
    cube = int(str(values["cv"]))
    owner = {"center": "center", "owned": "player", "opponent": "opponent"}[str(values["cube"])]
    match = values.get("mode") == "match"
    settings = ro.RolloutSettings(
        trials=trials,
        batch_trials=batch_trials(trials),
        truncation=truncation,
        play=play,
        cube=cube,
        owner=owner,  # type: ignore[arg-type]
        away=int(str(values["away"])) if match else 0,
        opp_away=int(str(values["oaway"])) if match else 0,
        crawford=bool(values.get("crawford", False)),
        jacoby=bool(values.get("jacoby", False)),
        beavers=bool(values.get("beavers", False)),
    )
    return str(values["pos"]), settings


def read_lines(
    text: str, trials: int, truncation: int, play: int = 1
) -> list[tuple[str, ro.RolloutSettings]]:
    """Every non-blank line's position and settings, at most :data:`MAX_LINES`.

    Raises ``ValueError`` naming the first bad line by its number (players' words);
    nothing is submitted from a paste with a bad line.
    """
    if len(text) > MAX_CHARACTERS:
        raise ValueError(
            f"The list is longer than {MAX_CHARACTERS:,} characters: paste at most "
            f"{MAX_LINES} positions, one a line."
        )
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise ValueError("Paste at least one Position ID or XGID, one a line.")
    if len(lines) > MAX_LINES:
        raise ValueError(
            f"{len(lines)} positions pasted: at most {MAX_LINES} at a time, one a line."
        )
    read = []
    for number, line in lines:
        try:
            read.append(read_line(line, trials, truncation, play))
        except ValueError as error:
            raise ValueError(f"Line {number}: {error}") from None
    return read


def xgid_text(
    pos: str,
    *,
    cube: int = 1,
    owner: str = "center",
    away: int = 0,
    opp_away: int = 0,
    crawford: bool = False,
    jacoby: bool = False,
    beavers: bool = False,
) -> str:
    """The XGID of a position (its Position ID) with its cube and score, as the paste
    box reads it back (:func:`read_line`): the player on roll at the bottom.

    ``owner`` is ``"center"``, ``"player"`` (the player on roll) or ``"opponent"``;
    ``away = opp_away = 0`` is money play (``jacoby`` and ``beavers`` then count). A match
    is written as a match of ``max(away, opp_away)`` points with the score that leaves
    each side its points to go. Raises ``ValueError`` for a Position ID that is none.
    """
    from cubecore.position import position_from_id, xgid

    board = xgid(position_from_id(pos)).split(":")[0]  # the player on roll at the bottom
    exponent = max(0, int(cube).bit_length() - 1) if owner != "center" else 0
    where = {"center": 0, "player": 1, "opponent": -1}[owner]
    if away == 0:
        rules = int(bool(jacoby)) + 2 * int(bool(beavers))
        return f"{board}:{exponent}:{where}:1:00:0:0:{rules}:0:10"
    length = max(away, opp_away)
    return (
        f"{board}:{exponent}:{where}:1:00:{length - away}:{length - opp_away}:"
        f"{int(bool(crawford))}:{length}:10"
    )
