// Windows: the named event that asks a running emulator to stop cleanly, as SIGTERM does on POSIX. Console
// control events only reach a process that shares a console with the sender (and Wine delivers none to a
// child without one), so the testkit and scripts set this event instead. It lives in the session's
// Local\ namespace with the emulator's default security: only its own user (and the administrators) can open
// it.
#pragma once

#ifdef _WIN32
#include <string>

namespace platformpp::emulator {

// "Local\platformpp-emulator-stop-<pid>" (tools/emulator/README.md; the testkit names it the same way).
inline std::wstring stop_event_name(unsigned long process_id) {
  return L"Local\\platformpp-emulator-stop-" + std::to_wstring(process_id);
}

}  // namespace platformpp::emulator
#endif
