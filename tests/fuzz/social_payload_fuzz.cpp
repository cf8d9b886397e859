// Social objects as the Gateway and HTTP deliver them (users, relationships' users, guilds, channels,
// application profiles, activities inside presences, CHANNEL_INFO's voice channel statuses): every decoder on
// the parsed JSON, arrays element by element, then the channel order and an activity's validation and wire
// round trip.
#include "json/json.hpp"
#include "presence/activity_validation.hpp"
#include "social/activity_json.hpp"
#include "social/channel_info.hpp"
#include "social/social_json.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace {

using namespace platformpp;

void Decode(const json::Value& value, std::vector<GuildChannel>& channels) {
  if (auto user = social::ParseUser(value); user) {
    social::UserRecord copy = *user;
    social::MergePartialUser(value, copy);
  }
  (void)social::ParseGuild(value);
  if (auto channel = social::ParseChannel(value)) channels.push_back(*channel);
  (void)social::ParseApplicationProfile(value);
  if (auto info = social::ParseChannelInfo(value)) {
    for (const auto& entry : info->statuses)
      if (entry.second && entry.second->empty()) __builtin_trap();  // an empty status reads as none
  }
  if (auto activity = social::ActivityFromJson(value)) {
    (void)presence::ValidateActivity(*activity);
    (void)presence::CheckJoinable(activity);
    // What the SDK writes, it reads back the same.
    std::string text = social::ActivityToJson(*activity);
    json::Document again;
    if (!json::Parse(text, again)) __builtin_trap();
    auto back = social::ActivityFromJson(again);
    if (!back || back->State() != activity->State() || back->Details() != activity->Details() ||
        back->Name() != activity->Name()) {
      __builtin_trap();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  json::Document document;
  if (!json::Parse(input, document)) return 0;
  std::vector<GuildChannel> channels;
  if (document.IsArray()) {
    for (const auto& element : document.GetArray())
      Decode(element, channels);
  } else {
    Decode(document, channels);
    // Presences and READY carry their parts in members.
    if (document.IsObject()) {
      for (const auto& member : document.GetObject()) {
        if (member.value.IsArray()) {
          for (const auto& element : member.value.GetArray())
            Decode(element, channels);
        } else {
          Decode(member.value, channels);
        }
      }
    }
  }
  std::size_t count = channels.size();
  social::SortChannels(channels);
  if (channels.size() != count) __builtin_trap();
  return 0;
}
