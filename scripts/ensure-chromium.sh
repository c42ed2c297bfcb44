#!/usr/bin/env bash
# Make sure Debian's Chromium is installed for the browser tests.
# Test tools cannot download browsers here; we use /usr/bin/chromium from apt.
# Non-interactive: works with no standard input (CI).
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
  exit 0
fi
echo "Chromium not found: installing Debian's chromium package" >&2
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo -n"
$sudo_cmd apt-get update -qq </dev/null
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium </dev/null
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]
