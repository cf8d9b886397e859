// Log sinks: callbacks only inside RunCallbacks, severity filters, the log file, and no secrets anywhere.
#include <platformpp/client.hpp>

#include "core/callback_queue.hpp"
#include "core/logger.hpp"

#include <doctest/doctest.h>

#include "test_portability.hpp"

#ifdef _WIN32
#include "core/win32.hpp"

#include <aclapi.h>
#endif

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace logger_test {

using namespace platformpp;

TEST_CASE("log callbacks run inside RunCallbacks, filtered by severity") {
  auto queue = std::make_shared<core::CallbackQueue>();
  core::Logger logger(queue);
  std::vector<std::pair<std::string, LoggingSeverity>> got;
  CHECK_FALSE(logger.Enabled(LoggingSeverity::Error));  // nobody listens: callers skip formatting
  logger.AddCallback([&](const std::string& m, LoggingSeverity s) { got.emplace_back(m, s); },
                     LoggingSeverity::Info);
  CHECK_FALSE(logger.Enabled(LoggingSeverity::Verbose));
  CHECK(logger.Enabled(LoggingSeverity::Info));
  logger.Verbose("hidden");
  logger.Info("shown");
  logger.Error("also shown");
  CHECK(got.empty());
  queue->Drain();
  REQUIRE(got.size() == 2);
  CHECK(got[0].first == "shown");
  CHECK(got[1].second == LoggingSeverity::Error);
  queue->Shutdown();
}

#ifdef _WIN32
// The SIDs the allow ACEs of `path`'s DACL name.
std::vector<std::string> GrantedSids(const std::filesystem::path& path) {
  PACL dacl = nullptr;
  PSECURITY_DESCRIPTOR descriptor = nullptr;
  REQUIRE(::GetNamedSecurityInfoW(path.c_str(), SE_FILE_OBJECT, DACL_SECURITY_INFORMATION, nullptr, nullptr,
                                  &dacl, nullptr, &descriptor) == ERROR_SUCCESS);
  std::vector<std::string> sids;
  for (DWORD i = 0; dacl && i < dacl->AceCount; ++i) {
    void* ace = nullptr;
    REQUIRE(::GetAce(dacl, i, &ace));
    auto* allowed = static_cast<ACCESS_ALLOWED_ACE*>(ace);
    if (allowed->Header.AceType != ACCESS_ALLOWED_ACE_TYPE) continue;
    auto* sid = reinterpret_cast<uint8_t*>(&allowed->SidStart);
    sids.push_back(core::win32::SidToString(core::win32::Sid(sid, sid + ::GetLengthSid(sid))));
  }
  ::LocalFree(descriptor);
  return sids;
}
#endif

TEST_CASE("SetLogDir writes a private file without secrets") {
  auto dir = std::filesystem::temp_directory_path() /
             ("platformpp-logtest-" + std::to_string(platformpp_test::ProcessId()));
  std::filesystem::remove_all(dir);
  auto queue = std::make_shared<core::CallbackQueue>();
  {
    core::Logger logger(queue);
    logger.Secrets().AddSecret("verysecretvalue123");
    REQUIRE(logger.SetLogDir(dir.string(), LoggingSeverity::Verbose));
    logger.Verbose("Authorization: Bearer abcdefgh12345 and verysecretvalue123");
  }
  std::size_t files = 0;
  std::vector<std::filesystem::path> entries;
  for (auto& entry : std::filesystem::directory_iterator(dir))
    entries.push_back(entry.path());
  for (const std::filesystem::path& file : entries) {
    ++files;
#ifdef _WIN32
    // Permission bits say nothing on Windows: the DACL grants this user and nobody else (Wine, which keeps
    // files' security as Unix modes, reads back a DACL that also lists the system account).
    const std::vector<std::string> granted = GrantedSids(file);
    const auto me = core::win32::CurrentUserSid();
    REQUIRE(me);
    CHECK(std::count(granted.begin(), granted.end(), core::win32::SidToString(*me)) == 1);
    for (const std::string& sid : granted) {
      CAPTURE(sid);
      CHECK((sid == core::win32::SidToString(*me) || sid == "S-1-5-18"));
    }
    // Control: a file made without care is readable by others, so the check above can fail.
    std::ofstream(dir / "control.txt") << "x";
    CHECK(GrantedSids(dir / "control.txt").size() > granted.size());
    std::filesystem::remove(dir / "control.txt");
#else
    auto perms = std::filesystem::status(file).permissions();
    CHECK((perms & std::filesystem::perms::others_read) == std::filesystem::perms::none);
#endif
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    CHECK(text.str().find("[Verbose] Authorization: Bearer [redacted] and [redacted]") != std::string::npos);
    CHECK(text.str().find("abcdefgh12345") == std::string::npos);
    CHECK(text.str().find("verysecretvalue123") == std::string::npos);
  }
  CHECK(files == 1);
  std::filesystem::remove_all(dir);
  queue->Shutdown();
}

TEST_CASE("SetLogDir reports a directory it cannot use") {
  auto queue = std::make_shared<core::CallbackQueue>();
  core::Logger logger(queue);
  CHECK_FALSE(logger.SetLogDir("/proc/definitely/not/writable", LoggingSeverity::Info));
  CHECK(logger.SetLogDir("", LoggingSeverity::Info));
  queue->Shutdown();
}

}  // namespace logger_test
