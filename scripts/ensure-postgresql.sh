#!/usr/bin/env bash
# Make sure Debian's PostgreSQL server binaries are installed for the store tests
# (tests/postgres.py starts a throw-away cluster; it never uses the system's one).
# Non-interactive: works with no standard input (CI).
set -euo pipefail
if compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
  exit 0
fi
echo "PostgreSQL not found: installing Debian's postgresql package" >&2
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo -n"
$sudo_cmd apt-get update -qq </dev/null
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq postgresql </dev/null
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null
