"""A real server's warm-up seen from outside: its cache lookups in ``/_stcore/metrics``.

The server counts every lookup of every cached function, hit or miss, the warm-up's
own (:data:`ui.warmup.WARM_UP`, in its background thread) included; a table is built
once its function has missed as often as the warm-up calls it. Polls are paced by real
visits of :data:`PACER`, never by a sleep.
"""

from __future__ import annotations

import random
import re
import time
import urllib.request
from collections.abc import Mapping

from bench.load import run_errors
from bench.wsclient import Session

#: The match page's default tables (its view and the dead cube's) and the race tables.
MATCH_TABLES = "ui.match.data.equity_table"
RACE_TABLES = "ui.race.data.race_tables"
#: The bear-off databases (the two-sided one is the warm-up's longest build).
ONE_SIDED = "ui.real_race.data.one_sided_database"
TWO_SIDED = "ui.real_race.data.two_sided_database"
#: Every table of the warm-up: cached function -> its misses once built.
WHOLE_WARM_UP = {MATCH_TABLES: 2, RACE_TABLES: 1, ONE_SIDED: 1, TWO_SIDED: 1}
#: A page that reads none of the warm-up's tables: its visitors pace the polls.
PACER = "janowski"
#: Upper bound on waiting for a server's warm-up (a loaded 2-core machine); polled.
WARM_DEADLINE_SECONDS = 300.0


def lookups(base: str) -> dict[tuple[str, str], float]:
    """Cache lookups by (cached function, "hit" or "miss"), from the server's metrics."""
    with urllib.request.urlopen(f"{base}/_stcore/metrics", timeout=30) as answer:
        text = answer.read().decode()
    pattern = r'cache_lookups_total\{cache="([^"]*)",cache_type="[^"]*",result="(\w+)"\} (\S+)'
    return {
        (found.group(1), found.group(2)): float(found.group(3))
        for found in re.finditer(pattern, text)
    }


async def visit(base: str, *pages: str) -> None:
    """Open each page in a session of its own; every run without an error."""
    for index, page in enumerate(pages):
        async with Session(base, random.Random(index)) as session:
            errors = run_errors(await session.open(page, timeout=120), f"/{page}")
            assert not errors, errors


async def await_warm(
    base: str, built: Mapping[str, int] = WHOLE_WARM_UP
) -> dict[tuple[str, str], float]:
    """The metrics once each cached function of ``built`` has missed as often as it
    says (its tables built), polled over later visitors of :data:`PACER`."""
    deadline = time.monotonic() + WARM_DEADLINE_SECONDS
    while True:
        counts = lookups(base)
        if all(counts.get((name, "miss")) == misses for name, misses in built.items()):
            return counts
        assert time.monotonic() < deadline, f"the warm-up never finished: {counts}"
        await visit(base, PACER)
