// Client frames into an emulator Gateway connection, against a fresh seeded world (emulator_world.hpp) per
// input. The input's first line sets the scene:
//   [0] the connection's URL: 'z' v10 JSON with zlib-stream, 'x' the rest of the line after [2] as the URL
//       (version, encoding and compress parsing), anything else v10 JSON
//   [1] what happened before: 'U' alice identified (Bearer), 'B' the bot identified (guild intents), 'R'
//       alice identified on an earlier connection that dropped ({session_id} names its session, for Resume),
//       anything else nothing
//   [2] 't': the steady clock moves 30 s before each frame (heartbeat deadlines pass), else it stands
// and every further line is one client frame: text, or binary when it starts with '~'. "{guild_id}",
// "{alice_token}"... in a frame name the world's objects (identify, resume, heartbeat, presence update,
// request guild members, voice state update... with real ids).
// Invariants: nothing crashes or throws; every message the emulator sends is a JSON object with a known
// opcode, a dispatch has a type and a sequence number above the connection's previous one, Hello comes
// first; a connection is only ever closed with a code of the Gateway's documented set.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "emulator_world.hpp"
#include "fuzz_lines.hpp"
#include "gateway/gateway.hpp"
#include "json_mutator.hpp"

namespace {

using namespace platformpp_fuzz;

std::int64_t steady_ms = 5000000;
std::int64_t moving_steady_now() {
  return steady_ms;
}

[[noreturn]] void violated(const char* what, std::string_view detail) {
  std::fprintf(stderr, "gateway invariant violated: %s: %.*s\n", what, static_cast<int>(detail.size()),
               detail.data());
  __builtin_trap();
}

bool documented_close(int code) {
  using namespace gateway_close;
  switch (code) {
    case kUnknownError:
    case kUnknownOpcode:
    case kDecodeError:
    case kNotAuthenticated:
    case kAuthenticationFailed:
    case kAlreadyAuthenticated:
    case kInvalidSeq:
    case kRateLimited:
    case kSessionTimedOut:
    case kInvalidShard:
    case kInvalidApiVersion:
    case kInvalidIntents:
    case kDisallowedIntents:
      return true;
    default:
      return false;
  }
}

// Checks every message as it is sent, so that a violation's stack shows who sent it.
struct CheckingPeer final : GatewayPeer {
  void enable_compression() override {
    if (!sent.empty()) violated("compression enabled after a send", {});
  }
  void send(std::string json) override {
    if (closed) return;
    rapidjson::Document payload;
    if (!parse_json(json, payload) || !payload.IsObject()) violated("not a JSON object", json);
    const auto op = payload.FindMember("op");
    if (op == payload.MemberEnd() || !op->value.IsInt()) violated("no integer op", json);
    const int code = op->value.GetInt();
    if (sent.empty() && code != 10) violated("first message is not Hello", json);
    switch (code) {
      case 0: {
        const auto t = payload.FindMember("t");
        const auto s = payload.FindMember("s");
        if (t == payload.MemberEnd() || !t->value.IsString()) violated("dispatch without t", json);
        if (s == payload.MemberEnd() || !s->value.IsInt64() || s->value.GetInt64() <= last_seq) {
          violated("dispatch sequence not increasing", json);
        }
        last_seq = s->value.GetInt64();
        break;
      }
      case 1:   // Heartbeat request
      case 7:   // Reconnect
      case 9:   // Invalid Session
      case 10:  // Hello
      case 11:  // Heartbeat ACK
        break;
      default:
        violated("unknown opcode sent", json);
    }
    sent.push_back(std::move(json));
  }
  void close(int code, std::string reason) override {
    if (!documented_close(code)) violated("undocumented close code", reason);
    closed = true;
  }
  void drop() override { closed = true; }

  std::vector<std::string> sent;
  std::int64_t last_seq = 0;
  bool closed = false;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto scene = next_line(input);
  if (scene.size() < 3) return 0;
  auto world = std::make_unique<World>();
  steady_ms = 5000000;
  set_steady_time_source(&moving_steady_now);
  auto& service = world->service;

  // The earlier connection of the scene: the world's own doing, checked all the same.
  CheckingPeer before;
  std::uint64_t before_id = 0;
  if (scene[1] == 'U' || scene[1] == 'R' || scene[1] == 'B') {
    const bool bot = scene[1] == 'B';
    before_id = service.gateway_opened(before, "/?v=10&encoding=json");
    service.gateway_received(before_id,
                             R"({"op":2,"d":{"token":")" +
                                 (bot ? "Bot " + world->bot_token : "Bearer " + world->alice_token) +
                                 R"(","properties":{},"intents":)" + (bot ? "33281" : "0") + "}}",
                             true);
    rapidjson::Document ready;
    if (before.closed || before.sent.size() < 2 || !parse_json(before.sent[1], ready) ||
        !ready["d"].IsObject() || !ready["d"].HasMember("session_id") ||
        !ready["d"]["session_id"].IsString()) {
      setup_failed("identify", before.sent.empty() ? "" : before.sent.back());
    }
    world->ids["session_id"] = ready["d"]["session_id"].GetString();
    if (scene[1] == 'R') service.gateway_disconnected(before_id, std::nullopt);
  }

  // The connection the frames go to: the identified one, or a new one.
  CheckingPeer peer;
  std::uint64_t id = before_id;
  CheckingPeer* live = &before;
  if (scene[1] != 'U' && scene[1] != 'B') {
    std::string target = "/?v=10&encoding=json";
    if (scene[0] == 'z') target += "&compress=zlib-stream";
    if (scene[0] == 'x') target = std::string(scene.substr(3));
    id = service.gateway_opened(peer, target);
    live = &peer;
  }

  while (!input.empty() && !live->closed) {
    auto frame = next_line(input);
    const bool binary = frame.starts_with('~');
    if (binary) frame.remove_prefix(1);
    if (scene[2] == 't') steady_ms += 30000;
    service.gateway_received(id, world->expand(frame), !binary);
    service.gateway_tick();
  }
  world->transport.deliver();
  service.end_turn();
  return 0;
}
