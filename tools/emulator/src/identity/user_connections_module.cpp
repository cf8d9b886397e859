#include "identity/user_connections_module.hpp"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "core/api_error.hpp"
#include "core/document_json.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/state_changes.hpp"
#include "core/validation.hpp"

namespace platformpp::emulator {

namespace {

constexpr std::string_view kConnectionKind = "user_connection";  // id: "<user>:<type>:<account id>"
constexpr std::string_view kKindDocument = "connection_kind";    // one document, id "social_sdk_2026_09_22"
constexpr std::string_view kSecondKindId = "social_sdk_2026_09_22";

// The services of the platform's connection object, and the two kinds whose legacy connections it retired.
constexpr std::array<std::string_view, 26> kServices = {
    "amazon-music", "battlenet", "bungie",  "bluesky",   "crunchyroll",    "domain", "ebay",
    "epicgames",    "facebook",  "github",  "instagram", "mastodon",       "paypal", "playstation",
    "reddit",       "roblox",    "spotify", "skype",     "steam",          "tiktok", "twitch",
    "twitter",      "xbox",      "youtube", "riotgames", "leagueoflegends"};
// Services no one can add any more: existing connections stay, the admin cannot seed new ones either.
constexpr std::array<std::string_view, 2> kClosedServices = {"instagram", "skype"};

bool known_service(std::string_view type) {
  return std::find(kServices.begin(), kServices.end(), type) != kServices.end();
}

bool riot_kind(std::string_view type) {
  return type == "riotgames" || type == "leagueoflegends";
}

std::string document_id(const UserConnection& connection) {
  return connection.user_id + ":" + connection.type + ":" + connection.id;
}

std::string iso_date(std::int64_t ms) {
  return ms == kRiotConnectionsRetiredMs ? "2026-07-10T00:00:00Z" : "2026-09-22T00:00:00Z";
}

}  // namespace

UserConnectionsModule::UserConnectionsModule(ServiceContext& context) : FeatureModule(context) {
  api_router_.add("GET", "/users/@me/connections", bind(&UserConnectionsModule::api_list));
  admin_router_.add("POST", "/users/{user_id}/connections", bind(&UserConnectionsModule::admin_add));
  admin_router_.add("DELETE", "/users/{user_id}/connections/{type}/{account_id}",
                    bind(&UserConnectionsModule::admin_delete));
  admin_router_.add("GET", "/connection-types", bind(&UserConnectionsModule::admin_list_kinds));
  admin_router_.add("PUT", "/connection-types/{type}/social-sdk",
                    bind(&UserConnectionsModule::admin_set_second_kind));
  state_.add_user_removal_listener(*this);
  register_documents();
}

std::int64_t UserConnectionsModule::retired_from(std::string_view type) const {
  if (riot_kind(type)) return kRiotConnectionsRetiredMs;
  if (!second_kind_.empty() && type == second_kind_) return kSecondSocialSdkKindRetiredMs;
  return 0;
}

bool UserConnectionsModule::listed(const UserConnection& connection, std::int64_t now_ms) const {
  const auto from = retired_from(connection.type);
  if (from == 0) return true;
  // New connections of these kinds are the Social SDK's, never listed; legacy ones until the date.
  return !connection.social_sdk_powered && now_ms < from;
}

std::string UserConnectionsModule::connection_json(const UserConnection& connection, bool with_admin_fields) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("id");
    write_string(writer, connection.id);
    writer.Key("name");
    write_string(writer, connection.name);
    writer.Key("type");
    write_string(writer, connection.type);
    writer.Key("revoked");
    writer.Bool(connection.revoked);
    writer.Key("verified");
    writer.Bool(connection.verified);
    writer.Key("friend_sync");
    writer.Bool(connection.friend_sync);
    writer.Key("show_activity");
    writer.Bool(connection.show_activity);
    writer.Key("two_way_link");
    writer.Bool(connection.two_way_link);
    writer.Key("visibility");
    writer.Int(connection.visibility);
    if (with_admin_fields) {
      writer.Key("user_id");
      write_string(writer, connection.user_id);
      writer.Key("social_sdk_powered");
      writer.Bool(connection.social_sdk_powered);
    }
    writer.EndObject();
  });
}

// Bearer tokens need the `connections` scope (a 403 50001 without it, as the guilds list answers); a bot
// token lists its bot user's connections, which a bot never has.
HttpResponse UserConnectionsModule::api_list(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  if (principal->grant != nullptr) {
    const auto& scopes = principal->grant->scopes;
    if (std::find(scopes.begin(), scopes.end(), "connections") == scopes.end()) return missing_access();
  }
  const auto now = clock_.now_ms();
  const auto& user_id = principal->user->id;
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartArray();
                              for (const auto& [key, connection] : connections_) {
                                if (std::get<0>(key) != user_id || !listed(connection, now)) continue;
                                write_raw(writer, connection_json(connection, false), rapidjson::kObjectType);
                              }
                              writer.EndArray();
                            }));
}

// Body: type and id (required), name (required), verified, revoked, friend_sync, show_activity, two_way_link,
// visibility 0|1, social_sdk_powered (only for the Social SDK kinds). The same account again replaces it.
HttpResponse UserConnectionsModule::admin_add(const RouteContext& context) {
  const auto* user = state_.find_user(context.params.at("user_id"));
  if (user == nullptr) return unknown_user();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  UserConnection connection;
  connection.user_id = user->id;
  if (auto type = fields.string("type", true)) {
    if (!known_service(*type)) {
      fields.add_issue("type", {"BASE_TYPE_CHOICES", "Value must be one of the platform's services."});
    } else if (std::find(kClosedServices.begin(), kClosedServices.end(), *type) != kClosedServices.end()) {
      fields.add_issue("type", {"CONNECTION_SERVICE_CLOSED", "This service can no longer be added."});
    } else {
      connection.type = std::move(*type);
    }
  }
  if (auto id = fields.string("id", true)) {
    if (id->empty()) fields.add_issue("id", length_issue(1, 256));
    connection.id = std::move(*id);
  }
  if (auto name = fields.string("name", true)) connection.name = std::move(*name);
  if (auto value = fields.boolean("verified", false)) connection.verified = *value;
  if (auto value = fields.boolean("revoked", false)) connection.revoked = *value;
  if (auto value = fields.boolean("friend_sync", false)) connection.friend_sync = *value;
  if (auto value = fields.boolean("show_activity", false)) connection.show_activity = *value;
  if (auto value = fields.boolean("two_way_link", false)) connection.two_way_link = *value;
  if (auto value = fields.integer("visibility", false, 0, 1))
    connection.visibility = static_cast<int>(*value);
  if (auto value = fields.boolean("social_sdk_powered", false)) {
    connection.social_sdk_powered = *value;
    if (*value && !connection.type.empty() && retired_from(connection.type) == 0) {
      fields.add_issue("social_sdk_powered",
                       {"CONNECTION_NOT_SOCIAL_SDK",
                        "Only Riot Games, League of Legends and the kind named for 2026-09-22 are."});
    }
  }
  if (user->bot) fields.add_issue("user_id", {"BOT_CONNECTION", "Bots have no connections."});
  if (!errors.empty()) return invalid_form_body(errors);
  changes_.touch(kConnectionKind, document_id(connection));
  auto key = std::make_tuple(connection.user_id, connection.type, connection.id);
  const auto& stored = connections_.insert_or_assign(std::move(key), std::move(connection)).first->second;
  return HttpResponse::json(201, connection_json(stored, true));
}

HttpResponse UserConnectionsModule::admin_delete(const RouteContext& context) {
  const auto it = connections_.find(std::make_tuple(context.params.at("user_id"), context.params.at("type"),
                                                    context.params.at("account_id")));
  if (it == connections_.end()) return error_response(404, 0, "Unknown Connection");
  changes_.touch(kConnectionKind, document_id(it->second));
  connections_.erase(it);
  return HttpResponse::empty(204);
}

namespace {

// The retired kinds, as the admin reads them.
std::string kinds_json(const std::string& second_kind) {
  return to_json([&](JsonWriter& writer) {
    writer.StartArray();
    const auto kind = [&](std::string_view type, std::int64_t from) {
      writer.StartObject();
      writer.Key("type");
      write_string(writer, type);
      writer.Key("existing_unlisted_from");
      write_string(writer, iso_date(from));
      writer.Key("social_sdk_powered_listed");
      writer.Bool(false);
      writer.EndObject();
    };
    kind("riotgames", kRiotConnectionsRetiredMs);
    kind("leagueoflegends", kRiotConnectionsRetiredMs);
    if (!second_kind.empty()) kind(second_kind, kSecondSocialSdkKindRetiredMs);
    writer.EndArray();
  });
}

}  // namespace

HttpResponse UserConnectionsModule::admin_list_kinds(const RouteContext& /*context*/) {
  return HttpResponse::json(200, kinds_json(second_kind_));
}

// Names the September kind (replacing an earlier name: the seed retires one kind on that date).
HttpResponse UserConnectionsModule::admin_set_second_kind(const RouteContext& context) {
  const auto& type = context.params.at("type");
  FieldErrors errors;
  if (!known_service(type)) {
    errors.add({"type"}, {"BASE_TYPE_CHOICES", "Value must be one of the platform's services."});
  } else if (riot_kind(type)) {
    errors.add({"type"}, {"CONNECTION_KIND_TAKEN", "Riot Games connections are retired from 2026-07-10."});
  }
  if (!errors.empty()) return invalid_form_body(errors);
  changes_.touch(kKindDocument, std::string(kSecondKindId));
  second_kind_ = type;
  return HttpResponse::json(200, kinds_json(second_kind_));
}

void UserConnectionsModule::user_removed(std::string_view user_id) {
  for (auto it = connections_.begin(); it != connections_.end();) {
    if (std::get<0>(it->first) == user_id) {
      changes_.touch(kConnectionKind, document_id(it->second));
      it = connections_.erase(it);
    } else {
      ++it;
    }
  }
}

void UserConnectionsModule::register_documents() {
  changes_.register_kind(
      DocumentKind{std::string(kConnectionKind),
                   [this](const std::string& id) -> std::optional<std::string> {
                     const auto parts = document::split_id(id, 3);
                     const auto it = connections_.find(std::make_tuple(parts[0], parts[1], parts[2]));
                     if (it == connections_.end()) return std::nullopt;
                     const auto& connection = it->second;
                     return document::document_json([&](JsonWriter& writer) {
                       document::write_member(writer, "user_id", connection.user_id);
                       document::write_member(writer, "type", connection.type);
                       document::write_member(writer, "id", connection.id);
                       document::write_member(writer, "name", connection.name);
                       document::write_member(writer, "verified", connection.verified);
                       document::write_member(writer, "revoked", connection.revoked);
                       document::write_member(writer, "friend_sync", connection.friend_sync);
                       document::write_member(writer, "show_activity", connection.show_activity);
                       document::write_member(writer, "two_way_link", connection.two_way_link);
                       document::write_member(writer, "visibility", connection.visibility);
                       document::write_member(writer, "social_sdk_powered", connection.social_sdk_powered);
                     });
                   },
                   [this](const std::string& /*id*/, const rapidjson::Value& body) {
                     document::check_format(body);
                     UserConnection connection;
                     connection.user_id = document::string(body, "user_id");
                     connection.type = document::string(body, "type");
                     connection.id = document::string(body, "id");
                     connection.name = document::string(body, "name");
                     connection.verified = document::boolean_or(body, "verified", true);
                     connection.revoked = document::boolean_or(body, "revoked", false);
                     connection.friend_sync = document::boolean_or(body, "friend_sync", false);
                     connection.show_activity = document::boolean_or(body, "show_activity", true);
                     connection.two_way_link = document::boolean_or(body, "two_way_link", false);
                     connection.visibility = static_cast<int>(document::integer_or(body, "visibility", 1));
                     connection.social_sdk_powered = document::boolean_or(body, "social_sdk_powered", false);
                     auto key = std::make_tuple(connection.user_id, connection.type, connection.id);
                     connections_.insert_or_assign(std::move(key), std::move(connection));
                   },
                   [this] {
                     std::vector<std::string> ids;
                     ids.reserve(connections_.size());
                     for (const auto& entry : connections_)
                       ids.push_back(document_id(entry.second));
                     return ids;
                   },
                   [this] { connections_.clear(); }});
  changes_.register_kind(DocumentKind{std::string(kKindDocument),
                                      [this](const std::string& /*id*/) -> std::optional<std::string> {
                                        if (second_kind_.empty()) return std::nullopt;
                                        return document::document_json([&](JsonWriter& writer) {
                                          document::write_member(writer, "type", second_kind_);
                                        });
                                      },
                                      [this](const std::string& /*id*/, const rapidjson::Value& body) {
                                        document::check_format(body);
                                        second_kind_ = document::string(body, "type");
                                      },
                                      [this] {
                                        return second_kind_.empty()
                                                   ? std::vector<std::string>{}
                                                   : std::vector<std::string>{std::string(kSecondKindId)};
                                      },
                                      [this] { second_kind_.clear(); }});
}

}  // namespace platformpp::emulator
