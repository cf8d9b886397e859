// Windows only (see win32_security.hpp); empty elsewhere.
#ifdef _WIN32

#include "core/win32_security.hpp"

#include <string>
#include <system_error>

namespace platformpp::emulator {

namespace {

[[noreturn]] void throw_last_error(const char* what) {
  throw std::system_error(static_cast<int>(::GetLastError()), std::system_category(), what);
}

}  // namespace

UserOnlySecurity::UserOnlySecurity() {
  HANDLE token = nullptr;
  if (::OpenProcessToken(::GetCurrentProcess(), TOKEN_QUERY, &token) == 0)
    throw_last_error("OpenProcessToken");
  DWORD size = 0;
  ::GetTokenInformation(token, TokenUser, nullptr, 0, &size);  // fails with the size needed
  token_user_.resize(size);
  const BOOL read = ::GetTokenInformation(token, TokenUser, token_user_.data(), size, &size);
  ::CloseHandle(token);
  if (read == 0) throw_last_error("GetTokenInformation(TokenUser)");
  PSID user = reinterpret_cast<TOKEN_USER*>(token_user_.data())->User.Sid;

  // One ACE: the ACL header, the ACE without its placeholder SidStart word, the SID.
  const DWORD acl_size = sizeof(ACL) + sizeof(ACCESS_ALLOWED_ACE) - sizeof(DWORD) + ::GetLengthSid(user);
  acl_.resize(acl_size);
  auto* acl = reinterpret_cast<ACL*>(acl_.data());
  if (::InitializeAcl(acl, acl_size, ACL_REVISION) == 0) throw_last_error("InitializeAcl");
  if (::AddAccessAllowedAce(acl, ACL_REVISION, FILE_ALL_ACCESS, user) == 0)
    throw_last_error("AddAccessAllowedAce");
  if (::InitializeSecurityDescriptor(&descriptor_, SECURITY_DESCRIPTOR_REVISION) == 0)
    throw_last_error("InitializeSecurityDescriptor");
  if (::SetSecurityDescriptorOwner(&descriptor_, user, FALSE) == 0)
    throw_last_error("SetSecurityDescriptorOwner");
  if (::SetSecurityDescriptorDacl(&descriptor_, TRUE, acl, FALSE) == 0)
    throw_last_error("SetSecurityDescriptorDacl");
  // Protected: the parent's inheritable entries (e.g. Users: read in a shared directory) are not added.
  if (::SetSecurityDescriptorControl(&descriptor_, SE_DACL_PROTECTED, SE_DACL_PROTECTED) == 0)
    throw_last_error("SetSecurityDescriptorControl");
  attributes_.nLength = sizeof(attributes_);
  attributes_.lpSecurityDescriptor = &descriptor_;
  attributes_.bInheritHandle = FALSE;
}

std::wstring widen(std::string_view utf8) {
  if (utf8.empty()) return {};
  const int length =
      ::MultiByteToWideChar(CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()), nullptr, 0);
  std::wstring wide(static_cast<std::size_t>(length), L'\0');
  ::MultiByteToWideChar(CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()), wide.data(), length);
  return wide;
}

std::string narrow(std::wstring_view utf16) {
  if (utf16.empty()) return {};
  const int length = ::WideCharToMultiByte(CP_UTF8, 0, utf16.data(), static_cast<int>(utf16.size()), nullptr,
                                           0, nullptr, nullptr);
  std::string text(static_cast<std::size_t>(length), '\0');
  ::WideCharToMultiByte(CP_UTF8, 0, utf16.data(), static_cast<int>(utf16.size()), text.data(), length,
                        nullptr, nullptr);
  return text;
}

std::string win32_error_message(unsigned long code) {
  wchar_t* text = nullptr;
  const DWORD length = ::FormatMessageW(
      FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr,
      code, 0, reinterpret_cast<wchar_t*>(&text), 0, nullptr);
  std::wstring message(text != nullptr ? text : L"", length);
  ::LocalFree(text);
  while (!message.empty() && (message.back() == L'\n' || message.back() == L'\r' || message.back() == L'.'))
    message.pop_back();
  if (message.empty()) return "Windows error " + std::to_string(code);
  return narrow(message);
}

}  // namespace platformpp::emulator

#endif  // _WIN32
