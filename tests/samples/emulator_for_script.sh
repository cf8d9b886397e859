# Sourced by the scripts that run programs against an emulator of their own (sample_with_emulator.sh,
# ../console_game/arena_headless_test.sh):
#   start_emulator EMULATOR [RUNNER [SCENARIO]]
# starts it (with the scenario file SCENARIO, if given) on a free loopback port with a private work directory, $work, whose connection.json it waits for
# (emulator.log holds its output), and stops it and removes $work when the script exits. RUNNER runs it
# (wine64 for a Windows build); $runner keeps it, as an array, for the programs the script runs next. With
# $event_log set, the emulator writes its event log there (--event-log).
start_emulator() {
  local emulator=$1
  runner=()
  if [ -n "${2:-}" ]; then runner=("$2"); fi
  local scenario=()
  if [ -n "${3:-}" ]; then scenario=(--scenario "$3"); fi
  if [ -n "${event_log:-}" ]; then scenario+=(--event-log "$event_log"); fi
  work=$(mktemp -d)
  chmod 700 "$work"
  emulator_pid=""
  trap stop_emulator EXIT
  # A name of its own for the desktop client's socket: on Windows pipe names are global, and a sample's client
  # must find its own emulator's pipe, not that of a test running beside it.
  "${runner[@]}" "$emulator" --port 0 --data-dir "$work" --ipc-dir "$work" --ipc-name "platformpp-script-$$" \
    --connection-file "$work/connection.json" "${scenario[@]}" > "$work/emulator.log" 2>&1 &
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
