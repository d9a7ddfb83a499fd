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

# The browser suite, the Python suite and (with CUMULUS_TEST_POSTGRES_URL, an empty database; CI
# sets it) the server suite's PostgreSQL pass spend most of their time waiting on real processes
# (clusters, builds, the product's timers), each using about one core of two: they run side by side
# as three lanes, the other lanes' output printed when all are done. The PostgreSQL pass runs one
# file at a time; the files that change the machine's network follow once the lanes are done
# (apps/server/test/helpers/database-agnostic.ts says which files each pass leaves out).
python_log="$(mktemp)"
postgres_log="$(mktemp)"
python_lane() {
  echo "== python tests (client against a real server)"
  "${CUMULUS_PYTHON:-/usr/bin/python3}" -m unittest discover -s python/tests -t python 2>&1
}
postgres_lane() {
  echo "== server tests on PostgreSQL (from ${SECONDS}s)"
  DATABASE_URL="$CUMULUS_TEST_POSTGRES_URL" CUMULUS_TEST_NETWORK=without npm test -w apps/server --silent -- --maxWorkers=1 2>&1
}
lanes="browser tests (built console on the real server, in Chromium), beside them the Python tests"
step "$lanes${CUMULUS_TEST_POSTGRES_URL:+ and the server tests on PostgreSQL}"
python_lane >"$python_log" 2>&1 &
python_pid=$!
postgres_pid=""
if [ -n "${CUMULUS_TEST_POSTGRES_URL:-}" ]; then
  postgres_lane >"$postgres_log" 2>&1 &
  postgres_pid=$!
fi
# Ended early (Ctrl-C, a failed step): the other lanes stop too, closing the servers they started.
stop_lanes() {
  for pid in $python_pid $postgres_pid; do
    pkill -TERM -P "$pid" || true
    kill -TERM "$pid" 2>/dev/null && { wait "$pid" || true; }
  done
  rm -f "$python_log" "$postgres_log"
}
trap stop_lanes EXIT
browser=0
npm run test:e2e -w apps/web --silent || browser=$?
python=0
wait "$python_pid" || python=1
postgres=0
if [ -n "$postgres_pid" ]; then wait "$postgres_pid" || postgres=1; fi
trap - EXIT
step "the Python lane's output"
cat "$python_log"
if [ -n "$postgres_pid" ]; then
  step "the PostgreSQL lane's output"
  cat "$postgres_log"
fi
rm -f "$python_log" "$postgres_log"
if [ -n "${CUMULUS_TEST_POSTGRES_URL:-}" ]; then
  # What changes this machine's network waited for the other lanes (apps/server/test/helpers/database-agnostic.ts).
  step "server tests on PostgreSQL that change the machine's network"
  DATABASE_URL="$CUMULUS_TEST_POSTGRES_URL" CUMULUS_TEST_NETWORK=only npm test -w apps/server --silent || postgres=1
fi
if [ "$browser" -ne 0 ] || [ "$python" -ne 0 ] || [ "$postgres" -ne 0 ]; then
  printf '\n== failed: browser tests exit %d, python tests failed %d, server tests on PostgreSQL failed %d\n' "$browser" "$python" "$postgres"
  exit 1
fi
printf '\n== all tests passed in %ds\n' "$SECONDS"
