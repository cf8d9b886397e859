#!/usr/bin/env bash
# Two scripted players of the console game (platformpp-arena --headless, two processes) meet in a lobby by its
# code against an emulator of their own and play one game of Connect Four; both must print the same final
# board. Where the terminal game cannot be driven through tmux (the Windows build: no curses), this is the
# game's end-to-end test. The session the emulator recorded (two clients' interleaved requests and frames)
# then replays identically against a fresh emulator.
#   arena_headless_test.sh EMULATOR ARENA [RUNNER]     (RUNNER: wine64 for a Windows build)
set -euo pipefail
source "$(dirname "$0")/../samples/emulator_for_script.sh"
record=1
start_emulator "$1" "${3:-}"
arena=$2
player=("${runner[@]}" "$arena" --connection-file "$work/connection.json")
app=$("${player[@]}" --create-app | tr -d '\r')
[[ "$app" =~ ^[0-9]+$ ]] || { echo "--create-app printed '$app'" >&2; exit 1; }
"${player[@]}" --app-id "$app" --name Ada --headless --create ARENA1 > "$work/ada.log" 2>&1 &
ada_pid=$!
bo_status=0
"${player[@]}" --app-id "$app" --name Bo --headless --join ARENA1 > "$work/bo.log" 2>&1 || bo_status=$?
ada_status=0
wait "$ada_pid" || ada_status=$?
cat "$work/ada.log" "$work/bo.log"
if [ "$ada_status" != 0 ] || [ "$bo_status" != 0 ]; then
  echo "a scripted player failed (Ada $ada_status, Bo $bo_status)" >&2
  tail -30 "$work/emulator.log" >&2
  exit 1
fi
board() { tr -d '\r' < "$1" | grep -Eo '\|[.XO ]{13}\|$'; }
[ "$(board "$work/ada.log" | wc -l)" -eq 6 ] || { echo "no final board of 6 rows" >&2; exit 1; }
[ "$(board "$work/ada.log")" = "$(board "$work/bo.log")" ] || { echo "the two players' boards differ" >&2; exit 1; }
# (Bo's name as Ada sees it may still be his account's username: the message is what must have arrived.)
grep -q "chat: .*: gl hf from Bo" <(tr -d '\r' < "$work/ada.log") || { echo "Ada did not see Bo's chat" >&2; exit 1; }
echo "both players saw the same game"
replay_recording
