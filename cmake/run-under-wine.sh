#!/usr/bin/env bash
# CMAKE_CROSSCOMPILING_EMULATOR of the Windows build (cmake/mingw-w64-x86_64.cmake): runs a Windows program
# under wine64 the way the tests need, whoever calls it (ctest, the scripts, a developer):
# - Wine's prefix in the cache next to the Windows libraries unless WINEPREFIX says otherwise, Wine's own
#   diagnostics off, and no Mono or Gecko looked for (Debian ships neither);
# - Wine's server and system processes started first, detached from this program's output (below).
export WINEPREFIX=${WINEPREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/platformpp/wine}
export WINEDEBUG=${WINEDEBUG:--all}
export WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-mscoree,mshtml=}
export WINEARCH=win64
wine64=$(command -v wine64 || echo /usr/lib/wine/wine64)
# One caller at a time (CTest starts two tests at once): makes the prefix once per machine; then, when no
# wineserver runs, starts one detached from this program's output and has Wine start its system processes
# (services, explorer, the device hosts) with no output either. Otherwise the first program to run would start
# them, they would inherit its stdout and stderr and hold them open for as long as the server lives, and CTest,
# which waits for a test's output to end, would time that test out after it had passed. The server and those
# processes outlive each test by design (for 60 s after the last), to spare the next one Wine's start-up.
mkdir -p "$(dirname "$WINEPREFIX")"
# What starts inside the lock does not get its descriptor (9>&-): the server and the system processes outlive
# this script, and would otherwise hold the lock for as long as they run.
(
  flock 9
  [ -f "$WINEPREFIX/system.reg" ] || "$wine64" wineboot --init </dev/null >/dev/null 2>&1 9>&- || true
  # Exit status 0: it started (otherwise one was running already, the usual case).
  if wineserver --persistent=60 </dev/null >/dev/null 2>&1 9>&-; then
    "$wine64" wineboot </dev/null >/dev/null 2>&1 9>&- || true
  fi
) 9>"$WINEPREFIX.lock"
exec "$wine64" "$@"
