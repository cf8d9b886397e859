// Soundboard sounds through the API: List Default Soundboard Sounds; List, Get, Create, Modify and Delete
// Guild Soundboard Sound; Send Soundboard Sound in a voice channel the caller is connected to.
// GUILD_SOUNDBOARD_SOUND_CREATE|UPDATE|DELETE (GUILD_EXPRESSIONS intent), VOICE_CHANNEL_EFFECT_SEND to the
// channel's connected members (GUILD_VOICE_STATES), audit entries 130, 131 and 132.
//
// Permissions: creating needs CREATE_GUILD_EXPRESSIONS (before the seed's 2026-02-23 split,
// MANAGE_GUILD_EXPRESSIONS also did); modifying or deleting a sound needs MANAGE_GUILD_EXPRESSIONS, or for
// the caller's own sounds either of the two. Sending needs SPEAK and USE_SOUNDBOARD in the channel, and
// USE_EXTERNAL_SOUNDS for another guild's sound; the caller must be connected to the channel and neither
// deafened, muted nor suppressed (self mute is allowed: the platform's docs do not list it).
//
// Errors: 404 Unknown Sound (10097); 400 (30045) past 8 sounds; 403 50013 for a missing permission and (our
// choice, the docs give no code) for a sender not connected, deafened, muted or suppressed; 400 (50035) for
// the fields. The upload is a JSON body whose `sound` is a data URI: its media type (MP3 or Ogg) and decoded
// size (at most 512 KiB) are checked; the audio is not decoded, so its 5.2 s limit is not.
#include <algorithm>
#include <utility>
#include <variant>
#include <vector>

#include "core/data_uri.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/validation.hpp"
#include "guild/guild_fields.hpp"
#include "guild/guild_module.hpp"
#include "guild/permissions.hpp"

namespace platformpp::emulator {

namespace {

constexpr int kUnknownSound = 10097;
constexpr int kMaximumSoundboardSounds = 30045;
constexpr int kEffectAnimationBasic = 1;

HttpResponse unknown_sound() {
  return error_response(404, kUnknownSound, "Unknown Sound");
}

// A string as an audit change's JSON text (none stays none).
std::optional<std::string> json_string_text(const std::optional<std::string>& value) {
  if (!value) return std::nullopt;
  return to_json([&](JsonWriter& writer) { write_string(writer, *value); });
}

std::string volume_text(double volume) {
  return to_json([&](JsonWriter& writer) { writer.Double(volume); });
}

// The audit changes between two versions of a sound (`before` null for a creation, `after` for a deletion).
void add_sound_changes(AuditLogEntry& entry, const SoundboardSound* before, const SoundboardSound* after) {
  auto name = [](const SoundboardSound* sound) {
    return sound != nullptr ? json_string_text(sound->name) : std::nullopt;
  };
  auto volume = [](const SoundboardSound* sound) {
    return sound != nullptr ? std::optional(volume_text(sound->volume)) : std::nullopt;
  };
  auto emoji_id = [](const SoundboardSound* sound) {
    return sound != nullptr ? json_string_text(sound->emoji_id) : std::nullopt;
  };
  auto emoji_name = [](const SoundboardSound* sound) {
    return sound != nullptr ? json_string_text(sound->emoji_name) : std::nullopt;
  };
  add_change(entry, audit_json_change("name", name(before), name(after)));
  add_change(entry, audit_json_change("volume", volume(before), volume(after)));
  add_change(entry, audit_json_change("emoji_id", emoji_id(before), emoji_id(after)));
  add_change(entry, audit_json_change("emoji_name", emoji_name(before), emoji_name(after)));
}

}  // namespace

void GuildModule::register_soundboard_routes() {
  api_router_.add("GET", "/soundboard-default-sounds", bind(&GuildModule::api_list_default_sounds));
  api_router_.add("GET", "/guilds/{guild_id}/soundboard-sounds", bind(&GuildModule::api_list_sounds));
  api_router_.add("POST", "/guilds/{guild_id}/soundboard-sounds", bind(&GuildModule::api_create_sound));
  api_router_.add("GET", "/guilds/{guild_id}/soundboard-sounds/{sound_id}",
                  bind(&GuildModule::api_get_sound));
  api_router_.add("PATCH", "/guilds/{guild_id}/soundboard-sounds/{sound_id}",
                  bind(&GuildModule::api_modify_sound));
  api_router_.add("DELETE", "/guilds/{guild_id}/soundboard-sounds/{sound_id}",
                  bind(&GuildModule::api_delete_sound));
  api_router_.add("POST", "/channels/{channel_id}/send-soundboard-sound", bind(&GuildModule::api_send_sound));
}

std::string GuildModule::sound_json_for(const SoundboardSound& sound,
                                        std::uint64_t caller_permissions) const {
  // The platform's docs: `user` only for a caller with CREATE_ or MANAGE_GUILD_EXPRESSIONS.
  const bool shows_user =
      (caller_permissions & (permission::kCreateGuildExpressions | permission::kManageGuildExpressions)) != 0;
  return soundboard_sound_json(sound, shows_user ? state_.find_user(sound.user_id) : nullptr);
}

std::string GuildModule::soundboard_sounds_json(const std::string& guild_id) const {
  return to_json([&](JsonWriter& writer) {
    writer.StartArray();
    for (const auto& sound : soundboard_.sounds(guild_id))
      write_raw(writer, soundboard_sound_json(sound, state_.find_user(sound.user_id)),
                rapidjson::kObjectType);
    writer.EndArray();
  });
}

HttpResponse GuildModule::api_list_default_sounds(const RouteContext& context) {
  if (!authenticate(context.request)) return status_error(401);
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartArray();
                              for (const auto& sound : default_soundboard_sounds())
                                write_raw(writer, soundboard_sound_json(sound, nullptr),
                                          rapidjson::kObjectType);
                              writer.EndArray();
                            }));
}

HttpResponse GuildModule::api_list_sounds(const RouteContext& context) {
  auto found = guild_caller(context, 0);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<GuildCaller>(found);
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("items");
                              writer.StartArray();
                              for (const auto& sound : soundboard_.sounds(caller.guild->id))
                                write_raw(writer, sound_json_for(sound, caller.permissions),
                                          rapidjson::kObjectType);
                              writer.EndArray();
                              writer.EndObject();
                            }));
}

HttpResponse GuildModule::api_get_sound(const RouteContext& context) {
  auto found = guild_caller(context, 0);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<GuildCaller>(found);
  const auto* sound = soundboard_.find(caller.guild->id, context.params.at("sound_id"));
  if (sound == nullptr) return unknown_sound();
  return HttpResponse::json(200, sound_json_for(*sound, caller.permissions));
}

void GuildModule::read_sound_fields(const rapidjson::Value& body, SoundboardSound& sound, FieldErrors& errors,
                                    bool creating) {
  BodyFields fields(body, errors);
  if (auto name = read_name(fields, kSoundboardNameMin, kSoundboardNameMax, creating)) sound.name = *name;
  if (body.HasMember("volume")) {
    // Null on create means the default (1); on modify it leaves the volume as it is.
    if (const auto volume = fields.number("volume", false, 0.0)) {
      if (*volume > 1.0) {
        fields.add_issue("volume", {"NUMBER_TYPE_MAX", "Value should be less than or equal to 1."});
      } else {
        sound.volume = *volume;
      }
    }
  }
  if (body.HasMember("emoji_id")) {
    if (body["emoji_id"].IsNull()) {
      sound.emoji_id.reset();
    } else if (const auto id = fields.string("emoji_id", false)) {
      if (!decimal_bits(*id)) {
        fields.add_issue("emoji_id", {"NUMBER_TYPE_COERCE", "Value is not snowflake."});
      } else {
        sound.emoji_id = *id;
      }
    }
  }
  if (body.HasMember("emoji_name")) {
    if (body["emoji_name"].IsNull()) {
      sound.emoji_name.reset();
    } else if (const auto emoji = fields.string("emoji_name", false)) {
      sound.emoji_name = *emoji;
    }
  }
}

HttpResponse GuildModule::api_create_sound(const RouteContext& context) {
  auto found = guild_caller(context, 0);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<GuildCaller>(found);
  const bool allowed = (caller.permissions & permission::kCreateGuildExpressions) != 0 ||
                       (clock_.now_ms() < kCreateExpressionsSplitMs &&
                        (caller.permissions & permission::kManageGuildExpressions) != 0);
  if (!allowed) return missing_permissions();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  SoundboardSound sound;
  sound.guild_id = caller.guild->id;
  sound.user_id = caller.user_id;
  FieldErrors errors;
  read_sound_fields(body, sound, errors, true);
  BodyFields fields(body, errors);
  if (const auto uri = fields.string("sound", true)) {
    const auto data = parse_data_uri(*uri);
    if (!data) {
      fields.add_issue("sound",
                       {"BINARY_TYPE_INVALID", "Invalid sound data: a base64 data URI is expected."});
    } else if (!soundboard_media_type_allowed(data->media_type)) {
      fields.add_issue("sound", {"BINARY_TYPE_INVALID", "Invalid sound type: MP3 or Ogg is expected."});
    } else if (data->size_bytes > kSoundboardSoundMaxBytes) {
      fields.add_issue("sound", {"BINARY_TYPE_MAX_SIZE", "File cannot be larger than 512.0 kb."});
    } else {
      sound.media_type = data->media_type;
      sound.size_bytes = data->size_bytes;
    }
  }
  if (!errors.empty()) return invalid_form_body(errors);
  if (soundboard_.sounds(caller.guild->id).size() >= kSoundboardSoundsMax) {
    return error_response(400, kMaximumSoundboardSounds, "Maximum number of soundboard sounds reached (8)");
  }
  sound.sound_id = snowflakes_.next_string();
  const auto& guild = *caller.guild;
  soundboard_.put(sound);
  const auto* creator = state_.find_user(sound.user_id);
  guild_intent_dispatch(guild, "GUILD_SOUNDBOARD_SOUND_CREATE", soundboard_sound_json(sound, creator),
                        gateway_intent::kGuildExpressions);
  AuditLogEntry entry;
  entry.target_id = sound.sound_id;
  entry.action_type = audit_action::kSoundboardSoundCreate;
  add_sound_changes(entry, nullptr, &sound);
  audit(guild, context.request, caller.user_id, std::move(entry));
  return HttpResponse::json(201, sound_json_for(sound, caller.permissions));
}

HttpResponse GuildModule::api_modify_sound(const RouteContext& context) {
  auto found = guild_caller(context, 0);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<GuildCaller>(found);
  const auto* sound = soundboard_.find(caller.guild->id, context.params.at("sound_id"));
  if (sound == nullptr) return unknown_sound();
  const auto needs = sound->user_id == caller.user_id
                         ? permission::kCreateGuildExpressions | permission::kManageGuildExpressions
                         : permission::kManageGuildExpressions;
  if ((caller.permissions & needs) == 0) return missing_permissions();
  rapidjson::Document body;
  if (auto error = read_optional_json_object(context.request, body)) return std::move(*error);
  SoundboardSound changed = *sound;
  FieldErrors errors;
  read_sound_fields(body, changed, errors, false);
  if (!errors.empty()) return invalid_form_body(errors);
  const SoundboardSound before = *sound;
  soundboard_.put(changed);
  guild_intent_dispatch(*caller.guild, "GUILD_SOUNDBOARD_SOUND_UPDATE",
                        soundboard_sound_json(changed, state_.find_user(changed.user_id)),
                        gateway_intent::kGuildExpressions);
  AuditLogEntry entry;
  entry.target_id = changed.sound_id;
  entry.action_type = audit_action::kSoundboardSoundUpdate;
  add_sound_changes(entry, &before, &changed);
  audit(*caller.guild, context.request, caller.user_id, std::move(entry));
  return HttpResponse::json(200, sound_json_for(changed, caller.permissions));
}

HttpResponse GuildModule::api_delete_sound(const RouteContext& context) {
  auto found = guild_caller(context, 0);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<GuildCaller>(found);
  const auto* sound = soundboard_.find(caller.guild->id, context.params.at("sound_id"));
  if (sound == nullptr) return unknown_sound();
  const auto needs = sound->user_id == caller.user_id
                         ? permission::kCreateGuildExpressions | permission::kManageGuildExpressions
                         : permission::kManageGuildExpressions;
  if ((caller.permissions & needs) == 0) return missing_permissions();
  const SoundboardSound removed = *sound;
  soundboard_.remove(caller.guild->id, removed.sound_id);
  guild_intent_dispatch(*caller.guild, "GUILD_SOUNDBOARD_SOUND_DELETE", to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("sound_id");
    write_string(writer, removed.sound_id);
    writer.Key("guild_id");
    write_string(writer, removed.guild_id);
    writer.EndObject();
  }),
                        gateway_intent::kGuildExpressions);
  AuditLogEntry entry;
  entry.target_id = removed.sound_id;
  entry.action_type = audit_action::kSoundboardSoundDelete;
  add_sound_changes(entry, &removed, nullptr);
  audit(*caller.guild, context.request, caller.user_id, std::move(entry));
  return HttpResponse::empty(204);
}

// POST {sound_id, source_guild_id?}: a default sound, one of the channel's guild, or (with source_guild_id)
// one of another guild the caller is a member of. 204, and VOICE_CHANNEL_EFFECT_SEND.
HttpResponse GuildModule::api_send_sound(const RouteContext& context) {
  auto found = voice_channel_caller(context, true);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<VoiceChannelCaller>(found);
  const auto* state = voice_.find(caller.guild->id, caller.user_id);
  if (state == nullptr || state->channel_id != caller.channel->id || state->self_deaf || state->suppress)
    return missing_permissions();
  const auto needs = permission::kSpeak | permission::kUseSoundboard;
  if ((caller.permissions & needs) != needs) return missing_permissions();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto sound_id = fields.string("sound_id", true);
  if (sound_id && !decimal_bits(*sound_id))
    fields.add_issue("sound_id", {"NUMBER_TYPE_COERCE", "Value is not snowflake."});
  const auto source_guild_id = fields.string("source_guild_id", false);
  if (source_guild_id && !decimal_bits(*source_guild_id))
    fields.add_issue("source_guild_id", {"NUMBER_TYPE_COERCE", "Value is not snowflake."});
  if (!errors.empty()) return invalid_form_body(errors);

  const SoundboardSound* sound = nullptr;
  const bool external = source_guild_id && *source_guild_id != caller.guild->id;
  if (external) {
    const auto* source = guilds_.find_guild(*source_guild_id);
    if (source != nullptr && source->has_member(caller.user_id))
      sound = soundboard_.find(*source_guild_id, *sound_id);
  } else {
    sound = soundboard_.find(caller.guild->id, *sound_id);
    if (sound == nullptr) {
      const auto& defaults = default_soundboard_sounds();
      const auto it = std::find_if(defaults.begin(), defaults.end(),
                                   [&](const SoundboardSound& d) { return d.sound_id == *sound_id; });
      if (it != defaults.end()) sound = &*it;
    }
  }
  if (sound == nullptr) return unknown_sound();
  if (external && (caller.permissions & permission::kUseExternalSounds) == 0) return missing_permissions();

  std::vector<std::string> listeners;
  for (const auto* connected : voice_.in_channel(caller.channel->id))
    listeners.push_back(connected->user_id);
  const auto d = to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("channel_id");
    write_string(writer, caller.channel->id);
    writer.Key("guild_id");
    write_string(writer, caller.guild->id);
    writer.Key("user_id");
    write_string(writer, caller.user_id);
    writer.Key("sound_id");
    write_string(writer, sound->sound_id);
    writer.Key("sound_volume");
    writer.Double(sound->volume);
    writer.Key("emoji");
    if (sound->emoji_id || sound->emoji_name) {
      writer.StartObject();
      writer.Key("id");
      write_optional_string(writer, sound->emoji_id);
      writer.Key("name");
      write_optional_string(writer, sound->emoji_name);
      writer.EndObject();
      writer.Key("animation_type");
      writer.Int(kEffectAnimationBasic);
    } else {
      writer.Null();
    }
    writer.EndObject();
  });
  guild_intent_dispatch(*caller.guild, "VOICE_CHANNEL_EFFECT_SEND", d, gateway_intent::kGuildVoiceStates,
                        &listeners);
  return HttpResponse::empty(204);
}

}  // namespace platformpp::emulator
