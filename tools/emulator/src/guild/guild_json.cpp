#include "guild/guild_json.hpp"

#include "core/fake_clock.hpp"
#include "core/user_json.hpp"
#include "guild/channel_fields.hpp"
#include "guild/permissions.hpp"

namespace platformpp::emulator {

std::string bits_string(std::uint64_t bits) {
  return std::to_string(bits);
}

std::string channel_json(const GuildChannel& channel, bool obfuscate) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("id");
    write_string(writer, channel.id);
    writer.Key("type");
    writer.Int(channel.type);
    writer.Key("guild_id");
    write_string(writer, channel.guild_id);
    writer.Key("name");
    write_string(writer, obfuscate ? std::string_view("___hidden___") : std::string_view(channel.name));
    writer.Key("position");
    writer.Int(channel.position);
    writer.Key("parent_id");
    write_optional_string(writer, channel.parent_id);
    writer.Key("permission_overwrites");
    writer.StartArray();
    if (obfuscate) {
      writer.StartObject();
      writer.Key("id");
      write_string(writer, channel.guild_id);
      writer.Key("type");
      writer.Int(overwrite_type::kRole);
      writer.Key("allow");
      writer.String("0");
      writer.Key("deny");
      write_string(writer, bits_string(permission::kViewChannel));
      writer.EndObject();
    } else {
      for (const auto& overwrite : channel.permission_overwrites) {
        writer.StartObject();
        writer.Key("id");
        write_string(writer, overwrite.id);
        writer.Key("type");
        writer.Int(overwrite.type);
        writer.Key("allow");
        write_string(writer, bits_string(overwrite.allow));
        writer.Key("deny");
        write_string(writer, bits_string(overwrite.deny));
        writer.EndObject();
      }
    }
    writer.EndArray();
    writer.Key("flags");
    writer.Uint64(obfuscate ? (channel.flags | kChannelObfuscatedFlag) : channel.flags);
    if (channel.topic && !obfuscate) {
      writer.Key("topic");
      write_string(writer, *channel.topic);
    }
    // Every channel but a category has slowmode; nsfw is on every guild channel. Neither is in an obfuscated
    // channel, which carries only what places it.
    if (!obfuscate) {
      if (channel.type != kCategoryChannelType) {
        writer.Key("rate_limit_per_user");
        writer.Int(channel.rate_limit_per_user);
      }
      writer.Key("nsfw");
      writer.Bool(channel.nsfw);
    }
    // Forum (15) and media (16) channels: the members their channel type always has; the emulator has no
    // tags, default reactions or sort settings.
    constexpr int kForum = 15;
    constexpr int kMedia = 16;
    if (channel.type == kForum || channel.type == kMedia) {
      writer.Key("available_tags");
      writer.StartArray();
      writer.EndArray();
      writer.Key("default_reaction_emoji");
      writer.Null();
      writer.Key("default_sort_order");
      writer.Null();
      if (channel.type == kForum) {
        writer.Key("default_forum_layout");
        writer.Int(0);
      }
    }
    writer.EndObject();
  });
}

std::string role_json(const GuildRole& role) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("id");
    write_string(writer, role.id);
    writer.Key("name");
    write_string(writer, role.name);
    writer.Key("color");
    writer.Int64(role.color);
    writer.Key("colors");
    writer.StartObject();
    writer.Key("primary_color");
    writer.Int64(role.color);
    writer.Key("secondary_color");
    role.secondary_color ? writer.Int64(*role.secondary_color) : writer.Null();
    writer.Key("tertiary_color");
    role.tertiary_color ? writer.Int64(*role.tertiary_color) : writer.Null();
    writer.EndObject();
    writer.Key("hoist");
    writer.Bool(role.hoist);
    writer.Key("icon");
    write_optional_string(writer, role.icon);
    writer.Key("unicode_emoji");
    write_optional_string(writer, role.unicode_emoji);
    writer.Key("position");
    writer.Int(role.position);
    writer.Key("permissions");
    write_string(writer, bits_string(role.permissions));
    writer.Key("managed");
    writer.Bool(role.bot_id.has_value());
    writer.Key("mentionable");
    writer.Bool(role.mentionable);
    if (role.bot_id) {
      writer.Key("tags");
      writer.StartObject();
      writer.Key("bot_id");
      write_string(writer, *role.bot_id);
      writer.EndObject();
    }
    writer.Key("flags");
    writer.Uint64(role.flags);
    writer.EndObject();
  });
}

void write_guild_summary(JsonWriter& writer, const Guild& guild) {
  writer.Key("id");
  write_string(writer, guild.id);
  writer.Key("name");
  write_string(writer, guild.name);
  writer.Key("icon");
  write_optional_string(writer, guild.icon);
  writer.Key("banner");
  write_optional_string(writer, guild.banner);
}

void write_guild_identity(JsonWriter& writer, const Guild& guild) {
  write_guild_summary(writer, guild);
  writer.Key("owner_id");
  write_string(writer, guild.owner_id);
}

void write_guild_features(JsonWriter& writer, const Guild& guild) {
  writer.Key("features");
  writer.StartArray();
  for (const auto& feature : guild.features)
    write_string(writer, feature);
  writer.EndArray();
}

std::string guild_member_json(const GuildMember& member, const User& user) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("user");
    write_raw(writer, user_json(user), rapidjson::kObjectType);
    writer.Key("roles");
    writer.StartArray();
    for (const auto& role : member.roles)
      write_string(writer, role);
    writer.EndArray();
    writer.Key("joined_at");
    write_string(writer, format_rfc3339_ms(member.joined_at_ms));
    writer.Key("nick");
    write_optional_string(writer, member.nick);
    writer.Key("avatar");
    write_optional_string(writer, member.avatar);
    writer.Key("banner");
    write_optional_string(writer, member.banner);
    if (member.bio) {
      writer.Key("bio");
      write_string(writer, *member.bio);
    }
    writer.Key("communication_disabled_until");
    if (member.timeout_until_ms) {
      write_string(writer, format_rfc3339_ms(*member.timeout_until_ms));
    } else {
      writer.Null();
    }
    writer.Key("deaf");
    writer.Bool(false);
    writer.Key("mute");
    writer.Bool(false);
    writer.Key("flags");
    writer.Uint64(member.flags);
    writer.EndObject();
  });
}

std::string admin_guild_json(const Guild& guild) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    write_guild_identity(writer, guild);
    write_guild_features(writer, guild);
    writer.Key("roles");
    writer.StartArray();
    for (const auto& role : guild.roles)
      write_raw(writer, role_json(role), rapidjson::kObjectType);
    writer.EndArray();
    writer.EndObject();
  });
}

}  // namespace platformpp::emulator
