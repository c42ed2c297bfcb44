"""Start app server processes on 127.0.0.1 and read their memory.

A server is started as a deployment starts it: ``python -m ui.serve`` (the app's
launcher: every page's code imported before the server listens, the expensive tables
built in the background from the start, :mod:`ui.warmup`), or with ``plain=True`` as
``streamlit run app.py`` (Streamlit Community Cloud's way, the warm-up begins with the
first request), which ``python -m bench coldstart`` measures beside it.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The benches' and the browser tests' folder for logs and screenshots (not in git).
ARTIFACTS = ROOT / "test-artifacts"
LOOPBACK = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((LOOPBACK, 0))
        port: int = sock.getsockname()[1]  # (host, port) of an AF_INET socket
        return port


def wait_healthy(
    base: str, timeout: float = 60.0, process: subprocess.Popen[bytes] | None = None
) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as answer:
                if answer.read() == b"ok":
                    return
        except OSError:
            pass
        if (process is not None and process.poll() is not None) or time.monotonic() > deadline:
            raise RuntimeError(f"{base} did not become healthy")
        time.sleep(0.2)


def _own_rss_mib(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def _children(pid: int) -> list[int]:
    """``pid``'s child processes (Linux's ``/proc/<pid>/task/*/children``)."""
    found: list[int] = []
    for path in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            found += [int(child) for child in path.read_text(encoding="ascii").split()]
    return found


def rss_split(pid: int) -> tuple[float, float]:
    """Resident memory in MiB of ``pid`` alone and of ``pid`` with its descendants (VmRSS
    of /proc/<pid>/status, summed: a server's simulation worker,
    :func:`ui.simulation.start_worker`, is part of what it costs), each read once; NaN
    when ``pid`` is gone."""
    own = _own_rss_mib(pid)
    if own != own:
        return own, own
    return own, own + sum(v for child in _children(pid) if (v := rss_mib(child)) == v)


def rss_mib(pid: int) -> float:
    """Resident memory of ``pid`` and its descendants in MiB (:func:`rss_split`)."""
    return rss_split(pid)[1]


def streamlit_command(
    port: int, *extra: str, plain: bool = False, script: str = "app.py"
) -> list[str]:
    """One server's command on ``port``: the app's launcher (``python -m ui.serve``), or
    ``streamlit run app.py`` if ``plain``; another ``script`` (a benchmark's own page) is
    served by the launcher too, so that it is measured as the app is served."""
    if plain:
        start = ["streamlit", "run", script]
    else:
        start = ["ui.serve"] if script == "app.py" else ["ui.serve", script]
    return [
        sys.executable,
        "-m",
        *start,
        "--server.address",
        LOOPBACK,
        "--server.port",
        str(port),
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
        *extra,
    ]


@contextmanager
def streamlit_servers(
    count: int = 1,
    log_dir: Path | None = None,
    extra: tuple[str, ...] = (),
    plain: bool = False,
    script: str = "app.py",
    env: Mapping[str, str] | None = None,
) -> Iterator[list[tuple[str, int]]]:
    """Start ``count`` app processes on free loopback ports; yield [(base_url, pid)].

    ``plain``: ``streamlit run app.py`` instead of the launcher; ``script``: another page
    to serve (:func:`streamlit_command`); ``env``: variables the processes get besides
    this one's environment.
    """
    processes: list[subprocess.Popen[bytes]] = []
    logs = []
    started = []
    try:
        for _ in range(count):
            port = free_port()
            log = (log_dir / f"streamlit-{port}.log").open("w") if log_dir else None
            logs.append(log)
            process = subprocess.Popen(
                streamlit_command(port, *extra, plain=plain, script=script),
                cwd=ROOT,
                stdout=log or subprocess.DEVNULL,
                stderr=subprocess.STDOUT,
                env=None if env is None else {**os.environ, **env},
            )
            processes.append(process)
            started.append((f"http://{LOOPBACK}:{port}", process))
        for base, process in started:
            wait_healthy(base, process=process)
        yield [(base, process.pid) for base, process in started]
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for log in logs:
            if log:
                log.close()
