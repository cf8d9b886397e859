#!/usr/bin/env bash
# Two players of platformpp-arena, each in a tmux session of its own (a tmux server of the test's own, never
# the developer's), play a whole game of Connect Four against a real emulator by keystrokes (send-keys); the
# test reads both screens (capture-pane) as a player would: the same board on both, both chat lines on both
# sides, the winner announced on both, then the friend request and the friend's rich presence; both quit
# with q and exit 0. Then a friend invites the other back into her lobby, and a player who starts with the
# emulator gone is told so.
#   arena_tmux_test.sh PLATFORMPP_EMULATOR PLATFORMPP_ARENA
set -euo pipefail
emulator=$1
arena=$2
work=$(mktemp -d)
sock="$work/tmux.sock"
emulator_pid=""

T() { tmux -S "$sock" "$@"; }
screen() { T capture-pane -p -t "$1"; }
dump() {
  for who in ada bo cy; do
    echo "---- $who's screen ----"
    screen "$who" 2>/dev/null || cat "$work/$who.screen" 2>/dev/null || true
  done
}
fail() {
  echo "FAILED: $*" >&2
  dump >&2
  exit 1
}
cleanup() {
  T kill-server 2>/dev/null || true
  if [ -n "$emulator_pid" ]; then kill "$emulator_pid" 2>/dev/null && wait "$emulator_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# wait_for WHO REGEX: until WHO's screen shows REGEX (extended), at most 20 s.
wait_for() {
  for _ in $(seq 1 200); do
    screen "$1" | grep -Eq -- "$2" && return 0
    sleep 0.1
  done
  fail "$1's screen never showed /$2/"
}
keys() { T send-keys -t "$@"; }
say() {  # say WHO TEXT: opens the chat line, types TEXT, sends it
  keys "$1" t
  keys "$1" -l "$2"
  keys "$1" Enter
}

# The demo's world (the game's application): the two players find it there, without --app-id.
"$emulator" --port 0 --data-dir "$work" --ipc-dir "$work" --connection-file "$work/connection.json" \
  --scenario "$(dirname "$0")/../../samples/console-game/arena.scenario.json" > "$work/emulator.log" 2>&1 &
emulator_pid=$!
for _ in $(seq 1 200); do [ -f "$work/connection.json" ] && break; sleep 0.05; done
[ -f "$work/connection.json" ] || fail "the emulator did not start"
app=$("$arena" --connection-file "$work/connection.json" --create-app)  # for the late player, below

for who in Ada Bo; do
  session=$(echo "$who" | tr 'A-Z' 'a-z')
  T new-session -d -s "$session" -x 100 -y 30 \
    "'$arena' --connection-file '$work/connection.json' --name $who --audio null; echo \$? > '$work/$session.exit'"
done
T set-option -g remain-on-exit off >/dev/null
wait_for ada "\| Online"
wait_for bo "\| Online"

# Ada creates a lobby; Bo joins it with the code her screen shows.
keys ada c
wait_for ada "Lobby [A-Z0-9]{6} \(1/2\)"
code=$(screen ada | grep -Eo "Lobby [A-Z0-9]{6}" | head -1 | cut -d' ' -f2)
keys bo j
keys bo -l "$code"
keys bo Enter
wait_for bo "Lobby $code \(2/2\)"
wait_for ada "Lobby $code \(2/2\)"

# Chat, both ways.
say ada "hello bo"
say bo "hi ada, good luck"
for who in ada bo; do
  wait_for "$who" "Ada: hello bo"
  wait_for "$who" "Bo: hi ada, good luck"
done

# The game: Ada (the host) opens with X. She builds column 4; Bo answers in column 5; Ada's fourth disc wins.
moves=(ada:4 bo:5 ada:4 bo:5 ada:4 bo:5 ada:4)
turn=1
for move in "${moves[@]}"; do
  who=${move%%:*}
  column=${move##*:}
  wait_for "$who" "Turn $turn: your move"
  keys "$who" "$column"
  turn=$((turn + 1))
done
wait_for ada "Game 1: Ada wins!"
wait_for bo "Game 1: Ada wins!"

# The same board on both screens, and the board the moves make.
board_of() { screen "$1" | grep -Eo '\|[.XO ]{13}\|'; }
ada_board=$(board_of ada)
bo_board=$(board_of bo)
[ "$ada_board" = "$bo_board" ] || fail "the boards differ"
expected='|. . . . . . .|
|. . . . . . .|
|. . . X . . .|
|. . . X O . .|
|. . . X O . .|
|. . . X O . .|'
[ "$ada_board" = "$expected" ] || fail "the board is not the one the moves make"

# Bo befriends his opponent; Ada accepts. Each then sees the other in the friends list with what they do.
keys bo f
wait_for ada "Bo wants to be friends"
keys ada y
wait_for ada "> Bo +In the lobby 2/2"
wait_for bo "> Ada +In the lobby 2/2"

# Bo leaves; Ada's game shows room again (a Join button for her friends) and she invites him back.
keys bo l
wait_for bo "Left lobby $code"
wait_for bo "> Ada +In the lobby 1/2 \[join\]"
keys ada i
wait_for bo "Ada invites you to play\. Join\? \(y/n\)"
keys bo y
wait_for bo "Lobby $code \(2/2\)"
wait_for ada "Lobby $code \(2/2\)"

screen ada > "$work/ada.screen"
screen bo > "$work/bo.screen"
keys ada q
keys bo C-c  # Ctrl-C quits as cleanly as q
for who in ada bo; do
  for _ in $(seq 1 100); do [ -f "$work/$who.exit" ] && break; sleep 0.1; done
  [ -f "$work/$who.exit" ] || fail "$who's game did not quit on q"
  [ "$(cat "$work/$who.exit")" = 0 ] || fail "$who's game exited with $(cat "$work/$who.exit")"
done
# The platform gone: a player who starts now is told where the game looked and why it cannot go on.
kill "$emulator_pid" && wait "$emulator_pid" 2>/dev/null || true
emulator_pid=""
T new-session -d -s cy -x 100 -y 30 \
  "'$arena' --connection-file '$work/connection.json' --app-id $app --name Cy; echo \$? > '$work/cy.exit'"
wait_for cy "cannot reach the platform at https://127\.0\.0\.1:[0-9]+"
wait_for cy "is platformpp-emulator running there\?"
keys cy q
for _ in $(seq 1 100); do [ -f "$work/cy.exit" ] && break; sleep 0.1; done
[ "$(cat "$work/cy.exit" 2>/dev/null)" = 3 ] || fail "the game without a platform did not exit with 3"

echo "---- Ada's screen at the end ----"
cat "$work/ada.screen"
echo "arena tmux test: passed (lobby $code, $((turn - 1)) moves)"
