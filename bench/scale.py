"""Scale-out: 1 and 2 app processes behind nginx with sticky sessions, on loopback.

For each process count, the app processes and an nginx rendered from
``deploy/nginx.conf.template`` (run as this user's foreground process) start on
free loopback ports; every process is warmed (each page visited once, directly);
then the load test runs through nginx at increasing session counts, each session
with its own ``stroute`` cookie, so consistent hashing spreads sessions over the
processes. A level stops the climb once its p95 exceeds twice the target.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.load import (
    P95_TARGET_SECONDS,
    load_table,
    per_page_table,
    print_errors,
    run_load,
    warm_up,
)
from bench.server import LOOPBACK, free_port, streamlit_servers, wait_healthy

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "deploy" / "nginx.conf.template"


def render_config(run_dir: Path, listen: str, upstreams: list[str]) -> Path:
    """Write nginx.conf for ``upstreams`` (host:port) into ``run_dir``."""
    lines = " ".join(f"server {address} max_fails=0;" for address in upstreams)
    text = (
        TEMPLATE.read_text()
        .replace("@RUNDIR@", str(run_dir))
        .replace("@LISTEN@", listen)
        .replace("@UPSTREAMS@", lines)
    )
    path = run_dir / "nginx.conf"
    path.write_text(text)
    return path


@contextmanager
def nginx(upstreams: list[str]) -> Iterator[str]:
    """Run nginx in front of ``upstreams``; yield its base URL."""
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    run_dir = Path(tempfile.mkdtemp(prefix="cubelab-nginx-"))
    port = free_port()
    config = render_config(run_dir, f"{LOOPBACK}:{port}", upstreams)
    subprocess.run([binary, "-t", "-q", "-p", str(run_dir), "-c", str(config)], check=True)
    process = subprocess.Popen([binary, "-p", str(run_dir), "-c", str(config)])
    base = f"http://{LOOPBACK}:{port}"
    try:
        wait_healthy(base, process=process)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(run_dir, ignore_errors=True)


def run_scale(processes: list[int], sessions: list[int], seconds: float, think: float) -> None:
    results = []
    summary = []
    for count in processes:
        with (
            streamlit_servers(count) as servers,
            nginx([base.removeprefix("http://") for base, _ in servers]) as proxy,
        ):
            for base, _ in servers:
                warm_up(base)
            pids = [pid for _, pid in servers]
            carried = 0
            for level in sessions:
                result = run_load(proxy, pids, level, seconds, think, sticky=True)
                results.append((f"{count} behind nginx", result))
                print(load_table([result], f"{count} behind nginx"), flush=True)
                print("\n" + per_page_table(result) + "\n", flush=True)
                print_errors(result, limit=5)
                if result.p95 <= P95_TARGET_SECONDS and not result.errors:
                    carried = level
                if result.p95 > 2 * P95_TARGET_SECONDS:
                    break
                time.sleep(2)
            summary.append((count, carried))
    print("\n### Scale-out through nginx (sticky cookie, consistent hash)\n")
    rows = [load_table([r], label).splitlines()[2] for label, r in results]
    print("\n".join(load_table([results[0][1]], results[0][0]).splitlines()[:2] + rows))
    print()
    for count, carried in summary:
        print(
            f"- {count} process(es): largest tested session count with p95 <= "
            f"{P95_TARGET_SECONDS:g} s and 0 errors: {carried or 'none'}"
        )
