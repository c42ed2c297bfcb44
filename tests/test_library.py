"""Tests of cubecore.library: the reference library of positions and its stored verdicts.

The evaluations file ``cubecore/data/positions/evaluations.json`` is written by
``scripts/library_evaluations.py``; these tests recompute part of it through the same
script (and so through :func:`cubecore.engine.evaluate`) and check the hand-written file
``library.toml`` against it.
"""

import datetime as dt
import importlib.util
import json
from dataclasses import asdict
from pathlib import Path
from types import ModuleType

import pytest

from cubecore import engine, library
from cubecore.position import position_from_id, position_id

ROOT = Path(__file__).resolve().parents[1]
#: bgsage computes in float32; a value recomputed on the same version is the same
#: number, but its last float32 bit may move with the order of summation (threads).
FLOAT32 = 1e-6
#: Five positions recomputed at 1-ply: a race, a redouble (owned cube), a bear-off, a
#: blitz and a back game, at every stored score.
RECOMPUTED = (
    "race-72-80",
    "race-redouble-100-110",
    "bearoff-two-vs-two",
    "blitz-two-on-bar",
    "back-game-timing",
)
FLOAT_FIELDS = (
    "win",
    "win_gammon",
    "win_backgammon",
    "lose_gammon",
    "lose_backgammon",
    "cubeless_equity",
    "no_double",
    "double_take",
    "double_pass",
    "optimal",
)


def _script() -> ModuleType:
    path = ROOT / "scripts" / "library_evaluations.py"
    spec = importlib.util.spec_from_file_location("library_evaluations", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_library_is_large_legal_and_unique() -> None:
    items = library.library()
    assert len(items) >= 60
    ids = [item.id for item in items]
    assert len(set(ids)) == len(ids)
    for item in items:
        position = position_from_id(item.position_id)
        assert position_id(position) == item.position_id, item.id
        assert position.on_roll_borne_off < 15 and position.opponent_borne_off < 15
        if item.theme != "bear-off" and not position.is_race:
            # A contact position has all 30 checkers in play.
            assert (position.on_roll_borne_off, position.opponent_borne_off) == (0, 0), item.id


def test_themes_come_from_the_fixed_list_and_each_is_covered() -> None:
    themes = [item.theme for item in library.library()]
    assert set(themes) == set(library.THEMES)
    assert min(themes.count(theme) for theme in library.THEMES) >= 4


def test_each_explanation_argues_the_engines_money_verdict() -> None:
    for item in library.library():
        stored = library.evaluation(item.id, "money", "3-ply")
        assert item.money_verdict == stored.verdict, (item.id, stored.action)


def test_every_position_has_every_score_and_level() -> None:
    for item in library.library():
        for score in library.SCORES:
            for level in library.LEVELS:
                stored = library.evaluation(item.id, score, level)
                assert stored.verdict in library.VERDICTS
                assert 0.0 <= stored.win <= 1.0


def test_header_says_what_made_the_evaluations() -> None:
    header = library.evaluations_header()
    assert header["made_by"] == "scripts/library_evaluations.py"
    assert header["engine_version"] == engine.ENGINE_VERSION == engine.installed_version()
    assert header["levels"] == list(library.LEVELS)
    assert header["seed"] == engine.ROLLOUT_SEED and header["seed_note"]
    assert dt.datetime.fromisoformat(header["date"]).year >= 2026
    assert header["seconds"] > 0


@pytest.mark.parametrize("position_key", RECOMPUTED)
def test_stored_values_recompute_at_1_ply(position_key: str) -> None:
    script = _script()
    item = library.library_position(position_key)
    for score in library.SCORES.values():
        fresh = script.evaluate(item, score, "1-ply")
        stored = asdict(library.evaluation(position_key, score.key, "1-ply"))
        for name in FLOAT_FIELDS:
            if stored[name] is None:
                assert fresh[name] is None, (score.key, name)
            else:
                assert fresh[name] == pytest.approx(stored[name], abs=FLOAT32), (score.key, name)
        assert (fresh["action"], fresh["verdict"]) == (stored["action"], stored["verdict"])


def test_close_decisions_carry_a_deeper_check_and_disputed_ones_a_rollout() -> None:
    script = _script()
    refused = library.evaluations_header()["rollouts_refused"]
    checked = rolled = 0
    for item in library.library():
        for score in library.SCORES:
            shown = library.evaluation(item.id, score)
            check = library.close_check(item.id, score)
            rollout = library.stored_rollout(item.id, score)
            close = shown.margin is not None and shown.margin < script.CLOSE
            assert (check is not None) == close, (item.id, score)
            disputed = check is not None and check.verdict != shown.verdict
            listed = {"id": item.id, "score": score} in [
                {"id": r["id"], "score": r["score"]} for r in refused
            ]
            assert (rollout is not None or listed) == disputed, (item.id, score)
            assert not (rollout is not None and listed)
            if rollout is not None:
                assert rollout.trials == script.ROLLOUT_TRIALS
                assert rollout.standard_errors is not None and len(rollout.standard_errors) == 3
            checked += close
            rolled += rollout is not None
    header = library.evaluations_header()
    assert (checked, rolled) == (header["close_checked"], header["rolled_out"])
    assert rolled > 0


def test_verdict_of_each_action() -> None:
    assert library.verdict_of("No double, take", False, False, True) == "ND"
    assert library.verdict_of("No redouble, beaver", False, False, True) == "ND"
    assert library.verdict_of("Double, take", True, False, True) == "DT"
    assert library.verdict_of("Redouble, pass", True, True, True) == "DP"
    assert library.verdict_of("Too good to double, pass", False, True, True) == "TG"
    assert library.verdict_of("No double (the cube is not available)", False, False, False) == "NA"


def test_margin_is_the_closer_of_the_two_decisions() -> None:
    stored = library.evaluation("race-72-80")
    double = min(stored.double_take or 0.0, stored.double_pass or 0.0)
    assert stored.margin == pytest.approx(
        min(abs(stored.no_double - double), abs(double - (stored.double_pass or 0.0)))
    )


def test_unknown_id_score_or_level_is_named() -> None:
    with pytest.raises(ValueError, match="no library position has the id 'race-1-2'"):
        library.library_position("race-1-2")
    with pytest.raises(ValueError, match="`score` must be one of"):
        library.evaluation("race-72-80", "7-7")
    with pytest.raises(ValueError, match="`level` must be one of"):
        library.evaluation("race-72-80", "money", "2-ply")


def _entry(**changes: object) -> dict[str, object]:
    entry = {
        "id": "race-test",
        "title": "A test",
        "theme": "race",
        "explanation": "Words.",
        "position_id": library.library_position("race-72-80").position_id,
        "cube": 1,
        "owner": "center",
        "money_verdict": "DT",
    }
    entry.update(changes)
    return entry


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"theme": "endgame"}, "theme 'endgame' is not one of"),
        ({"id": "Race 1"}, "lower-case words joined by hyphens"),
        ({"owner": "me"}, "owner 'me' is not one of"),
        ({"cube": 3, "owner": "player"}, "cube 3 is not a power of two"),
        ({"cube": 2}, "a centred cube is on 1"),
        ({"money_verdict": "double"}, "verdict 'double' not in"),
        ({"position_id": "AAAAAAAAAAAAAA"}, "the game is over"),
        ({"position_id": "//////////////"}, "position"),
        ({"colour": "red"}, "unknown \\['colour'\\]"),
    ],
)
def test_a_bad_library_entry_is_named(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        library._library_position(_entry(**changes), 0)


def test_evaluations_file_is_what_the_script_writes() -> None:
    data = json.loads(library.EVALUATIONS_FILE.read_text())
    assert list(data["positions"]) == [item.id for item in library.library()]
    assert set(data["header"]["scores"]) == set(library.SCORES)


def test_the_double_and_the_take_apart() -> None:
    for item in library.library():
        for score in library.SCORES:
            stored = library.evaluation(item.id, score)
            assert stored.doubles == (stored.verdict in ("DT", "DP"))
            if stored.verdict == "NA":
                assert stored.taker_passes is None
            elif stored.verdict != "TG":  # too good: the taker may pass or take
                assert stored.taker_passes == (stored.verdict == "DP"), (item.id, score)
            else:
                assert stored.action.endswith("pass" if stored.taker_passes else "take")
