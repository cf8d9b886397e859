#include "presence/launch_command.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>

#ifdef _WIN32
#include "core/win32.hpp"

#include <windows.h>
#endif

namespace platformpp::presence {

#ifdef _WIN32
namespace {

bool SetString(HKEY key, const wchar_t* name, const std::wstring& value) {
  return ::RegSetValueExW(key, name, 0, REG_SZ, reinterpret_cast<const BYTE*>(value.c_str()),
                          static_cast<DWORD>((value.size() + 1) * sizeof(wchar_t))) == ERROR_SUCCESS;
}

}  // namespace

// Windows: the URL scheme is a key of the user's classes (no administrator rights needed), which the shell
// looks up when the desktop client opens discord-<applicationId>://.
bool RegisterLaunchCommand(uint64_t applicationId, const std::string& command, std::string* error,
                           const EnvLookup& env) {
  static_cast<void>(env);
  auto fail = [error](std::string why) {
    if (error) *error = std::move(why);
    return false;
  };
  if (applicationId == 0) return fail("the application id must not be 0");
  if (command.find_first_not_of(" \t") == std::string::npos) return fail("the command must not be empty");
  if (command.find_first_of("\r\n") != std::string::npos) return fail("the command must be one line");
  const std::wstring id = std::to_wstring(applicationId);
  const std::wstring path = L"Software\\Classes\\discord-" + id;
  HKEY scheme = nullptr;
  LSTATUS status =
      ::RegCreateKeyExW(HKEY_CURRENT_USER, path.c_str(), 0, nullptr, 0, KEY_WRITE, nullptr, &scheme, nullptr);
  if (status != ERROR_SUCCESS)
    return fail("cannot create HKEY_CURRENT_USER\\" + core::win32::Narrow(path) + ": " +
                core::win32::ErrorText(static_cast<uint32_t>(status)));
  HKEY open = nullptr;
  bool ok = SetString(scheme, nullptr, L"URL:Run game " + id + L" protocol") &&
            // std::wstring(), not L"": GCC 12 warns (-Warray-bounds) on MinGW's inline wmemcpy of a one-char
            // literal, a false positive that -Werror turns into a build failure.
            SetString(scheme, L"URL Protocol", std::wstring()) &&
            ::RegCreateKeyExW(scheme, L"shell\\open\\command", 0, nullptr, 0, KEY_WRITE, nullptr, &open,
                              nullptr) == ERROR_SUCCESS &&
            SetString(open, nullptr, core::win32::Widen(command) + L" \"%1\"");
  if (open) ::RegCloseKey(open);
  ::RegCloseKey(scheme);
  if (!ok) return fail("cannot write HKEY_CURRENT_USER\\" + core::win32::Narrow(path));
  return true;
}

std::string SteamLaunchCommand(uint32_t steamAppId) {
  // The shell hands steam:// to Steam, wherever it is installed.
  return "explorer.exe steam://rungameid/" + std::to_string(steamAppId);
}

#else
namespace {

namespace fs = std::filesystem;

std::optional<std::string> Lookup(const EnvLookup& env, const std::string& name) {
  if (env) return env(name);
  const char* value = std::getenv(name.c_str());
  if (!value) return std::nullopt;
  return std::string(value);
}

// $<variable> when set to an absolute path (the XDG spec ignores relative ones), else $HOME/<fallback>.
std::optional<fs::path> XdgDirectory(const EnvLookup& env, const char* variable, const char* fallback) {
  if (auto value = Lookup(env, variable); value && !value->empty() && (*value)[0] == '/')
    return fs::path(*value);
  auto home = Lookup(env, "HOME");
  if (!home || home->empty()) return std::nullopt;
  return fs::path(*home) / fallback;
}

// Writes next to `path` and renames over it, so a reader never sees half a file.
bool WriteFileAtomically(const fs::path& path, const std::string& content, std::string* error) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) {
    if (error) *error = "cannot create " + path.parent_path().string() + ": " + ec.message();
    return false;
  }
  fs::path temporary = path;
  temporary += ".platformpp-tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << content;
    out.flush();
    if (!out) {
      if (error) *error = "cannot write " + temporary.string();
      fs::remove(temporary, ec);
      return false;
    }
  }
  fs::rename(temporary, path, ec);
  if (ec) {
    if (error) *error = "cannot replace " + path.string() + ": " + ec.message();
    fs::remove(temporary, ec);
    return false;
  }
  return true;
}

// The Exec value: desktop entry strings escape '\' as "\\", and Exec escapes a literal '%' as "%%".
std::string EscapeExec(const std::string& command) {
  std::string out;
  for (char c : command) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '%') {
      out += "%%";
    } else {
      out += c;
    }
  }
  return out;
}

std::string Trim(const std::string& text) {
  std::size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return std::string();
  std::size_t end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

// `mimeapps` with `key=value` in [Default Applications]: replaced where it is, else added at the end of that
// group, else in a new group at the end. Every other line stays as it was.
std::string SetDefaultApplication(const std::string& mimeapps, const std::string& key,
                                  const std::string& value) {
  std::vector<std::string> lines;
  {
    std::istringstream in(mimeapps);
    std::string line;
    while (std::getline(in, line))
      lines.push_back(line);
  }
  const std::string entry = key + "=" + value;
  const std::string group = "[Default Applications]";
  bool inGroup = false;
  std::optional<std::size_t> groupEnd;  // where to insert into the group
  bool done = false;
  for (std::size_t i = 0; i < lines.size() && !done; ++i) {
    std::string trimmed = Trim(lines[i]);
    if (!trimmed.empty() && trimmed.front() == '[') {
      if (inGroup) break;  // the group ended without the key
      inGroup = trimmed == group;
      if (inGroup) groupEnd = i + 1;
      continue;
    }
    if (!inGroup) continue;
    std::size_t eq = trimmed.find('=');
    if (eq != std::string::npos && Trim(trimmed.substr(0, eq)) == key) {
      lines[i] = entry;
      done = true;
    } else if (!trimmed.empty()) {
      groupEnd = i + 1;
    }
  }
  if (!done) {
    if (groupEnd) {
      lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(*groupEnd), entry);
    } else {
      if (!lines.empty() && !Trim(lines.back()).empty()) lines.emplace_back();
      lines.push_back(group);
      lines.push_back(entry);
    }
  }
  std::string out;
  for (const auto& line : lines)
    out += line + "\n";
  return out;
}

}  // namespace

bool RegisterLaunchCommand(uint64_t applicationId, const std::string& command, std::string* error,
                           const EnvLookup& env) {
  auto fail = [error](std::string why) {
    if (error) *error = std::move(why);
    return false;
  };
  if (applicationId == 0) return fail("the application id must not be 0");
  if (Trim(command).empty()) return fail("the command must not be empty");
  if (command.find_first_of("\r\n") != std::string::npos) return fail("the command must be one line");
  auto dataHome = XdgDirectory(env, "XDG_DATA_HOME", ".local/share");
  auto configHome = XdgDirectory(env, "XDG_CONFIG_HOME", ".config");
  if (!dataHome || !configHome) return fail("neither XDG_DATA_HOME/XDG_CONFIG_HOME nor HOME is set");

  const std::string name = "discord-" + std::to_string(applicationId);
  const std::string scheme = "x-scheme-handler/" + name;
  std::string desktop =
      "[Desktop Entry]\n"
      "Type=Application\n"
      "Name=Game " +
      std::to_string(applicationId) +
      "\n"
      "NoDisplay=true\n"
      "Exec=" +
      EscapeExec(command) +
      " %u\n"
      "MimeType=" +
      scheme + ";\n";
  if (!WriteFileAtomically(*dataHome / "applications" / (name + ".desktop"), desktop, error)) return false;

  fs::path mimeappsPath = *configHome / "mimeapps.list";
  std::string existing;
  std::error_code ec;
  if (fs::exists(mimeappsPath, ec)) {
    std::ifstream in(mimeappsPath, std::ios::binary);
    if (!in) return fail("cannot read " + mimeappsPath.string());
    std::ostringstream content;
    content << in.rdbuf();
    existing = content.str();
  }
  return WriteFileAtomically(mimeappsPath, SetDefaultApplication(existing, scheme, name + ".desktop"), error);
}

std::string SteamLaunchCommand(uint32_t steamAppId) {
  return "xdg-open steam://rungameid/" + std::to_string(steamAppId);
}
#endif

}  // namespace platformpp::presence
