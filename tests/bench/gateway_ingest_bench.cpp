// Ingesting 100,000 recorded Gateway dispatch frames (PRESENCE_UPDATE, MESSAGE_CREATE, RELATIONSHIP_ADD, of
// realistic sizes) through the session's frame handling (envelope parsed, duplicates dropped by sequence
// number) into the Client's social store (users, relationships, presences updated, callbacks queued and run
// by RunCallbacks), against RapidJSON parsing the same frames alone into a document, in one run. It also
// times the same frames through the Client's whole dispatch table (the store, presence's friends' parties,
// the DMs kept by messages): what a Client does with them, for information (no target). Each round
// starts from a fresh Client whose READY made the 500 presence senders friends. Prints the ratio last
// (target: <= 2x).
#include "client/client_core.hpp"
#include "gateway/gateway_payload.hpp"
#include "gateway/session_policy.hpp"
#include "social/social_store.hpp"

#include <rapidjson/document.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bench_mode.hpp"

using namespace platformpp::gateway;
using Clock = std::chrono::steady_clock;

namespace {

const int kFrames = platformpp::bench::Sized(100'000, 10'000);
const int kRounds = platformpp::bench::Sized(7, 1);

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

std::string Id(int i) {
  return std::to_string(1100000000000000000LL + i * 7919LL);
}

std::string Presence(int i, int64_t s) {
  return R"({"t":"PRESENCE_UPDATE","s":)" + std::to_string(s) + R"(,"op":0,"d":{"user":{"id":")" +
         Id(i % 500) +
         R"("},"status":"online","client_status":{"desktop":"online"},"broadcast":null,"activities":[{"type":0,)"
         R"("name":"Space Duel","application_id":"1234567890123456789","state":"In a match","details":"Ranked )"
         R"(2v2 - Map: Nebula","timestamps":{"start":1732200000000},"party":{"id":"party-)" +
         std::to_string(i % 97) +
         R"(","size":[2,4]},"assets":{"large_image":"map_nebula","large_text":"Nebula","small_image":"rank_gold",)"
         R"("small_text":"Gold III"},"secrets":{"join":"join-secret-)" +
         std::to_string(i) + R"("},"created_at":1732200001234,"flags":2}]}})";
}

std::string Message(int i, int64_t s) {
  return R"({"t":"MESSAGE_CREATE","s":)" + std::to_string(s) + R"(,"op":0,"d":{"id":")" + Id(i) +
         R"(","channel_id":")" + Id(i % 40) +
         R"(","type":0,"content":"gg! rematch in 5? I'll set up the lobby )"
         R"(with the same map and we can try the new loadout \u2014 bring snacks )" +
         std::to_string(i) + R"(","author":{"id":")" + Id(i % 500) + R"(","username":"player)" +
         std::to_string(i % 500) +
         R"(","global_name":"Player Name","avatar":"a_1b2c3d4e5f60718293a4b5c6d7e8f90","discriminator":"0",)"
         R"("public_flags":0},"timestamp":"2026-11-22T14:00:00.000000+00:00","edited_timestamp":null,"tts":false,)"
         R"("mention_everyone":false,"mentions":[],"mention_roles":[],"attachments":[],"embeds":[],"pinned":false,)"
         R"("nonce":")" +
         Id(i + 3) + R"(","flags":0,"components":[]}})";
}

std::string Relationship(int i, int64_t s) {
  return R"({"t":"RELATIONSHIP_ADD","s":)" + std::to_string(s) + R"(,"op":0,"d":{"id":")" + Id(i) +
         R"(","type":1,"nickname":null,"since":"2026-11-22T14:00:00.000000+00:00","is_spam_request":false,)"
         R"("user":{"id":")" +
         Id(i) + R"(","username":"friend)" + std::to_string(i) +
         R"(","global_name":"Friend","avatar":null,"discriminator":"0","public_flags":0,"primary_guild":)"
         R"({"identity_guild_id":"1234","identity_enabled":true,"tag":"GG","badge":"abc"}}}})";
}

// READY of the player: the 500 users whose presences the frames carry are friends.
std::string Ready() {
  std::string ready =
      R"({"v":10,"session_id":"bench","user":{"id":"42","username":"player"},"relationships":[)";
  for (int i = 0; i < 500; ++i) {
    if (i > 0) ready += ',';
    ready += R"({"id":")" + Id(i) + R"(","type":1,"is_spam_request":false,"user":{"id":")" + Id(i) +
             R"(","username":"player)" + std::to_string(i) + R"(","global_name":"Player Name"}})";
  }
  return ready + R"(],"presences":[],"guilds":[]})";
}

std::unique_ptr<platformpp::client::ClientCore> ReadyClient(const std::string& ready, uint64_t& events) {
  platformpp::ClientOptions options;
  options.ipcEnabled = false;
  auto core = std::make_unique<platformpp::client::ClientCore>(options);
  core->Runtime().applicationId.store(1234567890123456789ULL);
  auto& store = core->Social();
  store.callbacks.created.Set([&events](uint64_t, bool) { ++events; });
  store.callbacks.groupsUpdated.Set([&events](uint64_t) { ++events; });
  store.callbacks.userUpdated.Set([&events](uint64_t) { ++events; });
  core->DispatchTable().Route(Dispatch{"READY", ready, 1});
  core->RunCallbacks();
  return core;
}

}  // namespace

int main() {
  const std::string ready = Ready();
  std::vector<std::string> frames;
  frames.reserve(kFrames);
  std::size_t bytes = 0;
  for (int i = 0; i < kFrames; ++i) {
    int64_t s = i + 1;
    switch (i % 3) {
      case 0:
        frames.push_back(Presence(i, s));
        break;
      case 1:
        frames.push_back(Message(i, s));
        break;
      default:
        frames.push_back(Relationship(i, s));
        break;
    }
    bytes += frames.back().size();
  }

  std::vector<double> baseline, session, table;
  uint64_t check = 0;
  for (int round = 0; round < kRounds; ++round) {
    {
      auto start = Clock::now();
      uint64_t members = 0;
      for (const std::string& frame : frames) {
        rapidjson::Document document;
        document.Parse<rapidjson::kParseIterativeFlag>(frame.data(), frame.size());
        members += document.HasParseError() ? 0 : document.MemberCount();
      }
      baseline.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
      check += members;
    }
    for (bool whole : {false, true}) {
      uint64_t events = 0;
      auto core = ReadyClient(ready, events);  // outside the measured time
      events = 0;
      auto start = Clock::now();
      SequenceTracker seq;
      uint64_t delivered = 0;
      const DispatchRouter& router = core->DispatchTable();
      auto& social = core->Social();
      for (const std::string& frame : frames) {
        std::optional<Envelope> envelope = ParseEnvelope(frame);
        if (!envelope || envelope->op != 0 || !seq.Accept(envelope->s)) continue;
        const Dispatch dispatch{envelope->t, envelope->d, envelope->s.value_or(0)};
        if (whole) {
          router.Route(dispatch);
        } else {
          social.OnDispatch(dispatch);
        }
        ++delivered;
      }
      core->RunCallbacks();
      (whole ? table : session)
          .push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
      // Every RELATIONSHIP_ADD is a new friend (created, groups, user); every PRESENCE_UPDATE a friend's new
      // presence (user updated at least).
      std::size_t relationships = 500;
      for (int i = 2; i < kFrames; i += 3)
        relationships += i >= 500 ? 1 : 0;  // the others were friends already
      uint64_t minimum = static_cast<uint64_t>(kFrames / 3) + 3 * (relationships - 500);
      const auto& store = core->Social();
      bool stored = store.Relationships().size() == relationships &&
                    store.User(std::stoull(Id(1)))->GameActivity().has_value();
      if (delivered != static_cast<uint64_t>(kFrames) || events < minimum || !stored) {
        std::printf(
            "error: %llu dispatches delivered (expected %d), %llu callbacks (expected >= %llu), "
            "store %s\n",
            static_cast<unsigned long long>(delivered), kFrames, static_cast<unsigned long long>(events),
            static_cast<unsigned long long>(minimum), stored ? "ok" : "incomplete");
        return 1;
      }
    }
  }
  if (check == 0) return 1;
  double b = Median(baseline);
  double s = Median(session);
  std::printf("frames: %d (%.1f MB, %.0f bytes on average)\n", kFrames, static_cast<double>(bytes) / 1e6,
              static_cast<double>(bytes) / kFrames);
  std::printf("RapidJSON parse alone:            %.2f ms (median of %d)\n", b, kRounds);
  std::printf("session frame handling into store: %.2f ms (median of %d)\n", s, kRounds);
  const double t = Median(table);
  std::printf("the whole dispatch table:          %.2f ms (median of %d), %.2fx the parse alone\n", t,
              kRounds, t / b);
  std::printf("ratio: %.2fx (target <= 2x)\n", s / b);
  return 0;
}
