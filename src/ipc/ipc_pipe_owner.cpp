#include "ipc/ipc_pipe_owner.hpp"

#include <windows.h>

#include <aclapi.h>

#include <vector>

namespace platformpp::ipc {
namespace {

std::optional<core::win32::Sid> CopySid(PSID sid) {
  if (!sid || !::IsValidSid(sid)) return std::nullopt;
  const auto* bytes = static_cast<const uint8_t*>(sid);
  return core::win32::Sid(bytes, bytes + ::GetLengthSid(sid));
}

std::optional<core::win32::Sid> ProcessUser(DWORD pid) {
  HANDLE process = ::OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid);
  if (!process) return std::nullopt;
  HANDLE token = nullptr;
  std::optional<core::win32::Sid> user;
  if (::OpenProcessToken(process, TOKEN_QUERY, &token)) {
    DWORD size = 0;
    ::GetTokenInformation(token, TokenUser, nullptr, 0, &size);
    std::vector<uint8_t> buffer(size);
    if (size > 0 && ::GetTokenInformation(token, TokenUser, buffer.data(), size, &size))
      user = CopySid(reinterpret_cast<TOKEN_USER*>(buffer.data())->User.Sid);
    ::CloseHandle(token);
  }
  ::CloseHandle(process);
  return user;
}

std::optional<core::win32::Sid> PipeObjectOwner(HANDLE pipe) {
  PSID owner = nullptr;
  PSECURITY_DESCRIPTOR descriptor = nullptr;
  if (::GetSecurityInfo(pipe, SE_KERNEL_OBJECT, OWNER_SECURITY_INFORMATION, &owner, nullptr, nullptr, nullptr,
                        &descriptor) != ERROR_SUCCESS)
    return std::nullopt;
  std::optional<core::win32::Sid> sid = CopySid(owner);
  ::LocalFree(descriptor);
  return sid;
}

}  // namespace

std::optional<core::win32::Sid> PipeServerUser(void* pipe) {
  ULONG pid = 0;
  if (::GetNamedPipeServerProcessId(pipe, &pid) && pid != 0) {
    if (std::optional<core::win32::Sid> user = ProcessUser(pid)) return user;
  }
  return PipeObjectOwner(pipe);
}

std::optional<std::string> PipeOwnerMismatch(const std::optional<core::win32::Sid>& server,
                                             const core::win32::Sid& expected) {
  if (!server) return std::string("served by an unknown user");
  if (!expected.empty() && *server == expected) return std::nullopt;
  return "served by " + core::win32::SidToString(*server);
}

}  // namespace platformpp::ipc
