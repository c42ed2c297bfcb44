#!/usr/bin/env bash
# `make test`: the whole check, as CI runs it (.ci/run), with its wall time at the end.
#   venv from requirements-dev.lock (hashes checked), the locks against the declared
#   ranges (scripts/check-lock.sh), Debian's chromium/postgresql/nginx/systemd,
#   ruff (lint + format check), mypy (strict on every package it checks), pytest (every
#   test, in parallel: see addopts in pyproject.toml). Extra arguments go to pytest.
# Fails on the first failing step; pytest's "no tests collected" (exit status 5) and any
# skipped test (tests/conftest.py) are failures too.
set -euo pipefail
cd "$(dirname "$0")/.."
py="${VENV:-.venv}/bin/python"
start=$SECONDS
step="setup"

finish() {
  local status=$? elapsed=$((SECONDS - start))
  local verdict="passed"
  [ "$status" -ne 0 ] && verdict="FAILED at $step (exit status $status)"
  printf 'make test: %s; wall time %dm %02ds\n' "$verdict" $((elapsed / 60)) $((elapsed % 60))
}
trap finish EXIT

step="venv"; scripts/ensure-venv.sh requirements-dev.lock
step="lock files"; scripts/check-lock.sh
step="system packages"; scripts/ensure-system.sh chromium postgresql nginx systemd
step="ruff check"; "$py" -m ruff check .
step="ruff format"; "$py" -m ruff format --check .
step="mypy"; "$py" -m mypy
step="pytest"
status=0
"$py" -m pytest "$@" || status=$?
if [ "$status" -eq 5 ]; then
  echo "pytest collected no tests (exit status 5): that is a failure here" >&2
fi
exit "$status"
