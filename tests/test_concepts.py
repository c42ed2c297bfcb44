"""One URL key per concept app-wide: the concept factories and the pages that use them."""

import pytest

from ui import concepts
from ui.pages import PAGES

#: Each concept built with placeholder wording: its key and kind are the concept's own.
BUILT = {
    "cube_position": concepts.cube_position("h"),
    "cube_life": concepts.cube_life(0.5),
    "win_value": concepts.win_value(1.0, "h"),
    "loss_value": concepts.loss_value(1.0),
    "win_probability": concepts.win_probability("P", 0.5, "h"),
    "jacoby": concepts.jacoby(),
    "beavers": concepts.beavers("h"),
    "pips": concepts.pips("pips", 50, 100),
    "opponent_pips": concepts.opponent_pips("opips", 50, 100),
    "seed": concepts.seed("h"),
    "give_up": concepts.give_up("g", 0.8, "h"),
    "center_give_up": concepts.center_give_up("gc", 0.75, "h"),
    "doubler_point": concepts.doubler_point("DA", 0.86, "h"),
    "taker_point": concepts.taker_point("DB", 0.14, "h"),
}
KEYS = {
    "cube_position": ("cube", "select"),
    "cube_life": ("x", "float"),
    "win_value": ("W", "float"),
    "loss_value": ("L", "float"),
    "win_probability": ("P", "float"),
    "jacoby": ("jacoby", "bool"),
    "beavers": ("beavers", "bool"),
    "pips": ("pips", "int"),
    "opponent_pips": ("opips", "int"),
    "seed": ("seed", "int"),
    "give_up": ("g", "float"),
    "center_give_up": ("gc", "float"),
    "doubler_point": ("da", "float"),
    "taker_point": ("db", "float"),
}


def test_every_concept_is_listed_once():
    factories = {name for name in concepts.__all__ if name != "CUBE_POSITIONS"}
    assert factories == set(BUILT) == set(KEYS)
    assert len({key for key, _ in KEYS.values()}) == len(KEYS)  # no key serves two concepts


@pytest.mark.parametrize("name", sorted(KEYS))
def test_a_concept_has_its_key_and_kind(name):
    assert (BUILT[name].key, BUILT[name].kind) == KEYS[name]


def test_a_page_keeps_its_own_range_and_wording():
    # the home page's pip count starts at 4, the cube page's cube life needs "by hand"
    home = concepts.pips("Race pip count", 40, 300, "h", low=4)
    assert (home.low, home.high, home.default, home.label) == (4, 300, 40, "Race pip count")
    hand = concepts.cube_life(0.68, requires=("xfrom", "by hand"), step=0.05)
    assert hand.requires == ("xfrom", "by hand") and hand.step == 0.05
    with pytest.raises(ValueError, match="default of x"):
        concepts.cube_life(1.5)


def test_a_concept_key_means_the_same_kind_on_every_page():
    kinds = dict(KEYS.values())
    seen = {}
    for spec in PAGES:
        for control in spec.controls:
            if control.key in kinds:
                seen.setdefault(control.key, set()).add(control.kind)
    assert seen, "no page uses a concept"
    assert {key: found for key, found in seen.items() if found != {kinds[key]}} == {}
