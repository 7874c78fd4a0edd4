#!/usr/bin/env bash
# The README's start command on this checkout: `npm start` must install, build and serve the site
# until GET /api/health answers 200 within START_TIMEOUT_SECONDS (default 1500); then it is stopped
# with SIGTERM (the bff closes gracefully). Fails when the start exits or never answers.
set -euo pipefail
cd "$(dirname "$0")/.."
port="${PORT:-3000}"
timeout="${START_TIMEOUT_SECONDS:-1500}"
log="$(mktemp -t npm-start.XXXXXX.log)"
started=$SECONDS

# Its own process group, so that the stop reaches npm, the start script and the server.
setsid npm start >"$log" 2>&1 </dev/null &
pid=$!
stop() {
  kill -TERM -- "-$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 -- "-$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL -- "-$pid" 2>/dev/null || true
}
trap stop EXIT

echo "▶ npm start (log: $log)"
until node -e "fetch(process.argv[1], { signal: AbortSignal.timeout(5000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))" "http://127.0.0.1:$port/api/health"; do
  if ! kill -0 "$pid" 2>/dev/null; then
    cat "$log"
    echo "✖ npm start exited before the site answered GET /api/health" >&2
    exit 1
  fi
  if ((SECONDS - started > timeout)); then
    tail -n 100 "$log"
    echo "✖ npm start did not answer GET /api/health within $timeout s" >&2
    exit 1
  fi
  sleep 2
done
tail -n 20 "$log"
stop
trap - EXIT
echo "npm start answered GET /api/health after $((SECONDS - started)) s"
