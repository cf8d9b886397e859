#pragma once
// One emulator process for the whole integration test binary, seeded with an app, a user and a token. Each
// test leaves faults and rate limits as it found them (FaultScope).

#include <platformpp/client.hpp>
#include <platformpp/testkit/emulator.hpp>

#include <doctest/doctest.h>

#include "json/json.hpp"

#include <chrono>
#include <functional>
#include <memory>
#include <thread>

namespace itest {

struct Emulator {
  std::unique_ptr<platformpp::testkit::EmulatorProcess> process;
  std::unique_ptr<platformpp::testkit::EmulatorAdmin> admin;
  platformpp::testkit::EmulatorAdmin::App app;
  platformpp::testkit::EmulatorAdmin::User user;
  platformpp::testkit::EmulatorAdmin::Token token;

  platformpp::ClientOptions Options() const { return process->Connection().ClientOptionsFor(); }
};

inline Emulator& Shared() {
  static Emulator emulator = [] {
    Emulator e;
    platformpp::testkit::EmulatorProcess::Options options;
    options.binary = PLATFORMPP_EMULATOR_PATH;
    e.process = platformpp::testkit::EmulatorProcess::Start(options);
    e.admin = std::make_unique<platformpp::testkit::EmulatorAdmin>(e.process->Connection());
    e.app = e.admin->CreateApp("Integration Test Game");
    e.user = e.admin->CreateUser("itest_player", "Integration Player");
    e.token = e.admin->MintToken(e.user.id, e.app.id, "openid sdk.social_layer");
    return e;
  }();
  return emulator;
}

/// Clears faults and rate-limit settings when the test ends, pass or fail.
struct FaultScope {
  FaultScope() { Reset(); }
  ~FaultScope() { Reset(); }
  static void Reset() {
    Shared().admin->ClearFaults();
    Shared().admin->ResetRateLimits();
  }
};

/// Waits until every fault of limited count has been used up (the emulator drops a fault once its last
/// request matched it): the requests a test sent are on the server, held by their delays. True when they are.
inline bool WaitUntilFaultsTaken(std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto answer = Shared().admin->Request("GET", "/faults");
    platformpp::json::Document document;
    if (answer.status == 200 && platformpp::json::Parse(answer.body, document) && document.IsObject() &&
        document.HasMember("faults") && document["faults"].IsArray() && document["faults"].Empty()) {
      return true;
    }
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

/// Runs callbacks until `done()` or the timeout; true if done.
inline bool RunUntil(platformpp::Client& client, const std::function<bool()>& done,
                     std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    client.RunCallbacks();
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

/// A Client of `appId` signed in as `userId` (a token minted for it), Ready on the Gateway. Fails the test
/// when it does not get there.
inline std::unique_ptr<platformpp::Client> ReadyClient(uint64_t appId, uint64_t userId) {
  auto& e = Shared();
  const auto token = e.admin->MintToken(userId, appId, "openid sdk.social_layer").accessToken;
  auto client = std::make_unique<platformpp::Client>(e.Options());
  client->SetApplicationId(appId);
  bool updated = false;
  client->UpdateToken(platformpp::AuthorizationTokenType::Bearer, token,
                      [&](const platformpp::ClientResult& result) { updated = result.Successful(); });
  REQUIRE(RunUntil(*client, [&] { return updated; }));
  client->Connect();
  REQUIRE(RunUntil(
      *client, [&] { return client->GetStatus() == platformpp::Client::Status::Ready; },
      std::chrono::seconds(20)));
  return client;
}

struct FetchOutcome {
  bool done = false;
  platformpp::ClientResult result;
  uint64_t id = 0;
  std::string name;
  std::chrono::steady_clock::time_point at;
};

/// FetchCurrentUser, waited for.
inline FetchOutcome Fetch(
    platformpp::Client& client, const std::string& token,
    platformpp::AuthorizationTokenType type = platformpp::AuthorizationTokenType::Bearer) {
  auto outcome = std::make_shared<FetchOutcome>();
  client.FetchCurrentUser(type, token, [outcome](platformpp::ClientResult r, uint64_t id, std::string name) {
    outcome->done = true;
    outcome->result = std::move(r);
    outcome->id = id;
    outcome->name = std::move(name);
    outcome->at = std::chrono::steady_clock::now();
  });
  RunUntil(
      client, [&] { return outcome->done; }, std::chrono::seconds(30));
  return *outcome;
}

inline double SecondsSince(std::chrono::steady_clock::time_point start,
                           std::chrono::steady_clock::time_point end) {
  return std::chrono::duration<double>(end - start).count();
}

}  // namespace itest
