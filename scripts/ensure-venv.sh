#!/usr/bin/env bash
# Create the virtual environment (.venv) and make it exactly a lock file, hashes checked.
# Usage: scripts/ensure-venv.sh requirements.lock|requirements-dev.lock
# The lock files pin every package and every file's hash (`make lock` regenerates them
# from requirements*.txt); nothing unpinned or with another hash is installed.
# The installer is uv (the version pinned in requirements-dev.lock, bootstrapped with pip
# --require-hashes into $VENV/.uv, outside the environment): `uv pip install --require-hashes`
# takes seconds where pip takes minutes. If uv cannot be had, pip installs the lock.
# Installs add to the environment (`make run` after `make test` keeps the test tools);
# a fresh clone, as in CI, gets exactly the lock.
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
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$digest" ]; then
  exit 0
fi
echo "ensure-venv: installing $lock into $venv" >&2

# uv's pinned requirement (with its hashes) from the dev lock; uv has no dependencies.
uv="$venv/.uv/bin/uv"
if [ ! -x "$uv" ]; then
  pin="$(mktemp)"
  awk '/^uv==/{on=1} on{print} on && !/\\$/{exit}' requirements-dev.lock >"$pin"
  if [ -s "$pin" ]; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes \
      --no-deps --target "$venv/.uv" -r "$pin" </dev/null || echo "ensure-venv: no uv; pip" >&2
  fi
  rm -f "$pin"
fi

if [ -x "$uv" ]; then
  "$uv" pip install --quiet --require-hashes --python "$venv/bin/python" -r "$lock" </dev/null
else
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    --require-hashes -r "$lock" </dev/null
fi
echo "$digest" >"$stamp"
