// Helpers shared by the emulator's unit tests.
#pragma once

#include <doctest/doctest.h>
#include <rapidjson/document.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/fake_clock.hpp"
#include "core/http_message.hpp"
#include "core/json.hpp"

namespace platformpp::emulator::test {

inline HttpRequest make_request(std::string method, std::string target, std::string body = {},
                                HeaderList headers = {}) {
  HttpRequest request;
  request.method = std::move(method);
  request.target = std::move(target);
  request.body = std::move(body);
  request.headers = std::move(headers);
  if (!request.body.empty() && !request.header("Content-Type")) {
    request.headers.emplace_back("Content-Type", "application/json");
  }
  request.client_address = "127.0.0.1";
  return request;
}

inline rapidjson::Document parse(std::string_view text) {
  rapidjson::Document document;
  REQUIRE_MESSAGE(parse_json(text, document), "not JSON: " << text);
  return document;
}

inline std::string str(const rapidjson::Value& value) {
  REQUIRE(value.IsString());
  return std::string(value.GetString(), value.GetStringLength());
}

// Drives steady_now_ms() (heartbeats, resume windows, DAVE's transitions) for a socket-free test: time starts
// where the steady clock is and moves only by advance(), so a deadline is crossed by exactly one millisecond
// instead of slept past. The steady clock is back when it goes.
class ManualSteadyTime {
 public:
  ManualSteadyTime() {
    now().store(std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::steady_clock::now().time_since_epoch())
                    .count());
    set_steady_time_source(&read);
  }
  ~ManualSteadyTime() { set_steady_time_source(nullptr); }
  ManualSteadyTime(const ManualSteadyTime&) = delete;
  ManualSteadyTime& operator=(const ManualSteadyTime&) = delete;
  void advance(std::int64_t ms) { now() += ms; }

 private:
  static std::atomic<std::int64_t>& now() {
    static std::atomic<std::int64_t> value{0};
    return value;
  }
  static std::int64_t read() { return now().load(); }
};

}  // namespace platformpp::emulator::test
