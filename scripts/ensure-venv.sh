#!/usr/bin/env bash
# Create the virtual environment (.venv) and install a requirements file into it.
# Usage: scripts/ensure-venv.sh requirements.txt|requirements-dev.txt
# Re-installs only when the requirements file changed since the last install.
set -euo pipefail
cd "$(dirname "$0")/.."
requirements="$1"
venv="${VENV:-.venv}"
python="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
  if ! "$python" -m venv "$venv" 2>/dev/null; then
    # Debian splits venv out of the interpreter package.
    echo "python3 -m venv failed; installing Debian's python3-venv" >&2
    rm -rf "$venv"
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo -n"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq python3-venv </dev/null
    "$python" -m venv "$venv"
  fi
fi

stamp="$venv/.installed-$(basename "$requirements")"
if [ ! -f "$stamp" ] || [ "$requirements" -nt "$stamp" ] || [ requirements.txt -nt "$stamp" ]; then
  "$venv/bin/python" -m pip install --quiet --upgrade pip
  "$venv/bin/python" -m pip install --quiet -r "$requirements"
  touch "$stamp"
fi
