#!/usr/bin/env bash
# `make test`: the whole check, as CI runs it (.ci/run), with its wall time at the end.
#   venv from requirements-dev.lock (hashes checked), the locks against the declared
#   ranges (scripts/check-lock.sh), Debian's chromium/postgresql/nginx/systemd,
#   ruff (lint + format check), mypy (strict on every package it checks), pytest (every
#   test, in parallel: see addopts in pyproject.toml). Extra arguments go to pytest.
# `make check` (scripts/test.sh --check): the same steps for the edit-test loop, without
#   the browser: no chromium, and pytest deselects the tests marked `browser` (Playwright
#   on Chromium). Every other test runs (the store on PostgreSQL, nginx, systemd too).
#   Measured in docs/benchmarks.md ("make check and make test").
# Fails on the first failing step; pytest's "no tests collected" (exit status 5) and any
# skipped test (tests/conftest.py) are failures too.
set -euo pipefail
cd "$(dirname "$0")/.."
py="${VENV:-.venv}/bin/python"
target="make test"
system=(chromium postgresql nginx systemd)
select=()
if [ "${1:-}" = "--check" ]; then
  shift
  target="make check"
  system=(postgresql nginx systemd)
  select=(-m "not browser")
fi
start=$SECONDS
step="setup"

finish() {
  local status=$? elapsed=$((SECONDS - start))
  local verdict="passed"
  [ "$status" -ne 0 ] && verdict="FAILED at $step (exit status $status)"
  # CPU (user + system) of the processes it waited for: on a shared machine the wall time
  # moves with the others' load, the CPU much less (half of it is the wall time on 2 idle cores)
  local cpu used
  used=$(mktemp)
  times >"$used"  # the builtin in this shell (in a pipe it would report a subshell's)
  cpu=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/)
    printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$used")
  rm -f "$used"
  printf '%s: %s; wall time %dm %02ds, CPU %d core-s, load average %s\n' "$target" "$verdict" \
    $((elapsed / 60)) $((elapsed % 60)) "$cpu" "$(cut -d' ' -f1-3 /proc/loadavg)"
}
trap finish EXIT

step="venv"; scripts/ensure-venv.sh requirements-dev.lock
step="lock files"; scripts/check-lock.sh
step="system packages"; scripts/ensure-system.sh "${system[@]}"
step="ruff check"; "$py" -m ruff check .
step="ruff format"; "$py" -m ruff format --check .
step="mypy"; "$py" -m mypy
step="pytest"
status=0
"$py" -m pytest "${select[@]}" "$@" || status=$?
if [ "$status" -eq 5 ]; then
  echo "pytest collected no tests (exit status 5): that is a failure here" >&2
fi
exit "$status"
