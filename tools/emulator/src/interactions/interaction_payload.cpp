// Where an interaction happens and the interaction object the application receives: the place (guild
// channel, DM with the bot, other DM) and its contexts and installs, app_permissions, the upload limit, the
// member or user, the partial channel and guild, entitlements, and authorizing_integration_owners with
// string keys and values ("0" for a DM with the bot).
#include <algorithm>

#include "core/json.hpp"
#include "core/user_json.hpp"
#include "guild/guild_json.hpp"
#include "guild/permissions.hpp"
#include "interactions/interactions_module.hpp"

namespace platformpp::emulator {

namespace {

constexpr std::uint64_t kEmbedLinks = std::uint64_t{1} << 14;
constexpr std::uint64_t kAttachFiles = std::uint64_t{1} << 15;
constexpr std::uint64_t kMentionEveryone = std::uint64_t{1} << 17;
constexpr std::uint64_t kUseExternalEmojis = std::uint64_t{1} << 18;

constexpr int kChannelTypeDm = 1;

// premium_type: 1 Nitro Classic, 2 Nitro, 3 Nitro Basic.
constexpr std::int64_t kNitroUploadLimit = std::int64_t{500} * 1024 * 1024;
constexpr std::int64_t kClassicUploadLimit = std::int64_t{50} * 1024 * 1024;

}  // namespace

std::variant<InteractionsModule::Place, HttpResponse> InteractionsModule::place_of(
    const Application& app, const User& user, const std::string& channel_id) {
  Place place;
  const bool user_install = state_.user_installed(user.id, app.id);
  if (channel_id.empty()) {
    place.dm = &messaging_.open_dm_channel(user.id, app.bot_user_id);
    place.channel_id = place.dm->id;
  } else if (const auto [guild, channel] = guilds_.guilds().find_channel(channel_id); guild != nullptr) {
    if (!guild->has_member(user.id) || !can_view_channel(*guild, *channel, user.id)) {
      return error_response(403, error_code::kMissingAccess, "The user cannot see this channel");
    }
    // AutoMod's BLOCK_MEMBER_INTERACTION: a quarantined member uses no interactions in the guild.
    if (quarantined(*guild, user.id)) {
      return error_response(403, error_code::kMissingPermissions, "The member is quarantined by AutoMod");
    }
    place.guild = guild;
    place.guild_channel = channel;
    place.channel_id = channel->id;
    place.context = kContextGuild;
    place.guild_installed = guild->has_member(app.bot_user_id);
    place.user_installed = user_install;
    return place;
  } else if (const auto* dm = messaging_.find_dm_channel(channel_id)) {
    const auto& r = dm->recipient_ids;
    if (std::find(r.begin(), r.end(), user.id) == r.end()) {
      return error_response(403, error_code::kMissingAccess, "The user is not in this DM");
    }
    place.dm = dm;
    place.channel_id = dm->id;
  } else {
    return unknown_channel();
  }
  const auto& r = place.dm->recipient_ids;
  const bool with_bot = std::find(r.begin(), r.end(), app.bot_user_id) != r.end();
  place.context = with_bot ? kContextBotDm : kContextPrivateChannel;
  place.guild_installed = with_bot;  // the DM with the bot stands for the guild install ("0": "0")
  place.user_installed = user_install;
  return place;
}

std::uint64_t InteractionsModule::app_permissions(const Application& app, const Place& place) const {
  if (place.guild != nullptr && place.guild->has_member(app.bot_user_id)) {
    return channel_permissions(*place.guild, *place.guild_channel, app.bot_user_id);
  }
  // The platform's documented set for (group) DMs with other users, plus external emojis in the bot's own
  // DM. A user-installed app in a guild without its bot gets the DM set too (the platform documents no
  // other, and its responses there are the invoking user's to see).
  std::uint64_t bits = kAttachFiles | kEmbedLinks | kMentionEveryone;
  if (place.context == kContextBotDm) bits |= kUseExternalEmojis;
  return bits;
}

std::int64_t InteractionsModule::attachment_size_limit(const User& user) const {
  switch (user.premium_type) {
    case 2:
      return kNitroUploadLimit;
    case 1:
    case 3:
      return kClassicUploadLimit;
    default:
      return interaction_limit::kDefaultAttachmentSizeLimit;
  }
}

std::string InteractionsModule::payload_json(const Interaction& interaction, const Place& place,
                                             const std::string& data_json,
                                             const std::optional<std::string>& message_json) const {
  const Application& app = *state_.find_application(interaction.app_id);
  const User& user = *state_.find_user(interaction.user_id);
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("id");
    write_string(writer, interaction.id);
    writer.Key("application_id");
    write_string(writer, interaction.app_id);
    writer.Key("type");
    writer.Int(interaction.type);
    writer.Key("data");
    write_raw(writer, data_json, rapidjson::kObjectType);
    if (place.guild != nullptr) {
      writer.Key("guild_id");
      write_string(writer, place.guild->id);
      writer.Key("guild");
      writer.StartObject();
      writer.Key("id");
      write_string(writer, place.guild->id);
      writer.Key("locale");
      write_string(writer, "en-US");
      write_guild_features(writer, *place.guild);
      writer.EndObject();
    }
    writer.Key("channel_id");
    write_string(writer, place.channel_id);
    writer.Key("channel");
    writer.StartObject();
    writer.Key("id");
    write_string(writer, place.channel_id);
    if (place.guild_channel != nullptr) {
      writer.Key("type");
      writer.Int(place.guild_channel->type);
      writer.Key("name");
      write_string(writer, place.guild_channel->name);
      writer.Key("guild_id");
      write_string(writer, place.guild->id);
      writer.Key("position");
      writer.Int(place.guild_channel->position);
      if (place.guild_channel->parent_id) {
        writer.Key("parent_id");
        write_string(writer, *place.guild_channel->parent_id);
      }
      writer.Key("flags");
      writer.Uint64(place.guild_channel->flags);
      writer.Key("permissions");  // the invoking user's
      write_string(writer, bits_string(channel_permissions(*place.guild, *place.guild_channel, user.id)));
    } else {
      writer.Key("type");
      writer.Int(kChannelTypeDm);
      writer.Key("recipients");
      writer.StartArray();
      for (const auto& id : place.dm->recipient_ids) {
        if (id == user.id) continue;
        if (const auto* other = state_.find_user(id))
          write_raw(writer, user_json(*other), rapidjson::kObjectType);
      }
      writer.EndArray();
    }
    writer.EndObject();
    if (place.guild != nullptr) {
      writer.Key("member");
      rapidjson::Document member;
      const auto member_text = guild_member_json(*place.guild->find_member(user.id), user);
      parse_stored_json(member_text, member);
      auto& allocator = member.GetAllocator();
      const auto permissions = bits_string(channel_permissions(*place.guild, *place.guild_channel, user.id));
      member.AddMember("permissions", rapidjson::Value(permissions.c_str(), allocator), allocator);
      write_raw(writer, json_text(member), rapidjson::kObjectType);
    } else {
      writer.Key("user");
      write_raw(writer, user_json(user), rapidjson::kObjectType);
    }
    writer.Key("token");
    write_string(writer, interaction.token);
    writer.Key("version");
    writer.Int(1);
    if (message_json) {
      writer.Key("message");
      write_raw(writer, *message_json, rapidjson::kObjectType);
    }
    writer.Key("app_permissions");
    write_string(writer, bits_string(app_permissions(app, place)));
    writer.Key("locale");
    write_string(writer, interaction.locale);
    if (place.guild != nullptr) {
      writer.Key("guild_locale");
      write_string(writer, "en-US");
    }
    writer.Key("entitlements");
    write_raw(writer, premium_.active_entitlements_json(app.id, user.id), rapidjson::kArrayType);
    // Keys and values are strings, "0" included (the seed).
    writer.Key("authorizing_integration_owners");
    writer.StartObject();
    if (interaction.guild_installed) {
      writer.Key("0");
      write_string(writer, place.guild != nullptr ? place.guild->id : "0");
    }
    if (interaction.user_installed) {
      writer.Key("1");
      write_string(writer, user.id);
    }
    writer.EndObject();
    writer.Key("context");
    writer.Int(interaction.context);
    writer.Key("attachment_size_limit");
    writer.Int64(attachment_size_limit(user));
    writer.EndObject();
  });
}

std::string InteractionsModule::interaction_metadata_json(
    const Interaction& interaction, const std::optional<std::string>& original_id) const {
  const User* user = state_.find_user(interaction.user_id);
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("id");
    write_string(writer, interaction.id);
    writer.Key("type");
    writer.Int(interaction.type);
    // The nested user object; the platform removed user_id (the seed).
    writer.Key("user");
    if (user != nullptr) {
      write_raw(writer, user_json(*user), rapidjson::kObjectType);
    } else {
      writer.Null();
    }
    writer.Key("authorizing_integration_owners");
    writer.StartObject();
    if (interaction.guild_installed) {
      writer.Key("0");
      write_string(writer, interaction.guild_id.value_or("0"));
    }
    if (interaction.user_installed) {
      writer.Key("1");
      write_string(writer, interaction.user_id);
    }
    writer.EndObject();
    if (interaction.type == interaction_type::kApplicationCommand) {
      if (interaction.target_user_id) {
        writer.Key("target_user");
        if (const auto* target = state_.find_user(*interaction.target_user_id)) {
          write_raw(writer, user_json(*target), rapidjson::kObjectType);
        } else {
          writer.Null();
        }
      }
      if (interaction.target_message_id) {
        writer.Key("target_message_id");
        write_string(writer, *interaction.target_message_id);
      }
    }
    if (original_id) {
      writer.Key("original_response_message_id");
      write_string(writer, *original_id);
    }
    if (interaction.type == interaction_type::kMessageComponent && interaction.source_message_id) {
      writer.Key("interacted_message_id");
      write_string(writer, *interaction.source_message_id);
    }
    if (interaction.type == interaction_type::kModalSubmit && interaction.triggering_interaction_id) {
      // The metadata of the command or component interaction that opened the modal.
      const auto opener = interactions_.find(*interaction.triggering_interaction_id);
      if (opener != interactions_.end()) {
        writer.Key("triggering_interaction_metadata");
        write_raw(writer, interaction_metadata_json(opener->second, std::nullopt), rapidjson::kObjectType);
      }
    }
    writer.EndObject();
  });
}

}  // namespace platformpp::emulator
