// A Gateway peer for socket-free emulator tests: records what the service sends and lets a test pick out the
// dispatches (whole op 0 payloads) of one type.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gateway/gateway.hpp"
#include "test_support.hpp"

namespace platformpp::emulator::test {

struct RecordingGatewayPeer final : GatewayPeer {
  void enable_compression() override {}
  void send(std::string json) override {
    if (!closed) sent.push_back(std::move(json));
  }
  void close(int code, std::string) override {
    closed = true;
    close_code = code;
  }
  void drop() override { closed = true; }

  // The dispatches of type `t` received so far.
  std::vector<rapidjson::Document> dispatches(std::string_view t) const {
    std::vector<rapidjson::Document> found;
    for (const auto& text : sent) {
      auto payload = parse(text);
      if (payload["op"].GetInt() == 0 && str(payload["t"]) == t) found.push_back(std::move(payload));
    }
    return found;
  }
  rapidjson::Document nth(std::string_view t, std::size_t index) const {
    auto found = dispatches(t);
    REQUIRE_MESSAGE(found.size() > index, "expected " << index + 1 << " " << t << ", got " << found.size());
    return std::move(found[index]);
  }
  rapidjson::Document only(std::string_view t) const {
    auto found = dispatches(t);
    REQUIRE_MESSAGE(found.size() == 1, "expected one " << t << ", got " << found.size());
    return std::move(found.front());
  }
  // The sequence number of the last dispatch received (0 before any).
  std::int64_t last_seq() const {
    std::int64_t seq = 0;
    for (const auto& text : sent) {
      const auto payload = parse(text);
      if (payload["s"].IsInt64()) seq = payload["s"].GetInt64();
    }
    return seq;
  }

  std::vector<std::string> sent;
  bool closed = false;
  int close_code = 0;
};

}  // namespace platformpp::emulator::test
