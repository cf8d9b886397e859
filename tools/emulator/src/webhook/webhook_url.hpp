// A webhook events URL as the emulator takes it (PUT /_emulator/applications/{app}/webhook-events): http or
// https on a loopback host only, so the emulator never reaches beyond the machine. Parsed once, when set.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace platformpp::emulator {

struct WebhookUrl {
  std::string text;  // as given
  bool tls = false;  // https
  std::string host;  // as written, without brackets: "localhost", "127.0.0.1", "::1"
  // The address connected to: the host itself, or 127.0.0.1 for localhost (no resolver: nothing leaves the
  // loopback interface).
  std::string address;
  std::uint16_t port = 0;
  std::string target;  // path and query, at least "/"
};

// The URL, or nullopt with the reason in `error`: a scheme other than http/https, a host outside 127.0.0.0/8,
// ::1 and localhost, user info, a fragment, or a bad port.
std::optional<WebhookUrl> parse_webhook_url(std::string_view text, std::string& error);

}  // namespace platformpp::emulator
