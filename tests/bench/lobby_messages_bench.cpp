// 50 Clients in one lobby, all on one shared IoContext (one network thread) in one process, against the
// emulator; one of them sends 2,000 lobby messages, each as soon as the previous one was accepted. A load
// test: the emulator's Social SDK development limits (100 messages per 2 hours) and the platform's HTTP
// limits (50 requests per second per route and globally, which the SDK honours by pacing) are lifted, so that
// what is measured is delivery, not the limits. Prints the delivery latency (from the SendLobbyMessage call
// to the MessageCreated callback of each of the 49 other members, callbacks drained by a game loop over all
// 50 Clients), its p50 and p99, messages per second, and how many deliveries were lost or duplicated (both
// must be 0: the benchmark fails otherwise). Target: p99 <= 10 ms on loopback. The bare baseline, in the same
// run and lobby: the same one-at-a-time messages sent as bare HTTPS POSTs and read off a bare Gateway session
// of another member (OpenSSL and blocking sockets, no SDK: bare_gateway.hpp), from the send to the dispatch
// read; the headline is the SDK's latency to one member (the first receiver) over it, medians of the same
// run.
#include <platformpp/client.hpp>
#include <platformpp/io_context.hpp>
#include <platformpp/testkit/emulator.hpp>

#include "bare_gateway.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench_mode.hpp"

using Clock = std::chrono::steady_clock;

namespace {

const int kClients = platformpp::bench::Sized(50, 10);
const int kMessages = platformpp::bench::Sized(2000, 200);
constexpr double kTargetP99Ms = 10.0;
const int kBareMessages = platformpp::bench::Sized(500, 100);

double Percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  auto index = static_cast<size_t>(p * static_cast<double>(values.size() - 1));
  return values[index];
}

struct Receiver {
  std::unique_ptr<platformpp::Client> client;
  uint64_t userId = 0;
  std::string token;
  std::vector<int> received;  // per sequence number: how many times it arrived
  int outOfOrder = 0;
  int lastSeq = -1;
};

}  // namespace

int main(int argc, char** argv) {
  try {
    platformpp::testkit::EmulatorProcess::Options options;
    if (argc > 1) options.binary = argv[1];
    options.ipc = false;
    options.extraArguments = {"--no-social-rate-limits"};
    auto emulator = platformpp::testkit::EmulatorProcess::Start(options);
    const auto& info = emulator->Connection();
    platformpp::testkit::EmulatorAdmin admin(info);
    auto app = admin.CreateApp("Lobby bench");
    admin.SetGlobalRateLimit(0);
    admin.SetRateLimit("POST /lobbies/{lobby_id}/messages", 1000000, std::chrono::milliseconds(1000));

    auto io = std::make_shared<platformpp::IoContext>(1);
    std::vector<Receiver> clients(kClients);
    for (int i = 0; i < kClients; ++i) {
      auto user = admin.CreateUser("bench_player_" + std::to_string(i));
      auto token = admin.MintToken(user.id, app.id, "openid sdk.social_layer");
      platformpp::ClientOptions clientOptions;
      clientOptions.apiBase = info.apiBase;
      clientOptions.caFile = info.caFile;
      clientOptions.ioContext = io;
      clientOptions.ipcEnabled = false;
      auto& r = clients[static_cast<size_t>(i)];
      r.client = std::make_unique<platformpp::Client>(std::move(clientOptions));
      r.userId = user.id;
      r.token = token.accessToken;
      r.received.assign(kMessages, 0);
      r.client->SetApplicationId(app.id);
      r.client->UpdateToken(platformpp::AuthorizationTokenType::Bearer, token.accessToken, [](auto) {});
      r.client->Connect();
    }
    auto pumpAll = [&] {
      for (auto& r : clients)
        r.client->RunCallbacks();
    };
    auto pumpUntil = [&](auto done, std::chrono::seconds limit) {
      auto deadline = Clock::now() + limit;
      while (!done()) {
        if (Clock::now() > deadline) throw std::runtime_error("timed out");
        pumpAll();
        std::this_thread::yield();
      }
    };
    pumpUntil(
        [&] {
          return std::all_of(clients.begin(), clients.end(), [](const Receiver& r) {
            return r.client->GetStatus() == platformpp::Client::Status::Ready;
          });
        },
        std::chrono::seconds(60));

    // Everyone joins the lobby by its secret.
    uint64_t lobbyId = 0;
    int joined = 0;
    for (auto& r : clients)
      r.client->CreateOrJoinLobby("bench-lobby", [&](const platformpp::ClientResult& result, uint64_t id) {
        if (!result.Successful())
          std::fprintf(stderr, "join failed: %s\n", result.Error().c_str());
        else
          lobbyId = id;
        ++joined;
      });
    pumpUntil([&] { return joined == kClients; }, std::chrono::seconds(60));
    if (lobbyId == 0) throw std::runtime_error("no lobby");
    auto& sender = clients[0];
    pumpUntil(
        [&] {
          auto lobby = sender.client->GetLobbyHandle(lobbyId);
          return lobby && lobby->LobbyMembers().size() == static_cast<size_t>(kClients);
        },
        std::chrono::seconds(60));

    std::vector<Clock::time_point> sentAt(kMessages);
    std::vector<double> latenciesMs, firstReceiverMs;
    latenciesMs.reserve(static_cast<size_t>(kMessages) * (kClients - 1));
    for (size_t i = 1; i < clients.size(); ++i) {
      auto* r = &clients[i];
      r->client->SetMessageCreatedCallback([&, r](uint64_t messageId) {
        auto now = Clock::now();
        auto message = r->client->GetMessageHandle(messageId);
        if (!message) return;
        if (message->Content().rfind("msg ", 0) != 0) return;  // the baseline's messages are not counted
        int seq = std::atoi(message->Content().c_str() + 4);   // "msg <seq>"
        if (seq < 0 || seq >= kMessages) return;
        if (++r->received[static_cast<size_t>(seq)] == 1) {
          const double ms =
              std::chrono::duration<double, std::milli>(now - sentAt[static_cast<size_t>(seq)]).count();
          latenciesMs.push_back(ms);
          if (r == &clients[1]) firstReceiverMs.push_back(ms);
        }
        if (seq < r->lastSeq) ++r->outOfOrder;
        r->lastSeq = seq;
      });
    }

    int accepted = 0, failed = 0;
    const auto start = Clock::now();
    for (int seq = 0; seq < kMessages; ++seq) {
      sentAt[static_cast<size_t>(seq)] = Clock::now();
      bool done = false;
      sender.client->SendLobbyMessage(lobbyId, "msg " + std::to_string(seq),
                                      [&](const platformpp::ClientResult& result, uint64_t) {
                                        done = true;
                                        (result.Successful() ? accepted : failed)++;
                                      });
      pumpUntil([&] { return done; }, std::chrono::seconds(60));
    }
    // The last deliveries.
    pumpUntil([&] { return latenciesMs.size() >= static_cast<size_t>(kMessages) * (kClients - 1); },
              std::chrono::seconds(30));
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    for (int i = 0; i < 20; ++i) {  // anything duplicated late would arrive now
      pumpAll();
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }

    // The bare baseline: the same messages, one at a time, as bare HTTPS POSTs by the sender, each timed to
    // its dispatch on a bare Gateway session of the first receiver's user.
    std::vector<double> bareMs;
    {
      SSL_CTX* context = platformpp::bench::NewClientContext(info.caFile);
      std::mt19937 random(7);
      const auto api = platformpp::bench::ParseGateway(info.apiBase);
      auto http = platformpp::bench::ConnectTls(context, api.host, api.port);
      auto gateway = platformpp::bench::ConnectBare(context, platformpp::bench::ParseGateway(info.gatewayUrl),
                                                    clients[1].token, random);
      const std::string head = "POST " + api.path + "/lobbies/" + std::to_string(lobbyId) +
                               "/messages HTTP/1.1\r\nHost: " + api.host + ":" + std::to_string(api.port) +
                               "\r\nUser-Agent: bare\r\nAuthorization: Bearer " + sender.token +
                               "\r\nContent-Type: application/json\r\nContent-Length: ";
      for (int i = 0; i < kBareMessages; ++i) {
        const std::string content = "bare " + std::to_string(i);
        const std::string body = R"({"content":")" + content + R"("})";
        const auto posted = Clock::now();
        platformpp::bench::WriteAll(http->ssl, head + std::to_string(body.size()) + "\r\n\r\n" + body);
        const std::string needle = R"("content":")" + content + "\"";
        while (platformpp::bench::ReadFrame(gateway->ssl, gateway->pending).find(needle) ==
               std::string::npos) {
        }
        bareMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - posted).count());
        std::string answer;
        if (platformpp::bench::ReadHttpResponse(*http, answer) / 100 != 2)
          throw std::runtime_error("baseline: POST refused: " + answer);
      }
      platformpp::bench::CloseBare(*gateway, random);
      gateway.reset();
      http.reset();
      SSL_CTX_free(context);
    }
    for (int i = 0; i < 20; ++i) {  // the baseline's messages reach the Clients too
      pumpAll();
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }

    long lost = 0, duplicated = 0, outOfOrder = 0;
    for (size_t i = 1; i < clients.size(); ++i) {
      for (int count : clients[i].received) {
        if (count == 0) ++lost;
        if (count > 1) duplicated += count - 1;
      }
      outOfOrder += clients[i].outOfOrder;
    }
    const double p50 = Percentile(latenciesMs, 0.50), p99 = Percentile(latenciesMs, 0.99);
    std::printf("clients %d (one IoContext), messages %d, deliveries %zu\n", kClients, kMessages,
                latenciesMs.size());
    std::printf("accepted %d, failed %d, lost %ld, duplicated %ld, out of order %ld\n", accepted, failed,
                lost, duplicated, outOfOrder);
    std::printf("messages/s %.0f, deliveries/s %.0f\n", kMessages / seconds,
                static_cast<double>(latenciesMs.size()) / seconds);
    std::printf("delivery latency p50 %.3f ms, p99 %.3f ms, max %.3f ms\n", p50, p99,
                Percentile(latenciesMs, 1.0));
    std::printf("p99 / target (%.0f ms): %.2fx\n", kTargetP99Ms, p99 / kTargetP99Ms);
    const double sdkOne = Percentile(firstReceiverMs, 0.50), bare = Percentile(bareMs, 0.50);
    std::printf(
        "to one member: SDK p50 %.3f ms (the game loop drains 50 Clients); bare HTTPS POST to a bare "
        "Gateway session's dispatch p50 %.3f ms, p99 %.3f ms (%d messages)\n",
        sdkOne, bare, Percentile(bareMs, 0.99), kBareMessages);
    std::printf("ratio (SDK p50 to one member / bare p50): %.2fx\n", sdkOne / bare);
    for (auto& r : clients)
      r.client.reset();
    return (lost || duplicated || outOfOrder || failed) ? 1 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lobby_messages_bench: %s\n", e.what());
    return 1;
  }
}
