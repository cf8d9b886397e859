#!/usr/bin/env bash
# CMAKE_CROSSCOMPILING_EMULATOR of the Windows build (cmake/mingw-w64-x86_64.cmake): runs a Windows program
# under wine64 the way the tests need, whoever calls it (ctest, the scripts, a developer):
# - Wine's prefix in the cache next to the Windows libraries unless WINEPREFIX says otherwise, Wine's own
#   diagnostics off, and no Mono or Gecko looked for (Debian ships neither);
# - a wineserver started first, detached from this program's output: one started by the program itself would
#   inherit its stdout and stderr and keep them open after it exits, and CTest, which waits for a test's output
#   to end, would time the test out (it outlives each test by design, to spare the next one Wine's start-up).
export WINEPREFIX=${WINEPREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/platformpp/wine}
export WINEDEBUG=${WINEDEBUG:--all}
export WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-mscoree,mshtml=}
export WINEARCH=win64
wine64=$(command -v wine64 || echo /usr/lib/wine/wine64)
# The prefix is made once, by one caller at a time (CTest starts two tests at once on a fresh machine).
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  mkdir -p "$(dirname "$WINEPREFIX")"
  (
    flock 9
    [ -f "$WINEPREFIX/system.reg" ] || "$wine64" wineboot --init </dev/null >/dev/null 2>&1 || true
  ) 9>"$WINEPREFIX.lock"
fi
# Fails quietly when one is running already (the usual case).
wineserver --persistent=60 </dev/null >/dev/null 2>&1 || true
exec "$wine64" "$@"
