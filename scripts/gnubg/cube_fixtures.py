"""Write the gnubg oracle fixtures of cubecore.cubeful (run INSIDE GNU Backgammon 1.07).

Usage (from the repository root; gnubg is a test oracle, never a dependency)::

    /usr/games/gnubg -t -q -r -p scripts/gnubg/cube_fixtures.py

It plays games of gnubg against itself at 0-ply with dice from a seeded
``random.Random`` (so the positions are reproducible), keeps positions of the
classes whose 0-ply cubeful evaluation uses Janowski's interpolation (contact,
crashed, race, one-sided bear-off; the two-sided bear-off database gets exact
cubeful equities in gnubg and is left out), and records for each:

- ``gnubg.evaluate`` at 0-ply: the cubeless probabilities of the player on roll;
- ``gnubg.cfevaluate`` at 0-ply for money (cube positions x Jacoby x beavers) and
  for match scores (Kazaross-XG2, gnubg's default table; incl. Crawford and
  post-Crawford, cube levels 1-4) with ND/DT/DP (money: per current cube; match:
  gnubg's normalised equity, EMG) and their match winning chances via
  ``gnubg.eq2mwc``;
- the cube life x gnubg uses for that position class (its defaults, printed by
  ``show cubeefficiency``; race x from the pips of the player on roll);
- ``show marketwindow g0 g1 b0 b1`` (money and match) for the position's rates.

Writes ``tests/data/gnubg_cube_money.json`` and ``tests/data/gnubg_cube_match.json``.
"""

import datetime
import json
import os
import random
import re
import subprocess

import gnubg

OUT = os.path.join(os.getcwd(), "tests", "data")
SEED = 20261123
EC0 = {"cubeful": 1, "plies": 0, "deterministic": 1, "prune": 0, "noise": 0.0}
CLASS_NAMES = {6: "bearoff1", 7: "bearoff_os", 8: "race", 9: "crashed", 10: "contact"}
WANT = {"contact": 14, "crashed": 6, "race": 12, "bearoff_os": 6}
MAX_GAMES = 150
START_ID = "4HPwATDgc/ABMA"
MATCH_LENGTH = 11
MET_SIZE = 15
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


def cube_life(cls, board):
    if cls in ("contact", "crashed"):
        return 0.68
    if cls in ("bearoff_os", "bearoff1"):
        return 0.6
    return min(max(0.55 + 0.00125 * pips(board[1]), 0.6), 0.7)


def collect_positions():
    money_ci = gnubg.cubeinfo(1, -1, 1, 0, (0, 0), 0, 0)
    ec_move = dict(EC0, cubeful=0)
    kept = {name: [] for name in WANT}
    seen = set()
    games = 0
    while any(len(kept[c]) < n for c, n in WANT.items() if c != "bearoff_os") and games < MAX_GAMES:
        games += 1
        board = gnubg.positionfromid(START_ID)
        for _ply in range(200):
            cls_code = gnubg.classifypos(board, 0)
            if cls_code == 0:
                break
            cls = CLASS_NAMES.get(cls_code)
            pid = gnubg.positionid(board)
            if cls in kept and pid not in seen and len(kept[cls]) < WANT[cls]:
                # favour the cube window (0.6 < p < 0.9); skip near-certain games
                p = gnubg.evaluate(board, money_ci, EC0)[0]
                chance = 0.5 if 0.6 < p < 0.9 else 0.12 if 0.03 < p < 0.97 else 0.0
                if rng.random() < chance:
                    seen.add(pid)
                    kept[cls].append((pid, cls))
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            move = gnubg.findbestmove(board, money_ci, ec_move, dice)
            board = swap(apply_move(board, move))
    # Self-play rarely stops in a one-sided bear-off with the game still open: set
    # such positions (7-15 checkers each inside the home board, seeded) instead.
    tries = 0
    while len(kept["bearoff_os"]) < WANT["bearoff_os"] and tries < 5000:
        tries += 1
        sides = []
        for _side in range(2):
            side = [0] * 25
            for _checker in range(rng.randint(7, 15)):
                side[rng.randint(0, 5)] += 1
            sides.append(tuple(side))
        board = (sides[0], sides[1])
        if CLASS_NAMES.get(gnubg.classifypos(board, 0)) not in ("bearoff_os", "bearoff1"):
            continue
        p = gnubg.evaluate(board, money_ci, EC0)[0]
        pid = gnubg.positionid(board)
        if 0.55 < p < 0.92 and pid not in seen:
            seen.add(pid)
            kept["bearoff_os"].append((pid, "bearoff_os"))
    return [p for name in WANT for p in kept[name]], games


def probabilities(board, ci):
    out = gnubg.evaluate(board, ci, EC0)
    return [float(v) for v in out[:5]], float(out[5])


def rates(probs):
    """Gammon-only and backgammon rates of each side's wins (show marketwindow's arguments)."""
    p, wg, wbg, lg, lbg = probs
    return ((wg - wbg) / p, wbg / p), ((lg - lbg) / (1 - p), lbg / (1 - p))


def market_window(own, opp):
    """``show marketwindow`` with player 1 (on roll, "root") given ``own`` rates."""
    text = gnubg.show(f"marketwindow {opp[0]:.12f} {own[0]:.12f} {opp[1]:.12f} {own[1]:.12f}")
    return text


PERCENT = r"\s*([0-9.]+)%"
MONEY_ROWS = {
    "take": "Take Point \\(TP\\)",
    "beaver": "Beaver Point \\(BP\\)",
    "raccoon": "Raccoon Point \\(RP\\)",
    "initial_double": "Initial Double Point \\(IDP\\)",
    "redouble": "Redouble Point \\(RDP\\)",
    "cash": "Cash Point \\(CP\\)",
    "too_good": "Too good Point \\(TGP\\)",
}


def parse_money_window(text):
    block = text.split("Player root cube parameters:")[1]
    out = {}
    for key, label in MONEY_ROWS.items():
        m = re.search(label + PERCENT + PERCENT, block)
        out[key] = {"dead": float(m.group(1)) / 100, "live": float(m.group(2)) / 100}
    return out


def parse_match_window(text):
    block = text.split("Player root market window:")[1]
    out = {}
    for kind in ("Dead cube", "Live cube"):
        m = re.search(kind + r":" + PERCENT + r"\s*-" + PERCENT, block)
        out[kind.split()[0].lower()] = (
            None if m is None else [float(m.group(1)) / 100, float(m.group(2)) / 100]
        )
    out["text"] = block.strip()
    return out


def dump(doc, name):
    """Write ``doc`` with one list item (a case, a table row) per line: small and diffable."""
    lines = ["{"]
    items = list(doc.items())
    for i, (key, value) in enumerate(items):
        end = "," if i < len(items) - 1 else ""
        if isinstance(value, list):
            rows = [json.dumps(row, separators=(",", ":")) for row in value]
            lines.append(f" {json.dumps(key)}: [")
            lines += [f"  {row}," for row in rows[:-1]] + [f"  {rows[-1]}"] if rows else []
            lines.append(f" ]{end}")
        elif isinstance(value, dict) and key != "_meta":
            inner = dump_inner(value)
            lines.append(f" {json.dumps(key)}: {inner}{end}")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, indent=None)}{end}")
    lines.append("}")
    with open(os.path.join(OUT, name), "w") as fh:
        fh.write("\n".join(lines) + "\n")


def dump_inner(table):
    """A dict of lists of rows (the MET arrays), one row per line."""
    parts = []
    for key, rows in table.items():
        if rows and isinstance(rows[0], (list, tuple)):
            body = ",\n    ".join(json.dumps(list(r), separators=(",", ":")) for r in rows)
            parts.append(f"  {json.dumps(key)}: [\n    {body}\n  ]")
        else:
            parts.append(f"  {json.dumps(key)}: {json.dumps(list(rows), separators=(',', ':'))}")
    return "{\n" + ",\n".join(parts) + "\n }"


def meta(what, command):
    return {
        "what": what,
        "made_by": "scripts/gnubg/cube_fixtures.py run as `/usr/games/gnubg -t -q -r -p "
        "scripts/gnubg/cube_fixtures.py`",
        "gnubg_binary": "Debian gnubg 1.07.001-1+b1 (GNU Backgammon 1.07.001 20230103)",
        "gnubg_package": subprocess.run(
            ["dpkg-query", "-W", "-f", "${Package} ${Version}", "gnubg"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout,
        "command": command,
        "evalcontext": EC0,
        "cube_efficiency": gnubg.show("cubeefficiency"),
        "seed": SEED,
        "generated": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }


def main():
    gnubg.command("set player 0 human")
    gnubg.command("set player 1 human")
    gnubg.command("set threads 1")
    positions, games = collect_positions()
    # ---- money -------------------------------------------------------------
    gnubg.command("new session")
    money = []
    windows = []
    cube_states = [(1, -1), (2, 1), (4, 1)]
    for pid, cls in positions:
        board = gnubg.positionfromid(pid)
        base = gnubg.cubeinfo(1, -1, 1, 0, (0, 0), 0, 0)
        base["jacoby"] = 0
        probs, cubeless = probabilities(board, base)
        x = cube_life(cls, board)
        for cube, owner in cube_states:
            for jacoby in (0, 1):
                for beavers in (0, 1):
                    ci = gnubg.cubeinfo(cube, owner, 1, 0, (0, 0), 0, 0)
                    ci["jacoby"] = jacoby
                    ci["beavers"] = beavers
                    out = gnubg.cfevaluate(board, ci, EC0)
                    money.append(
                        {
                            "position_id": pid,
                            "class": cls,
                            "pips_on_roll": pips(board[1]),
                            "pips_opponent": pips(board[0]),
                            "x": x,
                            "probabilities": probs,
                            "cubeless_equity": cubeless,
                            "cube": cube,
                            "owner": "center" if owner == -1 else "player",
                            "jacoby": bool(jacoby),
                            "beavers": bool(beavers),
                            "optimal": out[0],
                            "no_double": out[1],
                            "double_take": out[2],
                            "double_pass": out[3],
                            "action_code": out[4],
                            "action": out[5],
                        }
                    )
        own, opp = rates(probs)
        for jacoby, beavers in ((0, 0), (1, 0), (1, 1)):
            gnubg.command(f"set jacoby {'on' if jacoby else 'off'}")
            gnubg.command(f"set beavers {3 if beavers else 0}")
            gnubg.command("new session")
            text = market_window(own, opp)
            windows.append(
                {
                    "position_id": pid,
                    "probabilities": probs,
                    "rates_on_roll": own,
                    "rates_opponent": opp,
                    "jacoby": bool(jacoby),
                    "beavers": bool(beavers),
                    "points": parse_money_window(text),
                }
            )
    doc = {
        "_meta": meta(
            "0-ply cube decisions for money (ND, DT, DP per current cube value, as "
            "cfevaluate returns them) and money market windows",
            "gnubg.evaluate / gnubg.cfevaluate(board, cubeinfo(cube, owner, 1, 0, (0, 0), 0, 0) "
            "with jacoby/beavers set, evalcontext) ; show marketwindow g0 g1 b0 b1",
        ),
        "games_played": games,
        "cases": money,
        "market_windows": windows,
    }
    dump(doc, "gnubg_cube_money.json")
    # ---- match -------------------------------------------------------------
    n = MATCH_LENGTH
    scores = [
        # (on-roll away, opponent away, crawford, cube, owner)
        (7, 7, 0, 1, -1),
        (5, 3, 0, 1, -1),
        (3, 5, 0, 1, -1),
        (4, 4, 0, 1, -1),
        (2, 4, 0, 1, -1),
        (4, 2, 0, 1, -1),
        (2, 2, 0, 1, -1),
        (9, 11, 0, 1, -1),
        (5, 3, 0, 2, 1),
        (3, 5, 0, 2, 1),
        (7, 7, 0, 2, 1),
        (6, 4, 0, 2, 1),
        (8, 5, 0, 4, 1),
        (11, 11, 0, 4, 1),
        (3, 2, 0, 1, -1),
        (6, 9, 0, 2, 1),
        (1, 5, 1, 1, -1),
        (5, 1, 1, 1, -1),
        (3, 1, 0, 1, -1),
        (2, 1, 0, 1, -1),
        (4, 1, 0, 2, 1),
        (5, 1, 0, 1, -1),
    ]
    match = []
    match_windows = []
    for k, (pid, cls) in enumerate(positions):
        board = gnubg.positionfromid(pid)
        x = cube_life(cls, board)
        for j, (a_roll, a_opp, crawford, cube, owner) in enumerate(scores):
            if (k + j) % 3:
                continue
            score = (n - a_opp, n - a_roll)  # player 1 is on roll
            ci = gnubg.cubeinfo(cube, owner, 1, n, score, crawford, 0)
            probs, cubeless = probabilities(board, ci)
            out = gnubg.cfevaluate(board, ci, EC0)
            mwc = [gnubg.eq2mwc(v, ci) for v in out[:4]]
            match.append(
                {
                    "position_id": pid,
                    "class": cls,
                    "pips_on_roll": pips(board[1]),
                    "x": x,
                    "probabilities": probs,
                    "cubeless_emg": cubeless,
                    "cubeless_mwc": gnubg.eq2mwc(cubeless, ci),
                    "match_length": n,
                    "away": a_roll,
                    "opp_away": a_opp,
                    "crawford": bool(crawford),
                    "cube": cube,
                    "owner": "center" if owner == -1 else "player",
                    "optimal_emg": out[0],
                    "no_double_emg": out[1],
                    "double_take_emg": out[2],
                    "double_pass_emg": out[3],
                    "optimal_mwc": mwc[0],
                    "no_double_mwc": mwc[1],
                    "double_take_mwc": mwc[2],
                    "double_pass_mwc": mwc[3],
                    "action_code": out[4],
                    "action": out[5],
                }
            )
        if k % 4 == 0:
            own, opp = rates(probabilities(board, gnubg.cubeinfo(1, -1, 1, 0, (0, 0), 0, 0))[0])
            for a_roll, a_opp in ((5, 3), (3, 5), (7, 7), (4, 2)):
                gnubg.command(f"new match {n}")
                gnubg.command(f"set score {-a_opp} {-a_roll}")
                text = gnubg.show(
                    f"marketwindow {opp[0]:.12f} {own[0]:.12f} {opp[1]:.12f} {own[1]:.12f}"
                )
                match_windows.append(
                    {
                        "position_id": pid,
                        "rates_on_roll": own,
                        "rates_opponent": opp,
                        "match_length": n,
                        "away": a_roll,
                        "opp_away": a_opp,
                        "points": parse_match_window(text),
                    }
                )
    table = gnubg.met(MET_SIZE)
    doc = {
        "_meta": meta(
            "0-ply cube decisions at match scores on Kazaross-XG2 (gnubg's default MET): "
            "ND/DT/DP in gnubg's normalised equity (EMG, per current cube) and in MWC "
            "(gnubg.eq2mwc), and match market windows",
            f"gnubg.cfevaluate(board, cubeinfo(cube, owner, 1, {n}, score, crawford, 0), "
            f"evalcontext); gnubg.eq2mwc; gnubg.met({MET_SIZE}); show marketwindow",
        ),
        "met_name": gnubg.show("matchequitytable 1").splitlines()[0],
        "met": {"pre": table[0], "post_player0": table[1], "post_player1": table[2]},
        "cases": match,
        "market_windows": match_windows,
    }
    dump(doc, "gnubg_cube_match.json")
    print("money cases", len(money), "match cases", len(match), "games", games)


main()
