#!/usr/bin/env bash
# Every check and every test, as CI runs them (CI then repeats the server suite on PostgreSQL).
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s (at %ds)\n' "$*" "$SECONDS"; }

bash scripts/setup.sh --browser --aws --ssh --containers --slurm
step "lint";       npx biome check .
step "typecheck";  npm run typecheck --silent
step "api contract"; npm run api:check --silent
step "server tests (${DATABASE_URL:+PostgreSQL}${DATABASE_URL:-embedded PGlite})"
npm test -w apps/server --silent
step "console tests"; npm test -w apps/web --silent
step "console and server build"; npm run build --silent

# The browser and Python suites spend most of their time waiting on real processes (clusters,
# builds, the product's timers), each using about one core of two: they run side by side, the
# Python suite's output printed when both are done. With CUMULUS_TEST_POSTGRES_URL (an empty
# database; CI sets it), the server suite's PostgreSQL pass follows the Python suite in the same
# lane, one file at a time, while the browser suite goes on, and the files that change the machine's
# network after it (apps/server/test/helpers/database-agnostic.ts says which files each leaves out).
lane_log="$(mktemp)"
lane() {
  local status=0
  echo "== python tests (client against a real server)"
  "${CUMULUS_PYTHON:-/usr/bin/python3}" scripts/python-tests.py 2>&1 || status=1
  if [ -n "${CUMULUS_TEST_POSTGRES_URL:-}" ]; then
    echo; echo "== server tests on PostgreSQL (at ${SECONDS}s)"
    DATABASE_URL="$CUMULUS_TEST_POSTGRES_URL" CUMULUS_TEST_NETWORK=without npm test -w apps/server --silent -- --maxWorkers=1 2>&1 || status=$((status | 2))
  fi
  return "$status"
}
step "browser tests (built console on the real server, in Chromium), beside them the Python tests${CUMULUS_TEST_POSTGRES_URL:+ then the server tests on PostgreSQL}"
lane >"$lane_log" 2>&1 &
lane_pid=$!
# Ended early (Ctrl-C, a failed step): the other lane stops too, closing the servers it started.
trap 'pkill -TERM -P "$lane_pid" || true; kill -TERM "$lane_pid" 2>/dev/null && { wait "$lane_pid" || true; }; rm -f "$lane_log"' EXIT
browser=0
npm run test:e2e -w apps/web --silent || browser=$?
lane_status=0
wait "$lane_pid" || lane_status=$?
trap - EXIT
step "the other lane's output"
cat "$lane_log"
rm -f "$lane_log"
python=$((lane_status & 1))
postgres=$(((lane_status & 2) >> 1))
if [ -n "${CUMULUS_TEST_POSTGRES_URL:-}" ]; then
  # What changes this machine's network waited for the browser (apps/server/test/helpers/database-agnostic.ts).
  step "server tests on PostgreSQL that change the machine's network"
  DATABASE_URL="$CUMULUS_TEST_POSTGRES_URL" CUMULUS_TEST_NETWORK=only npm test -w apps/server --silent || postgres=1
fi
if [ "$browser" -ne 0 ] || [ "$python" -ne 0 ] || [ "$postgres" -ne 0 ]; then
  printf '\n== failed: browser tests exit %d, python tests failed %d, server tests on PostgreSQL failed %d\n' "$browser" "$python" "$postgres"
  exit 1
fi
printf '\n== all tests passed in %ds\n' "$SECONDS"
