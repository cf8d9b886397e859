// Client create/destroy and the threading contract, without sockets.
#include <platformpp/client.hpp>
#include <platformpp/io_context.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <thread>
#include <vector>

#ifdef _WIN32
#include "test_portability.hpp"  // <windows.h>

#include <tlhelp32.h>
#endif

namespace client_lifecycle_test {

using namespace platformpp;

namespace {
#ifdef _WIN32
// This process's threads in a snapshot of the system's.
std::size_t ThreadCount() {
  HANDLE snapshot = ::CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0);
  REQUIRE(snapshot != INVALID_HANDLE_VALUE);
  std::size_t n = 0;
  THREADENTRY32 entry{};
  entry.dwSize = sizeof entry;
  for (BOOL more = ::Thread32First(snapshot, &entry); more; more = ::Thread32Next(snapshot, &entry)) {
    if (entry.th32OwnerProcessID == ::GetCurrentProcessId()) ++n;
  }
  ::CloseHandle(snapshot);
  return n;
}
#else
std::size_t ThreadCount() {
  std::size_t n = 0;
  for ([[maybe_unused]] auto& entry : std::filesystem::directory_iterator("/proc/self/task"))
    ++n;
  return n;
}
#endif

// pthread_join returns when the thread has finished, a moment before the kernel drops it from
// /proc/self/task: wait up to 2 s for the count to settle. A leaked thread never does.
std::size_t SettledThreadCount(std::size_t expected) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  std::size_t n = ThreadCount();
  while (n != expected && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    n = ThreadCount();
  }
  return n;
}
}  // namespace

TEST_CASE("1,000 Clients created and destroyed leave no thread behind") {
  std::size_t before = ThreadCount();
  for (int i = 0; i < 1000; ++i) {
    Client client;
    client.SetApplicationId(static_cast<uint64_t>(i));
    client.RunCallbacks();
  }
  CHECK(SettledThreadCount(before) == before);
}

// On Windows, Asio runs one thread of its own per io_context once it has timers (it waits on a waitable timer
// for the completion port): one for the shared context, whatever the number of Clients.
#ifdef _WIN32
constexpr std::size_t kTimerThreads = 1;
#else
constexpr std::size_t kTimerThreads = 0;
#endif

TEST_CASE("Clients sharing an IoContext use its threads, not their own") {
  std::size_t before = SettledThreadCount(ThreadCount());
  {
    auto io = std::make_shared<IoContext>(2);
    CHECK(SettledThreadCount(before + 2) == before + 2);
    std::vector<std::unique_ptr<Client>> clients;
    for (int i = 0; i < 50; ++i) {
      ClientOptions options;
      options.ioContext = io;
      clients.push_back(std::make_unique<Client>(options));
    }
    CHECK(SettledThreadCount(before + 2 + kTimerThreads) == before + 2 + kTimerThreads);
    clients.clear();
  }
  CHECK(SettledThreadCount(before) == before);
}

TEST_CASE("validation failures are reported inside RunCallbacks, not from the call") {
  Client client;
  int calls = 0;
  client.FetchCurrentUser(AuthorizationTokenType::Bearer, "",
                          [&](const ClientResult& result, uint64_t, const std::string&) {
                            ++calls;
                            CHECK(result.Type() == ErrorType::ValidationError);
                            CHECK(result.Error().find("token") != std::string::npos);
                          });
  CHECK(calls == 0);
  client.RunCallbacks();
  CHECK(calls == 1);
  client.RunCallbacks();
  CHECK(calls == 1);
}

TEST_CASE("a callback may destroy the Client: later operations end as ClientDestroyed, nothing after") {
  auto client = std::make_unique<Client>();
  std::vector<ErrorType> results;
  client->FetchCurrentUser(AuthorizationTokenType::Bearer, "",
                           [&](const ClientResult& r, uint64_t, const std::string&) {
                             results.push_back(r.Type());
                             client.reset();  // destroy from inside RunCallbacks
                           });
  client->FetchCurrentUser(
      AuthorizationTokenType::Bearer, "",
      [&](const ClientResult& r, uint64_t, const std::string&) { results.push_back(r.Type()); });
  client->RunCallbacks();
  REQUIRE(results.size() == 2);
  CHECK(results[0] == ErrorType::ValidationError);
  CHECK(results[1] == ErrorType::ClientDestroyed);
}

TEST_CASE("destroying a Client completes queued operations inside the destructor") {
  std::vector<ErrorType> results;
  {
    Client client;
    for (int i = 0; i < 3; ++i) {
      client.FetchCurrentUser(
          AuthorizationTokenType::Bearer, "",
          [&](const ClientResult& r, uint64_t, const std::string&) { results.push_back(r.Type()); });
    }
    CHECK(results.empty());
  }
  REQUIRE(results.size() == 3);
  for (ErrorType type : results)
    CHECK(type == ErrorType::ClientDestroyed);
}

TEST_CASE("HTTP timeout setting") {
  Client client;
  CHECK(client.GetHttpRequestTimeout() == 30000);
  client.SetHttpRequestTimeout(500);
  CHECK(client.GetHttpRequestTimeout() == 500);
  client.SetHttpRequestTimeout(0);  // refused
  CHECK(client.GetHttpRequestTimeout() == 500);
}

TEST_CASE("a moved Client keeps working; the moved-from one is empty") {
  Client a;
  a.SetApplicationId(42);
  Client b(std::move(a));
  CHECK_FALSE(static_cast<bool>(a));  // NOLINT(bugprone-use-after-move): what a moved-from Client is, tested
  CHECK(b.GetApplicationId() == 42);
}

TEST_CASE("version and scopes") {
  CHECK(Client::GetVersionMajor() >= 0);
  CHECK(Client::GetDefaultCommunicationScopes() == "openid sdk.social_layer");
  CHECK(Client::GetDefaultPresenceScopes() == "openid sdk.social_layer_presence");
  CHECK(Client::StatusToString(Client::Status::HttpWait) == "HttpWait");
  CHECK(static_cast<int>(Client::Status::HttpWait) == 6);
  CHECK(static_cast<int>(ErrorType::RPCError) == 9);
  CHECK(static_cast<int>(LoggingSeverity::None) == 5);
}

}  // namespace client_lifecycle_test
