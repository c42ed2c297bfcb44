#!/usr/bin/env bash
# Check (offline) that the lock files still satisfy the declared ranges: every requirement
# of requirements.txt is pinned in requirements.lock, every one of requirements-dev.txt in
# requirements-dev.lock, each at a version inside its range, and both locks agree on the
# packages they share. A range edited without `make lock` fails here, naming the package.
set -euo pipefail
cd "$(dirname "$0")/.."
"${VENV:-.venv}/bin/python" - <<'PY'
import re
import sys
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name


def declared(path: Path) -> list[Requirement]:
    found = []
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("-r "):
            found += declared(path.parent / line[3:].strip())
        else:
            found.append(Requirement(line))
    return found


def pinned(path: Path) -> dict[str, str]:
    pins = {}
    for match in re.finditer(r"^([A-Za-z0-9_.-]+)==([^ ;\\]+)", path.read_text(), re.M):
        pins[canonicalize_name(match[1])] = match[2]
    return pins


problems = []
locks = {}
for source, lock in (("requirements.txt", "requirements.lock"),
                     ("requirements-dev.txt", "requirements-dev.lock")):
    pins = locks[lock] = pinned(Path(lock))
    for requirement in declared(Path(source)):
        version = pins.get(canonicalize_name(requirement.name))
        if version is None:
            problems.append(f"{lock}: {requirement.name} ({source}) is not pinned")
        elif not requirement.specifier.contains(version, prereleases=True):
            problems.append(f"{lock}: {requirement.name}=={version} is outside {requirement}")
runtime, dev = locks["requirements.lock"], locks["requirements-dev.lock"]
for name in sorted(runtime.keys() & dev.keys()):
    if runtime[name] != dev[name]:
        problems.append(f"{name}: {runtime[name]} in requirements.lock, {dev[name]} in the dev lock")
if problems:
    print("The lock files do not match the declared ranges (run `make lock`):", file=sys.stderr)
    print("\n".join(f"  {problem}" for problem in problems), file=sys.stderr)
    sys.exit(1)
PY
