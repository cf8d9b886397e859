// Relationships' state machine (docs/social-protocol.md): platform relationships (requests, accepting,
// blocking, removing) and game relationships of an application, with their dispatches to both users.
#include "core/api_error.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "social/social_module.hpp"

namespace platformpp::emulator {

namespace {

// Platform error codes of these routes (docs/social-protocol.md).
namespace social_error {
inline constexpr int kNoSuchRelationship = 10070;
inline constexpr int kRequestNotAllowed = 80000;
inline constexpr int kNoSuchUsername = 80004;
inline constexpr int kAlreadyFriends = 80007;
}  // namespace social_error

HttpResponse no_content() {
  return HttpResponse::empty(204);
}

HttpResponse request_not_allowed() {
  return error_response(400, social_error::kRequestNotAllowed, "Friend request not allowed");
}

HttpResponse already_friends() {
  return error_response(400, social_error::kAlreadyFriends, "You are already friends.");
}

HttpResponse no_such_relationship() {
  return error_response(404, social_error::kNoSuchRelationship, "Unknown Relationship");
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

}  // namespace

// ---- platform relationships ----------------------------------------------------------------------------

HttpResponse SocialModule::api_list_relationships(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto& user_id = principal->user->id;
  const bool show_premium = premium_visible(*principal);
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartArray();
                              for (const auto& [other_id, type] : relationships_.relationships_of(user_id)) {
                                const auto json = relationship_json(user_id, other_id, show_premium);
                                if (json) write_raw(writer, *json, rapidjson::kObjectType);
                              }
                              writer.EndArray();
                            }));
}

// The user a `{username}` body names (friend requests by name, platform or game): the error to answer when
// the body is malformed or nobody has that name.
std::optional<HttpResponse> SocialModule::user_named_in_body(const RouteContext& context, const User*& user) {
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

HttpResponse SocialModule::api_add_relationship_by_username(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const User* other = nullptr;
  if (auto error = user_named_in_body(context, other)) return std::move(*error);
  return relationship_put(*principal->user, other->id, false);
}

HttpResponse SocialModule::api_put_relationship(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  rapidjson::Document body;
  if (auto error = read_optional_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto type = fields.integer("type", false);
  if (type && *type != relationship_type::kFriend && *type != relationship_type::kBlocked)
    fields.add_issue("type", {"BASE_TYPE_CHOICES", "Value must be one of {1, 2}."});
  if (!errors.empty()) return invalid_form_body(errors);
  return relationship_put(*principal->user, context.params.at("user_id"),
                          type == relationship_type::kBlocked);
}

HttpResponse SocialModule::api_delete_relationship(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  return relationship_delete(*principal->user, context.params.at("user_id"));
}

HttpResponse SocialModule::relationship_put(const User& user, const std::string& other_id, bool block) {
  using namespace relationship_type;
  const auto* other = state_.find_user(other_id);
  if (other == nullptr) return unknown_user();
  if (other->id == user.id) return request_not_allowed();
  const auto now = clock_.now_ms();
  const int mine = relationships_.relationship_type(user.id, other_id);
  const int theirs = relationships_.relationship_type(other_id, user.id);

  if (block) {
    if (mine == kBlocked) return no_content();
    // Blocking ends the friendship and any pending request; the other side keeps its own block, if any.
    relationships_.set_relationship(user.id, other_id, kBlocked, now);
    if (theirs != kNone && theirs != kBlocked) {
      relationships_.set_relationship(other_id, user.id, kNone);
      gateway_.dispatch_to_user(other_id, "RELATIONSHIP_REMOVE", removal_json(user.id, theirs));
    }
    dispatch_relationship(user.id, other_id, "RELATIONSHIP_ADD");
    remove_game_relationships_between(user.id, other_id);
    return no_content();
  }

  if (mine == kFriend) return already_friends();
  if (mine == kBlocked || theirs == kBlocked || other->bot) return request_not_allowed();
  if (mine == kIncoming) {  // accept
    relationships_.set_relationship(user.id, other_id, kFriend, now);
    relationships_.set_relationship(other_id, user.id, kFriend, now);
    dispatch_relationship(user.id, other_id, "RELATIONSHIP_ADD");
    dispatch_relationship(other_id, user.id, "RELATIONSHIP_ADD");
    presence_.exchange(user.id, other_id);
    return no_content();
  }
  if (mine == kOutgoing) return no_content();  // already requested
  relationships_.set_relationship(user.id, other_id, kOutgoing, now);
  relationships_.set_relationship(other_id, user.id, kIncoming, now, user.spammer);
  dispatch_relationship(user.id, other_id, "RELATIONSHIP_ADD");
  dispatch_relationship(other_id, user.id, "RELATIONSHIP_ADD");
  return no_content();
}

HttpResponse SocialModule::relationship_delete(const User& user, const std::string& other_id) {
  using namespace relationship_type;
  if (state_.find_user(other_id) == nullptr) return unknown_user();
  const int mine = relationships_.relationship_type(user.id, other_id);
  if (mine == kNone) {
    return no_such_relationship();
  }
  relationships_.set_relationship(user.id, other_id, kNone);
  gateway_.dispatch_to_user(user.id, "RELATIONSHIP_REMOVE", removal_json(other_id, mine));
  if (mine != kBlocked) {  // remove a friend, reject or cancel: both sides go
    const int theirs = relationships_.relationship_type(other_id, user.id);
    if (theirs != kNone && theirs != kBlocked) {
      relationships_.set_relationship(other_id, user.id, kNone);
      gateway_.dispatch_to_user(other_id, "RELATIONSHIP_REMOVE", removal_json(user.id, theirs));
    }
  }
  return no_content();
}

// ---- game relationships ----------------------------------------------------------------------------------

HttpResponse SocialModule::api_list_game_relationships(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto& user_id = principal->user->id;
  const auto& app_id = principal->application->id;
  const bool show_premium = premium_visible(*principal);
  return HttpResponse::json(
      200, to_json([&](JsonWriter& writer) {
        writer.StartArray();
        for (const auto& [other_id, relationship] : relationships_.game_relationships_of(app_id, user_id)) {
          const auto json = game_relationship_json(app_id, user_id, other_id, show_premium);
          if (json) write_raw(writer, *json, rapidjson::kObjectType);
        }
        writer.EndArray();
      }));
}

HttpResponse SocialModule::api_add_game_relationship_by_username(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const User* other = nullptr;
  if (auto error = user_named_in_body(context, other)) return std::move(*error);
  return game_relationship_put(*principal->user, principal->application->id, other->id);
}

HttpResponse SocialModule::api_put_game_relationship(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  rapidjson::Document body;
  if (auto error = read_optional_json_object(context.request, body)) return std::move(*error);
  return game_relationship_put(*principal->user, principal->application->id, context.params.at("user_id"));
}

HttpResponse SocialModule::api_delete_game_relationship(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  return game_relationship_delete(*principal->user, principal->application->id, context.params.at("user_id"));
}

HttpResponse SocialModule::game_relationship_put(const User& user, const std::string& app_id,
                                                 const std::string& other_id) {
  using namespace relationship_type;
  const auto* other = state_.find_user(other_id);
  if (other == nullptr) return unknown_user();
  if (other->id == user.id || other->bot) return request_not_allowed();
  // A platform block stops game requests too.
  if (relationships_.relationship_type(user.id, other_id) == kBlocked ||
      relationships_.relationship_type(other_id, user.id) == kBlocked) {
    return request_not_allowed();
  }
  const auto now = clock_.now_ms();
  const auto* mine = relationships_.find_game_relationship(app_id, user.id, other_id);
  const int type = mine == nullptr ? kNone : mine->type;
  if (type == kFriend) return already_friends();
  if (type == kOutgoing) return no_content();
  const bool accept = type == kIncoming;
  relationships_.set_game_relationship(app_id, user.id, other_id, accept ? kFriend : kOutgoing, now);
  relationships_.set_game_relationship(app_id, other_id, user.id, accept ? kFriend : kIncoming, now);
  dispatch_game_relationship_add(app_id, user.id, other_id);
  dispatch_game_relationship_add(app_id, other_id, user.id);
  // Game friends see each other in the game from now on.
  if (accept) presence_.exchange_in_game(app_id, user.id, other_id);
  return no_content();
}

HttpResponse SocialModule::game_relationship_delete(const User& user, const std::string& app_id,
                                                    const std::string& other_id) {
  if (state_.find_user(other_id) == nullptr) return unknown_user();
  if (relationships_.find_game_relationship(app_id, user.id, other_id) == nullptr) {
    return no_such_relationship();
  }
  relationships_.set_game_relationship(app_id, user.id, other_id, relationship_type::kNone);
  dispatch_game_relationship_remove(app_id, user.id, other_id);
  if (relationships_.find_game_relationship(app_id, other_id, user.id) != nullptr) {
    relationships_.set_game_relationship(app_id, other_id, user.id, relationship_type::kNone);
    dispatch_game_relationship_remove(app_id, other_id, user.id);
  }
  return no_content();
}

void SocialModule::remove_game_relationships_between(const std::string& user_id,
                                                     const std::string& other_id) {
  for (const auto& app_id : relationships_.game_relationship_apps(user_id, other_id)) {
    for (const auto& [from, to] : {std::pair{user_id, other_id}, std::pair{other_id, user_id}}) {
      if (relationships_.find_game_relationship(app_id, from, to) == nullptr) continue;
      relationships_.set_game_relationship(app_id, from, to, relationship_type::kNone);
      dispatch_game_relationship_remove(app_id, from, to);
    }
  }
}

}  // namespace platformpp::emulator
