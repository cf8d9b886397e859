#include "guild/channel_fields.hpp"

#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/json_body.hpp"
#include "core/validation.hpp"
#include "guild/guild_fields.hpp"

namespace platformpp::emulator {

namespace {

// The channel types a guild has here: text, voice, category, announcement, stage, forum, media.
constexpr int kChannelTypes[] = {0, 2, 4, 5, 13, 15, 16};

}  // namespace

void read_channel_fields(const rapidjson::Value& body, const Guild& guild, const EmulatorState& state,
                         GuildChannel& channel, bool creating, FieldErrors& errors) {
  BodyFields fields(body, errors);
  if (auto name = fields.string("name", creating)) {
    const auto length = utf8_length(*name);
    if (length < 1 || length > 100) {
      fields.add_issue("name", length_issue(1, 100));
    } else {
      channel.name = std::move(*name);
    }
  }
  if (auto type = fields.integer("type", false)) {
    if (std::find(std::begin(kChannelTypes), std::end(kChannelTypes), *type) == std::end(kChannelTypes)) {
      fields.add_issue("type", {"BASE_TYPE_CHOICES", "Value must be one of {0, 2, 4, 5, 13, 15, 16}."});
    } else if (!creating && channel.type == kCategoryChannelType && *type != kCategoryChannelType &&
               std::any_of(guild.channels.begin(), guild.channels.end(),
                           [&](const auto& entry) { return entry.second.parent_id == channel.id; })) {
      fields.add_issue("type", {"BASE_TYPE_INVALID", "A category with channels must stay a category."});
    } else {
      channel.type = static_cast<int>(*type);
    }
  }
  if (auto position = fields.integer("position", false, 0, 1000000))
    channel.position = static_cast<int>(*position);
  if (body.HasMember("parent_id")) {
    const auto& parent = body["parent_id"];
    if (parent.IsNull()) {
      channel.parent_id.reset();
    } else if (!parent.IsString()) {
      fields.add_issue("parent_id", {"BASE_TYPE_STRING", "Must be a string."});
    } else {
      const std::string parent_id(parent.GetString(), parent.GetStringLength());
      const auto it = guild.channels.find(parent_id);
      if (it == guild.channels.end() || it->second.type != kCategoryChannelType || parent_id == channel.id) {
        fields.add_issue("parent_id", {"CHANNEL_PARENT_INVALID", "Must be a category of this guild."});
      } else {
        channel.parent_id = parent_id;
      }
    }
  }
  if (channel.parent_id && channel.type == kCategoryChannelType) {
    fields.add_issue("parent_id", {"CHANNEL_PARENT_INVALID", "A category cannot have a parent."});
  }
  if (body.HasMember("topic")) {
    const auto& topic = body["topic"];
    if (topic.IsNull()) {
      channel.topic.reset();
    } else if (!topic.IsString() || utf8_length({topic.GetString(), topic.GetStringLength()}) > 1024) {
      fields.add_issue("topic", length_issue(0, 1024));
    } else {
      channel.topic = std::string(topic.GetString(), topic.GetStringLength());
    }
  }
  if (const auto* list = fields.value("permission_overwrites", false)) {
    if (!list->IsArray()) {
      fields.add_issue("permission_overwrites", {"BASE_TYPE_ARRAY", "Must be an array."});
      return;
    }
    std::vector<PermissionOverwrite> overwrites;
    for (rapidjson::SizeType i = 0; i < list->Size(); ++i) {
      const auto& entry = (*list)[i];
      const auto index = std::to_string(i);
      if (!entry.IsObject()) {
        errors.add({"permission_overwrites", index}, {"BASE_TYPE_OBJECT", "Must be an object."});
        continue;
      }
      PermissionOverwrite overwrite;
      const auto id = entry.FindMember("id");
      const auto type = entry.FindMember("type");
      if (id == entry.MemberEnd() || !id->value.IsString()) {
        errors.add({"permission_overwrites", index, "id"}, required_field_issue());
        continue;
      }
      overwrite.id.assign(id->value.GetString(), id->value.GetStringLength());
      if (type == entry.MemberEnd() || !type->value.IsInt() ||
          (type->value.GetInt() != overwrite_type::kRole &&
           type->value.GetInt() != overwrite_type::kMember)) {
        errors.add({"permission_overwrites", index, "type"},
                   {"BASE_TYPE_CHOICES", "Value must be one of {0, 1}."});
        continue;
      }
      overwrite.type = type->value.GetInt();
      if (overwrite.type == overwrite_type::kRole ? guild.find_role(overwrite.id) == nullptr
                                                  : state.find_user(overwrite.id) == nullptr) {
        errors.add(
            {"permission_overwrites", index, "id"},
            {"BASE_TYPE_INVALID",
             overwrite.type == overwrite_type::kRole ? "Unknown role of this guild." : "Unknown user."});
        continue;
      }
      for (const char* key : {"allow", "deny"}) {
        const auto member = entry.FindMember(key);
        if (member == entry.MemberEnd() || member->value.IsNull()) continue;
        const auto bits = read_bits(member->value);
        if (!bits) {
          errors.add({"permission_overwrites", index, key}, bits_issue());
        } else {
          (std::string_view(key) == "allow" ? overwrite.allow : overwrite.deny) = *bits;
        }
      }
      overwrites.push_back(std::move(overwrite));
    }
    channel.permission_overwrites = std::move(overwrites);
  }
  if (const auto seconds = fields.integer("rate_limit_per_user", false, 0, kMaxRateLimitPerUserSeconds)) {
    if (channel.type == kCategoryChannelType) {
      fields.add_issue("rate_limit_per_user", {"BASE_TYPE_INVALID", "A category has no slowmode."});
    } else {
      channel.rate_limit_per_user = static_cast<int>(*seconds);
    }
  }
  if (const auto nsfw = fields.boolean("nsfw", false)) channel.nsfw = *nsfw;
}

}  // namespace platformpp::emulator
