"""Tests of :mod:`cubecore.rules`, each rule traced to [RULES] (doubling_cube_rules.txt)."""

from __future__ import annotations

import math

import hypothesis.strategies as hst
import numpy as np
import pytest
from hypothesis import given, settings

from cubecore import janowski
from cubecore.rules import (
    ACTIONS,
    CUBE_FACES,
    MAX_EQUITY_POINTS,
    MAX_EVENT_STATES,
    CubeState,
    IllegalCubeAction,
    Rules,
    WalkthroughPreset,
    apply,
    cube_face,
    event_table,
    game_label,
    illegal_reasons,
    initial_state,
    legal_actions,
    money_rule_equities,
    player_to_act,
    replay,
)

MONEY = Rules()
BEAVERS = Rules(beavers=True, raccoons=True)


def _play(actions, rules, start=None):
    return replay(actions, rules, start)[-1]


def _raises(state, action, rules, match):
    with pytest.raises(IllegalCubeAction, match=match):
        apply(state, action, rules)


# ----------------------------------------------------------------------------- Rules


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"jacoby": True, "match_length": 5}, "Jacoby rule is used in money play"),
        ({"beavers": True, "match_length": 5}, "beavers are allowed in money play only"),
        ({"raccoons": True, "match_length": 5}, "raccoons are allowed in money play only"),
        ({"raccoons": True}, "raccoons need beavers"),
        ({"crawford": True}, "Crawford rule needs match play"),
        ({"holland": True, "match_length": 5}, "Holland rule applies only with the Crawford"),
        ({"murphy_cap": 2}, "murphy_cap needs murphy=True"),
        ({"murphy": True, "murphy_cap": 0}, "`murphy_cap` must be a whole number"),
        ({"match_length": 0}, "`match_length` must be a whole number"),
        ({"match_length": 2.5}, "`match_length` must be a whole number"),
        ({"beavers": 1}, "`beavers` must be True or False"),
    ],
)
def test_rules_rejects(kwargs, message):
    # [RULES]: Jacoby "is not used in match play"; beavers/raccoons "in money games";
    # Crawford is a match rule; Holland "if the Crawford rule is in effect".
    with pytest.raises(ValueError, match=message):
        Rules(**kwargs)


def test_rules_accepts():
    assert Rules(beavers=True, raccoons=True, jacoby=True, murphy=True, murphy_cap=3).money_play
    rules = Rules(match_length=7, crawford=True, holland=True)
    assert not rules.money_play
    assert rules.match_length == 7
    assert Rules(murphy=True, match_length=5).murphy  # [RULES] does not forbid it in matches


# ------------------------------------------------------------------------- cube_face


def test_cube_face():
    # [RULES] para. 1: 64 showing when centred on 1; faces 2 ... 64.
    assert cube_face(1) == 64
    assert [cube_face(face) for face in CUBE_FACES] == list(CUBE_FACES)
    # Stakes past 64 ([RULES]: "may rise to 128, 256"): the faces cycle on.
    assert (cube_face(128), cube_face(256), cube_face(4096), cube_face(8192)) == (2, 4, 64, 2)
    faces = cube_face([1, 2, 64, 128])
    np.testing.assert_array_equal(faces, [64, 2, 64, 2])


@pytest.mark.parametrize("value", [0, 3, 0.5, -2, math.nan, math.inf])
def test_cube_face_rejects(value):
    with pytest.raises(ValueError, match="value"):
        cube_face(value)


# --------------------------------------------------------------------- initial_state


def test_initial_state():
    state = initial_state(MONEY)
    assert (state.value, state.owner, state.face, state.phase) == (1, "center", 64, "opening")
    match = Rules(match_length=5, crawford=True)
    assert initial_state(match, 4, 2, match_phase="Crawford").crawford_game
    with pytest.raises(ValueError, match="score_a"):
        initial_state(match, 5, 0)
    with pytest.raises(ValueError, match="one point short"):
        initial_state(match, 3, 2, match_phase="Crawford")
    with pytest.raises(ValueError, match="Crawford rule"):
        initial_state(Rules(match_length=5), 4, 0, match_phase="post-Crawford")
    with pytest.raises(ValueError, match="rules"):
        initial_state("money")


# ----------------------------------------------------------------- legal_actions etc.


def test_legal_actions_opening_and_centred_cube():
    # [RULES]: "When the cube is centered ... either player may propose" a double.
    assert legal_actions(initial_state(MONEY), MONEY) == (
        "opening_tie",
        "opening_won_A",
        "opening_won_B",
    )
    for opener in ("A", "B"):
        state = _play([f"opening_won_{opener}"], MONEY)
        assert "double" in legal_actions(state, MONEY)
        assert "double" in legal_actions(apply(state, "roll", MONEY), MONEY)


def test_legal_actions_only_owner_redoubles():
    # [RULES]: "the right to re-double belongs exclusively to the player who last
    # accepted a double".
    state = _play(["opening_won_A", "double", "take"], MONEY)  # B doubled, A owns
    assert state.owner == "A" and state.turn == "B"
    assert "double" not in legal_actions(state, MONEY)
    _raises(state, "double", MONEY, "only the cube owner may redouble")
    state = apply(state, "roll", MONEY)
    assert "double" in legal_actions(state, MONEY)
    state = _play(["double", "take"], MONEY, state)
    assert (state.value, state.owner) == (4, "B")


def test_apply_take_and_drop():
    # [RULES]: take -> doubled stakes, cube to the taker; drop -> resign the game.
    state = _play(["opening_won_B", "double"], MONEY)
    assert state.phase == "offer" and legal_actions(state, MONEY) == ("take", "drop")
    taken = apply(state, "take", MONEY)
    assert (taken.value, taken.owner, taken.face) == (2, "B", 2)
    dropped = apply(state, "drop", MONEY)
    assert (dropped.winner, dropped.points, dropped.ending) == ("A", 1, "drop")
    assert dropped.game_over and dropped.score_a == 1
    _raises(state, "roll", MONEY, "a double is pending")
    _raises(dropped, "double", MONEY, "the game is over")


def test_apply_stakes_past_64():
    # [RULES]: "Although 64 is the highest number depicted ... the stakes may rise to
    # 128, 256, and so on."
    state = _play(["opening_won_A"], MONEY)
    for _ in range(8):
        state = _play(["double", "take", "roll"], MONEY, state)
    assert state.value == 256 and state.face == 4
    assert [event.value for event in state.history if event.action == "take"] == [
        2,
        4,
        8,
        16,
        32,
        64,
        128,
        256,
    ]


def test_apply_beaver_raccoon_example():
    # [RULES]: "White doubles Black to 2 points, Black accepts then beavers the cube to
    # 4 points; White ... raccoons the cube to 8 points, whilst Black retains the cube."
    states = replay(["opening_won_B", "double", "beaver", "raccoon"], BEAVERS)
    assert [s.value for s in states[2:]] == [1, 4, 8]
    assert [s.owner for s in states[3:]] == ["B", "B"]
    assert [event.rule for event in states[-1].history[-2:]] == ["beaver", "raccoon"]
    # "... the doubling cube coming back at 8 times its original value ... counter
    # offered at 16 points".
    final = _play(["roll", "double"], BEAVERS, states[-1])
    assert final.doubler == "B" and 2 * final.value == 16


def test_apply_beaver_raccoon_edge_cases():
    offer = _play(["opening_won_B", "double"], BEAVERS)
    assert set(legal_actions(offer, BEAVERS)) == {"take", "drop", "beaver"}
    beavered = apply(offer, "beaver", BEAVERS)
    # No drop of a beaver; no redouble by the doubler; raccoon only now.
    assert set(legal_actions(beavered, BEAVERS)) == {
        "raccoon",
        "roll",
        "win_single",
        "win_gammon",
        "win_backgammon",
    }
    _raises(beavered, "double", BEAVERS, "only the cube owner may redouble")
    _raises(apply(beavered, "roll", BEAVERS), "raccoon", BEAVERS, "only answers a beaver")
    raccooned = apply(beavered, "raccoon", BEAVERS)
    _raises(raccooned, "raccoon", BEAVERS, "only answers a beaver")
    _raises(raccooned, "beaver", BEAVERS, "no double is pending")
    # Rule sets without them.
    beavers_only = Rules(beavers=True)
    _raises(apply(offer, "beaver", beavers_only), "raccoon", beavers_only, "raccoons are not")
    _raises(offer, "beaver", MONEY, "beavers are not allowed under these rules")
    match = Rules(match_length=5)
    match_offer = _play(["opening_won_B", "double"], match)
    _raises(match_offer, "beaver", match, "beavers are not allowed in match play")
    _raises(match_offer, "raccoon", match, "raccoons are not allowed in match play")


def test_apply_murphy_rule():
    # [RULES]: each opening tie doubles the cube, which stays in the middle; with two
    # automatic doubles (cube at 4) "the first in-game double will be for 8 points".
    rules = Rules(murphy=True)
    state = _play(["automatic_double", "automatic_double"], rules)
    assert (state.value, state.owner, state.automatic_doubles) == (4, "center", 2)
    _raises(state, "opening_tie", rules, "Murphy rule: an opening tie doubles the cube")
    state = _play(["opening_won_A", "double", "take"], rules, state)
    assert (state.value, state.owner) == (8, "A")
    # Unlimited: many ties keep doubling.
    assert _play(["automatic_double"] * 10, rules).value == 1024


def test_apply_murphy_cap():
    # [RULES]: "invoked with a maximum number of automatic doubles allowed".
    rules = Rules(murphy=True, murphy_cap=2)
    state = _play(["automatic_double", "automatic_double"], rules)
    assert "automatic_double" not in legal_actions(state, rules)
    _raises(state, "automatic_double", rules, "Murphy cap reached")
    state = apply(state, "opening_tie", rules)
    assert state.value == 4 and "Murphy cap reached" in state.history[-1].note
    _raises(initial_state(MONEY), "automatic_double", MONEY, "Murphy rule not in force")


def test_apply_jacoby_rule():
    # [RULES]: gammons count "only if the cube has already been offered and accepted";
    # used in money play only.
    rules = Rules(jacoby=True)
    centred = _play(["opening_won_A", "roll"], rules)
    assert apply(centred, "win_gammon", rules).points == 1
    assert apply(centred, "win_backgammon", rules).history[-1].rule == "Jacoby rule"
    assert apply(centred, "win_gammon", MONEY).points == 2  # no Jacoby: gammon pays 2
    turned = _play(["double", "take", "roll", "roll"], rules, centred)
    assert turned.owner == "B" and turned.turn == "A"
    assert apply(turned, "win_gammon", rules).points == 4
    assert apply(turned, "win_backgammon", rules).points == 6
    # Automatic doubles do not offer the cube: Jacoby still applies, at stake 2.
    murphy = Rules(jacoby=True, murphy=True)
    state = _play(["automatic_double", "opening_won_B", "roll", "win_gammon"], murphy)
    assert (state.points, state.winner) == (2, "B")


def _match_to_crawford(rules: Rules):
    # 5-point match, A wins a single game at 3-2 and first reaches 4.
    start = initial_state(rules, 3, 2)
    return _play(["opening_won_A", "roll", "win_single", "next_game"], rules, start)


def test_apply_crawford_rule():
    # [RULES]: when a player first reaches one point short, "neither player may use
    # the doubling cube for the following game, called the Crawford game".
    rules = Rules(match_length=5, crawford=True)
    crawford = _match_to_crawford(rules)
    assert crawford.crawford_game and (crawford.score_a, crawford.score_b) == (4, 2)
    assert crawford.history[-1].rule == "Crawford rule"
    for action in ("opening_won_B", "roll", "roll"):
        crawford = apply(crawford, action, rules)
        assert "double" not in legal_actions(crawford, rules)
        _raises(crawford, "double", rules, "Crawford rule: no doubling in the Crawford game")
    # Automatic doubles are a use of the cube too.
    murphy = Rules(match_length=5, crawford=True, murphy=True)
    _raises(_match_to_crawford(murphy), "automatic_double", murphy, "Crawford rule")
    # "After the Crawford game, normal use of the doubling cube resumes."
    post = _play(["roll", "win_single", "next_game", "opening_won_B"], rules, crawford)
    assert (post.score_a, post.score_b) == (4, 3)
    assert post.post_crawford and not post.crawford_game
    assert "double" in legal_actions(post, rules)
    # Only once: reaching 4-4 post-Crawford is no second Crawford game.
    post = _play(["roll", "win_single", "next_game"], rules, post)
    assert (post.score_a, post.score_b) == (4, 4) and not post.crawford_game
    # Without the Crawford rule there is no Crawford game.
    plain = Rules(match_length=5)
    assert not _match_to_crawford(plain).crawford_game


def test_apply_crawford_edge_cases():
    rules = Rules(match_length=5, crawford=True)
    # "It is possible for a Crawford game never to occur": 3 -> 5 by a gammon.
    state = _play(["opening_won_A", "roll", "win_gammon"], rules, initial_state(rules, 3, 2))
    assert state.phase == "match_over" and state.winner == "A"
    _raises(state, "next_game", rules, "the match is over")
    # Reaching match point by a drop triggers the Crawford game too.
    state = _play(["opening_won_B", "double", "drop", "next_game"], rules, initial_state(rules, 3))
    assert state.crawford_game
    # A one-point match starts at 0-0 with no Crawford game.
    one = Rules(match_length=1, crawford=True)
    assert not initial_state(one).crawford_game


def test_apply_holland_rule():
    # [RULES]: "after the Crawford game, a player cannot double until after at least
    # two rolls have been played by each side".
    rules = Rules(match_length=5, crawford=True, holland=True)
    crawford = _match_to_crawford(rules)
    state = _play(["opening_won_B", "roll", "win_single", "next_game"], rules, crawford)
    assert state.post_crawford and state.history[-1].rule == "Holland rule"
    blocked = []
    for action in ("opening_won_B", "roll", "roll", "roll"):
        assert "double" not in legal_actions(state, rules)
        state = apply(state, action, rules)
        blocked.append((state.rolls_a, state.rolls_b))
    assert blocked[-1] == (2, 2)
    assert "double" in legal_actions(state, rules)
    # One roll short on either side still blocks.
    fresh = initial_state(rules, 4, 3, match_phase="post-Crawford")
    short = _play(["opening_won_A", "roll", "roll"], rules, fresh)
    assert (short.rolls_a, short.rolls_b) == (2, 1)
    _raises(short, "double", rules, "Holland rule")
    # Without Holland the post-Crawford double is legal at once.
    crawford_only = Rules(match_length=5, crawford=True)
    post = initial_state(crawford_only, 4, 3, match_phase="post-Crawford")
    assert "double" in legal_actions(apply(post, "opening_won_B", crawford_only), crawford_only)


def test_apply_money_session_and_errors():
    state = _play(["opening_won_A", "win_single", "next_game"], MONEY)
    assert (state.score_b, state.phase, state.value) == (1, "opening", 1)
    with pytest.raises(ValueError, match="`action` must be one of"):
        apply(state, "resign", MONEY)
    with pytest.raises(ValueError, match="state"):
        apply("state", "roll", MONEY)
    assert issubclass(IllegalCubeAction, ValueError)
    _raises(state, "next_game", MONEY, "not over")
    _raises(state, "roll", MONEY, "the opening roll comes first")


def test_illegal_reasons():
    state = _play(["opening_won_A"], MONEY)
    reasons = illegal_reasons(state, MONEY)
    assert set(reasons) | set(legal_actions(state, MONEY)) == set(ACTIONS)
    assert not set(reasons) & set(legal_actions(state, MONEY))
    assert reasons["take"] == "no double is pending"


def test_walkthrough_preset():
    # a walkthrough is data: its rules, start and actions, replayed by apply
    walk = WalkthroughPreset("t", "d", Rules(murphy=True), ("automatic_double", "opening_won_A"))
    states = walk.states()
    assert states[0] == walk.start() == initial_state(Rules(murphy=True))
    assert [s.value for s in states] == [1, 2, 2]
    assert states[-1].history[-1].rule == "opening roll"


def test_player_to_act():
    # [RULES]: B on roll doubles, A answers; after A's beaver B (the doubler, on roll)
    # may raccoon, and stays on roll after it
    states = replay(["opening_won_A", "double", "beaver", "raccoon", "roll"], BEAVERS)
    assert [player_to_act(s) for s in states] == ["both (opening roll)", "B", "A", "B", "B", "A"]
    over = _play(["opening_won_A", "win_single"], MONEY)
    assert player_to_act(over) == "-"
    with pytest.raises(ValueError, match="`state` must be a CubeState"):
        player_to_act("A")


def test_game_label():
    match = Rules(match_length=5, crawford=True, holland=True)
    assert game_label(initial_state(MONEY), MONEY) == "money game"
    assert game_label(initial_state(match, 3, 2), match) == "5-point match"
    assert game_label(initial_state(match, 4, 2, match_phase="Crawford"), match) == (
        "5-point match, Crawford game"
    )
    after = _play(
        ["opening_won_A", "win_single", "next_game"],
        match,
        initial_state(match, 4, 3, match_phase="Crawford"),
    )
    assert game_label(after, match) == "5-point match, post-Crawford"
    with pytest.raises(ValueError, match="`rules` must be a Rules instance"):
        game_label(initial_state(MONEY), "money")


def test_event_table():
    states = replay(["opening_won_B", "double", "beaver", "raccoon"], BEAVERS)
    table = event_table(states)
    assert list(table.columns) == [
        "step",
        "action",
        "actor",
        "rule",
        "note",
        "stakes",
        "face",
        "owner",
        "score",
    ]
    assert table["action"].tolist() == ["start", "opening_won_B", "double", "beaver", "raccoon"]
    assert table["actor"].tolist() == ["-", "B", "A", "B", "A"]
    # [RULES]: the stake goes 1, 1, 1 (offer pending), 4 (beaver), 8 (raccoon); B keeps the cube
    assert table["stakes"].tolist() == [1, 1, 1, 4, 8]
    assert table["face"].tolist() == [64, 64, 64, 4, 8]
    assert table["owner"].iloc[-1] == "B"
    assert table["note"].iloc[0] == "cube centred on 1 (64 showing)"
    with pytest.raises(ValueError, match="`states` must hold 1 to"):
        event_table([])
    with pytest.raises(ValueError, match=f"`states` must hold 1 to {MAX_EVENT_STATES}"):
        event_table([initial_state(MONEY)] * (MAX_EVENT_STATES + 1))
    with pytest.raises(ValueError, match="`states` must be CubeState values"):
        event_table([initial_state(MONEY), "x"])


def test_money_rule_equities():
    p = np.linspace(0.0, 1.0, 21)
    frame = money_rule_equities(p, 0.68, 1.25, 1.2, stakes=(1, 2, 4))
    owned = janowski.cubeful_equity(p, 0.68, "owned", 1.25, 1.2)
    opponent = janowski.cubeful_equity(p, 0.68, "opponent", 1.25, 1.2)
    center = janowski.cubeful_equity(p, 0.68, "center", 1.25, 1.2)
    np.testing.assert_allclose(frame["take"], 2 * owned)
    np.testing.assert_allclose(frame["beaver"], 4 * owned)
    np.testing.assert_allclose(frame["raccoon"], 8 * opponent)
    np.testing.assert_allclose(frame["double"], np.minimum(2 * opponent, 1.0))
    np.testing.assert_allclose(frame["gain_per_unit"], frame["double"] - center)
    # the Murphy rule scales the gain by the stake: same sign, same decision
    np.testing.assert_allclose(frame["gain_stake_4"], 4 * frame["gain_stake_1"])
    # Jacoby: a centred cube is worth at most one point
    assert (frame["hold_jacoby"] <= 1.0 + 1e-12).all()
    # the beaver point is where 4 E_owned > 2 E_owned, i.e. E_owned > 0 ([JR12] closed form)
    points = janowski.cube_points(0.68, 1.25, 1.2)
    q = points.beaver_point
    above = money_rule_equities([q + 1e-6], 0.68, 1.25, 1.2)
    assert above.loc[0, "beaver"] > above.loc[0, "take"]
    with pytest.raises(ValueError, match="`p` must hold at most"):
        money_rule_equities(np.zeros(MAX_EQUITY_POINTS + 1), 0.5, 1.0, 1.0)
    with pytest.raises(ValueError, match="stakes"):
        money_rule_equities([0.5], 0.5, 1.0, 1.0, stakes=(0,))
    with pytest.raises(ValueError, match="x"):
        money_rule_equities([0.5], 1.5, 1.0, 1.0)


# ------------------------------------------------------------------ property test

_MONEY_RULES = hst.builds(
    lambda beavers, raccoons, murphy, cap, jacoby: Rules(
        beavers=beavers or raccoons,
        raccoons=raccoons,
        murphy=murphy,
        murphy_cap=cap if murphy else None,
        jacoby=jacoby,
    ),
    hst.booleans(),
    hst.booleans(),
    hst.booleans(),
    hst.one_of(hst.none(), hst.integers(1, 4)),
    hst.booleans(),
)
_MATCH_RULES = hst.builds(
    lambda length, crawford, holland, murphy: Rules(
        match_length=length, crawford=crawford, holland=crawford and holland, murphy=murphy
    ),
    hst.integers(1, 9),
    hst.booleans(),
    hst.booleans(),
    hst.booleans(),
)


def _exponent_from_history(state: CubeState) -> int:
    steps = {"automatic_double": 1, "take": 1, "beaver": 2, "raccoon": 1}
    return sum(steps.get(event.action, 0) for event in state.history)


@settings(max_examples=80, deadline=None)
@given(rules=hst.one_of(_MONEY_RULES, _MATCH_RULES), data=hst.data())
def test_random_legal_sequences(rules, data):
    # Random legal play never reaches an illegal state; stakes are always 1 x 2^k
    # with k counted from the game's history.
    state = initial_state(rules)
    for _ in range(60):
        legal = legal_actions(state, rules)
        if state.phase == "match_over":
            assert legal == ()
            break
        assert legal
        for action in set(ACTIONS) - set(legal):
            with pytest.raises(IllegalCubeAction):
                apply(state, action, rules)
        action = data.draw(hst.sampled_from(legal))
        state = apply(state, action, rules)
        assert state.value == 2 ** _exponent_from_history(state)
        assert state.owner in ("center", "A", "B")
        assert (state.owner == "center") == all(
            event.action not in ("take", "beaver") for event in state.history
        )
        assert not (state.crawford_game and state.post_crawford)
        if rules.murphy_cap is not None:
            assert state.automatic_doubles <= rules.murphy_cap
        if not rules.money_play:
            over = state.phase == "match_over"
            assert (max(state.score_a, state.score_b) >= rules.match_length) == over
            assert not {"beaver", "raccoon"} & set(legal)
        if state.crawford_game and not state.game_over:
            assert rules.match_length - 1 in (state.score_a, state.score_b)
            assert state.value == 1 and "double" not in legal_actions(state, rules)
        if action == "double" and rules.holland and state.post_crawford:
            assert min(state.rolls_a, state.rolls_b) >= 2
