#!/usr/bin/env bash
# Install the Debian packages the tests and benches need, if any is missing:
#   chromium    the browser tests (Playwright drives /usr/bin/chromium; no downloaded browser)
#   postgresql  the store tests (they start their own cluster from its binaries)
#   nginx       `make scale` (bench/scale.py runs its own nginx in the foreground)
#   systemd     `systemd-analyze verify` of deploy/cubelab@.service (tests/test_deploy_systemd.py)
# GNU Backgammon is deliberately not here: it is only the oracle that generated the
# committed fixtures (scripts/gnubg/), and no test runs it.
# Idempotent and non-interactive (no standard input needed: CI): when everything is
# installed it does nothing; otherwise one `apt-get update` and one `apt-get install`,
# as root or through `sudo -n`. Exits non-zero, naming what is missing, if it cannot.
# Usage: scripts/ensure-system.sh [package ...]   (default: all four)
set -euo pipefail

wanted=("$@")
[ ${#wanted[@]} -eq 0 ] && wanted=(chromium postgresql nginx systemd)

# What proves a package usable: the program the tests and benches run.
present() {
  case "$1" in
    chromium) command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] ;;
    nginx) command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] ;;
    systemd) command -v systemd-analyze >/dev/null 2>&1 ;;
    postgresql) compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null \
      && compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null ;;
    *) echo "ensure-system: unknown package '$1' (known: chromium postgresql nginx systemd)" >&2
       exit 2 ;;
  esac
}

missing=()
for package in "${wanted[@]}"; do
  present "$package" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "ensure-system: installing Debian's ${missing[*]}" >&2
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  if ! sudo -n true 2>/dev/null; then
    echo "ensure-system: ${missing[*]} missing, and this user is not root and has no" \
      "password-less sudo: run 'sudo apt-get install ${missing[*]}' once" >&2
    exit 1
  fi
  sudo_cmd=(sudo -n)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq </dev/null
"${sudo_cmd[@]}" apt-get install -y -qq -o Dpkg::Options::=--force-confdef \
  -o Dpkg::Options::=--force-confold "${missing[@]}" </dev/null

still=()
for package in "${missing[@]}"; do
  present "$package" || still+=("$package")
done
if [ ${#still[@]} -ne 0 ]; then
  echo "ensure-system: ${still[*]} still missing after apt-get install" >&2
  exit 1
fi
