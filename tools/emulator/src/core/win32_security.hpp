// Windows only: a security descriptor that lets the current user alone in, for what POSIX makes 0600/0700
// (the data dir, the connection and state files) and for the IPC named pipe. Include in _WIN32 translation
// units only.
#pragma once

#ifdef _WIN32

#include <windows.h>

#include <string>
#include <string_view>
#include <vector>

namespace platformpp::emulator {

// The current user's SID as owner and a protected DACL (nothing inherited from the parent) with one entry:
// all access for that user. Neither copyable nor movable: the attributes point into the object.
class UserOnlySecurity {
 public:
  // Throws std::system_error when the process token cannot be read.
  UserOnlySecurity();
  UserOnlySecurity(const UserOnlySecurity&) = delete;
  UserOnlySecurity& operator=(const UserOnlySecurity&) = delete;

  // For CreateFileW, CreateDirectoryW and CreateNamedPipeW.
  [[nodiscard]] SECURITY_ATTRIBUTES* attributes() { return &attributes_; }

 private:
  std::vector<unsigned char> token_user_;  // TOKEN_USER, the SID follows it
  std::vector<unsigned char> acl_;
  SECURITY_DESCRIPTOR descriptor_{};
  SECURITY_ATTRIBUTES attributes_{};
};

// UTF-8 to UTF-16, for the wide Windows calls (paths and pipe names are UTF-8 everywhere else).
std::wstring widen(std::string_view utf8);
// UTF-16 to UTF-8.
std::string narrow(std::wstring_view utf16);
// The system's message for a Win32 error code, in UTF-8.
std::string win32_error_message(unsigned long code);

}  // namespace platformpp::emulator

#endif  // _WIN32
