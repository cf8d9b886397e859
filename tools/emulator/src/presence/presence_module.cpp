// What friends see of a user (PRESENCE_UPDATE): the presence the user's Gateway sessions set (op 3,
// Identify's) and the activities the desktop client set (IPC SET_ACTIVITY), fanned out to friends whenever
// what they see changes; READY's friends' presences; and the join of an activity invite
// (POST /channels/{c}/messages/{m}/activity-join), which the sender's current activity decides.
#include "presence/presence_module.hpp"

#include <map>
#include <set>

#include "core/activity.hpp"
#include "core/api_error.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"

namespace platformpp::emulator {

namespace {

// Platform error codes of the activity-join route (docs/social-protocol.md).
namespace social_error {
inline constexpr int kInviteInvalid = 50083;
}  // namespace social_error

}  // namespace

PresenceModule::PresenceModule(ServiceContext& context, GatewayModule& gateway)
    : FeatureModule(context), gateway_(gateway) {
  api_router_.add("POST", "/channels/{channel_id}/messages/{message_id}/activity-join",
                  bind(&PresenceModule::api_activity_join));
  admin_router_.add("POST", "/users/{user_id}/presence", bind(&PresenceModule::admin_set_presence));
  DocumentKind kind;
  kind.name = std::string(kPresenceDocument);
  kind.save = [this](const std::string& user_id) { return presence_document(user_id); };
  kind.ids = [this] {
    // Everyone with a session, and everyone whose presence was ever announced (the desktop client's user).
    std::set<std::string> ids;
    for (const auto& entry : gateway_.sessions())
      ids.insert(entry.second.user_id);
    for (const auto& entry : last_sent_)
      ids.insert(entry.first);
    return std::vector<std::string>(ids.begin(), ids.end());
  };
  kind.persisted = false;
  changes_.register_kind(std::move(kind));
}

std::vector<std::string> PresenceModule::desktop_activities(std::string_view user_id) const {
  return desktop_ != nullptr ? desktop_->desktop_activities(user_id) : std::vector<std::string>{};
}

std::vector<std::string> PresenceModule::friends_of(std::string_view user_id) const {
  return audience_ != nullptr ? audience_->friends_of(user_id) : std::vector<std::string>{};
}

std::vector<std::pair<std::string, std::string>> PresenceModule::game_friends_of(
    std::string_view user_id) const {
  return audience_ != nullptr ? audience_->game_friends_of(user_id)
                              : std::vector<std::pair<std::string, std::string>>{};
}

// ---- GatewayListener
// ---------------------------------------------------------------------------------------

void PresenceModule::fill_ready(const GatewaySession& session, ReadyContent& ready) {
  ready.presences = to_json([&](JsonWriter& writer) {
    writer.StartArray();
    std::set<std::string> friends;
    for (const auto& other_id : friends_of(session.user_id)) {
      friends.insert(other_id);
      const auto json = presence_update_json(other_id);
      if (json) write_raw(writer, *json, rapidjson::kObjectType);
    }
    // Game friends of the session's application who are not friends on the platform: their game only.
    for (const auto& [app_id, other_id] : game_friends_of(session.user_id)) {
      if (app_id != session.app_id || friends.count(other_id) > 0) continue;
      const auto json = presence_update_json(other_id, app_id);
      if (json) write_raw(writer, *json, rapidjson::kObjectType);
    }
    writer.EndArray();
  });
}

void PresenceModule::connection_changed(const std::string& user_id, const std::string&,
                                        ConnectionChange change) {
  changes_.touch(kPresenceDocument, user_id);  // its sessions changed, if nothing else
  // A detached session (op 7, op 9 true) is still the user's: friends see no change.
  if (change != ConnectionChange::detached) changed(user_id);
}

void PresenceModule::presence_updated(const std::string& user_id, const std::string& session_id) {
  changed(user_id, true, session_id);
}

// ---- presence
// ----------------------------------------------------------------------------------------------

std::optional<std::string> PresenceModule::presence_update_json(std::string_view user_id,
                                                                std::string_view only_app) const {
  const bool on_gateway = gateway_.user_online(user_id);
  std::vector<std::string> activities;
  std::string status = "offline";
  if (on_gateway) {
    const auto* presence = gateway_.presence_of(user_id);
    if (presence == nullptr) {
      status = "online";
    } else {
      status = presence->status == "invisible" ? "offline" : presence->status;
      if (status != "offline") activities.push_back(presence->activities);
    }
  }
  // A presence the admin API set stands for a user without a session of their own.
  if (!on_gateway) {
    if (const auto set = set_presences_.find(user_id); set != set_presences_.end()) {
      status = set->second.status;
      activities.push_back(set->second.activities);
    }
  }
  // The desktop client's activity (IPC SET_ACTIVITY) keeps its user online even without a Gateway session.
  bool on_desktop = false;
  for (const auto& activity : desktop_activities(user_id)) {
    on_desktop = true;
    if (status != "offline" || !on_gateway) activities.push_back("[" + activity + "]");
  }
  if (on_desktop && !on_gateway && status == "offline") status = "online";
  if (status == "offline") return std::nullopt;
  const auto* user = state_.find_user(user_id);
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("user");
    writer.StartObject();
    writer.Key("id");
    write_string(writer, user_id);
    if (user != nullptr) {
      writer.Key("username");
      write_string(writer, user->username);
      writer.Key("global_name");
      write_optional_string(writer, user->global_name);
      writer.Key("avatar");
      write_optional_string(writer, user->avatar);
    }
    writer.EndObject();
    writer.Key("status");
    write_string(writer, status);
    writer.Key("activities");
    const auto shown = public_activities_json(activities, only_app);
    write_raw(writer, shown, rapidjson::kArrayType);
    writer.Key("client_status");
    writer.StartObject();
    writer.Key("desktop");
    write_string(writer, status);
    writer.EndObject();
    writer.EndObject();
  });
}

void PresenceModule::changed(const std::string& user_id, bool force, const std::string& origin_session) {
  changes_.touch(kPresenceDocument, user_id);
  auto json = presence_update_json(user_id);
  std::string text = json ? std::move(*json) : offline_json(user_id);
  auto& last = last_sent_[user_id];
  if (!force && last == text) return;
  if (last.empty() && !json && !force) {
    last = text;  // offline and never announced: nothing changed for friends
    return;
  }
  last = text;
  for (const auto& other_id : friends_of(user_id))
    gateway_.dispatch_to_user(other_id, "PRESENCE_UPDATE", text);
  // Game friends see it through their game: the status and that game's activities.
  std::map<std::string, std::string> in_game;  // by application
  for (const auto& [app_id, other_id] : game_friends_of(user_id)) {
    auto [view, made] = in_game.try_emplace(app_id);
    if (made) view->second = presence_update_json(user_id, app_id).value_or(offline_json(user_id));
    send_to_game_friend(app_id, user_id, other_id, view->second);
  }
  if (!force) return;
  // The user's other sessions learn what their friends now see.
  std::vector<std::string> own;
  for (const auto* session : gateway_.sessions_of_user(user_id)) {
    if (session->id != origin_session) own.push_back(session->id);
  }
  for (const auto& id : own)
    gateway_.dispatch(id, "PRESENCE_UPDATE", text);
}

void PresenceModule::exchange_in_game(const std::string& app_id, const std::string& user_id,
                                      const std::string& other_id) {
  if (auto presence = presence_update_json(other_id, app_id))
    send_to_game_friend(app_id, other_id, user_id, *presence);
  if (auto presence = presence_update_json(user_id, app_id))
    send_to_game_friend(app_id, user_id, other_id, *presence);
}

void PresenceModule::send_to_game_friend(const std::string& app_id, const std::string& user_id,
                                         const std::string& other_id, const std::string& text) {
  if (audience_ != nullptr && audience_->is_friend(user_id, other_id)) return;
  gateway_.dispatch_each(other_id, "PRESENCE_UPDATE",
                         [&](const GatewaySession& session) -> std::optional<std::string> {
                           if (session.app_id != app_id) return std::nullopt;
                           return text;
                         });
}

std::optional<std::string> PresenceModule::presence_document(const std::string& user_id) const {
  const auto desktop = desktop_activities(user_id);
  const auto& sessions = gateway_.sessions_of_user(user_id);
  const auto set = set_presences_.find(user_id);
  const bool set_shown = sessions.empty() && set != set_presences_.end();
  if (sessions.empty() && desktop.empty() && !set_shown) return std::nullopt;
  const auto* presence = sessions.empty() ? nullptr : gateway_.presence_of(user_id);
  const std::string status = presence != nullptr ? presence->status
                             : set_shown         ? set->second.status
                                                 : "online";
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("status");  // as the user set it ("invisible" included)
    write_string(writer, status);
    writer.Key("shown_as");  // as friends see it
    write_string(writer, status == "invisible" ? "offline" : status);
    writer.Key("activities");  // without secrets, as friends see them
    write_raw(writer, public_activities_json(current_activities(user_id)), rapidjson::kArrayType);
    writer.Key("desktop");
    writer.Bool(!desktop.empty());
    writer.Key("set_by_admin");  // POST /_emulator/users/{id}/presence, shown while there is no session
    writer.Bool(set_shown);
    writer.Key("sessions");
    writer.StartArray();
    for (const auto* session : sessions) {
      writer.StartObject();
      writer.Key("session_id");
      write_string(writer, session->id);
      writer.Key("application_id");
      write_string(writer, session->app_id);
      writer.Key("bot");
      writer.Bool(session->bot);
      writer.Key("connected");
      writer.Bool(session->connection.has_value());
      writer.EndObject();
    }
    writer.EndArray();
    writer.EndObject();
  });
}

std::string PresenceModule::offline_json(const std::string& user_id) {
  return "{\"user\":{\"id\":\"" + user_id +
         "\"},\"status\":\"offline\",\"activities\":[],\"client_status\":{}}";
}

void PresenceModule::exchange(const std::string& user_id, const std::string& other_id) {
  if (auto presence = presence_update_json(other_id))
    gateway_.dispatch_to_user(user_id, "PRESENCE_UPDATE", *presence);
  if (auto presence = presence_update_json(user_id))
    gateway_.dispatch_to_user(other_id, "PRESENCE_UPDATE", *presence);
}

std::vector<std::string> PresenceModule::current_activities(std::string_view user_id) const {
  std::vector<std::string> result;
  if (gateway_.user_online(user_id)) {
    if (const auto* presence = gateway_.presence_of(user_id)) result.push_back(presence->activities);
  } else if (const auto set = set_presences_.find(user_id); set != set_presences_.end()) {
    result.push_back(set->second.activities);
  }
  for (const auto& activity : desktop_activities(user_id))
    result.push_back("[" + activity + "]");
  return result;
}

HttpResponse PresenceModule::admin_set_presence(const RouteContext& context) {
  const std::string& user_id = context.params.at("user_id");
  if (state_.find_user(user_id) == nullptr) return unknown_user();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto status = fields.string("status", true);
  if (status && *status != "online" && *status != "idle" && *status != "dnd" && *status != "offline" &&
      *status != "invisible")
    fields.add_issue("status", field_issue("BASE_TYPE_CHOICES",
                                           "Value must be one of online, idle, dnd, "
                                           "invisible, offline."));
  constexpr rapidjson::SizeType kMaxActivities = 16;
  std::string activities = "[]";
  if (body.HasMember("activities")) {
    rapidjson::Document list;
    list.CopyFrom(body["activities"], list.GetAllocator());
    bool valid = list.IsArray() && list.Size() <= kMaxActivities;
    for (rapidjson::SizeType i = 0; valid && i < list.Size(); ++i) {
      auto& activity = list[i];
      valid = activity.IsObject() && activity.HasMember("name") && activity["name"].IsString() &&
              activity.HasMember("type") && activity["type"].IsInt() &&
              activity_type_allowed(activity["type"].GetInt());
      if (!valid) break;
      // Stamped as the platform stamps a client's: an id and created_at, and its application when it names
      // one that exists.
      std::string app_id;
      if (activity.HasMember("application_id")) {
        valid = activity["application_id"].IsString();
        if (valid) app_id = activity["application_id"].GetString();
        valid = valid && state_.find_application(app_id) != nullptr;
        if (!valid) break;
      }
      stamp_activity(activity, list.GetAllocator(), state_.find_application(app_id), app_id, i,
                     clock_.now_ms());
      if (app_id.empty()) activity.RemoveMember("application_id");
    }
    if (!valid) {
      fields.add_issue("activities", field_issue("BASE_TYPE_BAD_ARRAY",
                                                 "At most 16 activities, each with a name and a type "
                                                 "of 0, 2, 3 or 5 (and an existing application_id)."));
    } else {
      activities = json_text(list);
    }
  }
  if (!errors.empty()) return invalid_form_body(errors);
  if (*status == "offline" || *status == "invisible") {
    set_presences_.erase(user_id);
  } else {
    set_presences_[user_id] = SetPresence{*status, std::move(activities)};
  }
  changed(user_id);
  return HttpResponse::json(200, presence_update_json(user_id).value_or(offline_json(user_id)));
}

HttpResponse PresenceModule::api_activity_join(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  if (invites_ == nullptr) return unknown_channel();
  auto found = invites_->find_invite(context.params.at("channel_id"), context.params.at("message_id"),
                                     principal->user->id);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& invite = std::get<ActivityInvites::Invite>(found);
  const auto invalid = [] {
    return error_response(400, social_error::kInviteInvalid, "Invite no longer valid");
  };
  if (!invite.party_id) return invalid();
  // The sender's CURRENT activity decides: an invite to a party they left is dead.
  for (const auto& text : current_activities(invite.author_id)) {
    rapidjson::Document activities;
    if (!parse_json(text, activities) || !activities.IsArray()) continue;
    for (const auto& activity : activities.GetArray()) {
      if (!activity.IsObject()) continue;
      const auto party = activity.FindMember("party");
      if (party == activity.MemberEnd() || !party->value.IsObject()) continue;
      const auto party_id = party->value.FindMember("id");
      if (party_id == party->value.MemberEnd() || !party_id->value.IsString() ||
          std::string_view(party_id->value.GetString(), party_id->value.GetStringLength()) !=
              *invite.party_id) {
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

}  // namespace platformpp::emulator
