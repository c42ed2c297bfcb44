#!/usr/bin/env bash
# Create the virtual environment (.venv) and install a lock file into it, hashes checked.
# Usage: scripts/ensure-venv.sh requirements.lock|requirements-dev.lock
# The lock files pin every package and every file's hash (`make lock` regenerates them
# from requirements*.txt); pip refuses anything that is not pinned or whose hash differs.
# Re-installs only when the lock file's content changed since the last install.
# Non-interactive: works with no standard input (CI).
set -euo pipefail
cd "$(dirname "$0")/.."
lock="${1:?usage: scripts/ensure-venv.sh requirements.lock|requirements-dev.lock}"
venv="${VENV:-.venv}"
python="${PYTHON:-python3}"

if [ ! -f "$lock" ]; then
  echo "ensure-venv: lock file '$lock' not found" >&2
  exit 1
fi
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "ensure-venv: $python is $("$python" -V 2>&1); Python 3.11 or newer is required" >&2
  exit 1
fi

if [ ! -x "$venv/bin/python" ]; then
  if ! "$python" -m venv "$venv" 2>/dev/null; then
    # Debian splits venv out of the interpreter package.
    echo "python3 -m venv failed; installing Debian's python3-venv" >&2
    rm -rf "$venv"
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo -n"
    $sudo_cmd apt-get update -qq </dev/null
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq python3-venv </dev/null
    "$python" -m venv "$venv"
  fi
fi

stamp="$venv/.installed-$(basename "$lock")"
digest="$(sha256sum "$lock" | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$digest" ]; then
  echo "ensure-venv: installing $lock into $venv" >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    --require-hashes -r "$lock" </dev/null
  echo "$digest" >"$stamp"
fi
