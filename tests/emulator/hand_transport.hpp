// The network side of the emulator's outgoing POSTs (webhook events, interactions), played by a socket-free
// test: each POST waits until the test answers it.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "test_support.hpp"
#include "webhook/webhook_transport.hpp"

namespace platformpp::emulator::test {

class HandTransport : public WebhookTransport {
 public:
  struct Sent {
    WebhookPost post;
    std::function<void(WebhookPostResult)> done;
  };
  void post(WebhookPost post, std::function<void(WebhookPostResult)> done) override {
    sent.push_back(Sent{std::move(post), std::move(done)});
  }
  // Answers the index-th POST with `status` and `body` (no status: no answer came).
  void answer(std::size_t index, std::optional<int> status, std::string body = {}) {
    REQUIRE(index < sent.size());
    REQUIRE(sent[index].done);
    auto done = std::move(sent[index].done);  // it may post again
    sent[index].done = nullptr;
    done(WebhookPostResult{status, status ? std::string() : std::string("refused"), std::move(body),
                           "application/json"});
  }
  // The webhook event type of the index-th POST ("" for a PING).
  [[nodiscard]] std::string event_type(std::size_t index) const {
    REQUIRE(index < sent.size());
    const auto body = parse(sent[index].post.body);
    return body.HasMember("event") ? str(body["event"]["type"]) : std::string();
  }

  std::vector<Sent> sent;
};

}  // namespace platformpp::emulator::test
