#!/usr/bin/env bash
# Runs one headless sample against an emulator of its own that plays the sample's scenario, as
# tools/run-main-job does:
#   sample_with_emulator.sh EMULATOR SAMPLE SCENARIO [RUNNER]
# RUNNER runs both programs (wine64 for a Windows build). The sample's exit status is the test's; the
# emulator's log is shown when it fails.
set -euo pipefail
source "$(dirname "$0")/emulator_for_script.sh"
start_emulator "$1" "${4:-}" "$3"
status=0
"${runner[@]}" "$2" --connection-file "$work/connection.json" || status=$?
if [ "$status" -ne 0 ]; then echo "--- emulator log" >&2; tail -50 "$work/emulator.log" >&2; fi
exit "$status"
