#!/usr/bin/env bash
# `make lowest`: prove that the declared ranges hold at their bottom. Takes the lower
# bound of every requirement in requirements.txt and requirements-dev.txt exactly
# (`name==minimum`; a requirement without a `>=` bound is an error), resolves that set
# with its dependencies (uv, PyPI), installs it into a throw-away venv and runs the
# tests that need no browser there. Needs network access to PyPI; not part of `make test`.
# Usage: scripts/check-lowest.sh [pytest arguments]   (default: -m "not browser")
set -euo pipefail
cd "$(dirname "$0")/.."
uv="${UV:-${VENV:-.venv}/bin/uv}"
[ -x "$uv" ] || uv="$(command -v uv || true)"
[ -n "$uv" ] || { echo "check-lowest: uv not found (make lock installs it)" >&2; exit 1; }
python="${PYTHON:-python3}"

work="$(mktemp -d "${TMPDIR:-/tmp}/cubelab-lowest.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# name>=low,<high  ->  name==low
for file in requirements.txt requirements-dev.txt; do
  grep -v -E '^\s*(#|-r|$)' "$file" | sed -E 's/\s*#.*//'
done | while read -r requirement; do
  name="$(sed -E 's/^([A-Za-z0-9_.-]+).*/\1/' <<<"$requirement")"
  low="$(sed -nE 's/.*>=\s*([^,; ]+).*/\1/p' <<<"$requirement")"
  if [ -z "$low" ]; then
    echo "check-lowest: '$requirement' declares no lower bound (>=)" >&2
    exit 1
  fi
  echo "$name==$low"
done >"$work/minimums.txt"
echo "check-lowest: the declared minimums:" && sed 's/^/  /' "$work/minimums.txt"

"$python" -m venv "$work/venv"
version="$("$work/venv/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
[ "$version" = 3.11 ] || echo "check-lowest: note: Python $version here; the oldest supported is 3.11" >&2

if ! "$uv" pip compile --quiet --no-config --index-url https://pypi.org/simple \
  --python "$work/venv/bin/python" --no-header "$work/minimums.txt" -o "$work/lowest.txt"; then
  echo "check-lowest: FAILED: the declared minimums cannot be installed together" >&2
  exit 1
fi
"$uv" pip install --quiet --no-config --index-url https://pypi.org/simple \
  --python "$work/venv/bin/python" -r "$work/lowest.txt"
"$uv" pip check --python "$work/venv/bin/python"
echo "check-lowest: resolved and installed:"
grep -E '^[A-Za-z0-9]' "$work/lowest.txt" | sed 's/^/  /' | paste -sd' ' | fold -s -w 96

[ $# -eq 0 ] && set -- -m "not browser"
"$work/venv/bin/python" -m pytest -p no:cacheprovider -q "$@"
echo "check-lowest: the lowest declared versions install together and pass the tests"
