"""A throw-away PostgreSQL server (tests, classroom bench): Debian's binaries, a free port.

``initdb`` and ``postgres`` refuse to run as root; as root the cluster is made and run
as the ``postgres`` user (its directory chowned to it). A missing PostgreSQL raises
:class:`PostgresMissing`: the tests fail, they never skip.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from bench.server import free_port


class PostgresMissing(RuntimeError):
    """Debian's postgresql package is not installed (scripts/ensure-system.sh postgresql)."""


def _bin_dir() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise PostgresMissing(
            "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): "
            "run scripts/ensure-system.sh postgresql"
        )
    return Path(found[-1]).parent


def _as_owner(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """Start a fresh cluster on 127.0.0.1; yield the URL of its ``postgres`` database."""
    bin_dir = _bin_dir()
    folder = Path(tempfile.mkdtemp(prefix="cubelab-pg-"))
    data = folder / "data"
    if os.geteuid() == 0:
        owner = pwd.getpwnam("postgres")
        os.chown(folder, owner.pw_uid, owner.pw_gid)
    port = free_port()
    user = "postgres" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name
    try:
        subprocess.run(
            _as_owner(
                [str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", user, "-E", "UTF8"]
            ),
            check=True,
            capture_output=True,
            cwd=folder,
        )
        options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        subprocess.run(
            _as_owner(
                [
                    str(bin_dir / "pg_ctl"),
                    "-D",
                    str(data),
                    "-o",
                    options,
                    "-l",
                    str(folder / "log"),
                    "-w",
                    "-t",
                    "60",
                    "start",
                ]
            ),
            check=True,
            capture_output=True,
            cwd=folder,
        )
        try:
            yield f"postgresql+psycopg://{user}@127.0.0.1:{port}/postgres"
        finally:
            subprocess.run(
                _as_owner([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
                capture_output=True,
                cwd=folder,
            )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
