// The social side of the platform (docs/social-protocol.md): platform and game relationships with their
// state machine and dispatches to both users, GET /users/{id}, DM channels and activity invites, and the
// admin routes that set a user's profile, flag spammers and approve apps for identify.premium.
#include "core/activity.hpp"

#include <algorithm>

#include "core/api_error.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/validation.hpp"
#include "service/emulator_service.hpp"

namespace platformpp::emulator {

namespace {

namespace relationship_type {
inline constexpr int kNone = 0;
inline constexpr int kFriend = 1;
inline constexpr int kBlocked = 2;
inline constexpr int kIncoming = 3;
inline constexpr int kOutgoing = 4;
}  // namespace relationship_type

// Platform error codes of these routes (docs/social-protocol.md).
namespace social_error {
inline constexpr int kUnknownChannel = 10003;
inline constexpr int kUnknownMessage = 10008;
inline constexpr int kNoSuchRelationship = 10070;
inline constexpr int kCannotMessageUser = 50007;
inline constexpr int kInviteInvalid = 50083;
inline constexpr int kRequestNotAllowed = 80000;
inline constexpr int kNoSuchUsername = 80004;
inline constexpr int kAlreadyFriends = 80007;
}  // namespace social_error

constexpr std::size_t kMessageContentMax = 2000;

HttpResponse no_content() {
  return HttpResponse::empty(204);
}

HttpResponse unknown_user() {
  return error_response(404, error_code::kUnknownUser, "Unknown User");
}

HttpResponse request_not_allowed() {
  return error_response(400, social_error::kRequestNotAllowed, "Friend request not allowed");
}

// PUT/DELETE bodies may be empty (no Content-Type) or a JSON object.
std::optional<HttpResponse> read_optional_object(const HttpRequest& request, rapidjson::Document& body) {
  if (request.body.empty()) {
    body.SetObject();
    return std::nullopt;
  }
  return read_json_object(request, body);
}

std::string removal_json(const std::string& other_id, int type) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("id");
    write_string(writer, other_id);
    writer.Key("type");
    writer.Int(type);
    writer.EndObject();
  });
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

void EmulatorService::register_social_routes() {
  auto bind = [this](HttpResponse (EmulatorService::*handler)(const RouteContext&)) {
    return [this, handler](const RouteContext& context) { return (this->*handler)(context); };
  };
  api_router_.add("GET", "/users/@me/relationships", bind(&EmulatorService::api_list_relationships));
  api_router_.add("POST", "/users/@me/relationships",
                  bind(&EmulatorService::api_add_relationship_by_username));
  api_router_.add("PUT", "/users/@me/relationships/{user_id}", bind(&EmulatorService::api_put_relationship));
  api_router_.add("DELETE", "/users/@me/relationships/{user_id}",
                  bind(&EmulatorService::api_delete_relationship));
  api_router_.add("GET", "/users/@me/game-relationships",
                  bind(&EmulatorService::api_list_game_relationships));
  api_router_.add("POST", "/users/@me/game-relationships",
                  bind(&EmulatorService::api_add_game_relationship_by_username));
  api_router_.add("PUT", "/users/@me/game-relationships/{user_id}",
                  bind(&EmulatorService::api_put_game_relationship));
  api_router_.add("DELETE", "/users/@me/game-relationships/{user_id}",
                  bind(&EmulatorService::api_delete_game_relationship));
  api_router_.add("POST", "/users/@me/channels", bind(&EmulatorService::api_create_dm_channel));
  api_router_.add("GET", "/users/{user_id}", bind(&EmulatorService::api_get_user));
  api_router_.add("POST", "/channels/{channel_id}/messages", bind(&EmulatorService::api_create_message));
  api_router_.add("POST", "/channels/{channel_id}/messages/{message_id}/activity-join",
                  bind(&EmulatorService::api_activity_join));

  admin_router_.add("POST", "/users/{user_id}/profile", bind(&EmulatorService::admin_set_user_profile));
  admin_router_.add("POST", "/users/{user_id}/spammer", bind(&EmulatorService::admin_set_spammer));
  admin_router_.add("POST", "/apps/{app_id}/premium", bind(&EmulatorService::admin_approve_premium));
  admin_router_.add("POST", "/apps/{app_id}/intents", bind(&EmulatorService::admin_set_privileged_intents));
}

// ---- premium_type ----------------------------------------------------------------------------------------

bool EmulatorService::premium_visible(const GatewaySession& session) const {
  const auto* app = state_.find_application(session.app_id);
  return session.premium_scope && app != nullptr && app->premium_approved;
}

// ---- JSON and dispatches ---------------------------------------------------------------------------------

// What platform and game relationship objects share: the other user (as the caller may see them), the type
// and since when.
void EmulatorService::write_relationship_fields(JsonWriter& writer, const std::string& other_id, int type,
                                                std::int64_t since_ms, bool show_premium) const {
  const auto* other = state_.find_user(other_id);
  const auto user = other != nullptr ? user_json(*other, show_premium) : deleted_user_json(other_id);
  writer.Key("id");
  write_string(writer, other_id);
  writer.Key("type");
  writer.Int(type);
  writer.Key("user");
  writer.RawValue(user.c_str(), user.size(), rapidjson::kObjectType);
  writer.Key("since");
  write_string(writer, format_rfc3339_ms(since_ms));
}

std::optional<std::string> EmulatorService::relationship_json(const std::string& user_id,
                                                              const std::string& other_id,
                                                              bool show_premium) const {
  const auto* relationship = state_.find_relationship(user_id, other_id);
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

std::optional<std::string> EmulatorService::game_relationship_json(const std::string& app_id,
                                                                   const std::string& user_id,
                                                                   const std::string& other_id,
                                                                   bool show_premium) const {
  const auto* relationship = state_.find_game_relationship(app_id, user_id, other_id);
  if (relationship == nullptr) return std::nullopt;
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    write_relationship_fields(writer, other_id, relationship->type, relationship->since_ms, show_premium);
    writer.Key("application_id");
    write_string(writer, app_id);
    writer.EndObject();
  });
}

void EmulatorService::dispatch_relationship(const std::string& user_id, const std::string& other_id,
                                            std::string_view type) {
  gateway_dispatch_each(user_id, type, [&](const GatewaySession& session) {
    return relationship_json(user_id, other_id, premium_visible(session));
  });
}

void EmulatorService::dispatch_game_relationship_add(const std::string& app_id, const std::string& user_id,
                                                     const std::string& other_id) {
  gateway_dispatch_each(user_id, "GAME_RELATIONSHIP_ADD",
                        [&](const GatewaySession& session) -> std::optional<std::string> {
                          if (session.app_id != app_id) return std::nullopt;
                          return game_relationship_json(app_id, user_id, other_id, premium_visible(session));
                        });
}

void EmulatorService::dispatch_game_relationship_remove(const std::string& app_id, const std::string& user_id,
                                                        const std::string& other_id) {
  const auto d = "{\"id\":\"" + other_id + "\",\"application_id\":\"" + app_id + "\"}";
  gateway_dispatch_each(user_id, "GAME_RELATIONSHIP_REMOVE",
                        [&](const GatewaySession& session) -> std::optional<std::string> {
                          if (session.app_id != app_id) return std::nullopt;
                          return d;
                        });
}

void EmulatorService::dispatch_user_changed(const std::string& user_id) {
  const auto* user = state_.find_user(user_id);
  if (user == nullptr) return;
  gateway_dispatch_each(user_id, "USER_UPDATE", [&](const GatewaySession& session) {
    return std::optional<std::string>(user_json(*user, premium_visible(session)));
  });
  // Everyone who holds a relationship object of the user (friends, pending requests) gets the new user.
  for (const auto& [other_id, type] : state_.relationships_of(user_id)) {
    if (state_.find_relationship(other_id, user_id) != nullptr)
      dispatch_relationship(other_id, user_id, "RELATIONSHIP_UPDATE");
  }
  gateway_presence_changed(user_id);  // the presence's user carries the name and avatar
}

void EmulatorService::exchange_presences(const std::string& user_id, const std::string& other_id) {
  if (auto presence = presence_update_json(other_id))
    gateway_dispatch_to_user(user_id, "PRESENCE_UPDATE", *presence);
  if (auto presence = presence_update_json(user_id))
    gateway_dispatch_to_user(other_id, "PRESENCE_UPDATE", *presence);
}

std::string EmulatorService::user_application_profiles_json(const std::string& user_id,
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

HttpResponse EmulatorService::api_get_user(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto& id = context.params.at("user_id");
  const User* user = id == "@me" ? principal->user : state_.find_user(id);
  if (user == nullptr) return unknown_user();
  return HttpResponse::json(200, user_json(*user, premium_visible(*principal)));
}

// ---- platform relationships ----------------------------------------------------------------------------

HttpResponse EmulatorService::api_list_relationships(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto& user_id = principal->user->id;
  const bool show_premium = premium_visible(*principal);
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartArray();
                              for (const auto& [other_id, type] : state_.relationships_of(user_id)) {
                                const auto json = relationship_json(user_id, other_id, show_premium);
                                if (json)
                                  writer.RawValue(json->c_str(), json->size(), rapidjson::kObjectType);
                              }
                              writer.EndArray();
                            }));
}

// The user a `{username}` body names (friend requests by name, platform or game): the error to answer when
// the body is malformed or nobody has that name.
std::optional<HttpResponse> EmulatorService::user_named_in_body(const RouteContext& context,
                                                                const User*& user) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return error;
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto username = fields.string("username", true);
  if (!errors.empty()) return invalid_form_body(errors);
  user = state_.find_user_by_username(*username);
  if (user == nullptr) {
    return error_response(400, social_error::kNoSuchUsername, "No users with this username exist.");
  }
  return std::nullopt;
}

HttpResponse EmulatorService::api_add_relationship_by_username(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const User* other = nullptr;
  if (auto error = user_named_in_body(context, other)) return std::move(*error);
  return relationship_put(*principal->user, other->id, false);
}

HttpResponse EmulatorService::api_put_relationship(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  rapidjson::Document body;
  if (auto error = read_optional_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto type = fields.integer("type", false);
  if (type && *type != relationship_type::kFriend && *type != relationship_type::kBlocked)
    fields.add_issue("type", {"BASE_TYPE_CHOICES", "Value must be one of {1, 2}."});
  if (!errors.empty()) return invalid_form_body(errors);
  return relationship_put(*principal->user, context.params.at("user_id"),
                          type == relationship_type::kBlocked);
}

HttpResponse EmulatorService::api_delete_relationship(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  return relationship_delete(*principal->user, context.params.at("user_id"));
}

HttpResponse EmulatorService::relationship_put(const User& user, const std::string& other_id, bool block) {
  using namespace relationship_type;
  const auto* other = state_.find_user(other_id);
  if (other == nullptr) return unknown_user();
  if (other->id == user.id) return request_not_allowed();
  const auto now = clock_.now_ms();
  const int mine = state_.relationship_type(user.id, other_id);
  const int theirs = state_.relationship_type(other_id, user.id);

  if (block) {
    if (mine == kBlocked) return no_content();
    // Blocking ends the friendship and any pending request; the other side keeps its own block, if any.
    state_.set_relationship(user.id, other_id, kBlocked, now);
    if (theirs != kNone && theirs != kBlocked) {
      state_.set_relationship(other_id, user.id, kNone);
      gateway_dispatch_to_user(other_id, "RELATIONSHIP_REMOVE", removal_json(user.id, theirs));
    }
    dispatch_relationship(user.id, other_id, "RELATIONSHIP_ADD");
    remove_game_relationships_between(user.id, other_id);
    return no_content();
  }

  if (mine == kFriend) return error_response(400, social_error::kAlreadyFriends, "You are already friends.");
  if (mine == kBlocked || theirs == kBlocked || other->bot) return request_not_allowed();
  if (mine == kIncoming) {  // accept
    state_.set_relationship(user.id, other_id, kFriend, now);
    state_.set_relationship(other_id, user.id, kFriend, now);
    dispatch_relationship(user.id, other_id, "RELATIONSHIP_ADD");
    dispatch_relationship(other_id, user.id, "RELATIONSHIP_ADD");
    exchange_presences(user.id, other_id);
    return no_content();
  }
  if (mine == kOutgoing) return no_content();  // already requested
  state_.set_relationship(user.id, other_id, kOutgoing, now);
  state_.set_relationship(other_id, user.id, kIncoming, now, user.spammer);
  dispatch_relationship(user.id, other_id, "RELATIONSHIP_ADD");
  dispatch_relationship(other_id, user.id, "RELATIONSHIP_ADD");
  return no_content();
}

HttpResponse EmulatorService::relationship_delete(const User& user, const std::string& other_id) {
  using namespace relationship_type;
  if (state_.find_user(other_id) == nullptr) return unknown_user();
  const int mine = state_.relationship_type(user.id, other_id);
  if (mine == kNone) {
    return error_response(404, social_error::kNoSuchRelationship, "Unknown Relationship");
  }
  state_.set_relationship(user.id, other_id, kNone);
  gateway_dispatch_to_user(user.id, "RELATIONSHIP_REMOVE", removal_json(other_id, mine));
  if (mine != kBlocked) {  // remove a friend, reject or cancel: both sides go
    const int theirs = state_.relationship_type(other_id, user.id);
    if (theirs != kNone && theirs != kBlocked) {
      state_.set_relationship(other_id, user.id, kNone);
      gateway_dispatch_to_user(other_id, "RELATIONSHIP_REMOVE", removal_json(user.id, theirs));
    }
  }
  return no_content();
}

// ---- game relationships ----------------------------------------------------------------------------------

HttpResponse EmulatorService::api_list_game_relationships(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto& user_id = principal->user->id;
  const auto& app_id = principal->application->id;
  const bool show_premium = premium_visible(*principal);
  return HttpResponse::json(
      200, to_json([&](JsonWriter& writer) {
        writer.StartArray();
        for (const auto& [other_id, relationship] : state_.game_relationships_of(app_id, user_id)) {
          const auto json = game_relationship_json(app_id, user_id, other_id, show_premium);
          if (json) writer.RawValue(json->c_str(), json->size(), rapidjson::kObjectType);
        }
        writer.EndArray();
      }));
}

HttpResponse EmulatorService::api_add_game_relationship_by_username(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const User* other = nullptr;
  if (auto error = user_named_in_body(context, other)) return std::move(*error);
  return game_relationship_put(*principal->user, principal->application->id, other->id);
}

HttpResponse EmulatorService::api_put_game_relationship(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  rapidjson::Document body;
  if (auto error = read_optional_object(context.request, body)) return std::move(*error);
  return game_relationship_put(*principal->user, principal->application->id, context.params.at("user_id"));
}

HttpResponse EmulatorService::api_delete_game_relationship(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  return game_relationship_delete(*principal->user, principal->application->id, context.params.at("user_id"));
}

HttpResponse EmulatorService::game_relationship_put(const User& user, const std::string& app_id,
                                                    const std::string& other_id) {
  using namespace relationship_type;
  const auto* other = state_.find_user(other_id);
  if (other == nullptr) return unknown_user();
  if (other->id == user.id || other->bot) return request_not_allowed();
  // A platform block stops game requests too.
  if (state_.relationship_type(user.id, other_id) == kBlocked ||
      state_.relationship_type(other_id, user.id) == kBlocked) {
    return request_not_allowed();
  }
  const auto now = clock_.now_ms();
  const auto* mine = state_.find_game_relationship(app_id, user.id, other_id);
  const int type = mine == nullptr ? kNone : mine->type;
  if (type == kFriend) return error_response(400, social_error::kAlreadyFriends, "You are already friends.");
  if (type == kOutgoing) return no_content();
  const bool accept = type == kIncoming;
  state_.set_game_relationship(app_id, user.id, other_id, accept ? kFriend : kOutgoing, now);
  state_.set_game_relationship(app_id, other_id, user.id, accept ? kFriend : kIncoming, now);
  dispatch_game_relationship_add(app_id, user.id, other_id);
  dispatch_game_relationship_add(app_id, other_id, user.id);
  return no_content();
}

HttpResponse EmulatorService::game_relationship_delete(const User& user, const std::string& app_id,
                                                       const std::string& other_id) {
  if (state_.find_user(other_id) == nullptr) return unknown_user();
  if (state_.find_game_relationship(app_id, user.id, other_id) == nullptr) {
    return error_response(404, social_error::kNoSuchRelationship, "Unknown Relationship");
  }
  state_.set_game_relationship(app_id, user.id, other_id, relationship_type::kNone);
  dispatch_game_relationship_remove(app_id, user.id, other_id);
  if (state_.find_game_relationship(app_id, other_id, user.id) != nullptr) {
    state_.set_game_relationship(app_id, other_id, user.id, relationship_type::kNone);
    dispatch_game_relationship_remove(app_id, other_id, user.id);
  }
  return no_content();
}

void EmulatorService::remove_game_relationships_between(const std::string& user_id,
                                                        const std::string& other_id) {
  for (const auto& app_id : state_.game_relationship_apps(user_id, other_id)) {
    for (const auto& [from, to] : {std::pair{user_id, other_id}, std::pair{other_id, user_id}}) {
      if (state_.find_game_relationship(app_id, from, to) == nullptr) continue;
      state_.set_game_relationship(app_id, from, to, relationship_type::kNone);
      dispatch_game_relationship_remove(app_id, from, to);
    }
  }
}

// ---- DM channels and activity invites --------------------------------------------------------------------

// message_json: message_routes.cpp.

HttpResponse EmulatorService::api_create_dm_channel(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto recipient_id = fields.string("recipient_id", true);
  if (!errors.empty()) return invalid_form_body(errors);
  const auto* recipient = state_.find_user(*recipient_id);
  if (recipient == nullptr) return unknown_user();
  const auto& user_id = principal->user->id;
  if (recipient->id == user_id) {
    return error_response(400, social_error::kCannotMessageUser, "Cannot send messages to this user");
  }
  const auto* channel = state_.find_dm_channel_between(user_id, recipient->id);
  if (channel == nullptr) {
    channel = &state_.add_dm_channel(DmChannel{snowflakes_.next_string(), {user_id, recipient->id}});
  }
  const auto recipient_text = user_json(*recipient, premium_visible(*principal));
  return HttpResponse::json(
      200, to_json([&](JsonWriter& writer) {
        writer.StartObject();
        writer.Key("id");
        write_string(writer, channel->id);
        writer.Key("type");
        writer.Int(1);
        writer.Key("flags");
        writer.Int(0);
        writer.Key("last_message_id");
        if (const auto messages = state_.channel_messages(channel->id); !messages.empty()) {
          write_string(writer, messages.back()->id);
        } else {
          writer.Null();
        }
        writer.Key("recipients");
        writer.StartArray();
        writer.RawValue(recipient_text.c_str(), recipient_text.size(), rapidjson::kObjectType);
        writer.EndArray();
        writer.EndObject();
      }));
}

HttpResponse EmulatorService::api_create_message(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto* channel = state_.find_dm_channel(context.params.at("channel_id"));
  if (channel == nullptr) return error_response(404, social_error::kUnknownChannel, "Unknown Channel");
  const auto& user_id = principal->user->id;
  const auto& recipients = channel->recipient_ids;
  if (std::find(recipients.begin(), recipients.end(), user_id) == recipients.end()) {
    return error_response(403, error_code::kMissingAccess, "Missing Access");
  }

  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  auto content = fields.string("content", false);
  const auto application_id = fields.string("application_id", false);
  std::optional<MessageActivity> activity;
  if (const auto* raw = fields.value("activity", false)) {
    if (!raw->IsObject()) {
      fields.add_issue("activity", {"DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType"});
    } else {
      FieldErrors ignored;
      BodyFields activity_fields(*raw, ignored);
      const auto type = activity_fields.integer("type", false);
      const auto party_id = activity_fields.string("party_id", false);
      const auto session_id = activity_fields.string("session_id", false);
      if (!type || (*type != 1 && *type != 5))
        errors.add({"activity", "type"}, {"BASE_TYPE_CHOICES", "Value must be one of {1, 5}."});
      if (!party_id || party_id->empty()) errors.add({"activity", "party_id"}, required_field_issue());
      if (errors.empty()) activity = MessageActivity{static_cast<int>(*type), *party_id, session_id};
    }
    if (!application_id) fields.add_issue("application_id", required_field_issue());
  } else if (!content || content->empty()) {
    fields.add_issue("content", required_field_issue());
  }
  if (content && utf8_length(*content) > kMessageContentMax)
    fields.add_issue("content", {"BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length."});
  MessageInput input;
  read_message_extras(body, input, errors);
  if (!errors.empty()) return invalid_form_body(errors);
  if (application_id && state_.find_application(*application_id) == nullptr) {
    return error_response(404, error_code::kUnknownApplication, "Unknown Application");
  }
  // A retry of a message that was created (its answer lost) gets that message, whatever changed since.
  if (auto earlier = nonce_duplicate(channel->id, user_id, input))
    return HttpResponse::json(200, message_json(*earlier));

  const auto& other_id = recipients[0] == user_id ? recipients[1] : recipients[0];
  const int mine = state_.relationship_type(user_id, other_id);
  const int theirs = state_.relationship_type(other_id, user_id);
  // Blocks stop every message; only friends may send activity invites.
  if (mine == relationship_type::kBlocked || theirs == relationship_type::kBlocked ||
      (activity && mine != relationship_type::kFriend)) {
    return error_response(400, social_error::kCannotMessageUser, "Cannot send messages to this user");
  }
  // The game whose sessions count as "online in the game": the caller's token's application.
  const std::string token_app = principal->application != nullptr ? principal->application->id : "";
  bool ephemeral = false;
  if (!activity) {
    const auto allowed = dm_allowed(user_id, other_id, channel->id, token_app);
    if (!allowed) {
      return error_response(400, social_error::kCannotMessageUser, "Cannot send messages to this user");
    }
    ephemeral = *allowed;
  }
  if (auto limited = take_social_limit(token_app, SocialLimit::dm)) return std::move(*limited);

  Message message;
  message.id = snowflakes_.next_string();
  message.channel_id = channel->id;
  message.author_id = user_id;
  message.content = content.value_or("");
  message.timestamp_ms = clock_.now_ms();
  message.application_id = application_id;
  message.activity = std::move(activity);
  message.nonce = std::move(input.nonce);
  message.nonce_is_number = input.nonce_is_number;
  message.metadata = std::move(input.metadata);
  message.recipient_id = other_id;
  if (ephemeral) message.flags |= kMessageFlagEphemeral;
  if (message.nonce) state_.remember_nonce(message, kNonceWindowMs);
  // Ephemeral DMs are delivered, never kept: no history, no edit.
  const auto json = message_json(ephemeral ? message : state_.add_message(std::move(message)));
  gateway_dispatch_to_user(user_id, "MESSAGE_CREATE", json);
  gateway_dispatch_to_user(other_id, "MESSAGE_CREATE", json);
  return HttpResponse::json(200, json);
}

std::vector<std::string> EmulatorService::current_activities(std::string_view user_id) const {
  std::vector<std::string> result;
  if (gateway_user_online(user_id)) {
    if (const auto it = presences_.find(std::string(user_id)); it != presences_.end())
      result.push_back(it->second.activities);
  }
  for (const auto& [connection_id, owner] : ipc_activity_users_) {
    if (owner != user_id) continue;
    const auto connection = ipc_connections_.find(connection_id);
    if (connection != ipc_connections_.end() && connection->second.activity)
      result.push_back("[" + *connection->second.activity + "]");
  }
  return result;
}

HttpResponse EmulatorService::api_activity_join(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto* channel = state_.find_dm_channel(context.params.at("channel_id"));
  if (channel == nullptr) return error_response(404, social_error::kUnknownChannel, "Unknown Channel");
  const auto& recipients = channel->recipient_ids;
  if (std::find(recipients.begin(), recipients.end(), principal->user->id) == recipients.end()) {
    return error_response(403, error_code::kMissingAccess, "Missing Access");
  }
  const auto* message = state_.find_message(channel->id, context.params.at("message_id"));
  if (message == nullptr) return error_response(404, social_error::kUnknownMessage, "Unknown Message");
  const auto invalid = [] {
    return error_response(400, social_error::kInviteInvalid, "Invite no longer valid");
  };
  if (!message->activity) return invalid();
  // The sender's CURRENT activity decides: an invite to a party they left is dead.
  for (const auto& text : current_activities(message->author_id)) {
    rapidjson::Document activities;
    if (!parse_json(text, activities) || !activities.IsArray()) continue;
    for (const auto& activity : activities.GetArray()) {
      if (!activity.IsObject()) continue;
      const auto party = activity.FindMember("party");
      if (party == activity.MemberEnd() || !party->value.IsObject()) continue;
      const auto party_id = party->value.FindMember("id");
      if (party_id == party->value.MemberEnd() || !party_id->value.IsString() ||
          std::string_view(party_id->value.GetString(), party_id->value.GetStringLength()) !=
              message->activity->party_id) {
        continue;
      }
      const auto secrets = activity.FindMember("secrets");
      if (secrets == activity.MemberEnd() || !secrets->value.IsObject()) continue;
      const auto join = secrets->value.FindMember("join");
      if (join == secrets->value.MemberEnd() || !join->value.IsString()) continue;
      return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                                  writer.StartObject();
                                  writer.Key("secret");
                                  writer.String(join->value.GetString(), join->value.GetStringLength());
                                  writer.EndObject();
                                }));
    }
  }
  return invalid();
}

// ---- admin -----------------------------------------------------------------------------------------------

HttpResponse EmulatorService::admin_set_user_profile(const RouteContext& context) {
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

HttpResponse EmulatorService::admin_set_spammer(const RouteContext& context) {
  User* user = state_.find_user_mutable(context.params.at("user_id"));
  if (user == nullptr) return unknown_user();
  rapidjson::Document body;
  if (auto error = read_optional_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto spammer = fields.boolean("spammer", false).value_or(true);
  if (!errors.empty()) return invalid_form_body(errors);
  user->spammer = spammer;
  // Requests already pending from the user are (un)flagged as well.
  for (const auto& [other_id, type] : state_.relationships_of(user->id)) {
    const auto* theirs = state_.find_relationship(other_id, user->id);
    if (type == relationship_type::kOutgoing && theirs != nullptr &&
        theirs->type == relationship_type::kIncoming)
      state_.set_relationship(other_id, user->id, relationship_type::kIncoming, theirs->since_ms, spammer);
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

// {guild_members?, presences?, message_content?}: turns the application's privileged Gateway intents on or
// off (the developer portal's switches); answers them with the application's flags.
HttpResponse EmulatorService::admin_set_privileged_intents(const RouteContext& context) {
  Application* app = state_.find_application_mutable(context.params.at("app_id"));
  if (app == nullptr) return error_response(404, error_code::kUnknownApplication, "Unknown Application");
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto members = fields.boolean("guild_members", false);
  const auto presences = fields.boolean("presences", false);
  const auto content = fields.boolean("message_content", false);
  if (!errors.empty()) return invalid_form_body(errors);
  app->intent_guild_members = members.value_or(app->intent_guild_members);
  app->intent_presences = presences.value_or(app->intent_presences);
  app->intent_message_content = content.value_or(app->intent_message_content);
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("guild_members");
                              writer.Bool(app->intent_guild_members);
                              writer.Key("presences");
                              writer.Bool(app->intent_presences);
                              writer.Key("message_content");
                              writer.Bool(app->intent_message_content);
                              writer.EndObject();
                            }));
}

HttpResponse EmulatorService::admin_approve_premium(const RouteContext& context) {
  Application* app = state_.find_application_mutable(context.params.at("app_id"));
  if (app == nullptr) return error_response(404, error_code::kUnknownApplication, "Unknown Application");
  rapidjson::Document body;
  if (auto error = read_optional_object(context.request, body)) return std::move(*error);
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

}  // namespace platformpp::emulator
