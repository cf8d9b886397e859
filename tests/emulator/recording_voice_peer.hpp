// A voice gateway peer for socket-free emulator tests: records the frames the service sends and how it
// ended the connection.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "voice/voice_gateway.hpp"

namespace platformpp::emulator::test {

struct RecordingVoicePeer final : VoiceGatewayPeer {
  void send_text(std::string json) override {
    if (!closed) sent.push_back(std::move(json));
  }
  void send_binary(std::string bytes) override {
    if (!closed) binary.push_back(std::move(bytes));
  }
  void close(int code, std::string) override {
    closed = true;
    close_code = code;
  }
  void drop() override {
    closed = true;
    dropped = true;
  }

  // The messages with this opcode received so far.
  std::vector<rapidjson::Document> ops(int op) const {
    std::vector<rapidjson::Document> found;
    for (const auto& text : sent) {
      auto payload = parse(text);
      if (payload["op"].GetInt() == op) found.push_back(std::move(payload));
    }
    return found;
  }
  rapidjson::Document only(int op) const {
    auto found = ops(op);
    REQUIRE_MESSAGE(found.size() == 1, "expected one op " << op << ", got " << found.size());
    return std::move(found.front());
  }
  // The seq of the last sequenced message (-1 before any).
  std::int64_t last_seq() const {
    std::int64_t seq = -1;
    for (const auto& text : sent) {
      const auto payload = parse(text);
      if (payload.HasMember("seq")) seq = payload["seq"].GetInt64();
    }
    return seq;
  }

  std::vector<std::string> sent;
  std::vector<std::string> binary;
  bool closed = false;
  bool dropped = false;
  int close_code = 0;
};

}  // namespace platformpp::emulator::test
