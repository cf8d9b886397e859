#!/usr/bin/env bash
# Runs one headless sample against an emulator of its own that plays the sample's scenario, as
# tools/run-main-job does, then replays the session the emulator recorded (its event log) against a fresh
# emulator, which must write every line as the recording has it (tools/emulator/README.md, "Record and
# replay"):
#   sample_with_emulator.sh EMULATOR SAMPLE SCENARIO [RUNNER] [--no-replay]
# RUNNER runs both programs (wine64 for a Windows build). --no-replay: the sample's session cannot be replayed
# (an end-to-end encrypted call: the MLS messages carry signatures both sides draw at random). The sample's
# exit status is the test's; the emulator's log is shown when it fails.
set -euo pipefail
source "$(dirname "$0")/emulator_for_script.sh"
replay=1
if [ "${5:-}" = --no-replay ]; then replay=0; fi
recording=$(mktemp -d)
chmod 700 "$recording"
trap 'stop_emulator; rm -rf "$recording"' EXIT
event_log="$recording/events.jsonl"
start_emulator "$1" "${4:-}" "$3"
trap 'stop_emulator; rm -rf "$recording"' EXIT
status=0
"${runner[@]}" "$2" --connection-file "$work/connection.json" || status=$?
if [ "$status" -ne 0 ]; then echo "--- emulator log" >&2; tail -50 "$work/emulator.log" >&2; exit "$status"; fi
[ "$replay" = 1 ] || exit 0
end_emulator
status=0
"${runner[@]}" "$1" --replay "$event_log" || status=$?
if [ "$status" -ne 0 ]; then
  echo "the sample's recorded session did not replay identically (exit $status); the recording:" >&2
  head -c 20000 "$event_log" >&2
fi
exit "$status"
