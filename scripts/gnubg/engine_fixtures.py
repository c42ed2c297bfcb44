"""Write the gnubg oracle fixture of cubecore.engine (run INSIDE GNU Backgammon 1.07).

Usage (from the repository root; gnubg is a test oracle, never a dependency)::

    /usr/games/gnubg -t -q -r -p scripts/gnubg/engine_fixtures.py

The runtime engine (bgsage, :mod:`cubecore.engine`) and gnubg use different neural
nets, so this fixture is a yardstick of agreement, not of equality: a convention error
(perspective, side on roll, cube owner, score order) shows as a gross disagreement.

Positions are chosen per class (gnubg's ``classifypos``) and each is recorded with
**both sides on roll** (the board and its swap, consecutive cases ``2k`` and ``2k+1``):

- contact and crashed: positions met in games of gnubg against itself at 0-ply, with
  dice from a seeded ``random.Random`` (reproducible); the first few plies of each game
  are the opening-like contact positions;
- race: from the same games, spread over pip-count bands (short to long races);
- bear-off: seeded random positions of 1..6 checkers a side inside the home board, the
  range of gnubg's two-sided 6x6 database (``/var/lib/gnubg/gnubg_ts0.bd``).

For each position it records

- ``gnubg.evaluate`` at 0-ply: the five cubeless probabilities of the player on roll
  and the cubeless money equity;
- ``gnubg.cfevaluate`` at 0-ply for money, Jacoby off and beavers off, with the cube
  centred (1), owned by the player on roll (2) and owned by the opponent (2): ND, DT,
  DP per current cube value and gnubg's recommendation;
- ``gnubg.cfevaluate`` at two match scores per position (cycling through a list of
  scores up to 25-away on gnubg's default table, Kazaross-XG2): the same in gnubg's
  normalised equity (EMG, per current cube).

Writes ``tests/data/engine_gnubg_0ply.json`` (header ``_meta``: what, gnubg version,
command, date; scipy's tests/data convention).
"""

import datetime
import json
import os
import random
import subprocess

import gnubg

OUT = os.path.join(os.getcwd(), "tests", "data", "engine_gnubg_0ply.json")
SEED = 20261128
EC0 = {"cubeful": 1, "plies": 0, "deterministic": 1, "prune": 0, "noise": 0.0}
CLASS_NAMES = {4: "bearoff", 5: "bearoff", 6: "bearoff", 7: "bearoff", 8: "race",
               9: "crashed", 10: "contact"}  # fmt: skip
#: Positions per class before the swap (each is recorded twice: both sides on roll).
PER_CLASS = 24
#: Of the contact positions, this many come from the first plies of a game.
OPENING = 8
OPENING_PLIES = 6
#: Race pip bands (pips of the player on roll) and how many positions each.
RACE_BANDS = ((0, 40, 5), (40, 70, 6), (70, 100, 7), (100, 200, 6))
MAX_GAMES = 600
START_ID = "4HPwATDgc/ABMA"
MATCH_LENGTH = 25
#: Match scores (on-roll away, opponent away, crawford, cube, owner: -1 centred, 1 on roll).
MATCH_SCORES = [
    (25, 25, 0, 1, -1),
    (7, 7, 0, 1, -1),
    (5, 3, 0, 1, -1),
    (3, 5, 0, 1, -1),
    (4, 2, 0, 1, -1),
    (2, 4, 0, 1, -1),
    (2, 2, 0, 1, -1),
    (11, 9, 0, 1, -1),
    (5, 3, 0, 2, 1),
    (3, 5, 0, 2, 1),
    (9, 13, 0, 2, 1),
    (3, 1, 0, 1, -1),
    (1, 3, 1, 1, -1),
]
MONEY_STATES = [(1, -1, "center"), (2, 1, "player"), (2, 0, "opponent")]
rng = random.Random(SEED)


def swap(board):
    return (tuple(board[1]), tuple(board[0]))


def apply_move(board, move):
    """Board after the on-roll player (board[1]) plays ``move``; the opponent is then on roll."""
    opp, me = list(board[0]), list(board[1])
    for k in range(0, len(move), 2):
        frm, to = move[k], move[k + 1]
        if frm <= 0 and to <= 0:
            break
        me[frm - 1] -= 1
        if to > 0:
            me[to - 1] += 1
            if opp[24 - to] == 1:
                opp[24 - to] = 0
                opp[24] += 1
    return (tuple(opp), tuple(me))


def pips(side):
    return sum((i + 1) * n for i, n in enumerate(side))


def classify(board):
    return CLASS_NAMES.get(gnubg.classifypos(board, 0))


def open_game(board, ci):
    """Neither side sure of the game (cubeless P(win) in [0.04, 0.96], either side on roll)."""
    return 0.04 <= gnubg.evaluate(board, ci, EC0)[0] <= 0.96


def self_play():
    """Contact, crashed and race positions from seeded games of gnubg against itself."""
    ci = gnubg.cubeinfo(1, -1, 1, 0, (0, 0), 0, 0)
    ec_move = dict(EC0, cubeful=0)
    opening, contact, crashed = [], [], []
    races = {band: [] for band in RACE_BANDS}
    seen = set()
    games = 0

    def full():
        return (
            len(opening) >= OPENING
            and len(contact) >= PER_CLASS - OPENING
            and len(crashed) >= PER_CLASS
            and all(len(races[b]) >= b[2] for b in RACE_BANDS)
        )

    while not full() and games < MAX_GAMES:
        games += 1
        board = gnubg.positionfromid(START_ID)
        for ply in range(300):
            cls = classify(board)
            if cls is None:
                break
            pid = gnubg.positionid(board)
            if pid not in seen and open_game(board, ci):
                take = None
                if cls == "contact" and 2 <= ply <= OPENING_PLIES and len(opening) < OPENING:
                    take = opening if rng.random() < 0.3 else None
                elif cls == "contact" and ply > 12 and len(contact) < PER_CLASS - OPENING:
                    take = contact if rng.random() < 0.04 else None
                elif cls == "crashed" and len(crashed) < PER_CLASS:
                    take = crashed if rng.random() < 0.25 else None
                elif cls == "race":
                    mine = pips(board[1])
                    for band in RACE_BANDS:
                        if band[0] < mine <= band[1] and len(races[band]) < band[2]:
                            take = races[band] if rng.random() < 0.2 else None
                if take is not None:
                    seen.add(pid)
                    take.append(pid)
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            move = gnubg.findbestmove(board, ci, ec_move, dice)
            board = swap(apply_move(board, move))
    race = [pid for band in RACE_BANDS for pid in races[band]]
    return {"contact": opening + contact, "crashed": crashed, "race": race}, games


def bear_offs():
    """Seeded bear-offs of 1..6 checkers a side in the home boards (gnubg's 6x6 database)."""
    ci = gnubg.cubeinfo(1, -1, 1, 0, (0, 0), 0, 0)
    kept, seen = [], set()
    while len(kept) < PER_CLASS:
        sides = []
        for _side in range(2):
            side = [0] * 25
            for _checker in range(rng.randint(1, 6)):
                side[rng.randint(0, 5)] += 1
            sides.append(tuple(side))
        board = (sides[0], sides[1])
        pid = gnubg.positionid(board)
        if pid in seen or classify(board) != "bearoff" or not open_game(board, ci):
            continue
        seen.add(pid)
        kept.append(pid)
    return kept


def decision(board, ci, owner_name):
    out = gnubg.cfevaluate(board, ci, EC0)
    return {
        "owner": owner_name,
        "optimal": out[0],
        "no_double": out[1],
        "double_take": out[2],
        "double_pass": out[3],
        "action_code": out[4],
        "action": out[5],
    }


def case(pid, k):
    board = gnubg.positionfromid(pid)
    money_ci = gnubg.cubeinfo(1, -1, 1, 0, (0, 0), 0, 0)
    money_ci["jacoby"] = 0
    money_ci["beavers"] = 0
    out = gnubg.evaluate(board, money_ci, EC0)
    money = []
    for cube, owner, name in MONEY_STATES:
        ci = gnubg.cubeinfo(cube, owner, 1, 0, (0, 0), 0, 0)
        ci["jacoby"] = 0
        ci["beavers"] = 0
        money.append(dict(decision(board, ci, name), cube=cube))
    match = []
    for j in (k % len(MATCH_SCORES), (k + 5) % len(MATCH_SCORES)):
        away, opp_away, crawford, cube, owner = MATCH_SCORES[j]
        score = (MATCH_LENGTH - opp_away, MATCH_LENGTH - away)  # player 1 is on roll
        ci = gnubg.cubeinfo(cube, owner, 1, MATCH_LENGTH, score, crawford, 0)
        name = "center" if owner == -1 else "player"
        match.append(
            dict(
                decision(board, ci, name),
                cube=cube,
                away=away,
                opp_away=opp_away,
                crawford=bool(crawford),
                match_length=MATCH_LENGTH,
            )
        )
    return {
        "position_id": pid,
        "class": classify(board),
        "gnubg_class_code": gnubg.classifypos(board, 0),
        "pips_on_roll": pips(board[1]),
        "pips_opponent": pips(board[0]),
        "probabilities": [float(v) for v in out[:5]],
        "cubeless_equity": float(out[5]),
        "money": money,
        "match": match,
    }


def main():
    gnubg.command("set player 0 human")
    gnubg.command("set player 1 human")
    gnubg.command("set threads 1")
    chosen, games = self_play()
    chosen["bearoff"] = bear_offs()
    cases = []
    k = 0
    for cls in ("contact", "crashed", "race", "bearoff"):
        for pid in chosen[cls]:
            swapped = gnubg.positionid(swap(gnubg.positionfromid(pid)))
            for which in (pid, swapped):
                cases.append(case(which, k))
                k += 1
    package = subprocess.run(
        ["dpkg-query", "-W", "-f", "${Package} ${Version}", "gnubg"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    meta = {
        "what": "gnubg 0-ply cubeless probabilities (gnubg.evaluate) and 0-ply cube decisions "
        "(gnubg.cfevaluate: money with Jacoby and beavers off, cube centred / owned by the "
        "player on roll / owned by the opponent; match scores on Kazaross-XG2 in EMG) for "
        "positions of every class, each with both sides on roll (cases 2k and 2k+1)",
        "made_by": "scripts/gnubg/engine_fixtures.py run as `/usr/games/gnubg -t -q -r -p "
        "scripts/gnubg/engine_fixtures.py`",
        "gnubg_binary": "GNU Backgammon 1.07.001 20230103",
        "gnubg_package": package,
        "command": "gnubg.evaluate(board, cubeinfo(1, -1, 1, 0, (0, 0), 0, 0), evalcontext); "
        "gnubg.cfevaluate(board, cubeinfo(cube, owner, 1, length, score, crawford, 0) with "
        "ci['jacoby'] = ci['beavers'] = 0 for money, evalcontext)",
        "evalcontext": EC0,
        "met": gnubg.show("matchequitytable 1").splitlines()[0],
        "seed": SEED,
        "games_played": games,
        "per_class": {cls: 2 * len(pids) for cls, pids in chosen.items()},
        "generated": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }
    lines = ["{", f' "_meta": {json.dumps(meta)},', ' "cases": [']
    rows = [json.dumps(c, separators=(",", ":")) for c in cases]
    lines += [f"  {row}," for row in rows[:-1]] + [f"  {rows[-1]}", " ]", "}"]
    with open(OUT, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    print("cases", len(cases), meta["per_class"], "games", games)


main()
