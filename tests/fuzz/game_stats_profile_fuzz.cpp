// The Game Stats Widget's profile as the platform answers it (backend/game_stats_widget.hpp, ParseProfile),
// and what the SDK would send back for it (ProfileBody checks every limit, whatever the profile holds).
#include "backend/game_stats_widget.hpp"
#include "json/json.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace json = platformpp::json;
  namespace game_stats = platformpp::backend::game_stats;
  json::Document document;
  if (!json::Parse(std::string_view(reinterpret_cast<const char*>(data), size), document)) return 0;
  const auto profile = game_stats::ParseProfile(document);
  if (!profile) return 0;
  if (profile->data) {
    for (const auto& field : profile->data->dynamic) {
      const auto type = static_cast<int>(field.type);
      if (type < 1 || type > 3) __builtin_trap();
    }
  }
  std::vector<platformpp::FieldError> errors;
  const auto body = game_stats::ProfileBody(*profile, errors);
  // A body is made only for a profile within every limit; it is then JSON.
  if (errors.empty()) {
    json::Document again;
    if (!json::Parse(body, again) || !again.IsObject()) __builtin_trap();
  }
  return 0;
}
