# Sourced by the scripts that run programs against an emulator of their own (sample_with_emulator.sh,
# ../console_game/arena_headless_test.sh):
#   start_emulator EMULATOR [RUNNER [SCENARIO]]
# starts it (with the scenario file SCENARIO, if given) on a free loopback port with a private work directory, $work, whose connection.json it waits for
# (emulator.log holds its output), and stops it and removes $work when the script exits. RUNNER runs it
# (wine64 for a Windows build); $runner keeps it, as an array, for the programs the script runs next. With
# record=1, the emulator writes its event log to $work/events.jsonl, which replay_recording replays.
start_emulator() {
  local emulator=$1
  runner=()
  if [ -n "${2:-}" ]; then runner=("$2"); fi
  local extra=()
  if [ -n "${3:-}" ]; then extra=(--scenario "$3"); fi
  emulator_binary=$emulator
  work=$(mktemp -d)
  chmod 700 "$work"
  if [ "${record:-}" = 1 ]; then extra+=(--event-log "$work/events.jsonl"); fi
  emulator_pid=""
  trap stop_emulator EXIT
  # A name of its own for the desktop client's socket: on Windows pipe names are global, and a sample's client
  # must find its own emulator's pipe, not that of a test running beside it.
  "${runner[@]}" "$emulator" --port 0 --data-dir "$work" --ipc-dir "$work" --ipc-name "platformpp-script-$$" \
    --connection-file "$work/connection.json" "${extra[@]}" > "$work/emulator.log" 2>&1 &
  emulator_pid=$!
  for _ in $(seq 1 400); do
    [ -f "$work/connection.json" ] && break
    kill -0 "$emulator_pid" 2>/dev/null || break
    sleep 0.05
  done
  [ -f "$work/connection.json" ] || { echo "the emulator did not start" >&2; cat "$work/emulator.log" >&2; exit 1; }
}

# Stops it (SIGTERM: a clean stop, which writes out its event log); stop_emulator then only removes $work.
end_emulator() {
  if [ -n "$emulator_pid" ]; then kill "$emulator_pid" 2>/dev/null && wait "$emulator_pid" 2>/dev/null || true; fi
  emulator_pid=""
}

stop_emulator() {
  end_emulator
  rm -rf "$work"
}

# Stops the emulator (a clean stop writes out its event log; start_emulator with record=1) and replays the
# recorded session against a fresh emulator, which must write every line as the recording has it
# (tools/emulator/README.md, "Record and replay"). Returns the replay's exit status, showing the recording
# when it is not 0.
replay_recording() {
  end_emulator
  local status=0
  "${runner[@]}" "$emulator_binary" --replay "$work/events.jsonl" || status=$?
  if [ "$status" -ne 0 ]; then
    echo "the recorded session did not replay identically (exit $status); the recording:" >&2
    head -c 20000 "$work/events.jsonl" >&2
  fi
  return "$status"
}
