#include "voice/voice_state.hpp"

#include <charconv>

namespace platformpp::emulator {

VoiceState* VoiceRegistry::find_state(const std::string& lobby_id, const std::string& user_id) {
  const auto it = states.find({lobby_id, user_id});
  return it == states.end() ? nullptr : &it->second;
}

std::vector<const VoiceState*> VoiceRegistry::states_of_lobby(const std::string& lobby_id) const {
  std::vector<const VoiceState*> found;
  for (auto it = states.lower_bound({lobby_id, std::string()});
       it != states.end() && it->first.first == lobby_id; ++it)
    found.push_back(&it->second);
  return found;
}

std::vector<std::string> VoiceRegistry::sessions_of_lobby(const std::string& lobby_id) const {
  std::vector<std::string> found;
  for (const auto& [id, session] : sessions) {
    if (session.lobby_id == lobby_id) found.push_back(id);
  }
  return found;
}

bool is_voice_gateway_path(std::string_view path) {
  return path == "/voice" || path == "/voice/";
}

std::optional<int> voice_gateway_version(std::string_view target) {
  const auto question = target.find('?');
  if (question == std::string_view::npos) return std::nullopt;
  auto query = target.substr(question + 1);
  // The query's `v` parameter (the first one); anything but plain digits is invalid.
  while (!query.empty()) {
    const auto amp = query.find('&');
    const auto pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (!pair.starts_with("v=")) continue;
    const auto text = pair.substr(2);
    int version = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), version);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty() || text.front() == '+') {
      return std::nullopt;
    }
    if (version < kVoiceGatewayMinVersion || version > kVoiceGatewayVersion) return std::nullopt;
    return version;
  }
  return std::nullopt;
}

}  // namespace platformpp::emulator
