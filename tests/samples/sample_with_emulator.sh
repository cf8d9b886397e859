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
record=1
if [ "${5:-}" = --no-replay ]; then record=0; fi
start_emulator "$1" "${4:-}" "$3"
status=0
"${runner[@]}" "$2" --connection-file "$work/connection.json" || status=$?
if [ "$status" -ne 0 ]; then echo "--- emulator log" >&2; tail -50 "$work/emulator.log" >&2; exit "$status"; fi
if [ "$record" = 1 ]; then replay_recording; fi
