#!/usr/bin/env bash
# Start N Streamlit app processes and nginx in front of them, all on loopback.
#
#   deploy/run_cluster.sh [N=2] [PROXY_PORT=8080] [FIRST_APP_PORT=8601]
#
# nginx runs in the foreground as this user's process with the config rendered from
# deploy/nginx.conf.template into a temporary directory (not the system service).
# Ctrl-C (or SIGTERM) stops nginx and every app process this script started.
set -euo pipefail

N=${1:-2}
PROXY_PORT=${2:-8080}
FIRST_APP_PORT=${3:-8601}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
PY=${PY:-$ROOT/.venv/bin/python}
NGINX=${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}
RUNDIR=$(mktemp -d /tmp/cubelab-nginx.XXXXXX)
PIDS=()

cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$RUNDIR"
}
trap cleanup EXIT INT TERM

UPSTREAMS=""
for ((i = 0; i < N; i++)); do
    port=$((FIRST_APP_PORT + i))
    (cd "$ROOT" && exec "$PY" -m ui.serve --server.address 127.0.0.1 \
        --server.port "$port" --server.headless true --browser.gatherUsageStats false \
        >"$RUNDIR/streamlit-$port.log" 2>&1) &
    PIDS+=($!)
    UPSTREAMS+="server 127.0.0.1:$port max_fails=0; "
done
for ((i = 0; i < N; i++)); do
    port=$((FIRST_APP_PORT + i))
    for _ in $(seq 1 150); do
        curl -fsS "http://127.0.0.1:$port/_stcore/health" >/dev/null 2>&1 && break
        sleep 0.2
    done
done

sed -e "s|@RUNDIR@|$RUNDIR|g" -e "s|@LISTEN@|127.0.0.1:$PROXY_PORT|g" \
    -e "s|@UPSTREAMS@|$UPSTREAMS|g" "$HERE/nginx.conf.template" >"$RUNDIR/nginx.conf"
"$NGINX" -t -p "$RUNDIR" -c "$RUNDIR/nginx.conf"
echo "Cube Theory Lab: $N app processes behind http://127.0.0.1:$PROXY_PORT (Ctrl-C stops all)"
"$NGINX" -p "$RUNDIR" -c "$RUNDIR/nginx.conf" &
PIDS+=($!)
wait
