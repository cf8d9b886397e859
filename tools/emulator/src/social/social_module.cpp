// The social side of the platform (docs/social-protocol.md) but relationships' state machine
// (relationship_routes.cpp): users (GET/PATCH /users/@me, GET /users/{id}), relationship objects and their
// dispatches, READY's relationships, and the admin routes that set a user's profile, flag spammers, approve
// apps for identify.premium and make friends.
#include "social/social_module.hpp"

#include <algorithm>

#include "core/api_error.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/user_json.hpp"
#include "core/validation.hpp"

namespace platformpp::emulator {

namespace {

std::string_view trim_whitespace(std::string_view text) {
  constexpr std::string_view kWhitespace = " \t\n\r\f\v";
  const auto first = text.find_first_not_of(kWhitespace);
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(kWhitespace);
  return text.substr(first, last - first + 1);
}

// A member of an admin body that may be absent (leave as is), null (clear) or a string.
enum class Edit { keep, clear, set };
Edit string_edit(const rapidjson::Value& body, const char* name, std::string& value, FieldErrors& errors) {
  const auto it = body.FindMember(name);
  if (it == body.MemberEnd()) return Edit::keep;
  if (it->value.IsNull()) return Edit::clear;
  if (!it->value.IsString()) {
    errors.add({name}, {"BASE_TYPE_STRING", "Must be a string or null."});
    return Edit::keep;
  }
  value.assign(it->value.GetString(), it->value.GetStringLength());
  return Edit::set;
}

}  // namespace

SocialModule::SocialModule(ServiceContext& context, GatewayModule& gateway, PresenceModule& presence)
    : FeatureModule(context), gateway_(gateway), presence_(presence) {
  relationships_.register_documents(changes_);
  state_.add_user_removal_listener(relationships_);
  api_router_.add("GET", "/users/@me", bind(&SocialModule::api_get_current_user));
  api_router_.add("PATCH", "/users/@me", bind(&SocialModule::api_patch_current_user));
  api_router_.add("GET", "/users/@me/relationships", bind(&SocialModule::api_list_relationships));
  api_router_.add("POST", "/users/@me/relationships", bind(&SocialModule::api_add_relationship_by_username));
  api_router_.add("PUT", "/users/@me/relationships/{user_id}", bind(&SocialModule::api_put_relationship));
  api_router_.add("DELETE", "/users/@me/relationships/{user_id}",
                  bind(&SocialModule::api_delete_relationship));
  api_router_.add("GET", "/users/@me/game-relationships", bind(&SocialModule::api_list_game_relationships));
  api_router_.add("POST", "/users/@me/game-relationships",
                  bind(&SocialModule::api_add_game_relationship_by_username));
  api_router_.add("PUT", "/users/@me/game-relationships/{user_id}",
                  bind(&SocialModule::api_put_game_relationship));
  api_router_.add("DELETE", "/users/@me/game-relationships/{user_id}",
                  bind(&SocialModule::api_delete_game_relationship));
  api_router_.add("GET", "/users/{user_id}", bind(&SocialModule::api_get_user));

  admin_router_.add("POST", "/friendships", bind(&SocialModule::admin_make_friends));
  admin_router_.add("POST", "/users/{user_id}/profile", bind(&SocialModule::admin_set_user_profile));
  admin_router_.add("POST", "/users/{user_id}/spammer", bind(&SocialModule::admin_set_spammer));
  admin_router_.add("POST", "/apps/{app_id}/premium", bind(&SocialModule::admin_approve_premium));
}

// ---- PresenceAudience
// --------------------------------------------------------------------------------------

std::vector<std::string> SocialModule::friends_of(std::string_view user_id) const {
  std::vector<std::string> friends;
  for (const auto& [other_id, type] : relationships_.relationships_of(user_id)) {
    if (type == relationship_type::kFriend) friends.push_back(other_id);
  }
  return friends;
}

std::vector<std::pair<std::string, std::string>> SocialModule::game_friends_of(
    std::string_view user_id) const {
  return relationships_.game_friends_of(user_id);
}

bool SocialModule::is_friend(std::string_view user_id, std::string_view other_id) const {
  return relationships_.relationship_type(user_id, other_id) == relationship_type::kFriend;
}

// ---- GatewayListener
// ---------------------------------------------------------------------------------------

// READY's relationships and game relationships (as the session's token may see their users), and the user's
// external identities in the session's application.
void SocialModule::fill_ready(const GatewaySession& session, ReadyContent& ready) {
  const bool show_premium = premium_visible(session);
  const auto& user_id = session.user_id;
  const auto& app_id = session.app_id;
  ready.relationships = to_json([&](JsonWriter& writer) {
    writer.StartArray();
    for (const auto& [other_id, type] : relationships_.relationships_of(user_id)) {
      const auto json = relationship_json(user_id, other_id, show_premium);
      if (json) write_raw(writer, *json, rapidjson::kObjectType);
    }
    writer.EndArray();
  });
  ready.game_relationships = to_json([&](JsonWriter& writer) {
    writer.StartArray();
    for (const auto& [other_id, relationship] : relationships_.game_relationships_of(app_id, user_id)) {
      const auto json = game_relationship_json(app_id, user_id, other_id, show_premium);
      if (json) write_raw(writer, *json, rapidjson::kObjectType);
    }
    writer.EndArray();
  });
  ready.user_application_profiles = user_application_profiles_json(user_id, app_id);
}

// ---- premium_type ----------------------------------------------------------------------------------------

bool SocialModule::premium_visible(const GatewaySession& session) const {
  const auto* app = state_.find_application(session.app_id);
  return session.premium_scope && app != nullptr && app->premium_approved;
}

// ---- JSON and dispatches ---------------------------------------------------------------------------------

// What platform and game relationship objects share: the other user (as the caller may see them), the type
// and since when.
void SocialModule::write_relationship_fields(JsonWriter& writer, const std::string& other_id, int type,
                                             std::int64_t since_ms, bool show_premium) const {
  const auto* other = state_.find_user(other_id);
  const auto user = other != nullptr ? user_json(*other, show_premium) : deleted_user_json(other_id);
  writer.Key("id");
  write_string(writer, other_id);
  writer.Key("type");
  writer.Int(type);
  writer.Key("user");
  write_raw(writer, user, rapidjson::kObjectType);
  writer.Key("since");
  write_string(writer, format_rfc3339_ms(since_ms));
}

std::optional<std::string> SocialModule::relationship_json(const std::string& user_id,
                                                           const std::string& other_id,
                                                           bool show_premium) const {
  const auto* relationship = relationships_.find_relationship(user_id, other_id);
  if (relationship == nullptr) return std::nullopt;
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    write_relationship_fields(writer, other_id, relationship->type, relationship->since_ms, show_premium);
    writer.Key("is_spam_request");
    writer.Bool(relationship->spam_request);
    writer.Key("nickname");
    writer.Null();
    writer.EndObject();
  });
}

std::optional<std::string> SocialModule::game_relationship_json(const std::string& app_id,
                                                                const std::string& user_id,
                                                                const std::string& other_id,
                                                                bool show_premium) const {
  const auto* relationship = relationships_.find_game_relationship(app_id, user_id, other_id);
  if (relationship == nullptr) return std::nullopt;
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    write_relationship_fields(writer, other_id, relationship->type, relationship->since_ms, show_premium);
    writer.Key("application_id");
    write_string(writer, app_id);
    writer.EndObject();
  });
}

void SocialModule::dispatch_relationship(const std::string& user_id, const std::string& other_id,
                                         std::string_view type) {
  gateway_.dispatch_each(user_id, type, [&](const GatewaySession& session) {
    return relationship_json(user_id, other_id, premium_visible(session));
  });
}

void SocialModule::dispatch_game_relationship_add(const std::string& app_id, const std::string& user_id,
                                                  const std::string& other_id) {
  gateway_.dispatch_each(user_id, "GAME_RELATIONSHIP_ADD",
                         [&](const GatewaySession& session) -> std::optional<std::string> {
                           if (session.app_id != app_id) return std::nullopt;
                           return game_relationship_json(app_id, user_id, other_id, premium_visible(session));
                         });
}

void SocialModule::dispatch_game_relationship_remove(const std::string& app_id, const std::string& user_id,
                                                     const std::string& other_id) {
  const auto d = "{\"id\":\"" + other_id + "\",\"application_id\":\"" + app_id + "\"}";
  gateway_.dispatch_each(user_id, "GAME_RELATIONSHIP_REMOVE",
                         [&](const GatewaySession& session) -> std::optional<std::string> {
                           if (session.app_id != app_id) return std::nullopt;
                           return d;
                         });
}

void SocialModule::dispatch_user_changed(const std::string& user_id) {
  const auto* user = state_.find_user(user_id);
  if (user == nullptr) return;
  gateway_.dispatch_each(user_id, "USER_UPDATE", [&](const GatewaySession& session) {
    return std::optional<std::string>(user_json(*user, premium_visible(session)));
  });
  // Everyone who holds a relationship object of the user (friends, pending requests) gets the new user.
  for (const auto& [other_id, type] : relationships_.relationships_of(user_id)) {
    if (relationships_.find_relationship(other_id, user_id) != nullptr)
      dispatch_relationship(other_id, user_id, "RELATIONSHIP_UPDATE");
  }
  presence_.changed(user_id);  // the presence's user carries the name and avatar
}

std::string SocialModule::user_application_profiles_json(const std::string& user_id,
                                                         const std::string& app_id) {
  const auto* user = state_.find_user(user_id);
  return to_json([&](JsonWriter& writer) {
    writer.StartArray();
    for (const auto* identity : state_.identities_of_user(user_id)) {
      if (identity->key.app_id != app_id) continue;
      writer.StartObject();
      writer.Key("avatar_hash");
      writer.Null();
      writer.Key("metadata");
      writer.StartObject();
      writer.EndObject();
      writer.Key("provider_id");
      writer.Null();
      writer.Key("provider_issued_user_id");
      write_string(writer, identity->key.external_user_id);
      writer.Key("provider_type");
      write_string(writer, identity->key.type);
      writer.Key("username");
      if (user != nullptr) {
        write_string(writer, user->global_name.value_or(user->username));
      } else {
        writer.Null();
      }
      writer.EndObject();
    }
    writer.EndArray();
  });
}

// ---- users -----------------------------------------------------------------------------------------------

HttpResponse SocialModule::api_get_user(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto& id = context.params.at("user_id");
  const User* user = id == "@me" ? principal->user : state_.find_user(id);
  if (user == nullptr) return unknown_user();
  return HttpResponse::json(200, user_json(*user, premium_visible(*principal)));
}

// ---- users ---------------------------------------------------------------------------------------------

HttpResponse SocialModule::api_get_current_user(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  return HttpResponse::json(200, user_json(*principal->user, premium_visible(*principal), true));
}

// A provisional account's display name ({"global_name"}); regular accounts edit their profile on the
// platform, not through a game, and bot profiles are not modelled: both get 403 50001.
HttpResponse SocialModule::api_patch_current_user(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  if (principal->grant == nullptr || !principal->user->provisional) {
    return missing_access();
  }
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  auto global_name = fields.string("global_name", true);
  std::string trimmed;
  if (global_name) {
    trimmed = trim_whitespace(*global_name);
    if (auto issue = check_global_name(trimmed)) fields.add_issue("global_name", std::move(*issue));
  }
  if (!errors.empty()) return invalid_form_body(errors);
  User* user = state_.find_user_mutable(principal->user->id);
  const bool changed = user->global_name != trimmed;
  user->global_name = std::move(trimmed);
  if (changed) dispatch_user_changed(user->id);
  return HttpResponse::json(200, user_json(*user, premium_visible(*principal), true));
}

// ---- admin -----------------------------------------------------------------------------------------------

HttpResponse SocialModule::admin_set_user_profile(const RouteContext& context) {
  User* user = state_.find_user_mutable(context.params.at("user_id"));
  if (user == nullptr) return unknown_user();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  std::string global_name;
  std::string avatar;
  std::string tag;
  const auto name_edit = string_edit(body, "global_name", global_name, errors);
  if (name_edit == Edit::set) {
    if (auto issue = check_global_name(global_name)) fields.add_issue("global_name", std::move(*issue));
  }
  const auto avatar_edit = string_edit(body, "avatar", avatar, errors);
  const auto tag_edit = string_edit(body, "tag", tag, errors);
  if (tag_edit == Edit::set && (utf8_length(tag) < 1 || utf8_length(tag) > 4))
    fields.add_issue("tag", {"BASE_TYPE_BAD_LENGTH", "Must be between 1 and 4 in length."});
  const auto guild_id = fields.string("identity_guild_id", false);
  const auto badge = fields.string("badge", false);
  const auto premium_type = fields.integer("premium_type", false, 0, 4);
  if (!errors.empty()) return invalid_form_body(errors);

  const auto before = user_json(*user, true);
  if (name_edit != Edit::keep)
    user->global_name = name_edit == Edit::set ? std::optional(global_name) : std::nullopt;
  if (avatar_edit != Edit::keep)
    user->avatar = avatar_edit == Edit::set ? std::optional(avatar) : std::nullopt;
  if (tag_edit == Edit::clear) user->primary_guild.reset();
  if (tag_edit == Edit::set) {
    PrimaryGuild guild = user->primary_guild.value_or(PrimaryGuild{});
    guild.tag = tag;
    if (guild_id) guild.identity_guild_id = *guild_id;
    if (guild.identity_guild_id.empty()) guild.identity_guild_id = snowflakes_.next_string();
    if (badge) guild.badge = *badge;
    user->primary_guild = std::move(guild);
  }
  if (premium_type) user->premium_type = static_cast<int>(*premium_type);
  const auto after = user_json(*user, true);
  if (after != before) dispatch_user_changed(user->id);
  return HttpResponse::json(200, after);
}

HttpResponse SocialModule::admin_set_spammer(const RouteContext& context) {
  User* user = state_.find_user_mutable(context.params.at("user_id"));
  if (user == nullptr) return unknown_user();
  rapidjson::Document body;
  if (auto error = read_optional_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto spammer = fields.boolean("spammer", false).value_or(true);
  if (!errors.empty()) return invalid_form_body(errors);
  user->spammer = spammer;
  // Requests already pending from the user are (un)flagged as well.
  for (const auto& [other_id, type] : relationships_.relationships_of(user->id)) {
    const auto* theirs = relationships_.find_relationship(other_id, user->id);
    if (type == relationship_type::kOutgoing && theirs != nullptr &&
        theirs->type == relationship_type::kIncoming)
      relationships_.set_relationship(other_id, user->id, relationship_type::kIncoming, theirs->since_ms,
                                      spammer);
  }
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("user_id");
                              write_string(writer, user->id);
                              writer.Key("spammer");
                              writer.Bool(spammer);
                              writer.EndObject();
                            }));
}

HttpResponse SocialModule::admin_approve_premium(const RouteContext& context) {
  Application* app = state_.find_application_mutable(context.params.at("app_id"));
  if (app == nullptr) return unknown_application();
  rapidjson::Document body;
  if (auto error = read_optional_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto approved = fields.boolean("approved", false).value_or(true);
  if (!errors.empty()) return invalid_form_body(errors);
  app->premium_approved = approved;
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("application_id");
                              write_string(writer, app->id);
                              writer.Key("approved");
                              writer.Bool(approved);
                              writer.EndObject();
                            }));
}

HttpResponse SocialModule::admin_make_friends(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto user_id = fields.string("user_id", true);
  const auto other_id = fields.string("other_user_id", true);
  if (user_id && other_id && *user_id == *other_id) {
    fields.add_issue("other_user_id", {"BASE_TYPE_INVALID", "A user cannot befriend themself."});
  }
  if (!errors.empty()) return invalid_form_body(errors);
  if (state_.find_user(*user_id) == nullptr || state_.find_user(*other_id) == nullptr) {
    return unknown_user();
  }
  const auto now = clock_.now_ms();
  relationships_.set_relationship(*user_id, *other_id, relationship_type::kFriend, now);
  relationships_.set_relationship(*other_id, *user_id, relationship_type::kFriend, now);
  dispatch_relationship(*user_id, *other_id, "RELATIONSHIP_ADD");
  dispatch_relationship(*other_id, *user_id, "RELATIONSHIP_ADD");
  presence_.exchange(*user_id, *other_id);
  return HttpResponse::json(
      200, "{\"user_id\":\"" + *user_id + "\",\"other_user_id\":\"" + *other_id + "\",\"type\":1}");
}

}  // namespace platformpp::emulator
