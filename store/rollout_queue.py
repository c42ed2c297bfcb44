"""The shared rollout queue: one job per rollout, leased by the process that runs it.

Any session of any app process submits a position with its settings
(:meth:`RolloutQueue.submit`); the job is keyed by the rollout's key
(:func:`cubecore.rollout.rollout_key`: position, cube, score, engine version and
settings), the key under which :class:`store.rollouts.RolloutStore` keeps its batches.
A rollout queued, running or done is never submitted twice: a second submission, from
the same session or another process, gets the existing job (the unique key makes two
simultaneous submissions one row). A cancelled or failed job submitted again is queued
again and resumes from its stored batches.

A process runs a job by taking its lease (:meth:`RolloutQueue.claim`): the job becomes
``running``, held by that process until ``lease_expires``, which the runner moves on with
each heartbeat (:meth:`RolloutQueue.heartbeat`). A process that dies stops beating; once
its lease has expired (at most :data:`LEASE` later) another process's claim takes the job
and resumes it from the batches already stored. Every change of state is one
compare-and-set ``UPDATE`` (its ``WHERE`` names the state and lease it expects), so two
processes never both hold a job.

Limits (fair share and bad input), checked before anything is stored:
:data:`SESSION_JOBS` queued or running jobs per session, :data:`CLIENT_JOBS` per client
address (a script drawing a new session for each submission), :data:`QUEUE_JOBS` in the
whole queue, trials in :data:`TRIALS_RANGE` and a multiple of the batch, truncation in
:data:`TRUNCATION_RANGE`, a legal position with the game not over. Each refusal is a
``ValueError`` whose message a player can read (it names what was wrong and the range).
On SQLite a submission's transaction is ``BEGIN IMMEDIATE`` (one writer at a time); on
PostgreSQL it takes a transaction-scoped advisory lock, so the limits hold exactly
across processes on both.

No streamlit and no Dask here: the runner (:mod:`rollouts.runner`) drives the cluster,
the page (``ui/rollouts``) submits and reads.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, and_, func, or_, select, text, update
from sqlalchemy.engine import Connection, RowMapping
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.elements import ColumnElement

from cubecore import engine
from cubecore import rollout as ro
from cubecore.position import Position, position_from_id, position_id
from store.classroom import database_url, open_database
from store.rollouts import RolloutStore
from store.schema import ROLLOUT_STATES, rollout_batches, rollout_jobs

__all__ = [
    "ACTIVE",
    "CLIENT_JOBS",
    "LEASE",
    "QUEUE_JOBS",
    "SESSION_JOBS",
    "SHARED_ROWS",
    "TRIALS_RANGE",
    "TRUNCATION_RANGE",
    "Progress",
    "RolloutJob",
    "RolloutQueue",
]

#: Most queued or running jobs one session may hold (a class's teacher queues a few at
#: a time; the next ones go in as these finish).
SESSION_JOBS = 5
#: Most queued or running jobs from one client address: a class behind one school address
#: (a teacher's 20 positions and students' own), and a script that draws a new session
#: token for every submission cannot take the whole queue.
CLIENT_JOBS = 50
#: Most queued or running jobs in the whole queue (about 200 x 1,296 trials: a day of a
#: 16-worker cluster, deploy/README.md).
QUEUE_JOBS = 200
#: Trials of one queued rollout: one stratified first roll (36) to 36**3 = 46,656.
TRIALS_RANGE = (36, 46_656)
#: Truncation (plies; 0 plays every trial to the end), the engine's range.
TRUNCATION_RANGE = (0, engine.MAX_TRUNCATION)
#: How long a lease lasts without a heartbeat: a process that died frees its job after
#: at most this long (the runner beats at least every quarter of it).
LEASE = timedelta(seconds=60)
#: Most rows of one position read to find its shared rollout (:meth:`RolloutQueue.shared`).
SHARED_ROWS = 100
#: The states that hold a place in the queue.
ACTIVE = ("queued", "running")
_TOKEN = re.compile(r"[0-9a-f]{32}")
_OWNER = re.compile(r"[A-Za-z0-9._:-]{1,64}")
_SUBMIT_LOCK = 41_041  # PostgreSQL advisory lock of a submission (any constant)

Clock = Callable[[], datetime]


def _utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class RolloutJob:
    """One rollout in the queue.

    Attributes
    ----------
    key : str
        The rollout's key (:func:`cubecore.rollout.rollout_key`).
    position : Position
        The position rolled out (from its Position ID).
    settings : RolloutSettings
        Its settings (cube, score, trials, batch, seed, truncation, budget).
    state : str
        One of :data:`store.schema.ROLLOUT_STATES`.
    submitted_by : str
        The identity token of the session that submitted it.
    submitted_at, finished_at : datetime
        Naive UTC; ``finished_at`` None until done, cancelled or failed.
    lease_owner : str or None
        The process running it (``running`` only).
    lease_expires : datetime or None
        When that lease ends unless renewed.
    message : str
        Why it failed (players' words); empty otherwise.
    """

    key: str
    position: Position
    settings: ro.RolloutSettings
    state: str
    submitted_by: str
    submitted_at: datetime
    finished_at: datetime | None
    lease_owner: str | None
    lease_expires: datetime | None
    message: str

    @property
    def trials(self) -> int:
        """Trials of the whole rollout."""
        return self.settings.trials


@dataclass(frozen=True)
class Progress:
    """A rollout's stored batches: how many, their trials, the first's and last's times."""

    batches: int
    trials: int
    first: datetime | None
    last: datetime | None

    def seconds_left(self, planned: int) -> float | None:
        """Seconds to the last of ``planned`` trials at the rate since the first batch
        was stored (None before two batches: no rate yet)."""
        if self.batches < 2 or self.first is None or self.last is None:
            return None
        elapsed = (self.last - self.first).total_seconds()
        per_batch = self.trials / self.batches
        done_since_first = self.trials - per_batch
        if elapsed <= 0 or done_since_first <= 0:
            return None
        return max(0.0, (planned - self.trials) * elapsed / done_since_first)


def _job(row: RowMapping) -> RolloutJob:
    return RolloutJob(
        key=str(row["rollout_key"]),
        position=position_from_id(str(row["position_id"])),
        settings=ro.RolloutSettings(**json.loads(row["settings"])),
        state=str(row["state"]),
        submitted_by=str(row["submitted_by"]),
        submitted_at=row["submitted_at"],
        finished_at=row["finished_at"],
        lease_owner=row["lease_owner"],
        lease_expires=row["lease_expires"],
        message=str(row["message"]),
    )


def _session(value: object) -> str:
    if not isinstance(value, str) or not _TOKEN.fullmatch(value):
        raise ValueError("the session token must be 32 hexadecimal digits")
    return value


def _owner(value: object) -> str:
    if not isinstance(value, str) or not _OWNER.fullmatch(value):
        raise ValueError("the lease owner must be 1 to 64 letters, digits or . _ : -")
    return value


def _checked(position: object, settings: object) -> tuple[Position, ro.RolloutSettings, str]:
    """The position and settings of a submission, checked; their key. Players' words."""
    if not isinstance(position, Position):
        raise ValueError("The position is not a backgammon position.")
    if not isinstance(settings, ro.RolloutSettings):
        raise ValueError("The rollout settings are missing.")
    low, high = TRIALS_RANGE
    trials = settings.trials
    if isinstance(trials, bool) or not isinstance(trials, int) or not low <= trials <= high:
        raise ValueError(f"Trials must be a whole number from {low} to {high:,}; got {trials!r}.")
    batch = settings.batch_trials
    if isinstance(batch, bool) or not isinstance(batch, int) or batch < 36 or batch % 36:
        raise ValueError(f"Trials per batch must be a multiple of 36; got {batch!r}.")
    if trials % batch:
        raise ValueError(
            f"Trials ({trials:,}) must be a multiple of the trials per batch ({batch})."
        )
    low, high = TRUNCATION_RANGE
    depth = settings.truncation
    if isinstance(depth, bool) or not isinstance(depth, int) or not low <= depth <= high:
        raise ValueError(
            f"Truncation must be a whole number of plies from {low} (none) to {high}; "
            f"got {depth!r}."
        )
    if position.on_roll_borne_off == 15 or position.opponent_borne_off == 15:
        raise ValueError(
            "The game is over in this position (a side has borne off all 15 checkers): "
            "there is nothing to roll out."
        )
    try:
        ro.plan(position, settings)  # every other check of the engine: position, cube, score
    except ValueError as error:
        reason = str(error).replace("`", "")
        raise ValueError(f"This position cannot be rolled out: {reason}") from None
    return position, settings, ro.rollout_key(position, settings)


class RolloutQueue:
    """The rollout queue of one database (the app's, :func:`store.database_url`).

    Parameters
    ----------
    url : str, optional
        SQLAlchemy database URL; the app's database when not given (migrated on opening).
    clock : callable, optional
        The current time (timezone-aware); tests pass a fake clock.
    session_jobs, client_jobs, queue_jobs : int
        The limits (default :data:`SESSION_JOBS`, :data:`CLIENT_JOBS`, :data:`QUEUE_JOBS`).
    lease : timedelta
        How long a lease lasts without a heartbeat (default :data:`LEASE`).

    Every method opens its own short transaction: one queue may be shared by the
    threads of a process. :attr:`batches` is the store of the rollouts' batches.
    """

    def __init__(
        self,
        url: str | None = None,
        *,
        clock: Clock | None = None,
        session_jobs: int = SESSION_JOBS,
        client_jobs: int = CLIENT_JOBS,
        queue_jobs: int = QUEUE_JOBS,
        lease: timedelta = LEASE,
    ) -> None:
        self.url = database_url() if url is None else url
        self._clock = clock or _utc_now
        self.session_jobs = session_jobs
        self.client_jobs = client_jobs
        self.queue_jobs = queue_jobs
        self.lease = lease
        self._sqlite = self.url.startswith("sqlite")
        self.engine: Engine = open_database(self.url)
        self.batches = RolloutStore(self.url)

    def dispose(self) -> None:
        """Close the connection pools."""
        self.engine.dispose()
        self.batches.dispose()

    def now(self) -> datetime:
        """The current time as stored (naive UTC)."""
        return self._clock().astimezone(UTC).replace(tzinfo=None)

    # submitting --------------------------------------------------------------------------
    def _row(self, db: Connection, key: str) -> RowMapping | None:
        return (
            db.execute(select(rollout_jobs).where(rollout_jobs.c.rollout_key == key))
            .mappings()
            .first()
        )

    def _limits(self, db: Connection, session: str, client: str | None) -> None:
        active = rollout_jobs.c.state.in_(ACTIVE)
        if client is not None:
            near = db.execute(
                select(func.count())
                .select_from(rollout_jobs)
                .where(active & (rollout_jobs.c.client == client))
            ).scalar_one()
            if near >= self.client_jobs:
                raise ValueError(
                    f"{near} rollouts from your network are waiting or running (at most "
                    f"{self.client_jobs}); submit more when some have finished."
                )
        mine = db.execute(
            select(func.count())
            .select_from(rollout_jobs)
            .where(active & (rollout_jobs.c.submitted_by == session))
        ).scalar_one()
        if mine >= self.session_jobs:
            raise ValueError(
                f"You already have {mine} rollouts waiting or running (at most "
                f"{self.session_jobs}); submit more when one has finished or cancel one."
            )
        everyone = db.execute(
            select(func.count()).select_from(rollout_jobs).where(active)
        ).scalar_one()
        if everyone >= self.queue_jobs:
            raise ValueError(
                f"The rollout queue is full ({everyone} rollouts waiting or running, at "
                f"most {self.queue_jobs}); try again when some have finished."
            )

    def submit(
        self,
        position: Position,
        settings: ro.RolloutSettings,
        session: str,
        *,
        client: str | None = None,
    ) -> RolloutJob:
        """Queue a rollout, or return its job when it is already queued, running or done.

        Parameters
        ----------
        position : Position
            A legal position, the game not over, from the view of the player on roll.
        settings : RolloutSettings
            Trials in :data:`TRIALS_RANGE` (a multiple of ``batch_trials``, itself a
            multiple of 36), truncation in :data:`TRUNCATION_RANGE`, cube and score as
            :func:`cubecore.rollout.plan` accepts.
        session : str
            The submitting session's identity token (32 hexadecimal digits).
        client : str, optional
            The client address it came from (:func:`ui.student.client_address`), limited
            to :data:`CLIENT_JOBS`; None for a trusted caller (a test, a script).

        Returns
        -------
        RolloutJob
            The job of this rollout: new, queued again (it had been cancelled or had
            failed), or the existing one (queued, running or done; nothing changes and
            no limit is counted).

        Raises
        ------
        ValueError
            A bad position or setting, or a limit reached (:data:`SESSION_JOBS`,
            :data:`CLIENT_JOBS`, :data:`QUEUE_JOBS`); the message names which. Nothing
            is stored.
        """
        who = _session(session)
        if client is not None and not isinstance(client, str):
            raise ValueError("the client address must be text")
        near = None if client is None else client[:64]
        position, settings, key = _checked(position, settings)
        now = self.now()
        values = {
            "state": "queued",
            "submitted_by": who,
            "client": near,
            "submitted_at": now,
            "lease_owner": None,
            "lease_expires": None,
            "finished_at": None,
            "message": "",
        }
        try:
            with self.engine.begin() as db:
                if not self._sqlite:
                    db.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _SUBMIT_LOCK})
                row = self._row(db, key)
                if row is not None and row["state"] in ("queued", "running", "done"):
                    return _job(row)
                self._limits(db, who, near)
                if row is None:
                    db.execute(
                        rollout_jobs.insert().values(
                            rollout_key=key,
                            position_id=position_id(position),
                            settings=json.dumps(asdict(settings), sort_keys=True),
                            engine_version=engine.ENGINE_VERSION,
                            trials=settings.trials,
                            **values,
                        )
                    )
                else:
                    db.execute(
                        update(rollout_jobs)
                        .where(rollout_jobs.c.rollout_key == key)
                        .values(**values)
                    )
        except IntegrityError:  # another process inserted the same key first
            pass
        job = self.job(key)
        assert job is not None  # it was just stored, here or by another process
        return job

    def cancel(self, key: str, session: str) -> RolloutJob:
        """Cancel a queued or running job (its submitter only); its batches are kept.

        The runner holding it sees the cancellation at its next heartbeat and stops.

        Raises
        ------
        ValueError
            No such job, or it was submitted by another session.
        """
        who = _session(session)
        with self.engine.begin() as db:
            row = self._row(db, key)
            if row is None:
                raise ValueError("There is no such rollout in the queue.")
            if row["submitted_by"] != who:
                raise ValueError("Only the session that submitted a rollout may cancel it.")
            db.execute(
                update(rollout_jobs)
                .where((rollout_jobs.c.rollout_key == key) & rollout_jobs.c.state.in_(ACTIVE))
                .values(
                    state="cancelled", lease_owner=None, lease_expires=None, finished_at=self.now()
                )
            )
        job = self.job(key)
        assert job is not None
        return job

    # reading -----------------------------------------------------------------------------
    def job(self, key: str) -> RolloutJob | None:
        """The job of a rollout key, or None."""
        with self.engine.connect() as db:
            row = self._row(db, key)
        return None if row is None else _job(row)

    def jobs(
        self, *, session: str | None = None, limit: int = QUEUE_JOBS
    ) -> tuple[RolloutJob, ...]:
        """Jobs, newest submission first: all, or one session's; at most ``limit``."""
        query = select(rollout_jobs).order_by(
            rollout_jobs.c.submitted_at.desc(), rollout_jobs.c.id.desc()
        )
        if session is not None:
            query = query.where(rollout_jobs.c.submitted_by == _session(session))
        with self.engine.connect() as db:
            rows = db.execute(query.limit(max(1, min(int(limit), 10 * QUEUE_JOBS)))).mappings()
            return tuple(_job(row) for row in rows)

    def shared(
        self,
        position: Position,
        *,
        cube: int = 1,
        owner: str = "center",
        away: int = 0,
        opp_away: int = 0,
        crawford: bool = False,
        jacoby: bool = False,
        beavers: bool = False,
        truncation: int = 0,
        play: int = 1,
    ) -> RolloutJob | None:
        """The queue's rollout of ``position`` at this cube and score (truncation and
        checker play as given; any trials and seed) for anyone to read: the one done
        with the most trials, else the one running with the most; None if neither.

        Only rollouts of this engine version count. At most :data:`SHARED_ROWS` rows of
        the position are read (a position has a few rollouts: one per setting).
        """
        wanted = {
            "cube": cube,
            "owner": owner,
            "away": away,
            "opp_away": opp_away,
            "crawford": crawford,
            "jacoby": jacoby,
            "beavers": beavers,
            "truncation": truncation,
            "play": play,
        }
        c = rollout_jobs.c
        query = (
            select(rollout_jobs)
            .where(
                (c.position_id == position_id(position))
                & (c.engine_version == engine.ENGINE_VERSION)
                & c.state.in_(("done", "running"))
            )
            .order_by(c.trials.desc(), c.id)
            .limit(SHARED_ROWS)
        )
        with self.engine.connect() as db:
            jobs = [_job(row) for row in db.execute(query).mappings()]
        fitting = [j for j in jobs if all(getattr(j.settings, k) == v for k, v in wanted.items())]
        done = [j for j in fitting if j.state == "done"]
        found = done or fitting
        return found[0] if found else None

    def result(self, job: RolloutJob) -> ro.RolloutResult | None:
        """The combined result of a job's stored batches so far (None before the first)."""
        tasks = ro.plan(job.position, job.settings)
        batches = self.batches.load(tasks)
        return ro.combine(tasks, batches) if batches else None

    def progress(self, key: str) -> Progress:
        """How far a rollout's stored batches have come, and when (for the time left)."""
        b = rollout_batches.c
        with self.engine.connect() as db:
            batches, trials, first, last = db.execute(
                select(
                    func.count(), func.sum(b.trials), func.min(b.created_at), func.max(b.created_at)
                ).where(b.rollout_key == key)
            ).one()
        return Progress(int(batches), int(trials or 0), first, last)

    # running -----------------------------------------------------------------------------
    def _takeable(self, now: datetime) -> ColumnElement[bool]:
        c = rollout_jobs.c
        return or_(c.state == "queued", and_(c.state == "running", c.lease_expires < now))

    def claim(self, owner: str) -> RolloutJob | None:
        """Take the oldest job waiting (or whose lease expired) for ``owner``; None if none.

        The job becomes ``running`` with ``owner``'s lease until now + :attr:`lease`.
        """
        me = _owner(owner)
        c = rollout_jobs.c
        for _ in range(8):  # another process may take the same job between read and write
            now = self.now()
            with self.engine.begin() as db:
                row = db.execute(
                    select(c.rollout_key)
                    .where(self._takeable(now))
                    .order_by(c.submitted_at, c.id)
                    .limit(1)
                ).first()
                if row is None:
                    return None
                taken = db.execute(
                    update(rollout_jobs)
                    .where((c.rollout_key == row.rollout_key) & self._takeable(now))
                    .values(state="running", lease_owner=me, lease_expires=now + self.lease)
                ).rowcount
            if taken == 1:
                return self.job(row.rollout_key)
        return None

    def heartbeat(self, key: str, owner: str) -> bool:
        """Renew ``owner``'s lease; False when it no longer holds the job (cancelled,
        or its lease expired and another process took it): the runner must stop."""
        now = self.now()
        c = rollout_jobs.c
        with self.engine.begin() as db:
            renewed = db.execute(
                update(rollout_jobs)
                .where(
                    (c.rollout_key == key)
                    & (c.state == "running")
                    & (c.lease_owner == _owner(owner))
                )
                .values(lease_expires=now + self.lease)
            ).rowcount
        return renewed == 1

    def finish(self, key: str, owner: str, state: str = "done", message: str = "") -> bool:
        """End ``owner``'s job as ``done``, ``failed`` (with a message) or ``queued`` (given
        back, e.g. when its process stops); False when it did not hold the job."""
        if state not in ("done", "failed", "queued") or state not in ROLLOUT_STATES:
            raise ValueError(f"`state` must be done, failed or queued, got {state!r}")
        c = rollout_jobs.c
        with self.engine.begin() as db:
            ended = db.execute(
                update(rollout_jobs)
                .where(
                    (c.rollout_key == key)
                    & (c.state == "running")
                    & (c.lease_owner == _owner(owner))
                )
                .values(
                    state=state,
                    lease_owner=None,
                    lease_expires=None,
                    finished_at=None if state == "queued" else self.now(),
                    message=str(message)[:600],
                )
            ).rowcount
        return ended == 1
