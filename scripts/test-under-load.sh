#!/bin/sh
# Runs the test suite beside two CPU-bound processes, as a busy CI machine would (issue 48): no test may depend on
# how fast the event loop turns. Run it before you submit.
#
#   scripts/test-under-load.sh                 # the whole suite once
#   RUNS=3 scripts/test-under-load.sh          # three times in a row; fails if any run fails
#   scripts/test-under-load.sh test/unit       # only what vitest is given
#
# The two busy processes are started here and stopped by their process ids when the script ends, however it ends.
set -u
cd "$(dirname "$0")/.." || exit 1

busy=""
stop_busy() {
  for pid in $busy; do kill "$pid" 2>/dev/null; done
  busy=""
}
trap stop_busy EXIT
trap 'stop_busy; exit 130' INT
trap 'stop_busy; exit 143' TERM

for _ in 1 2; do
  sh -c 'while :; do :; done' &
  busy="$busy $!"
done
echo "busy processes:$busy"

runs=${RUNS:-1}
failed=0
run=1
while [ "$run" -le "$runs" ]; do
  echo "== run $run of $runs, beside two busy processes"
  if ! npx vitest run "$@"; then failed=$((failed + 1)); fi
  run=$((run + 1))
done
echo "== $failed of $runs runs failed"
[ "$failed" -eq 0 ]
