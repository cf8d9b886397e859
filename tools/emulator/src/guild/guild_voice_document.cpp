// The live-only "guild_voice" documents (core/state_changes.hpp): one per guild with someone connected to its
// voice or stage channels, for the web console's guild view. Voice states end with the Gateway sessions, so
// they are never written to the state file (the channels' status, which persists, is in the guild document).
// The voice token is left out: the console shows no secrets.
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "core/json.hpp"
#include "guild/guild_module.hpp"

namespace platformpp::emulator {

namespace {

inline constexpr std::string_view kGuildVoiceDocument = "guild_voice";

}  // namespace

void GuildModule::register_voice_document() {
  DocumentKind kind;
  kind.name = std::string(kGuildVoiceDocument);
  kind.save = [this](const std::string& guild_id) { return voice_document(guild_id); };
  kind.ids = [this] {
    std::set<std::string> ids;
    for (const auto& entry : voice_.states)
      ids.insert(entry.first.first);
    return std::vector<std::string>(ids.begin(), ids.end());
  };
  kind.persisted = false;
  changes_.register_kind(std::move(kind));
}

void GuildModule::voice_changed(std::string_view guild_id) {
  changes_.touch(kGuildVoiceDocument, guild_id);
}

std::optional<std::string> GuildModule::voice_document(const std::string& guild_id) const {
  const auto states = voice_.in_guild(guild_id);
  if (states.empty()) return std::nullopt;
  std::map<std::string, std::vector<const GuildVoiceState*>> by_channel;
  for (const auto* state : states)
    by_channel[state->channel_id].push_back(state);
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("guild_id");
    write_string(writer, guild_id);
    writer.Key("channels");
    writer.StartArray();
    for (const auto& [channel_id, members] : by_channel) {
      writer.StartObject();
      writer.Key("channel_id");
      write_string(writer, channel_id);
      writer.Key("voice_start_time");  // Unix seconds of the fake clock, as VOICE_CHANNEL_START_TIME_UPDATE
      if (const auto start_s = voice_.start_time_s(channel_id)) {
        writer.Int64(*start_s);
      } else {
        writer.Null();
      }
      writer.Key("members");
      writer.StartArray();
      for (const auto* state : members) {
        writer.StartObject();
        writer.Key("user_id");
        write_string(writer, state->user_id);
        writer.Key("self_mute");
        writer.Bool(state->self_mute);
        writer.Key("self_deaf");
        writer.Bool(state->self_deaf);
        writer.Key("suppress");
        writer.Bool(state->suppress);
        writer.EndObject();
      }
      writer.EndArray();
      writer.EndObject();
    }
    writer.EndArray();
    writer.EndObject();
  });
}

}  // namespace platformpp::emulator
