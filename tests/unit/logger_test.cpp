// Log sinks: callbacks only inside RunCallbacks, severity filters, the log file, and no secrets anywhere.
#include <platformpp/client.hpp>

#include "core/callback_queue.hpp"
#include "core/logger.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

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

TEST_CASE("SetLogDir writes a private file without secrets") {
  auto dir = std::filesystem::temp_directory_path() / ("platformpp-logtest-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  auto queue = std::make_shared<core::CallbackQueue>();
  {
    core::Logger logger(queue);
    logger.Secrets().AddSecret("verysecretvalue123");
    REQUIRE(logger.SetLogDir(dir.string(), LoggingSeverity::Verbose));
    logger.Verbose("Authorization: Bearer abcdefgh12345 and verysecretvalue123");
  }
  std::size_t files = 0;
  for (auto& entry : std::filesystem::directory_iterator(dir)) {
    ++files;
    auto perms = std::filesystem::status(entry.path()).permissions();
    CHECK((perms & std::filesystem::perms::others_read) == std::filesystem::perms::none);
    std::ifstream in(entry.path());
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
