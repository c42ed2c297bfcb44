#!/usr/bin/env bash
# Regenerate the hashed lock files from the declared ranges (`make lock`).
#   requirements.lock      <- requirements.txt      (what `make run` installs)
#   requirements-dev.lock  <- requirements-dev.txt  (what `make test` installs), constrained
#                             to requirements.lock so both agree on every shared package.
# One version of each package for every platform and Python >= 3.11 (a universal lock,
# fewest forks); hashes of every PyPI file of that version, checked by pip --require-hashes.
# Versions already in a lock are kept unless a range excludes them: UPGRADE=1 takes the
# newest allowed versions of everything, UPGRADE_PACKAGE=name the newest of one package.
# Needs uv (in requirements-dev.txt) and network access to PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
uv="${UV:-${VENV:-.venv}/bin/uv}"
[ -x "$uv" ] || uv="$(command -v uv || true)"
if [ -z "$uv" ]; then
  echo "uv not found: run 'scripts/ensure-venv.sh requirements-dev.lock' or set UV=/path/to/uv" >&2
  exit 1
fi

upgrade=()
[ "${UPGRADE:-0}" = 1 ] && upgrade+=(--upgrade)
[ -n "${UPGRADE_PACKAGE:-}" ] && upgrade+=(--upgrade-package "$UPGRADE_PACKAGE")

compile() {
  "$uv" pip compile --quiet --no-config --index-url https://pypi.org/simple \
    --universal --python-version 3.11 --fork-strategy fewest \
    --generate-hashes --custom-compile-command "make lock" "${upgrade[@]}" "$@"
}

compile requirements.txt -o requirements.lock
compile requirements-dev.txt -c requirements.lock -o requirements-dev.lock
echo "wrote requirements.lock and requirements-dev.lock"
