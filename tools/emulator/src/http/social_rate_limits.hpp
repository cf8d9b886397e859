// The Social SDK development rate limits: per application, a sliding 2-hour window on the fake clock for
// each category (docs/http-api.md, "Rate limits"). Switchable, for load tests.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace platformpp::emulator {

enum class SocialLimit {
  lobby_create_join,  // PUT /lobbies: 100 per 2 h
  lobby_update,       // PATCH /lobbies/{id}, member PUT/DELETE/bulk: 100 per 2 h
  lobby_message,      // POST /lobbies/{id}/messages: 100 per 2 h
  dm,                 // DMs: 100 per 2 h
  channel_link,       // PATCH /lobbies/{id}/channel-linking: 20 per 2 h
};

class SocialRateLimits {
 public:
  static constexpr std::int64_t kWindowMs = 2LL * 60 * 60 * 1000;
  static std::int64_t limit_of(SocialLimit category);

  // Counts one use at `now_ms`; nullopt when allowed, else the seconds until the window frees one.
  std::optional<double> take(const std::string& app_id, SocialLimit category, std::int64_t now_ms);
  void set_enabled(bool enabled) { enabled_ = enabled; }
  [[nodiscard]] bool enabled() const { return enabled_; }
  // Uses in the window ending at now_ms.
  [[nodiscard]] std::int64_t used(const std::string& app_id, SocialLimit category, std::int64_t now_ms) const;
  // Applications that used any category, sorted by id.
  [[nodiscard]] std::vector<std::string> applications() const;

 private:
  bool enabled_ = true;
  std::map<std::pair<std::string, SocialLimit>, std::deque<std::int64_t>> uses_;
};

}  // namespace platformpp::emulator
