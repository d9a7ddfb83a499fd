#!/usr/bin/env bash
# Every check and every test, as CI runs them (CI then repeats the server suite on PostgreSQL).
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s (at %ds)\n' "$*" "$SECONDS"; }

bash scripts/setup.sh --browser --aws
step "lint";       npx biome check .
step "typecheck";  npm run typecheck --silent
step "api contract"; npm run api:check --silent
step "server tests (${DATABASE_URL:+PostgreSQL}${DATABASE_URL:-embedded PGlite})"
npm test -w apps/server --silent
step "console tests"; npm test -w apps/web --silent
step "console and server build"; npm run build --silent

# The browser and Python suites spend most of their time waiting on real processes (clusters,
# builds, the product's timers), each using about one core of two: they run side by side, the
# Python suite's output printed when both are done.
python_log="$(mktemp)"
step "browser tests (built console on the real server, in Chromium), the Python tests beside them"
"${CUMULUS_PYTHON:-/usr/bin/python3}" -m unittest discover -s python/tests -t python >"$python_log" 2>&1 &
python_pid=$!
# Ended early (Ctrl-C, a failed step): the Python suite stops too, closing the servers it started.
trap 'kill -TERM "$python_pid" 2>/dev/null && wait "$python_pid"; rm -f "$python_log"' EXIT
browser=0
npm run test:e2e -w apps/web --silent || browser=$?
python=0
wait "$python_pid" || python=$?
trap - EXIT
step "python tests (client against a real server): their output"
cat "$python_log"
rm -f "$python_log"
if [ "$browser" -ne 0 ] || [ "$python" -ne 0 ]; then
  printf '\n== failed: browser tests exit %d, python tests exit %d\n' "$browser" "$python"
  exit 1
fi
printf '\n== all tests passed in %ds\n' "$SECONDS"
