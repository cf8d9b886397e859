// The public API from several threads at once (docs/architecture.md, "Threads"): methods called from other
// threads while the game thread runs callbacks are allowed, and every callback still runs once, on the thread
// inside RunCallbacks; a second thread calling RunCallbacks or WaitForCallbacks while one is inside is
// refused with an error in the log. Under TSan (label threading) these are the races it would report.
#include "emulator_fixture.hpp"

#include <platformpp/activity.hpp>
#include <platformpp/client.hpp>
#include <platformpp/logging.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace client_threads_test {

namespace {

using platformpp::Client;
using platformpp::ClientResult;
using namespace std::chrono_literals;

/// A Ready Client of an application of its own: its lobby messages do not count against the shared one's
/// social rate limits (100 per 2 hours).
std::unique_ptr<Client> ReadyClient(const std::string& name) {
  auto& e = itest::Shared();
  const auto app = e.admin->CreateApp(name + " game");
  return itest::ReadyClient(app.id, e.admin->CreateUser(name).id);
}

platformpp::Activity Playing(int round) {
  platformpp::Activity activity;
  activity.SetName("Integration Test Game");
  activity.SetType(platformpp::ActivityTypes::Playing);
  activity.SetState("round " + std::to_string(round));
  return activity;
}

/// Counts each operation's ends and where they ran: each must end once, on the thread in RunCallbacks.
struct Ends {
  explicit Ends(std::size_t operations) : counts(operations) {}
  std::vector<std::atomic<int>> counts;
  std::atomic<int> ended{0};
  std::atomic<int> offThread{0};
  std::thread::id gameThread = std::this_thread::get_id();

  void End(std::size_t operation) {
    if (std::this_thread::get_id() != gameThread) ++offThread;
    ++counts[operation];
    ++ended;
  }
};

}  // namespace

TEST_CASE(
    "methods called from two other threads while the game thread runs callbacks: each ends once, there") {
  auto client = ReadyClient("threads_methods");
  std::optional<uint64_t> lobby;
  client->CreateOrJoinLobby("threads-lobby", [&](const ClientResult& result, uint64_t id) {
    REQUIRE(result.Successful());
    lobby = id;
  });
  REQUIRE(itest::RunUntil(*client, [&] { return lobby.has_value(); }));

  // Per worker: a lobby message, a history read and a presence update per round, and store reads and handler
  // replacements in between (the handlers run on the game thread while the workers replace them).
  constexpr int kRounds = 20;
  constexpr int kOperationsPerRound = 3;
  constexpr int kWorkers = 2;
  Ends ends(static_cast<std::size_t>(kWorkers * kRounds * kOperationsPerRound));
  std::atomic<int> created{0};
  std::atomic<bool> workersDone{false};
  std::vector<std::thread> workers;
  workers.reserve(kWorkers);
  for (int w = 0; w < kWorkers; ++w) {
    workers.emplace_back([&, w] {
      for (int round = 0; round < kRounds; ++round) {
        const std::size_t base =
            (static_cast<std::size_t>(w) * kRounds + static_cast<std::size_t>(round)) * kOperationsPerRound;
        client->SendLobbyMessage(*lobby, "w" + std::to_string(w) + " r" + std::to_string(round),
                                 [&ends, base](const ClientResult&, uint64_t) { ends.End(base); });
        client->GetLobbyMessagesWithLimit(*lobby, 10,
                                          [&ends, base](const ClientResult&, auto) { ends.End(base + 1); });
        client->UpdateRichPresence(Playing(round),
                                   [&ends, base](const ClientResult&) { ends.End(base + 2); });
        client->SetMessageCreatedCallback([&created](uint64_t) { ++created; });
        CHECK(client->GetLobbyHandle(*lobby).has_value());
        (void)client->GetRelationships();
        (void)client->GetStatus();
        std::this_thread::sleep_for(2ms);
      }
    });
  }
  std::thread joiner([&] {
    for (auto& worker : workers)
      worker.join();
    workersDone = true;
  });
  const int total = static_cast<int>(ends.counts.size());
  const bool allEnded = itest::RunUntil(
      *client, [&] { return workersDone && ends.ended.load() >= total; }, 60s);
  joiner.join();
  CHECK(allEnded);
  CHECK(ends.offThread.load() == 0);
  for (std::size_t i = 0; i < ends.counts.size(); ++i) {
    INFO("operation " << i);
    CHECK(ends.counts[i].load() == 1);
  }
  // The messages the workers sent came back as MESSAGE_CREATE, to whichever handler was registered then.
  CHECK(itest::RunUntil(*client, [&] { return created.load() > 0; }));
}

TEST_CASE(
    "RunCallbacks and WaitForCallbacks on a second thread while one is inside are refused with an error") {
  auto client = ReadyClient("threads_refused");
  std::mutex linesMutex;
  std::vector<std::string> errors;
  client->AddLogCallback(
      [&](std::string message, platformpp::LoggingSeverity) {
        std::lock_guard lock(linesMutex);
        errors.push_back(std::move(message));
      },
      platformpp::LoggingSeverity::Error);

  // Two operations; the first's callback, on this thread inside RunCallbacks, has a second thread call both
  // while the second operation's result waits in the queue: neither may run it there.
  const auto gameThread = std::this_thread::get_id();
  std::atomic<int> ranElsewhere{0};
  std::atomic<int> secondEnded{0};
  bool firstEnded = false;
  bool waitAnswered = true;
  std::chrono::steady_clock::duration secondThreadTook{};
  client->UpdateRichPresence(Playing(1), [&](const ClientResult&) {
    firstEnded = true;
    std::thread second([&] {
      const auto start = std::chrono::steady_clock::now();
      client->RunCallbacks();
      waitAnswered = client->WaitForCallbacks(1000);
      secondThreadTook = std::chrono::steady_clock::now() - start;
    });
    second.join();
  });
  client->UpdateRichPresence(Playing(2), [&](const ClientResult&) {
    if (std::this_thread::get_id() != gameThread) ++ranElsewhere;
    ++secondEnded;
  });
  REQUIRE(itest::RunUntil(*client, [&] { return firstEnded && secondEnded.load() == 1; }));
  CHECK_FALSE(waitAnswered);  // refused at once rather than waiting its second
  CHECK(secondThreadTook < 500ms);
  CHECK(ranElsewhere.load() == 0);
  // The refusals' log line is delivered by the next RunCallbacks, here.
  CHECK(itest::RunUntil(*client, [&] {
    std::lock_guard lock(linesMutex);
    return !errors.empty();
  }));
  {
    std::lock_guard lock(linesMutex);
    REQUIRE_FALSE(errors.empty());
    CHECK(errors.front().find("RunCallbacks was called while another thread was inside") !=
          std::string::npos);
  }

  // Taking turns is allowed: once this thread is out, another thread's RunCallbacks delivers.
  std::atomic<bool> handedOver{false};
  std::thread other([&] {
    bool ended = false;
    client->UpdateRichPresence(Playing(3), [&](const ClientResult&) { ended = true; });
    handedOver = itest::RunUntil(*client, [&] { return ended; });
  });
  other.join();
  CHECK(handedOver.load());
}

}  // namespace client_threads_test
