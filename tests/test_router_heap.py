"""ui.router.freeze_long_lived_heap: frozen heap, collected again on each round."""

from __future__ import annotations

import gc
import math
import weakref

from ui import router


class _Node:
    pass


def test_a_round_freezes_and_the_next_round_collects_what_died_frozen(monkeypatch):
    monkeypatch.setattr(router, "_frozen_at", -math.inf)
    node = _Node()
    node.me = node  # a reference cycle: only the cyclic collector frees it
    ref = weakref.ref(node)
    try:
        router.freeze_long_lived_heap()
        assert gc.get_freeze_count() > 0
        del node
        gc.collect()  # what Streamlit runs after every script run
        assert ref() is not None  # frozen while alive: the per-run pass skips it
        monkeypatch.setattr(router, "_frozen_at", -math.inf)  # the next round is due
        router.freeze_long_lived_heap()
        assert ref() is None
    finally:
        gc.unfreeze()


def test_nothing_to_do_until_a_round_is_due(monkeypatch):
    monkeypatch.setattr(router, "_frozen_at", -math.inf)
    try:
        router.freeze_long_lived_heap()
        frozen_at = router._frozen_at
        router.freeze_long_lived_heap()
        assert router._frozen_at == frozen_at
        assert not router._heap_due()
    finally:
        gc.unfreeze()
