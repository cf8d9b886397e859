#!/usr/bin/env bash
# Runs one headless sample against an emulator of its own, as tools/run-main-job does with the shared one:
#   sample_with_emulator.sh EMULATOR SAMPLE [RUNNER]
# RUNNER runs both programs (wine64 for a Windows build). The sample's exit status is the test's; the
# emulator's log is shown when it fails.
set -euo pipefail
emulator=$1
sample=$2
runner=()
if [ -n "${3:-}" ]; then runner=("$3"); fi
work=$(mktemp -d)
chmod 700 "$work"
emulator_pid=""
cleanup() {
  if [ -n "$emulator_pid" ]; then kill "$emulator_pid" 2>/dev/null && wait "$emulator_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
"${runner[@]}" "$emulator" --port 0 --data-dir "$work" --ipc-dir "$work" --connection-file "$work/connection.json" \
  > "$work/emulator.log" 2>&1 &
emulator_pid=$!
for _ in $(seq 1 200); do
  [ -f "$work/connection.json" ] && break
  kill -0 "$emulator_pid" 2>/dev/null || break
  sleep 0.05
done
[ -f "$work/connection.json" ] || { echo "the emulator did not start" >&2; cat "$work/emulator.log" >&2; exit 1; }
status=0
"${runner[@]}" "$sample" --connection-file "$work/connection.json" || status=$?
if [ "$status" -ne 0 ]; then echo "--- emulator log" >&2; tail -50 "$work/emulator.log" >&2; fi
exit "$status"
