// Client frames into an emulator voice gateway connection (lobby calls), against a fresh seeded world
// (emulator_world.hpp) per input in which alice, on a live main Gateway session, has joined the lobby's call
// (she holds its LOBBY_VOICE_SERVER_UPDATE token). The input's first line sets the scene:
//   [0] the version, '4' to '8' ("/voice/?v=N"), or 'x': the rest of the line after [2] is the URL
//   [1] what happened before: 'I' alice identified, 'S' identified and selected a protocol, 'R' identified
//       on an earlier connection that dropped (to be resumed), anything else nothing
//   [2] 'r': end-to-end encryption required (DAVE, alice identifies with protocol version 1), else optional
// and every further line is one client frame: JSON text, or, after '~', binary as hex digits (DAVE's
// `u8 opcode | payload`: key packages, commits). "{voice_token}", "{alice_session_id}", "{lobby_id}",
// "{alice_id}"... in a frame stand for the world's values.
// Invariants: nothing crashes or throws; every text frame the emulator sends is a JSON object with a known
// opcode; every binary frame has its `u16 seq | u8 opcode` header and a DAVE binary opcode; a connection is
// only ever closed with a code of the voice gateway's documented set.
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
#include "voice/dave_call.hpp"
#include "voice/voice_gateway.hpp"

namespace {

using namespace platformpp_fuzz;

[[noreturn]] void violated(const char* what, std::string_view detail) {
  std::fprintf(stderr, "voice gateway invariant violated: %s: %.*s\n", what, static_cast<int>(detail.size()),
               detail.data());
  __builtin_trap();
}

bool documented_close(int code) {
  using namespace voice_close;
  switch (code) {
    case kUnknownOpcode:
    case kDecodeError:
    case kNotAuthenticated:
    case kAuthenticationFailed:
    case kAlreadyAuthenticated:
    case kSessionNoLongerValid:
    case kSessionTimeout:
    case kServerNotFound:
    case kUnknownProtocol:
    case kDisconnected:
    case kVoiceServerCrashed:
    case kUnknownEncryptionMode:
    case kE2eeRequired:
    case kBadRequest:
      return true;
    default:
      return false;
  }
}

struct CheckingVoicePeer final : VoiceGatewayPeer {
  void send_text(std::string json) override {
    if (closed) return;
    rapidjson::Document payload;
    if (!parse_json(json, payload) || !payload.IsObject()) violated("not a JSON object", json);
    const auto op = payload.FindMember("op");
    if (op == payload.MemberEnd() || !op->value.IsInt()) violated("no integer op", json);
    switch (op->value.GetInt()) {
      case voice_op::kReady:
      case voice_op::kSessionDescription:
      case voice_op::kSpeaking:
      case voice_op::kHeartbeatAck:
      case voice_op::kHello:
      case voice_op::kResumed:
      case voice_op::kClientsConnect:
      case voice_op::kClientDisconnect:
      case dave_op::kPrepareTransition:
      case dave_op::kExecuteTransition:
      case dave_op::kPrepareEpoch:
        break;
      default:
        violated("unknown opcode sent", json);
    }
    texts.push_back(std::move(json));
  }
  void send_binary(std::string bytes) override {
    if (closed) return;
    if (bytes.size() < 3) violated("binary frame without its header", bytes);
    const int op = static_cast<std::uint8_t>(bytes[2]);
    if (op != dave_op::kExternalSenderPackage && op != dave_op::kProposals &&
        op != dave_op::kAnnounceCommit && op != dave_op::kWelcome) {
      violated("unknown binary opcode sent", bytes);
    }
  }
  void close(int code, std::string reason) override {
    if (!documented_close(code)) violated("undocumented close code", reason);
    closed = true;
  }
  void drop() override { closed = true; }

  std::vector<std::string> texts;
  bool closed = false;
};

struct QuietGatewayPeer final : GatewayPeer {
  void enable_compression() override {}
  void send(std::string json) override { sent.push_back(std::move(json)); }
  void close(int, std::string) override { closed = true; }
  void drop() override { closed = true; }
  std::vector<std::string> sent;
  bool closed = false;
};

std::string from_hex(std::string_view hex) {
  const auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string bytes;
  for (std::size_t at = 0; at + 1 < hex.size(); at += 2) {
    const int high = digit(hex[at]);
    const int low = digit(hex[at + 1]);
    if (high < 0 || low < 0) break;
    bytes.push_back(static_cast<char>(high * 16 + low));
  }
  return bytes;
}

// The string member `name` of the `d` of the last dispatch of type `t` the peer got.
std::string dispatch_field(const QuietGatewayPeer& peer, std::string_view t, const char* name) {
  for (std::size_t i = peer.sent.size(); i-- > 0;) {  // the newest first
    const std::string& text = peer.sent[i];
    rapidjson::Document payload;
    if (!parse_json(text, payload) || !payload.IsObject() || !payload.HasMember("t") ||
        !payload["t"].IsString() || payload["t"].GetString() != t || !payload["d"].IsObject() ||
        !payload["d"].HasMember(name) || !payload["d"][name].IsString()) {
      continue;
    }
    return payload["d"][name].GetString();
  }
  setup_failed(t, peer.sent.empty() ? "" : peer.sent.back());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto scene = next_line(input);
  if (scene.size() < 3) return 0;
  auto world = std::make_unique<World>();
  auto& service = world->service;
  const bool e2ee = scene[2] == 'r';
  world->call("POST", "/_emulator/voice/settings",
              e2ee ? R"({"e2ee":"required"})" : R"({"e2ee":"optional"})");

  // Alice's main Gateway session joins the lobby's call.
  QuietGatewayPeer main;
  const auto main_id = service.gateway_opened(main, "/?v=10&encoding=json");
  service.gateway_received(
      main_id, R"({"op":2,"d":{"token":"Bearer )" + world->alice_token + R"(","properties":{},"intents":0}})",
      true);
  world->ids["alice_session_id"] = dispatch_field(main, "READY", "session_id");
  service.gateway_received(main_id,
                           R"({"op":4,"d":{"lobby_id":")" + world->ids["lobby_id"] + R"(","channel_id":")" +
                               world->ids["lobby_id"] + R"(","self_mute":false,"self_deaf":false}})",
                           true);
  world->ids["voice_token"] = dispatch_field(main, "LOBBY_VOICE_SERVER_UPDATE", "token");

  const std::string identify = R"({"op":0,"d":{"server_id":")" + world->ids["lobby_id"] + R"(","user_id":")" +
                               world->ids["alice_id"] + R"(","session_id":")" +
                               world->ids["alice_session_id"] + R"(","token":")" + world->ids["voice_token"] +
                               R"(","max_dave_protocol_version":)" + (e2ee ? "1" : "0") + "}}";
  std::string target = "/voice/?v=8";
  if (scene[0] >= '4' && scene[0] <= '8') target.back() = scene[0];
  if (scene[0] == 'x') target = std::string(scene.substr(3));

  CheckingVoicePeer earlier;
  if (scene[1] == 'R') {
    const auto id = service.voice_opened(earlier, "/voice/?v=8");
    service.voice_received(id, identify, true);
    service.voice_disconnected(id, std::nullopt);
  }
  CheckingVoicePeer peer;
  const auto id = service.voice_opened(peer, target);
  if (scene[1] == 'I' || scene[1] == 'S') service.voice_received(id, identify, true);
  if (scene[1] == 'S') {
    service.voice_received(
        id,
        R"({"op":1,"d":{"protocol":"udp","data":{"address":"127.0.0.1","port":40000,"mode":"aead_xchacha20_poly1305_rtpsize"}}})",
        true);
  }

  while (!input.empty() && !peer.closed) {
    const auto line = next_line(input);
    if (line.starts_with('~')) {
      service.voice_received(id, from_hex(line.substr(1)), false);
    } else {
      service.voice_received(id, world->expand(line), true);
    }
  }
  service.voice_tick();
  service.gateway_tick();
  world->transport.deliver();
  service.end_turn();
  return 0;
}
