#include "social/channel_info.hpp"

namespace platformpp::social {

std::optional<ChannelInfo> ParseChannelInfo(const json::Value& data) {
  const auto guildId = data.IsObject() ? json::GetSnowflake(data, "guild_id") : std::nullopt;
  if (!guildId) return std::nullopt;
  ChannelInfo info;
  info.guildId = *guildId;
  if (const json::Value* channels = json::Member(data, "channels");
      channels != nullptr && channels->IsArray()) {
    for (const json::Value& channel : channels->GetArray()) {
      if (!channel.IsObject()) continue;
      const auto id = json::GetSnowflake(channel, "id");
      if (!id) continue;
      auto status = json::GetString(channel, "status");
      info.statuses[*id] = status && !status->empty() ? std::optional<std::string>(*status) : std::nullopt;
    }
  }
  return info;
}

}  // namespace platformpp::social
