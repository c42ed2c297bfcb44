"""The rollouts page's view: paste positions and submit; the shared queue, live.

Every job of the shared queue is listed (the newest first), whoever submitted it: a
class shares one queue and every result. What a visitor pasted is read line by line
(:func:`ui.rollouts.controls.read_lines`) and nothing is submitted from a paste with a
bad line; the store refuses what the limits do not allow (five waiting or running
rollouts a visitor, 50 from one network address, 200 in all) with its own message.
"""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from cubecore.position import position_from_id, position_id
from store.rollout_queue import ACTIVE, LEASE, RolloutJob, RolloutQueue
from ui import student, widgets
from ui.links import escape_text
from ui.rollouts import charts, controls, data
from ui.skeleton import View

#: What a player reads for each state of a job.
STATE_WORDS = {
    "queued": "Waiting",
    "running": "Running",
    "done": "Done",
    "cancelled": "Cancelled",
    "failed": "Failed",
}
#: Seconds between refreshes of the queue while a rollout waits or runs.
REFRESH = 2.0
#: Most jobs listed (the newest).
SHOWN_JOBS = 60
_FLASH = "_rollouts_flash"


def _flash(message: str, *, error: bool) -> None:
    st.session_state.setdefault(_FLASH, []).append((message, error))


def _submit(trials: int, truncation: int, play: int) -> None:
    """Submit callback: every pasted line, or none when one is bad."""
    try:
        text = str(st.session_state.get(controls.POSITIONS.key, ""))
        read = controls.read_lines(text, trials, truncation, play)
    except ValueError as error:
        _flash(str(error), error=True)
        return
    queue = data.queue()
    me = student.token()
    counts = {"queued": 0, "known": 0}
    for number, (pid, settings) in enumerate(read, 1):
        try:
            job = queue.submit(position_from_id(pid), settings, me, client=student.client_address())
        except ValueError as error:
            _flash(f"Position {number} ({pid}): {error}", error=True)
            break  # a limit holds for the next ones too
        fresh = job.state == "queued" and job.submitted_by == me
        counts["queued" if fresh else "known"] += 1
    if counts["queued"] or counts["known"]:
        data.start_runner()  # this process's runner takes the queue's oldest job
        parts = []
        if counts["queued"]:
            parts.append(f"{counts['queued']} queued")
        if counts["known"]:
            parts.append(f"{counts['known']} already in the queue or rolled out (shared)")
        _flash("Positions: " + ", ".join(parts) + ".", error=False)


def _cancel_mine() -> None:
    queue = data.queue()
    me = student.token()
    cancelled = 0
    for job in queue.jobs(session=me, limit=SHOWN_JOBS):
        if job.state in ACTIVE:
            queue.cancel(job.key, me)
            cancelled += 1
    _flash(f"{cancelled} of your rollouts cancelled (their finished trials are kept).", error=False)


def _show_flash() -> None:
    for message, error in st.session_state.pop(_FLASH, []):
        text = escape_text(message, 600)
        if error:
            st.error(text, icon=":material/error:")
        else:
            st.success(text, icon=":material/check_circle:")


def _settings_words(job: RolloutJob) -> str:
    s = job.settings
    score = "money" if s.away == 0 else f"{s.away}-away/{s.opp_away}-away"
    if s.crawford:
        score += ", Crawford"
    cube = (
        "centred cube"
        if s.owner == "center"
        else f"cube {s.cube} "
        + ("owned by the roller" if s.owner == "player" else "owned by the opponent")
    )
    cut = f", truncated after {s.truncation} moves" if s.truncation else ""
    return f"{score}, {cube}{cut}"


def _minutes(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    if seconds < 60:
        return "under a minute"
    return f"about {math.ceil(seconds / 60)} min"


def _rows(queue: RolloutQueue, jobs: tuple[RolloutJob, ...]) -> pd.DataFrame:
    rows = []
    for job in jobs:
        progress = queue.progress(job.key)
        result = queue.result(job) if progress.batches else None
        left: str = "—"
        if job.state == "running":
            left = _minutes(progress.seconds_left(job.trials))
        elif job.state == "queued":
            left = "waiting for the cluster"
        nan = math.nan
        rows.append(
            {
                "Position ID": position_id(job.position),
                "Settings": _settings_words(job),
                "Checker play": f"{job.settings.play}-ply",
                "State": STATE_WORDS[job.state] + (f": {job.message}" if job.message else ""),
                "Trials done": f"{progress.trials:,} of {job.trials:,}",
                "No double": result.no_double if result else nan,
                "No double ±": result.standard_errors[1] if result else nan,
                "Double, take": result.double_take if result else nan,
                "Double, take ±": result.standard_errors[2] if result else nan,
                "Cubeless equity": result.cubeless_equity if result else nan,
                "Cubeless ±": result.standard_errors[0] if result else nan,
                "Win": result.probabilities.win if result else nan,
                "Action": result.action if result else "—",
                "Time left": left,
            }
        )
    return pd.DataFrame(rows)


def _workers_line() -> str:
    runner = data.runner()
    workers = runner.workers() if runner is not None else {}
    if not workers:
        return (
            "No cluster is open in this app process: its workers start with the first "
            "rollout it runs and stop after a few idle minutes."
        )
    busy = sum(1 for info in workers.values() if _busy(info))
    return f"The cluster: {len(workers)} workers, {busy} busy now."


def _busy(info: object) -> bool:
    metrics = info.get("metrics", {}) if isinstance(info, dict) else {}
    executing = metrics.get("task_counts", {}).get("executing", 0) if metrics else 0
    return bool(executing)


def _draw() -> None:
    queue = data.queue()
    jobs = queue.jobs(limit=SHOWN_JOBS)
    st.caption(escape_text(_workers_line(), 300))
    if not jobs:
        st.info("No rollouts yet: paste positions in the box of positions and press Roll out.")
        return
    active = sum(1 for job in jobs if job.state in ACTIVE)
    st.caption(
        f"{len(jobs)} rollouts, {active} waiting or running. Standard errors (±) shrink "
        "as trials come in; a rollout whose app process stops is taken up by another "
        f"within {int(LEASE.total_seconds())} s and continues from its finished trials."
    )
    widgets.table_with_download(_rows(queue, jobs), "rollouts")


@st.fragment(run_every=REFRESH)
def _live() -> None:
    _draw()


def render_queue(view: View) -> None:
    """The submit button and the shared queue (the paste box is the section's control
    ``pos``, above it). On a projector: the queue's counts beside the chart (its own
    slide: the live table below is a fragment), and no button (the teacher submits from
    his own screen)."""
    student.remember()
    trials = int(view.text(controls.TRIALS.key))
    truncation = view.whole(controls.TRUNCATION.key)
    play = controls.PLAY_LEVELS[view.text(controls.PLAY.key)]
    jobs = data.queue().jobs(limit=SHOWN_JOBS)
    if view.present:
        with widgets.slide(True):
            widgets.headline(
                [
                    ("Rollouts waiting or running", f"{sum(j.state in ACTIVE for j in jobs)}"),
                    ("Rollouts done", f"{sum(j.state == 'done' for j in jobs)}"),
                ]
            )
            widgets.chart(charts.error_figure(trials), "rollout_standard_error")
    else:
        st.caption(
            "One position a line in the box above (the position page and the library fill "
            "it for you); nothing is rolled out until you press Roll out. Trials, "
            "truncation and the checker play's level are in the side panel."
        )
        left, right = st.columns(2)
        left.button(
            f"Roll out ({trials:,} trials each)",
            on_click=_submit,
            args=(trials, truncation, play),
            type="primary",
            icon=":material/play_arrow:",
        )
        right.button("Cancel my rollouts", on_click=_cancel_mine, icon=":material/stop:")
        _show_flash()
        widgets.chart(charts.error_figure(trials), "rollout_standard_error")
    if any(job.state in ACTIVE for job in jobs):
        _live()
    else:
        _draw()


def render_method(view: View) -> None:
    """How a rollout is split, seeded, combined and shared; how long it takes."""
    trials = int(view.text(controls.TRIALS.key))
    minutes = {
        name: charts.CLASS_POSITIONS * trials / rate / 60.0
        for name, rate in charts.THROUGHPUT.items()
    }
    widgets.headline(
        [
            (f"{charts.CLASS_POSITIONS} positions, {trials:,} trials: {name}", f"{m:.1f} min")
            for name, m in minutes.items()
            if name != "1 worker"
        ]
    )
    widgets.chart(charts.time_figure(trials), "rollout_time")
    st.caption(
        "Measured on this app's 2-core machine: 16.7 games a second with one worker, "
        "30.7 with two (the opening position); 16 workers on paper at the two-worker "
        "rate per worker."
    )
    st.markdown(
        "A rollout plays a position out many times with the engine choosing both sides' "
        "moves and cube actions, and averages the results. The engine picks the moves at "
        "the checker-play level you choose (1-ply: its network alone; 2-ply and 3-ply "
        "look one and two rolls further ahead, slower and a little stronger): each level "
        "is a rollout of its own, kept apart. Here the games are split into "
        "batches of 36 (144 above 1,296 games), each with its own dice drawn from one "
        "seed, so the result is the same whichever machine plays which batch, and a batch "
        "lost with a machine is played again with the same dice.\n\n"
        "The averages of the batches are combined weighted by their games, and the "
        "standard error (±) of each average is the square root of the summed variances "
        "divided by the number of games: about two standard errors either side of a "
        "number cover the true value 95 times in 100. The cube action is read from the "
        "no-double and double/take equities (double/pass is +1).\n\n"
        "Every finished batch is kept, so a rollout is never played twice: a position "
        "someone already rolled out with the same settings shows its result at once."
    )
