// Who may use the admin API (/_emulator): whoever presents the emulator's admin token. The server makes a
// random one at each start (under --state, once, kept in the state file) and writes it to the connection
// file (mode 0600), so another local user can neither read nor reset a studio's emulator. The web console's
// files are public (they hold nothing of the emulator's); the page asks for the token and sends it with each
// call, and as the first message of its live socket.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace platformpp::emulator {

class AdminAccess {
 public:
  // Empty: the admin API is open. Only a service that lives inside a test's own process is built so; the
  // emulator's server always sets a token.
  void set_token(std::string token) { token_ = std::move(token); }
  [[nodiscard]] bool required() const noexcept { return !token_.empty(); }

  // Whether the Authorization header's value is "Bearer <token>" (or no token is required).
  [[nodiscard]] bool accepts_header(std::optional<std::string_view> authorization) const;
  // Whether `presented` is the token (or no token is required). Constant time in the token's content.
  [[nodiscard]] bool accepts_token(std::string_view presented) const;

  // The web console's static files (GET /ui, /ui/ and /ui/<file>, relative to /_emulator), which a browser
  // loads before the page can ask for the token.
  [[nodiscard]] static bool is_public(std::string_view method, std::string_view admin_path);

 private:
  std::string token_;
};

}  // namespace platformpp::emulator
