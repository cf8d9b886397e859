#include "core/win32.hpp"

#include <windows.h>

#include <sddl.h>

namespace platformpp::core::win32 {

std::wstring Widen(std::string_view utf8) {
  if (utf8.empty()) return {};
  const int size = static_cast<int>(utf8.size());
  int length = ::MultiByteToWideChar(CP_UTF8, 0, utf8.data(), size, nullptr, 0);
  if (length <= 0) return {};
  std::wstring out(static_cast<std::size_t>(length), L'\0');
  ::MultiByteToWideChar(CP_UTF8, 0, utf8.data(), size, out.data(), length);
  return out;
}

std::string Narrow(std::wstring_view utf16) {
  if (utf16.empty()) return {};
  const int size = static_cast<int>(utf16.size());
  int length = ::WideCharToMultiByte(CP_UTF8, 0, utf16.data(), size, nullptr, 0, nullptr, nullptr);
  if (length <= 0) return {};
  std::string out(static_cast<std::size_t>(length), '\0');
  ::WideCharToMultiByte(CP_UTF8, 0, utf16.data(), size, out.data(), length, nullptr, nullptr);
  return out;
}

std::string ErrorText(uint32_t code) {
  wchar_t* text = nullptr;
  DWORD length = ::FormatMessageW(
      FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr,
      code, 0, reinterpret_cast<wchar_t*>(&text), 0, nullptr);
  std::string out;
  if (length > 0 && text) {
    out = Narrow(std::wstring_view(text, length));
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r' || out.back() == ' '))
      out.pop_back();
  }
  if (text) ::LocalFree(text);
  if (out.empty()) out = "Windows error";
  return out + " (" + std::to_string(code) + ")";
}

std::optional<Sid> CurrentUserSid() {
  HANDLE token = nullptr;
  if (!::OpenProcessToken(::GetCurrentProcess(), TOKEN_QUERY, &token)) return std::nullopt;
  DWORD size = 0;
  ::GetTokenInformation(token, TokenUser, nullptr, 0, &size);
  std::vector<uint8_t> buffer(size);
  std::optional<Sid> sid;
  if (size > 0 && ::GetTokenInformation(token, TokenUser, buffer.data(), size, &size)) {
    PSID user = reinterpret_cast<TOKEN_USER*>(buffer.data())->User.Sid;
    if (::IsValidSid(user)) {
      const auto* bytes = static_cast<const uint8_t*>(user);
      sid = Sid(bytes, bytes + ::GetLengthSid(user));
    }
  }
  ::CloseHandle(token);
  return sid;
}

std::optional<Sid> SidFromString(std::string_view text) {
  PSID sid = nullptr;
  if (!::ConvertStringSidToSidW(Widen(text).c_str(), &sid)) return std::nullopt;
  const auto* bytes = static_cast<const uint8_t*>(sid);
  Sid out(bytes, bytes + ::GetLengthSid(sid));
  ::LocalFree(sid);
  return out;
}

std::string SidToString(const Sid& sid) {
  if (sid.empty()) return {};
  auto* raw = const_cast<uint8_t*>(sid.data());  // the API takes a non-const PSID but only reads it
  if (!::IsValidSid(raw)) return {};
  wchar_t* text = nullptr;
  if (!::ConvertSidToStringSidW(raw, &text)) return {};
  std::string out = Narrow(text);
  ::LocalFree(text);
  return out;
}

std::wstring QuoteArgument(std::string_view arg) {
  std::wstring quoted = L"\"";
  std::size_t backslashes = 0;
  for (const wchar_t c : Widen(arg)) {
    if (c == L'\\') {
      ++backslashes;
      continue;
    }
    quoted.append(c == L'"' ? backslashes * 2 + 1 : backslashes, L'\\');
    backslashes = 0;
    quoted += c;
  }
  quoted.append(backslashes * 2, L'\\');
  return quoted + L"\"";
}

}  // namespace platformpp::core::win32
