// What the webhook events module and the interactions endpoint delivery (socket-free) ask of the network: one
// signed POST at a time, its outcome reported back. The server implements it on its io_context
// (server/webhook_client.cpp); unit tests may implement it by hand.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "webhook/webhook_url.hpp"

namespace platformpp::emulator {

struct WebhookPost {
  WebhookUrl url;
  std::optional<std::string> ca_file;  // https: the CA (PEM file) to trust instead of the system's store
  std::string body;
  std::string signature;  // X-Signature-Ed25519 (hex)
  std::string timestamp;  // X-Signature-Timestamp (Unix seconds)
  // The whole exchange's budget: 5 s for webhook events, the 3-second deadline for an interaction.
  std::chrono::milliseconds timeout{5000};
};

struct WebhookPostResult {
  std::optional<int> status;  // the answer's status; none when no whole answer came
  std::string error;          // why none came: refused, dropped, timed out, TLS...
  std::string body;           // the answer's body (an interactions endpoint answers with its response)
  std::string content_type;   // the answer's Content-Type, if any
};

class WebhookTransport {
 public:
  virtual ~WebhookTransport() = default;
  // POSTs once, within `timeout` for the whole exchange, and calls `done` exactly once, later, on the
  // emulator's thread (never inside post()).
  virtual void post(WebhookPost post, std::function<void(WebhookPostResult)> done) = 0;
};

}  // namespace platformpp::emulator
