#pragma once
// The few POSIX calls the unit tests make, under names that also exist on Windows (Winsock for the bare
// socket servers that stand in for peers, _putenv_s for the environment, the process id for unique names).
// Tests that need <windows.h> include it through here, which undoes its `near` and `far` macros.
#ifdef _WIN32
#include <winsock2.h>
#include <ws2tcpip.h>

#include <windows.h>

#include <process.h>
#include <stdlib.h>
// <windows.h> still defines these two 16-bit pointer qualifiers as nothing; tests name variables so.
#undef near
#undef far
#else
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#endif

namespace platformpp_test {

#ifdef _WIN32
using NativeSocket = SOCKET;
inline constexpr NativeSocket kNoSocket = INVALID_SOCKET;
inline constexpr int kNoSignal = 0;  // Winsock raises no SIGPIPE
using PollEntry = WSAPOLLFD;

/// Winsock started once for the test process (WSAStartup counts; never cleaned up).
inline const bool kWinsockStarted = [] {
  WSADATA data;
  return ::WSAStartup(MAKEWORD(2, 2), &data) == 0;
}();

/// closesocket / close.
inline void CloseSocket(NativeSocket socket) {
  ::closesocket(socket);
}
/// WSAPoll / poll.
inline int Poll(PollEntry* entries, unsigned long count, int timeoutMs) {
  return ::WSAPoll(entries, count, timeoutMs);
}
/// setenv(name, value, 1).
inline void SetEnv(const char* name, const char* value) {
  ::_putenv_s(name, value);
}
/// unsetenv(name): an empty value removes a variable on Windows.
inline void UnsetEnv(const char* name) {
  ::_putenv_s(name, "");
}
/// getpid().
inline long ProcessId() {
  return static_cast<long>(::_getpid());
}
#else
using NativeSocket = int;
inline constexpr NativeSocket kNoSocket = -1;
inline constexpr int kNoSignal = MSG_NOSIGNAL;
using PollEntry = pollfd;

inline void CloseSocket(NativeSocket socket) {
  ::close(socket);
}
inline int Poll(PollEntry* entries, unsigned long count, int timeoutMs) {
  return ::poll(entries, count, timeoutMs);
}
inline void SetEnv(const char* name, const char* value) {
  ::setenv(name, value, 1);
}
inline void UnsetEnv(const char* name) {
  ::unsetenv(name);
}
inline long ProcessId() {
  return static_cast<long>(::getpid());
}
#endif

/// Socket calls take char buffers on Windows and void pointers elsewhere: this works with both.
template <class T>
char* Bytes(T* data) {
  return reinterpret_cast<char*>(data);
}
template <class T>
const char* Bytes(const T* data) {
  return reinterpret_cast<const char*>(data);
}

}  // namespace platformpp_test
