// The network side of webhook events: POSTs what the webhook events module hands it to loopback http or https
// URLs on the server's io_context, and reports each outcome back. Asio-free header: only webhook_client.cpp
// compiles Beast's client templates.
#pragma once

#include <functional>
#include <memory>

#include "webhook/webhook_transport.hpp"

namespace boost::asio {
class io_context;
}

namespace platformpp::emulator {

class WebhookClient final : public WebhookTransport {
 public:
  explicit WebhookClient(boost::asio::io_context& io);
  ~WebhookClient() override;
  WebhookClient(const WebhookClient&) = delete;
  WebhookClient& operator=(const WebhookClient&) = delete;

  // One connection per POST (Connection: close), 5 s for connect, TLS handshake, request and answer together.
  // https verifies the certificate (and its name or IP) against `ca_file`, else the system's store.
  void post(WebhookPost post, std::function<void(WebhookPostResult)> done) override;

 private:
  boost::asio::io_context& io_;
};

}  // namespace platformpp::emulator
