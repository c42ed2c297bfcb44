"""The walkthroughs of the cube-rules page: games from the rules text, as data.

Each is a :class:`cubecore.rules.WalkthroughPreset`: a rule set, a starting score and
the actions to step through; the page replays them with :func:`cubecore.rules.replay`.
Source: the rules text [RULES] (``cubecore.references.REFERENCES["RULES"]``).
"""

from cubecore.rules import Rules, WalkthroughPreset

#: Walkthroughs by their link value (``?walk=...``), all from [RULES].
WALKTHROUGHS: dict[str, WalkthroughPreset] = {
    "beaver_raccoon": WalkthroughPreset(
        title="Beaver and raccoon (the source's example)",
        description=(
            "White (A) doubles Black (B) to 2; Black takes and beavers to 4; White raccoons "
            "to 8 and Black keeps the cube. The luck changes and the cube comes back at 16: "
            "White drops and pays 8 [RULES]."
        ),
        rules=Rules(beavers=True, raccoons=True),
        actions=(
            "opening_won_B",
            "double",
            "beaver",
            "raccoon",
            "roll",
            "double",
            "drop",
        ),
    ),
    "murphy_cap": WalkthroughPreset(
        title="Murphy rule with a cap of two",
        description=(
            "Two opening ties double the centred cube to 4; the cap is reached, so a third "
            "tie is simply rolled again. The first in-game double is then for 8 points "
            "[RULES]; a gammon pays 16."
        ),
        rules=Rules(murphy=True, murphy_cap=2),
        actions=(
            "automatic_double",
            "automatic_double",
            "opening_tie",
            "opening_won_A",
            "double",
            "take",
            "roll",
            "roll",
            "win_gammon",
        ),
    ),
    "crawford_holland": WalkthroughPreset(
        title="Crawford game, then post-Crawford play under the Holland rule",
        description=(
            "5-point match at 3-2: A wins a single game and first reaches 4, one point "
            "short, so the next game is the Crawford game (the cube is dead). B wins it "
            "(4-3). In the post-Crawford game the Holland rule keeps B from doubling until "
            "each side has played two rolls; then B doubles, A takes and B wins 2 points "
            "and the match."
        ),
        rules=Rules(match_length=5, crawford=True, holland=True),
        actions=(
            "opening_won_A",
            "roll",
            "win_single",
            "next_game",
            "opening_won_B",
            "roll",
            "win_single",
            "next_game",
            "opening_won_B",
            "roll",
            "roll",
            "roll",
            "double",
            "take",
            "roll",
            "roll",
            "win_single",
        ),
        score_a=3,
        score_b=2,
    ),
}

#: Each action of :data:`cubecore.rules.ACTIONS` as the page writes it.
ACTION_WORDS: dict[str, str] = {
    "automatic_double": "automatic double",
    "opening_tie": "opening tie",
    "opening_won_A": "A wins the opening roll",
    "opening_won_B": "B wins the opening roll",
    "double": "double",
    "take": "take",
    "drop": "drop",
    "beaver": "beaver",
    "raccoon": "raccoon",
    "roll": "roll",
    "win_single": "single win",
    "win_gammon": "gammon win",
    "win_backgammon": "backgammon win",
    "next_game": "next game",
    "start": "start",
}

#: Each rule of :class:`cubecore.rules.Rules` as the page writes it.
_RULE_WORDS: dict[str, str] = {
    "beavers": "beavers",
    "raccoons": "raccoons",
    "murphy": "Murphy rule",
    "jacoby": "Jacoby rule",
    "crawford": "Crawford rule",
    "holland": "Holland rule",
}


def action_words(action: str) -> str:
    """An action's name as words (``opening_won_A`` -> "A wins the opening roll")."""
    return ACTION_WORDS.get(action, action.replace("_", " "))


def rules_in_force(rules: dict[str, object]) -> str:
    """The rules that are on, as words ("beavers, raccoons"; "Murphy rule, cap 2")."""
    words = []
    for name, on in rules.items():
        if on in (False, None):
            continue
        if name == "murphy_cap":
            words.append(f"Murphy cap {on}")
        elif name == "match_length":
            words.append(f"{on}-point match")
        else:
            words.append(_RULE_WORDS.get(name, name.replace("_", " ")))
    return ", ".join(words)
