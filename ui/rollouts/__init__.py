"""Rollouts: positions rolled out on the cluster, stored once and shared by everyone.

Jobs live in the app's store (:mod:`store.rollout_queue`); each app process runs them on
its cluster with one runner thread (:mod:`rollouts.runner`), started by the first
submission.
"""

from ui.rollouts import controls, sections
from ui.skeleton import Page, Section, wiring

PAGE = Page(
    title="Rollouts",
    intro="Paste positions to roll out on the cluster; every result is kept and shared, "
    "so a position rolled out once is never rolled out again.",
    sources=("COCHRAN", "NEP19"),
    sections=(
        Section("queue", "Queue", sections.render_queue, controls.QUEUE_CONTROLS, slide=False),
        Section("method", "How it works", sections.render_method),
    ),
    **wiring(controls),
)
