// Lobbies' routes (docs/social-protocol.md, "Lobbies and messages"): the SDK's (Bearer) and the backend's
// (Bot), members, linked channels, guild invites, and the admin list of lobbies.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "core/api_error.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/random_token.hpp"
#include "core/user_json.hpp"
#include "core/validation.hpp"
#include "guild/permissions.hpp"
#include "lobby/lobby_module.hpp"

namespace platformpp::emulator {

namespace {

constexpr int kTextChannel = 0;

HttpResponse lobby_full() {
  return error_response(400, error_code::kGeneral, "Lobby is full");
}

// Metadata at `path`: an object of strings, at most 25 pairs and 1000 code points of keys and values
// together. Null reads as empty. Records problems in `errors`.
std::optional<StringMap> read_metadata(const rapidjson::Value& value, const std::vector<std::string>& path,
                                       FieldErrors& errors) {
  StringMap metadata;
  if (value.IsNull()) return metadata;
  if (!value.IsObject()) {
    errors.add(path, {"DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType"});
    return std::nullopt;
  }
  for (const auto& pair : value.GetObject()) {
    if (!pair.value.IsString()) {
      auto at = path;
      at.emplace_back(pair.name.GetString(), pair.name.GetStringLength());
      errors.add(at, {"BASE_TYPE_STRING", "Must be a string."});
      return std::nullopt;
    }
    metadata.insert_or_assign(std::string(pair.name.GetString(), pair.name.GetStringLength()),
                              std::string(pair.value.GetString(), pair.value.GetStringLength()));
  }
  if (metadata.size() > kLobbyMetadataMaxPairs) {
    errors.add(path, {"BASE_TYPE_MAX_LENGTH",
                      "Must have at most " + std::to_string(kLobbyMetadataMaxPairs) + " entries."});
    return std::nullopt;
  }
  if (metadata_length(metadata) > kLobbyMetadataMax) {
    errors.add(path,
               {"BASE_TYPE_MAX_LENGTH", "Keys and values must be at most " +
                                            std::to_string(kLobbyMetadataMax) + " characters in total."});
    return std::nullopt;
  }
  return metadata;
}

// The member fields of PUT /lobbies/{id}/members/{user}, bulk entries and POST/PATCH /lobbies members.
// Absent fields stay unset; null clears.
struct MemberInput {
  std::string user_id;
  std::optional<StringMap> metadata;
  std::optional<std::uint32_t> flags;
  bool additional_name_given = false;
  std::optional<std::string> additional_name;
  bool remove = false;
};

// Reads {metadata?, flags?, additional_name?} of `object` (at `path`) into `input`.
void read_member_fields(const rapidjson::Value& object, const std::vector<std::string>& path,
                        MemberInput& input, FieldErrors& errors) {
  auto at = [&](const char* name) {
    auto full = path;
    full.emplace_back(name);
    return full;
  };
  if (const auto it = object.FindMember("metadata"); it != object.MemberEnd()) {
    input.metadata = read_metadata(it->value, at("metadata"), errors);
  }
  if (const auto it = object.FindMember("flags"); it != object.MemberEnd() && !it->value.IsNull()) {
    if (!it->value.IsUint() || it->value.GetUint() > kLobbyMemberCanLinkLobby) {
      errors.add(at("flags"), {"BASE_TYPE_CHOICES", "Value must be one of {0, 1}."});
    } else {
      input.flags = it->value.GetUint();
    }
  }
  if (const auto it = object.FindMember("additional_name"); it != object.MemberEnd()) {
    input.additional_name_given = true;
    if (it->value.IsNull()) {
      input.additional_name.reset();
    } else if (!it->value.IsString()) {
      errors.add(at("additional_name"), {"BASE_TYPE_STRING", "Must be a string."});
    } else {
      std::string name(it->value.GetString(), it->value.GetStringLength());
      const auto length = utf8_length(name);
      if (length < 1 || length > kLobbyAdditionalNameMax) {
        errors.add(at("additional_name"), length_issue(1, kLobbyAdditionalNameMax));
      } else {
        input.additional_name = std::move(name);
      }
    }
  }
}

// Applies what `input` gives to `member`.
void apply_member_input(LobbyMember& member, const MemberInput& input) {
  if (input.metadata) member.metadata = *input.metadata;
  if (input.flags) member.flags = *input.flags;
  if (input.additional_name_given) member.additional_name = input.additional_name;
}

// A `members` array (POST/PATCH /lobbies, at most 25) or a bulk body (1..25): [{id, ...}].
std::vector<MemberInput> read_member_list(const rapidjson::Value& list, const std::vector<std::string>& path,
                                          bool bulk, const EmulatorState& state, FieldErrors& errors) {
  std::vector<MemberInput> inputs;
  if (!list.IsArray()) {
    errors.add(path, {"BASE_TYPE_ARRAY", "Must be an array."});
    return inputs;
  }
  if (list.Size() > kLobbyBulkMax || (bulk && list.Empty())) {
    errors.add(path, {"BASE_TYPE_BAD_LENGTH", "Must be between " + std::string(bulk ? "1" : "0") + " and " +
                                                  std::to_string(kLobbyBulkMax) + " in length."});
    return inputs;
  }
  std::set<std::string> seen;
  for (rapidjson::SizeType i = 0; i < list.Size(); ++i) {
    const auto& entry = list[i];
    auto entry_path = path;
    entry_path.push_back(std::to_string(i));
    if (!entry.IsObject()) {
      errors.add(entry_path, {"BASE_TYPE_OBJECT", "Must be an object."});
      continue;
    }
    MemberInput input;
    const auto id = entry.FindMember("id");
    auto id_path = entry_path;
    id_path.emplace_back("id");
    if (id == entry.MemberEnd() || !id->value.IsString()) {
      errors.add(id_path, required_field_issue());
      continue;
    }
    input.user_id.assign(id->value.GetString(), id->value.GetStringLength());
    const auto* user = state.find_user(input.user_id);
    if (user == nullptr || user->bot) {
      errors.add(id_path, {"BASE_TYPE_INVALID", "Unknown user."});
      continue;
    }
    if (!seen.insert(input.user_id).second) {
      errors.add(id_path, {"BASE_TYPE_INVALID", "Duplicate member."});
      continue;
    }
    read_member_fields(entry, entry_path, input, errors);
    if (bulk) {
      if (const auto remove = entry.FindMember("remove_member");
          remove != entry.MemberEnd() && !remove->value.IsNull()) {
        if (!remove->value.IsBool()) {
          auto at = entry_path;
          at.emplace_back("remove_member");
          errors.add(at, {"BASE_TYPE_BOOLEAN", "Must be either true or false."});
        } else {
          input.remove = remove->value.GetBool();
        }
      }
    }
    inputs.push_back(std::move(input));
  }
  return inputs;
}

// `idle_timeout_seconds` (5..604800) and `flags` (0 or 1) of a lobby body.
void read_lobby_settings(BodyFields& fields, const rapidjson::Value& body, std::optional<std::int64_t>& idle,
                         std::optional<std::uint32_t>& flags) {
  idle = fields.integer("idle_timeout_seconds", false, kLobbyIdleTimeoutMinS, kLobbyIdleTimeoutMaxS);
  const auto it = body.FindMember("flags");
  if (it != body.MemberEnd() && !it->value.IsNull()) {
    if (!it->value.IsUint() || it->value.GetUint() > 1) {
      fields.add_issue("flags", {"BASE_TYPE_CHOICES", "Value must be one of {0, 1}."});
    } else {
      flags = it->value.GetUint();
    }
  }
}

}  // namespace

void LobbyModule::register_routes() {
  auto bind = [this](HttpResponse (LobbyModule::*handler)(const RouteContext&)) {
    return [this, handler](const RouteContext& context) {
      // Idle lobbies go before anyone can see them (the tick may not have run since the clock moved).
      sweep_idle();
      return (this->*handler)(context);
    };
  };
  // "@me" and "bulk" before "{user_id}": the first registered pattern that matches wins.
  api_router_.add("PUT", "/lobbies", bind(&LobbyModule::api_create_or_join_lobby));
  api_router_.add("POST", "/lobbies", bind(&LobbyModule::api_create_lobby));
  api_router_.add("DELETE", "/lobbies/{lobby_id}/members/@me", bind(&LobbyModule::api_leave_lobby));
  api_router_.add("POST", "/lobbies/{lobby_id}/members/@me/invites",
                  bind(&LobbyModule::api_lobby_invite_self));
  api_router_.add("POST", "/lobbies/{lobby_id}/members/bulk", bind(&LobbyModule::api_bulk_lobby_members));
  api_router_.add("POST", "/lobbies/{lobby_id}/members/{user_id}/invites",
                  bind(&LobbyModule::api_lobby_invite_user));
  api_router_.add("PUT", "/lobbies/{lobby_id}/members/{user_id}", bind(&LobbyModule::api_put_lobby_member));
  api_router_.add("DELETE", "/lobbies/{lobby_id}/members/{user_id}",
                  bind(&LobbyModule::api_delete_lobby_member));
  api_router_.add("PATCH", "/lobbies/{lobby_id}/channel-linking", bind(&LobbyModule::api_link_lobby_channel));
  api_router_.add("GET", "/lobbies/{lobby_id}", bind(&LobbyModule::api_get_lobby));
  api_router_.add("PATCH", "/lobbies/{lobby_id}", bind(&LobbyModule::api_patch_lobby));
  api_router_.add("DELETE", "/lobbies/{lobby_id}", bind(&LobbyModule::api_delete_lobby));
  admin_router_.add("GET", "/lobbies", bind(&LobbyModule::admin_lobbies));
}

// ---- SDK routes (Bearer)
// -----------------------------------------------------------------------------------

HttpResponse LobbyModule::api_create_or_join_lobby(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  if (principal->grant == nullptr) return missing_access();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return *error;
  FieldErrors errors;
  BodyFields fields(body, errors);
  auto secret = fields.string("secret", true);
  if (secret) {
    const auto length = utf8_length(*secret);
    if (length < 1 || length > kLobbySecretMax) {
      fields.add_issue("secret", length_issue(1, kLobbySecretMax));
      secret.reset();
    }
  }
  std::optional<StringMap> lobby_metadata;
  std::optional<StringMap> member_metadata;
  if (const auto* value = fields.value("lobby_metadata", false))
    lobby_metadata = read_metadata(*value, {"lobby_metadata"}, errors);
  if (const auto* value = fields.value("member_metadata", false))
    member_metadata = read_metadata(*value, {"member_metadata"}, errors);
  std::optional<std::int64_t> idle;
  std::optional<std::uint32_t> flags;
  read_lobby_settings(fields, body, idle, flags);
  if (!errors.empty()) return invalid_form_body(errors);

  const auto& app_id = principal->application->id;
  const auto& user_id = principal->user->id;
  if (const auto retry = social_limits_.take(app_id, SocialLimit::lobby_create_join, clock_.now_ms())) {
    return rate_limited_response(*retry, false, "shared");
  }
  const auto now = clock_.now_ms();
  auto* lobby = lobbies_.find_by_secret(app_id, *secret, now);
  if (lobby == nullptr) {
    Lobby created;
    created.id = snowflakes_.next_string();
    created.app_id = app_id;
    created.secret = *secret;
    created.metadata = lobby_metadata.value_or(StringMap{});
    created.flags = flags.value_or(0);
    created.idle_timeout_s = idle.value_or(kLobbyIdleTimeoutDefaultS);
    created.created_ms = now;
    created.idle_since_ms = now;
    const auto id = created.id;
    lobby = &lobbies_.add(std::move(created));
    lobbies_.bind_secret(app_id, *secret, id, now);
  } else {
    if (lobby->member(user_id) == nullptr && lobby->members.size() >= kLobbyMaxMembers) return lobby_full();
    if (lobby_metadata) {
      lobbies_.touch_lobby(lobby->id);
      lobby->metadata = *lobby_metadata;
      dispatch(*lobby, "LOBBY_UPDATE", lobby_json(*lobby, true));
    }
  }
  if (const auto* existing = lobby->member(user_id)) {
    if (member_metadata) {
      auto member = *existing;
      member.metadata = *member_metadata;
      upsert_member(*lobby, std::move(member));
    }
  } else {
    LobbyMember member;
    member.user_id = user_id;
    member.metadata = member_metadata.value_or(StringMap{});
    upsert_member(*lobby, std::move(member));
  }
  return HttpResponse::json(200, lobby_json(*lobby, false));
}

HttpResponse LobbyModule::api_leave_lobby(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  auto* lobby = lobbies_.find(context.params.at("lobby_id"), principal->application->id);
  if (lobby == nullptr || lobby->member(principal->user->id) == nullptr) return unknown_lobby();
  // Lobbies the game's backend made are its to manage: players cannot leave them by themselves.
  if (principal->grant != nullptr && lobby->created_by_backend) return missing_access();
  remove_member(*lobby, principal->user->id);
  return HttpResponse::empty(204);
}

HttpResponse LobbyModule::api_link_lobby_channel(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const bool bot = principal->grant == nullptr;
  auto* lobby = lobbies_.find(context.params.at("lobby_id"), principal->application->id);
  if (lobby == nullptr) return unknown_lobby();
  const auto& user_id = principal->user->id;
  const auto* member = lobby->member(user_id);
  if (!bot && member == nullptr) return unknown_lobby();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return *error;
  std::optional<std::string> channel_id;
  if (const auto it = body.FindMember("channel_id"); it != body.MemberEnd() && !it->value.IsNull()) {
    if (!it->value.IsString()) {
      FieldErrors errors;
      errors.add({"channel_id"}, {"BASE_TYPE_STRING", "Must be a string or null."});
      return invalid_form_body(errors);
    }
    channel_id = std::string(it->value.GetString(), it->value.GetStringLength());
  }
  if (const auto retry = social_limits_.take(lobby->app_id, SocialLimit::channel_link, clock_.now_ms())) {
    return rate_limited_response(*retry, false, "shared");
  }
  if (!bot && (member->flags & kLobbyMemberCanLinkLobby) == 0) {
    return missing_permissions();
  }
  lobbies_.touch_lobby(lobby->id);  // linked, unlinked, or unchanged after a refusal
  if (channel_id) {
    // The channel is looked for in the caller's guilds (the bot user's for a bot token).
    const Guild* guild = nullptr;
    const GuildChannel* channel = nullptr;
    for (const auto* candidate : guilds_.guilds().guilds_of_user(user_id)) {
      const auto it = candidate->channels.find(*channel_id);
      if (it != candidate->channels.end()) {
        guild = candidate;
        channel = &it->second;
        break;
      }
    }
    if (channel == nullptr) return unknown_channel();
    if (channel->type != kTextChannel || (!bot && !can_view_channel(*guild, *channel, user_id))) {
      return missing_permissions();
    }
    lobby->linked_channel = channel->id;
    lobby->linked_guild = guild->id;
  } else {
    lobby->linked_channel.reset();
    lobby->linked_guild.reset();
  }
  dispatch(*lobby, "LOBBY_UPDATE", lobby_json(*lobby, true));
  return HttpResponse::json(200, lobby_json(*lobby, false));
}

HttpResponse LobbyModule::api_lobby_invite_self(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  rapidjson::Document body;
  if (auto error = read_optional_json_object(context.request, body)) return *error;
  const auto* lobby = lobbies_.find(context.params.at("lobby_id"), principal->application->id);
  if (lobby == nullptr || lobby->member(principal->user->id) == nullptr) return unknown_lobby();
  return create_invite(*lobby, principal->user->id);
}

// ---- backend routes (Bot)
// ----------------------------------------------------------------------------------

HttpResponse LobbyModule::api_lobby_invite_user(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  if (principal->grant != nullptr) return missing_access();
  rapidjson::Document body;
  if (auto error = read_optional_json_object(context.request, body)) return *error;
  const auto* lobby = lobbies_.find(context.params.at("lobby_id"), principal->application->id);
  const auto& user_id = context.params.at("user_id");
  if (lobby == nullptr || lobby->member(user_id) == nullptr) return unknown_lobby();
  return create_invite(*lobby, user_id);
}

HttpResponse LobbyModule::api_create_lobby(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  if (principal->grant != nullptr) return missing_access();
  rapidjson::Document body;
  if (auto error = read_optional_json_object(context.request, body)) return *error;
  FieldErrors errors;
  BodyFields fields(body, errors);
  std::optional<StringMap> metadata;
  if (const auto* value = fields.value("metadata", false))
    metadata = read_metadata(*value, {"metadata"}, errors);
  std::optional<std::int64_t> idle;
  std::optional<std::uint32_t> flags;
  read_lobby_settings(fields, body, idle, flags);
  std::vector<MemberInput> inputs;
  if (const auto* list = fields.value("members", false))
    inputs = read_member_list(*list, {"members"}, false, state_, errors);
  if (!errors.empty()) return invalid_form_body(errors);

  const auto now = clock_.now_ms();
  Lobby created;
  created.id = snowflakes_.next_string();
  created.app_id = principal->application->id;
  created.metadata = metadata.value_or(StringMap{});
  created.flags = flags.value_or(0);
  created.idle_timeout_s = idle.value_or(kLobbyIdleTimeoutDefaultS);
  created.created_by_backend = true;
  created.created_ms = now;
  created.idle_since_ms = now;
  for (const auto& input : inputs) {
    LobbyMember member;
    member.user_id = input.user_id;
    apply_member_input(member, input);
    created.members.push_back(std::move(member));
  }
  const auto& lobby = lobbies_.add(std::move(created));
  dispatch(lobby, "LOBBY_CREATE", lobby_json(lobby, true));
  return HttpResponse::json(201, lobby_json(lobby, false));
}

HttpResponse LobbyModule::api_get_lobby(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  if (principal->grant != nullptr) return missing_access();
  const auto* lobby = lobbies_.find(context.params.at("lobby_id"), principal->application->id);
  if (lobby == nullptr) return unknown_lobby();
  return HttpResponse::json(200, lobby_json(*lobby, false));
}

HttpResponse LobbyModule::api_patch_lobby(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  if (principal->grant != nullptr) return missing_access();
  auto* lobby = lobbies_.find(context.params.at("lobby_id"), principal->application->id);
  if (lobby == nullptr) return unknown_lobby();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return *error;
  FieldErrors errors;
  BodyFields fields(body, errors);
  std::optional<StringMap> metadata;
  if (const auto it = body.FindMember("metadata"); it != body.MemberEnd())
    metadata = read_metadata(it->value, {"metadata"}, errors);
  std::optional<std::int64_t> idle;
  std::optional<std::uint32_t> flags;
  read_lobby_settings(fields, body, idle, flags);
  std::optional<std::vector<MemberInput>> inputs;
  if (const auto* list = fields.value("members", false))
    inputs = read_member_list(*list, {"members"}, false, state_, errors);
  if (!errors.empty()) return invalid_form_body(errors);
  if (const auto retry = social_limits_.take(lobby->app_id, SocialLimit::lobby_update, clock_.now_ms())) {
    return rate_limited_response(*retry, false, "shared");
  }

  lobbies_.touch_lobby(lobby->id);
  if (metadata) lobby->metadata = *metadata;
  if (idle) lobby->idle_timeout_s = *idle;
  if (flags) lobby->flags = *flags;
  if (inputs) {
    // `members` replaces the member list: those not named leave, the named ones are added or updated.
    std::vector<std::string> leaving;
    for (const auto& member : lobby->members) {
      const bool named = std::any_of(inputs->begin(), inputs->end(), [&](const MemberInput& input) {
        return input.user_id == member.user_id;
      });
      if (!named) leaving.push_back(member.user_id);
    }
    for (const auto& user_id : leaving)
      remove_member(*lobby, user_id);
    for (const auto& input : *inputs) {
      LobbyMember member;
      if (const auto* existing = lobby->member(input.user_id)) member = *existing;
      member.user_id = input.user_id;
      apply_member_input(member, input);
      upsert_member(*lobby, std::move(member));
    }
  }
  dispatch(*lobby, "LOBBY_UPDATE", lobby_json(*lobby, true));
  return HttpResponse::json(200, lobby_json(*lobby, false));
}

HttpResponse LobbyModule::api_delete_lobby(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  if (principal->grant != nullptr) return missing_access();
  // Safe to call for a lobby that is already gone (openapi): 204 all the same.
  if (lobbies_.find(context.params.at("lobby_id"), principal->application->id) != nullptr)
    delete_lobby(context.params.at("lobby_id"), "deleted");
  return HttpResponse::empty(204);
}

HttpResponse LobbyModule::api_put_lobby_member(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  if (principal->grant != nullptr) return missing_access();
  auto* lobby = lobbies_.find(context.params.at("lobby_id"), principal->application->id);
  if (lobby == nullptr) return unknown_lobby();
  const auto& user_id = context.params.at("user_id");
  const auto* user = state_.find_user(user_id);
  if (user == nullptr || user->bot) return unknown_user();
  rapidjson::Document body;
  if (auto error = read_optional_json_object(context.request, body)) return *error;
  FieldErrors errors;
  MemberInput input;
  input.user_id = user_id;
  read_member_fields(body, {}, input, errors);
  if (!errors.empty()) return invalid_form_body(errors);
  const auto* existing = lobby->member(user_id);
  if (existing == nullptr && lobby->members.size() >= kLobbyMaxMembers) return lobby_full();
  if (const auto retry = social_limits_.take(lobby->app_id, SocialLimit::lobby_update, clock_.now_ms())) {
    return rate_limited_response(*retry, false, "shared");
  }
  LobbyMember member;
  if (existing != nullptr) member = *existing;
  member.user_id = user_id;
  apply_member_input(member, input);
  upsert_member(*lobby, std::move(member));
  return HttpResponse::json(200, member_json(*lobby, *lobby->member(user_id), false));
}

HttpResponse LobbyModule::api_delete_lobby_member(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  if (principal->grant != nullptr) return missing_access();
  auto* lobby = lobbies_.find(context.params.at("lobby_id"), principal->application->id);
  const auto& user_id = context.params.at("user_id");
  if (lobby == nullptr || lobby->member(user_id) == nullptr) return unknown_lobby();
  if (const auto retry = social_limits_.take(lobby->app_id, SocialLimit::lobby_update, clock_.now_ms())) {
    return rate_limited_response(*retry, false, "shared");
  }
  remove_member(*lobby, user_id);
  return HttpResponse::empty(204);
}

HttpResponse LobbyModule::api_bulk_lobby_members(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  if (principal->grant != nullptr) return missing_access();
  auto* lobby = lobbies_.find(context.params.at("lobby_id"), principal->application->id);
  if (lobby == nullptr) return unknown_lobby();
  // The body is an array, which read_json_object refuses.
  if (!has_json_content_type(context.request)) return status_error(415);
  rapidjson::Document body;
  if (!parse_json(context.request.body, body)) {
    return error_response(400, error_code::kInvalidJson, "The request body contains invalid JSON.");
  }
  FieldErrors errors;
  const auto inputs = read_member_list(body, {}, true, state_, errors);
  if (!errors.empty()) return invalid_form_body(errors);
  std::size_t count = lobby->members.size();
  for (const auto& input : inputs) {
    const bool member = lobby->member(input.user_id) != nullptr;
    if (input.remove && member) --count;
    if (!input.remove && !member) ++count;
  }
  if (count > kLobbyMaxMembers) return lobby_full();
  if (const auto retry = social_limits_.take(lobby->app_id, SocialLimit::lobby_update, clock_.now_ms())) {
    return rate_limited_response(*retry, false, "shared");
  }
  std::vector<std::string> changed;
  for (const auto& input : inputs) {
    if (input.remove) {
      remove_member(*lobby, input.user_id);
      continue;
    }
    LobbyMember member;
    if (const auto* existing = lobby->member(input.user_id)) member = *existing;
    member.user_id = input.user_id;
    apply_member_input(member, input);
    upsert_member(*lobby, std::move(member));
    changed.push_back(input.user_id);
  }
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartArray();
                              for (const auto& user_id : changed) {
                                if (const auto* member = lobby->member(user_id))
                                  write_raw(writer, member_json(*lobby, *member, false),
                                            rapidjson::kObjectType);
                              }
                              writer.EndArray();
                            }));
}

// ---- admin
// -------------------------------------------------------------------------------------------------

// Everything about every lobby, for tests: settings, secret binding, idle timer and who is connected.
HttpResponse LobbyModule::admin_lobbies(const RouteContext&) {
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("lobbies");
                              writer.StartArray();
                              for (const auto& [id, lobby] : lobbies_.lobbies) {
                                writer.StartObject();
                                writer.Key("lobby");
                                write_raw(writer, lobby_json(lobby, false), rapidjson::kObjectType);
                                writer.Key("created_by_backend");
                                writer.Bool(lobby.created_by_backend);
                                writer.Key("has_secret");
                                writer.Bool(lobby.secret.has_value());
                                writer.Key("idle_timeout_seconds");
                                writer.Int64(lobby.idle_timeout_s);
                                writer.Key("created_ms");
                                writer.Int64(lobby.created_ms);
                                writer.Key("any_connected");
                                writer.Bool(any_connected(lobby));
                                // While a member is connected the timer stands still: idle from now.
                                writer.Key("idle_since_ms");
                                writer.Int64(lobby.idle_since_ms.value_or(clock_.now_ms()));
                                writer.EndObject();
                              }
                              writer.EndArray();
                              writer.Key("invites");
                              writer.Int64(static_cast<std::int64_t>(std::count_if(
                                  guilds_.invites().all().begin(), guilds_.invites().all().end(),
                                  [](const auto& entry) { return entry.second.for_user_id.has_value(); })));
                              writer.EndObject();
                            }));
}

}  // namespace platformpp::emulator
