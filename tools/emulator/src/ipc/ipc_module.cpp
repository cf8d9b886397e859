// The desktop-client stand-in on IPC (docs/ipc-protocol.md): handshake, the RPC commands a game's SDK sends
// (AUTHORIZE, AUTHENTICATE, SUBSCRIBE/UNSUBSCRIBE, SET_ACTIVITY, START_PURCHASE), PING/PONG, and the admin
// routes under /_emulator/ipc that make the "desktop client" dispatch events, quit, come back or close
// connections. Socket-free: the server feeds bytes in and writes what the IpcPeer is given.
#include "ipc/ipc_module.hpp"

#include <array>
#include <cstdio>
#include <exception>
#include <vector>

#include "core/activity.hpp"
#include "core/api_error.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"

namespace platformpp::emulator {

namespace {

// RPC error codes answered in {"evt": "ERROR", "data": {code, message}}.
namespace rpc_error {
inline constexpr int kInvalidPayload = 4000;
inline constexpr int kInvalidCommand = 4002;
inline constexpr int kInvalidEvent = 4004;
inline constexpr int kInvalidClientId = 4007;
inline constexpr int kInvalidToken = 4009;
inline constexpr int kInvalidUser = 4010;
inline constexpr int kOAuth2Error = 5000;
// START_PURCHASE (docs/premium-protocol.md, "Purchase flow from the game").
inline constexpr int kPurchaseCanceled = 5005;
inline constexpr int kPurchaseFailed = 5006;
inline constexpr int kSkuUnavailable = 5007;
inline constexpr int kAlreadyOwned = 5008;
}  // namespace rpc_error

// CLOSE codes: the platform's where one fits, else WebSocket's (RFC 6455 section 7.4.1).
namespace close_code {
inline constexpr int kInvalidClientId = 4000;
inline constexpr int kInvalidVersion = 4004;
inline constexpr int kProtocolError = 1002;
inline constexpr int kInvalidPayload = 1007;
inline constexpr int kTooLarge = 1009;
inline constexpr int kInternalError = 1011;
}  // namespace close_code

constexpr std::array<std::string_view, 5> kSubscribableEvents = {
    "AUTHORIZE_REQUEST", "ACTIVITY_JOIN", "ACTIVITY_JOIN_REQUEST", "ACTIVITY_SPECTATE", "GUILD_STATUS"};
constexpr std::string_view kAuthorizeRequestEvent = "AUTHORIZE_REQUEST";

bool is_subscribable(std::string_view event) {
  for (const auto candidate : kSubscribableEvents) {
    if (candidate == event) return true;
  }
  return false;
}

// A string member; nullopt when absent or null. `ok` turns false if it is present but not a string.
std::optional<std::string> optional_string(const rapidjson::Value& object, const char* name, bool& ok) {
  const auto it = object.FindMember(name);
  if (it == object.MemberEnd() || it->value.IsNull()) return std::nullopt;
  if (!it->value.IsString()) {
    ok = false;
    return std::nullopt;
  }
  return std::string(it->value.GetString(), it->value.GetStringLength());
}

const rapidjson::Value* member_or_null(const rapidjson::Value& object, const char* name) {
  const auto it = object.FindMember(name);
  return it == object.MemberEnd() || it->value.IsNull() ? nullptr : &it->value;
}

}  // namespace

IpcModule::IpcModule(ServiceContext& context, PresenceModule& presence, AuthModule& auth,
                     PremiumModule& premium)
    : FeatureModule(context), presence_(presence), auth_(auth), premium_(premium) {
  admin_router_.add("GET", "/ipc", bind(&IpcModule::admin_status));
  admin_router_.add("POST", "/ipc/authorize-request", bind(&IpcModule::admin_authorize_request));
  admin_router_.add("POST", "/ipc/drop", bind(&IpcModule::admin_drop));
  admin_router_.add("POST", "/ipc/restore", bind(&IpcModule::admin_restore));
  admin_router_.add("POST", "/ipc/close", bind(&IpcModule::admin_close));
  admin_router_.add("POST", "/ipc/activity-join", bind(&IpcModule::admin_activity_join));
}

std::uint64_t IpcModule::connected(IpcPeer& peer) {
  const auto id = next_connection_++;
  connections_[id].peer = &peer;
  return id;
}

void IpcModule::disconnected(std::uint64_t connection) {
  connections_.erase(connection);
  forget_activity(connection);
}

// A closed connection's activity leaves its user's presence.
void IpcModule::forget_activity(std::uint64_t connection) {
  const auto it = activity_users_.find(connection);
  if (it == activity_users_.end()) return;
  const auto user_id = it->second;
  activity_users_.erase(it);
  presence_.changed(user_id, true);
}

void IpcModule::received(std::uint64_t id, std::string_view bytes) {
  if (const auto it = connections_.find(id); it != connections_.end()) {
    it->second.decoder.feed(bytes);
  }
  for (;;) {
    const auto it = connections_.find(id);
    if (it == connections_.end()) return;  // never connected, or a frame closed it
    auto frame = it->second.decoder.next();
    if (!frame) {
      switch (it->second.decoder.error()) {
        case IpcFrameDecoder::Error::none:
          return;  // wait for more bytes
        case IpcFrameDecoder::Error::unknown_opcode:
          return close_connection(id, close_code::kProtocolError, "Unknown opcode");
        case IpcFrameDecoder::Error::too_large:
          return close_connection(id, close_code::kTooLarge, "Frame too large (over 64 KiB)");
      }
      return;
    }
    if (frame_listener_) frame_listener_(id, *frame);
    try {
      handle_frame(id, *frame);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "platformpp-emulator: internal error on an IPC connection: %s\n", e.what());
      return close_connection(id, close_code::kInternalError, "Internal error");
    }
  }
}

void IpcModule::close_connection(std::uint64_t id, int code, std::string_view message) {
  const auto it = connections_.find(id);
  if (it == connections_.end()) return;
  IpcPeer* peer = it->second.peer;
  connections_.erase(it);
  // A CLOSE payload has the API error's shape: {code, message}.
  if (code != 0) peer->send(encode_ipc_frame(IpcOpcode::close, error_body(code, message)));
  peer->close();
  forget_activity(id);
}

void IpcModule::send_frame(std::uint64_t id, std::string_view payload) {
  if (const auto it = connections_.find(id); it != connections_.end()) {
    it->second.peer->send(encode_ipc_frame(IpcOpcode::frame, payload));
  }
}

void IpcModule::handle_frame(std::uint64_t id, const IpcFrame& frame) {
  auto& connection = connections_.at(id);
  switch (frame.opcode) {
    case IpcOpcode::ping:
      connection.peer->send(encode_ipc_frame(IpcOpcode::pong, frame.payload));
      return;
    case IpcOpcode::pong:
      return;
    case IpcOpcode::close:
      return close_connection(id, 0, {});  // the SDK said goodbye: no answer
    case IpcOpcode::handshake:
    case IpcOpcode::frame:
      break;
  }
  rapidjson::Document payload;
  if (!parse_json(frame.payload, payload) || !payload.IsObject()) {
    return close_connection(id, close_code::kInvalidPayload, "Invalid payload: expected a JSON object");
  }
  if (frame.opcode == IpcOpcode::handshake) {
    if (connection.client_id) return close_connection(id, close_code::kProtocolError, "Already handshaken");
    return handshake(id, payload);
  }
  if (!connection.client_id) {
    return close_connection(id, close_code::kProtocolError, "Protocol error: a HANDSHAKE must come first");
  }
  command(id, payload);
}

void IpcModule::handshake(std::uint64_t id, const rapidjson::Document& payload) {
  const auto* version = member_or_null(payload, "v");
  if (version == nullptr || !version->IsInt() || version->GetInt() != 1) {
    return close_connection(id, close_code::kInvalidVersion, "Invalid version");
  }
  bool ok = true;
  const auto client_id = optional_string(payload, "client_id", ok);
  if (!client_id || state_.find_application(*client_id) == nullptr) {
    return close_connection(id, close_code::kInvalidClientId, "Invalid client ID");
  }
  connections_.at(id).client_id = *client_id;
  ++handshakes_;

  const User* user = auth_.consenting_user();
  send_frame(id, to_json([&](JsonWriter& writer) {
               writer.StartObject();
               writer.Key("cmd");
               writer.String("DISPATCH");
               writer.Key("evt");
               writer.String("READY");
               writer.Key("data");
               writer.StartObject();
               writer.Key("v");
               writer.Int(1);
               writer.Key("config");
               writer.StartObject();
               writer.Key("cdn_host");
               write_string(writer, endpoints_.cdn_host);
               writer.Key("api_endpoint");
               write_string(writer, endpoints_.api_base);
               writer.Key("environment");
               writer.String("production");
               writer.EndObject();
               if (user != nullptr) {
                 writer.Key("user");
                 writer.StartObject();
                 writer.Key("id");
                 write_string(writer, user->id);
                 writer.Key("username");
                 write_string(writer, user->username);
                 writer.Key("discriminator");
                 writer.String("0");
                 writer.Key("global_name");
                 write_optional_string(writer, user->global_name);
                 writer.Key("avatar");
                 writer.Null();
                 writer.EndObject();
               }
               writer.EndObject();
               writer.EndObject();
             }));
}

void IpcModule::command(std::uint64_t id, const rapidjson::Document& payload) {
  auto& connection = connections_.at(id);
  bool ok = true;
  const auto cmd = optional_string(payload, "cmd", ok);
  const auto nonce = optional_string(payload, "nonce", ok);
  const auto* args = member_or_null(payload, "args");

  IpcReply reply;
  if (!nonce || nonce->empty()) {
    reply = {"null", rpc_error::kInvalidPayload, "Invalid payload: nonce is required"};
  } else if (!cmd) {
    reply = {"null", rpc_error::kInvalidPayload, "Invalid payload: cmd is required"};
  } else if (*cmd == "AUTHORIZE") {
    reply = command_authorize(connection, args);
  } else if (*cmd == "AUTHENTICATE") {
    reply = command_authenticate(connection, args);
  } else if (*cmd == "SUBSCRIBE" || *cmd == "UNSUBSCRIBE") {
    reply = command_subscribe(connection, payload, *cmd == "SUBSCRIBE");
  } else if (*cmd == "SET_ACTIVITY") {
    reply = command_set_activity(id, connection, args);
  } else if (*cmd == "START_PURCHASE") {
    reply = command_start_purchase(connection, args);
  } else {
    reply = {"null", rpc_error::kInvalidCommand, "Invalid command"};
  }

  send_frame(id, to_json([&](JsonWriter& writer) {
               writer.StartObject();
               writer.Key("cmd");
               write_optional_string(writer, cmd);
               writer.Key("data");
               if (reply.error != 0) {
                 writer.StartObject();
                 writer.Key("code");
                 writer.Int(reply.error);
                 writer.Key("message");
                 write_string(writer, reply.message);
                 writer.EndObject();
               } else {
                 write_raw(writer, reply.data,
                           reply.data.front() == '[' ? rapidjson::kArrayType : rapidjson::kObjectType);
               }
               writer.Key("evt");
               if (reply.error != 0) {
                 writer.String("ERROR");
               } else {
                 writer.Null();
               }
               writer.Key("nonce");
               write_optional_string(writer, nonce);
               writer.EndObject();
             }));
}

IpcModule::IpcReply IpcModule::command_authorize(const IpcConnection& connection,
                                                 const rapidjson::Value* args) {
  auto invalid = [](std::string message) {
    return IpcReply{"null", rpc_error::kInvalidPayload, "Invalid payload: " + std::move(message)};
  };
  if (args == nullptr || !args->IsObject()) return invalid("args must be an object");
  bool ok = true;
  const auto client_id = optional_string(*args, "client_id", ok);
  const auto challenge = optional_string(*args, "code_challenge", ok);
  const auto method = optional_string(*args, "code_challenge_method", ok);
  const auto state = optional_string(*args, "state", ok);
  const auto redirect_uri = optional_string(*args, "redirect_uri", ok);
  optional_string(*args, "prompt", ok);  // accepted; the headless consent never prompts
  optional_string(*args, "nonce", ok);   // OpenID nonce: accepted, not used
  if (!ok)
    return invalid(
        "client_id, code_challenge, code_challenge_method, state, redirect_uri, "
        "prompt and nonce must be strings");
  if (!client_id) return invalid("args.client_id is required");
  if (*client_id != connection.client_id) return {"null", rpc_error::kInvalidClientId, "Invalid client ID"};
  const Application* app = state_.find_application(*client_id);
  if (app == nullptr) return {"null", rpc_error::kInvalidClientId, "Invalid client ID"};

  const auto* raw_scopes = member_or_null(*args, "scopes");
  if (raw_scopes == nullptr || !raw_scopes->IsArray())
    return invalid("args.scopes must be an array of strings");
  std::vector<std::string> scopes;
  for (const auto& scope : raw_scopes->GetArray()) {
    if (!scope.IsString()) return invalid("args.scopes must be an array of strings");
    if (scope.GetStringLength() > 0) scopes.emplace_back(scope.GetString(), scope.GetStringLength());
  }

  // Without a redirect_uri the code is bound to the desktop client's own callback; the SDK exchanges it
  // with that redirect_uri.
  const std::string redirect = redirect_uri.value_or("discord-" + app->id + ":/authorize/callback");
  if (!redirect_uri_allowed(*app, redirect)) {
    return {"null", rpc_error::kOAuth2Error,
            "OAuth2 Error: invalid_request: redirect_uri is not allowed for this application."};
  }
  auto consent = auth_.consent_code(*app, redirect, std::move(scopes), challenge, method);
  if (auto* failure = std::get_if<AuthModule::ConsentFailure>(&consent)) {
    switch (failure->kind) {
      case AuthModule::ConsentFailure::Kind::access_denied:
        return {"null", rpc_error::kOAuth2Error, "User denied authorization"};
      case AuthModule::ConsentFailure::Kind::no_consenting_user:
        return {"null", rpc_error::kOAuth2Error, failure->description};
      case AuthModule::ConsentFailure::Kind::invalid_scope:
        return {"null", rpc_error::kOAuth2Error, "OAuth2 Error: invalid_scope: " + failure->description};
      case AuthModule::ConsentFailure::Kind::invalid_request:
        break;
    }
    return {"null", rpc_error::kOAuth2Error, "OAuth2 Error: invalid_request: " + failure->description};
  }
  return {to_json([&](JsonWriter& writer) {
            writer.StartObject();
            writer.Key("code");
            write_string(writer, std::get<std::string>(consent));
            if (state) {
              writer.Key("state");
              write_string(writer, *state);
            }
            writer.EndObject();
          }),
          0,
          {}};
}

IpcModule::IpcReply IpcModule::command_authenticate(const IpcConnection& connection,
                                                    const rapidjson::Value* args) {
  if (args == nullptr || !args->IsObject()) {
    return {"null", rpc_error::kInvalidPayload, "Invalid payload: args must be an object"};
  }
  bool ok = true;
  const auto token = optional_string(*args, "access_token", ok);
  if (!token || token->empty()) {
    return {"null", rpc_error::kInvalidPayload, "Invalid payload: args.access_token is required"};
  }
  const AccessGrant* grant = state_.find_grant_by_access_token(*token);
  // A token of another application is as invalid here as an unknown, revoked or expired one.
  if (grant == nullptr || clock_.now_ms() >= grant->expires_at_ms || grant->app_id != connection.client_id) {
    return {"null", rpc_error::kInvalidToken, "Invalid access token"};
  }
  const User* user = state_.find_user(grant->user_id);
  const Application* app = state_.find_application(grant->app_id);
  if (user == nullptr || app == nullptr) return {"null", rpc_error::kInvalidToken, "Invalid access token"};
  return {auth_.authorization_json(*grant, *user, *app, true), 0, {}};
}

IpcModule::IpcReply IpcModule::command_subscribe(IpcConnection& connection, const rapidjson::Value& payload,
                                                 bool subscribe) {
  bool ok = true;
  const auto event = optional_string(payload, "evt", ok);
  if (!event) return {"null", rpc_error::kInvalidPayload, "Invalid payload: evt is required"};
  if (!is_subscribable(*event)) return {"null", rpc_error::kInvalidEvent, "Invalid event"};
  if (subscribe) {
    connection.subscriptions.insert(*event);
  } else {
    connection.subscriptions.erase(*event);
  }
  return {to_json([&](JsonWriter& writer) {
            writer.StartObject();
            writer.Key("evt");
            write_string(writer, *event);
            writer.EndObject();
          }),
          0,
          {}};
}

IpcModule::IpcReply IpcModule::command_start_purchase(const IpcConnection& connection,
                                                      const rapidjson::Value* args) {
  auto invalid = [](std::string message) {
    return IpcReply{"null", rpc_error::kInvalidPayload, "Invalid payload: " + std::move(message)};
  };
  if (args == nullptr || !args->IsObject()) return invalid("args must be an object");
  bool ok = true;
  const auto sku_id = optional_string(*args, "sku_id", ok);
  if (!ok || !sku_id || sku_id->empty()) return invalid("args.sku_id must be a SKU id");
  const auto* pid = member_or_null(*args, "pid");
  if (pid == nullptr || !pid->IsInt64() || pid->GetInt64() < 0)
    return invalid("args.pid must be a process id");
  const User* user = auth_.consenting_user();
  if (user == nullptr) return {"null", rpc_error::kInvalidUser, "No user is logged in to the desktop client"};
  const auto result = premium_.purchase(*connection.client_id, user->id, *sku_id);
  switch (result.error) {
    case PremiumModule::PurchaseError::none:
      return {result.entitlements_json, 0, {}};
    case PremiumModule::PurchaseError::canceled:
      return {"null", rpc_error::kPurchaseCanceled, "Purchase canceled"};
    case PremiumModule::PurchaseError::failed:
      return {"null", rpc_error::kPurchaseFailed, "Purchase failed"};
    case PremiumModule::PurchaseError::unknown_sku:
      return {"null", rpc_error::kSkuUnavailable, "SKU not available"};
    case PremiumModule::PurchaseError::already_owned:
      break;
  }
  return {"null", rpc_error::kAlreadyOwned, "Already owned"};
}

IpcModule::IpcReply IpcModule::command_set_activity(std::uint64_t id, IpcConnection& connection,
                                                    const rapidjson::Value* args) {
  auto invalid = [](std::string message) {
    return IpcReply{"null", rpc_error::kInvalidPayload, "Invalid payload: " + std::move(message)};
  };
  if (args == nullptr || !args->IsObject()) return invalid("args must be an object");
  const auto* pid = member_or_null(*args, "pid");
  if (pid == nullptr || !pid->IsInt64() || pid->GetInt64() < 0)
    return invalid("args.pid must be a process id");
  const auto* activity = member_or_null(*args, "activity");
  if (activity == nullptr) {
    connection.activity.reset();  // cleared
    forget_activity(id);
    return {};
  }
  if (!activity->IsObject()) return invalid("args.activity must be an object or null");
  if (const auto* type = member_or_null(*activity, "type")) {
    if (!type->IsInt() || !activity_type_allowed(type->GetInt()))
      return invalid("args.activity.type must be 0, 2, 3 or 5");
  }
  // As with op 3, the server names the application: the one this connection handshook as.
  rapidjson::Document stored;
  stored.CopyFrom(*activity, stored.GetAllocator());
  stamp_activity(stored, stored.GetAllocator(), state_.find_application(*connection.client_id),
                 *connection.client_id, 0, clock_.now_ms());
  connection.activity = json_text(stored);
  const auto reply = *connection.activity;
  // The activity is the desktop client's logged-in user's presence (no token involved).
  if (const User* user = auth_.consenting_user()) {
    const auto previous = activity_users_.find(id);
    if (previous != activity_users_.end() && previous->second != user->id) {
      const auto previous_user = previous->second;
      activity_users_.erase(previous);
      presence_.changed(previous_user, true);
    }
    activity_users_[id] = user->id;
    presence_.changed(user->id, true);
  }
  return {reply, 0, {}};
}

HttpResponse IpcModule::admin_status(const RouteContext&) {
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("listening");
                              writer.Bool(listener_ != nullptr && listener_->listening());
                              writer.Key("path");
                              if (listener_ != nullptr) {
                                write_string(writer, listener_->path());
                              } else {
                                writer.Null();
                              }
                              writer.Key("connections");
                              writer.StartArray();
                              for (const auto& [id, connection] : connections_) {
                                if (!connection.client_id) continue;  // still handshaking
                                writer.StartObject();
                                writer.Key("client_id");
                                write_string(writer, *connection.client_id);
                                writer.Key("subscriptions");
                                writer.StartArray();
                                for (const auto& event : connection.subscriptions)
                                  write_string(writer, event);
                                writer.EndArray();
                                writer.Key("activity");
                                if (connection.activity) {
                                  write_raw(writer, *connection.activity, rapidjson::kObjectType);
                                } else {
                                  writer.Null();
                                }
                                writer.EndObject();
                              }
                              writer.EndArray();
                              writer.Key("handshakes");
                              writer.Uint64(handshakes_);
                              writer.EndObject();
                            }));
}

HttpResponse IpcModule::admin_authorize_request(const RouteContext& context) {
  std::optional<std::string> application_id;
  if (!context.request.body.empty()) {
    rapidjson::Document body;
    if (auto error = read_json_object(context.request, body)) return std::move(*error);
    FieldErrors errors;
    BodyFields fields(body, errors);
    application_id = fields.string("application_id", false);
    if (!errors.empty()) return invalid_form_body(errors);
    if (application_id && state_.find_application(*application_id) == nullptr) {
      return unknown_application();
    }
  }
  static constexpr std::string_view kDispatch = R"({"cmd":"DISPATCH","evt":"AUTHORIZE_REQUEST","data":{}})";
  int delivered = 0;
  for (auto& [id, connection] : connections_) {
    if (!connection.client_id || (application_id && *connection.client_id != *application_id)) continue;
    if (connection.subscriptions.count(std::string(kAuthorizeRequestEvent)) == 0) continue;
    connection.peer->send(encode_ipc_frame(IpcOpcode::frame, kDispatch));
    ++delivered;
  }
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("delivered");
                              writer.Int(delivered);
                              writer.EndObject();
                            }));
}

// The player joins from the desktop client: ACTIVITY_JOIN {secret} to every subscribed connection.
HttpResponse IpcModule::admin_activity_join(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto secret = fields.string("secret", true);
  const auto application_id = fields.string("application_id", false);
  if (!errors.empty()) return invalid_form_body(errors);
  const auto dispatch = to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("cmd");
    writer.String("DISPATCH");
    writer.Key("evt");
    writer.String("ACTIVITY_JOIN");
    writer.Key("data");
    writer.StartObject();
    writer.Key("secret");
    write_string(writer, *secret);
    writer.EndObject();
    writer.EndObject();
  });
  int delivered = 0;
  for (auto& [id, connection] : connections_) {
    if (!connection.client_id || (application_id && *connection.client_id != *application_id)) continue;
    if (connection.subscriptions.count("ACTIVITY_JOIN") == 0) continue;
    connection.peer->send(encode_ipc_frame(IpcOpcode::frame, dispatch));
    ++delivered;
  }
  return HttpResponse::json(200, "{\"delivered\":" + std::to_string(delivered) + "}");
}

HttpResponse IpcModule::admin_drop(const RouteContext& context) {
  std::vector<std::uint64_t> ids;
  for (const auto& [id, connection] : connections_)
    ids.push_back(id);
  for (const auto id : ids)
    close_connection(id, 0, {});  // the desktop client quit: connections just end
  if (listener_ != nullptr) listener_->stop();
  return admin_status(context);
}

HttpResponse IpcModule::admin_restore(const RouteContext& context) {
  if (listener_ == nullptr) return error_response(409, error_code::kGeneral, "IPC is off (--no-ipc)");
  if (auto error = listener_->restore()) return error_response(409, error_code::kGeneral, *error);
  return admin_status(context);
}

HttpResponse IpcModule::admin_close(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto code = fields.integer("code", true, 1000, 4999);
  const auto message = fields.string("message", false);
  if (!errors.empty()) return invalid_form_body(errors);
  std::vector<std::uint64_t> ids;
  for (const auto& [id, connection] : connections_)
    ids.push_back(id);
  for (const auto id : ids)
    close_connection(id, static_cast<int>(*code), message.value_or(""));
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("closed");
                              writer.Uint64(ids.size());
                              writer.EndObject();
                            }));
}

// The desktop client's activities: those of connections whose SET_ACTIVITY went to this user.
std::vector<std::string> IpcModule::desktop_activities(std::string_view user_id) const {
  std::vector<std::string> result;
  for (const auto& [connection_id, owner] : activity_users_) {
    if (owner != user_id) continue;
    const auto connection = connections_.find(connection_id);
    if (connection != connections_.end() && connection->second.activity)
      result.push_back(*connection->second.activity);
  }
  return result;
}

}  // namespace platformpp::emulator
