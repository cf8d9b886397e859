// The Gateway's routes: GET /gateway and /gateway/bot under /api/v10, and the admin routes under
// /_emulator/gateway that inspect sessions, inject faults and dispatches and set the limits (plus the
// application's developer-portal settings that the Gateway reads: POST /_emulator/apps/{id}/intents, the
// privileged intents; .../channel-obfuscation, the Private Channel Obfuscation toggle; .../flags, the
// application's other flags).
#include <algorithm>
#include <vector>

#include "core/api_error.hpp"
#include "core/connection_admin.hpp"
#include "core/fake_clock.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/validation.hpp"
#include "gateway/gateway_module.hpp"
#include "gateway/gateway_protocol.hpp"

namespace platformpp::emulator {

namespace {

namespace op = gateway_protocol::op;
using gateway_protocol::simple_payload;

}  // namespace

// ---- admin routes ----------------------------------------------------------------------------------------

void GatewayModule::register_routes() {
  api_router_.add("GET", "/gateway", bind(&GatewayModule::api_get_gateway));
  api_router_.add("GET", "/gateway/bot", bind(&GatewayModule::api_get_gateway_bot));
  admin_router_.add("GET", "/gateway/sessions", bind(&GatewayModule::admin_sessions));
  admin_router_.add("POST", "/gateway/drop", bind(&GatewayModule::admin_drop));
  admin_router_.add("POST", "/gateway/stall", bind(&GatewayModule::admin_stall));
  admin_router_.add("POST", "/gateway/close", bind(&GatewayModule::admin_close));
  admin_router_.add("POST", "/gateway/reconnect", bind(&GatewayModule::admin_reconnect));
  admin_router_.add("POST", "/gateway/invalidate", bind(&GatewayModule::admin_invalidate));
  admin_router_.add("POST", "/gateway/heartbeat", bind(&GatewayModule::admin_heartbeat));
  admin_router_.add("POST", "/gateway/heartbeat-interval", bind(&GatewayModule::admin_heartbeat_interval));
  admin_router_.add("POST", "/gateway/dispatch", bind(&GatewayModule::admin_dispatch));
  admin_router_.add("GET", "/gateway/limits", bind(&GatewayModule::admin_limits));
  admin_router_.add("POST", "/gateway/limits", bind(&GatewayModule::admin_set_limits));
  admin_router_.add("POST", "/apps/{app_id}/intents", bind(&GatewayModule::admin_set_privileged_intents));
  admin_router_.add("POST", "/apps/{app_id}/channel-obfuscation",
                    bind(&GatewayModule::admin_set_channel_obfuscation));
  admin_router_.add("POST", "/apps/{app_id}/flags", bind(&GatewayModule::admin_set_application_flags));
}

// Live connections named by {session_id?, user_id?} (all live connections when neither is given).
std::vector<std::uint64_t> GatewayModule::select(BodyFields& fields) const {
  const auto session_id = fields.string("session_id", false);
  const auto user_id = fields.string("user_id", false);
  std::vector<std::uint64_t> ids;
  for (const auto& [id, connection] : connections_) {
    if (session_id || user_id) {
      if (!connection.session_id) continue;
      const auto session = sessions_.find(*connection.session_id);
      if (session == sessions_.end()) continue;
      if (session_id && session->first != *session_id) continue;
      if (user_id && session->second.user_id != *user_id) continue;
    }
    ids.push_back(id);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

HttpResponse GatewayModule::admin_sessions(const RouteContext&) {
  const auto now = steady_now_ms();
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("sessions");
                              writer.StartArray();
                              for (const auto& [id, session] : sessions_) {
                                const GatewayConnection* connection = nullptr;
                                if (session.connection) {
                                  const auto it = connections_.find(*session.connection);
                                  if (it != connections_.end()) connection = &it->second;
                                }
                                writer.StartObject();
                                writer.Key("session_id");
                                write_string(writer, id);
                                writer.Key("user_id");
                                write_string(writer, session.user_id);
                                writer.Key("application_id");
                                write_string(writer, session.app_id);
                                writer.Key("connected");
                                writer.Bool(connection != nullptr);
                                writer.Key("seq");
                                writer.Int64(session.seq);
                                writer.Key("resumable");
                                writer.Bool(connection != nullptr || now - session.detached_at_steady_ms <=
                                                                         settings_.resume_window_ms);
                                writer.Key("buffered");
                                writer.Uint64(session.buffer.size());
                                writer.Key("intents");
                                writer.Uint64(session.intents);
                                writer.Key("capabilities");
                                writer.Uint64(session.capabilities);
                                writer.Key("compress");
                                writer.Bool(connection != nullptr && connection->compress);
                                writer.Key("stalled");
                                writer.Bool(connection != nullptr && connection->stalled);
                                writer.Key("heartbeats_received");
                                writer.Uint64(connection != nullptr ? connection->heartbeats_received : 0);
                                writer.Key("acks_sent");
                                writer.Uint64(connection != nullptr ? connection->acks_sent : 0);
                                writer.EndObject();
                              }
                              writer.EndArray();
                              writer.Key("connections");
                              writer.Uint64(connections_.size());
                              writer.EndObject();
                            }));
}

HttpResponse GatewayModule::act_on_selected(const RouteContext& context,
                                            const std::function<void(BodyFields& fields)>& read_fields,
                                            const std::function<void(std::uint64_t id)>& act) {
  return act_on_connections(
      context, [this](BodyFields& fields) { return select(fields); }, read_fields, act);
}

HttpResponse GatewayModule::admin_drop(const RouteContext& context) {
  return act_on_selected(context, nullptr, [this](std::uint64_t id) { drop_connection(id); });
}

HttpResponse GatewayModule::admin_stall(const RouteContext& context) {
  bool stalled = true;
  return act_on_selected(
      context, [&](BodyFields& fields) { stalled = fields.boolean("stalled", false).value_or(true); },
      [&](std::uint64_t id) { connections_.at(id).stalled = stalled; });
}

HttpResponse GatewayModule::admin_close(const RouteContext& context) {
  CloseRequest close;
  return act_on_selected(
      context, [&](BodyFields& fields) { close = read_close_request(fields); },
      [&](std::uint64_t id) { close_connection(id, close.code, close.reason); });
}

HttpResponse GatewayModule::admin_reconnect(const RouteContext& context) {
  return act_on_selected(context, nullptr, [this](std::uint64_t id) {
    connections_.at(id).peer->send(simple_payload(op::kReconnect, "null"));
    detach(id);  // later dispatches wait in the buffer for the resume
  });
}

HttpResponse GatewayModule::admin_invalidate(const RouteContext& context) {
  bool resumable = false;
  const auto read_fields = [&](BodyFields& fields) {
    resumable = fields.boolean("resumable", false).value_or(false);
  };
  return act_on_selected(context, read_fields, [&](std::uint64_t id) {
    auto& connection = connections_.at(id);
    connection.peer->send(simple_payload(op::kInvalidSession, resumable ? "true" : "false"));
    if (resumable) {
      detach(id);
    } else if (connection.session_id) {
      const auto session_id = *connection.session_id;
      end_session(session_id);
    }
    // The connection may identify (or resume) again.
    connection.identified = false;
  });
}

HttpResponse GatewayModule::admin_heartbeat(const RouteContext& context) {
  return act_on_selected(context, nullptr, [this](std::uint64_t id) {
    connections_.at(id).peer->send(simple_payload(op::kHeartbeat, "null"));
  });
}

HttpResponse GatewayModule::admin_heartbeat_interval(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto ms = fields.integer("ms", true, 10, 3600000);
  if (!errors.empty()) return invalid_form_body(errors);
  settings_.heartbeat_interval_ms = *ms;
  return HttpResponse::json(200, "{\"heartbeat_interval\":" + std::to_string(*ms) + "}");
}

HttpResponse GatewayModule::admin_dispatch(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto user_id = fields.string("user_id", true);
  const auto type = fields.string("t", true);
  const auto* d = fields.value("d", false);
  if (type && (type->empty() || type->size() > 64 || !std::all_of(type->begin(), type->end(), [](char c) {
                 return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
               }))) {
    fields.add_issue("t", {"BASE_TYPE_INVALID", "1 to 64 of [A-Z0-9_]."});
  }
  if (!errors.empty()) return invalid_form_body(errors);
  if (state_.find_user(*user_id) == nullptr) return unknown_user();
  injecting_dispatch_ = true;
  const auto sent = dispatch_to_user(*user_id, *type, d == nullptr ? "null" : json_text(*d));
  injecting_dispatch_ = false;
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("sessions");
                              writer.StartArray();
                              for (const auto& [session_id, seq] : sent) {
                                writer.StartObject();
                                writer.Key("session_id");
                                write_string(writer, session_id);
                                writer.Key("s");
                                writer.Int64(seq);
                                writer.EndObject();
                              }
                              writer.EndArray();
                              writer.EndObject();
                            }));
}

std::string GatewayModule::limits_json() const {
  const auto& s = settings_;
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("heartbeat_interval_ms");
    writer.Int64(s.heartbeat_interval_ms);
    writer.Key("zombie_timeout_factor");
    writer.Double(s.zombie_timeout_factor);
    writer.Key("events_per_window");
    writer.Int64(s.events_per_window);
    writer.Key("event_window_ms");
    writer.Int64(s.event_window_ms);
    writer.Key("identify_budget");
    writer.Int64(s.identify_budget);
    writer.Key("identify_window_ms");
    writer.Int64(s.identify_window_ms);
    writer.Key("resume_window_ms");
    writer.Int64(s.resume_window_ms);
    writer.Key("buffer_size");
    writer.Int64(s.buffer_size);
    writer.Key("max_payload_bytes");
    writer.Int64(s.max_payload_bytes);
    writer.EndObject();
  });
}

HttpResponse GatewayModule::admin_limits(const RouteContext&) {
  return HttpResponse::json(200, limits_json());
}

HttpResponse GatewayModule::admin_set_limits(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  auto next = settings_;
  if (auto v = fields.integer("heartbeat_interval_ms", false, 10, 3600000)) next.heartbeat_interval_ms = *v;
  if (auto v = fields.number("zombie_timeout_factor", false, 1.0)) next.zombie_timeout_factor = *v;
  if (auto v = fields.integer("events_per_window", false, 0)) next.events_per_window = *v;
  if (auto v = fields.integer("event_window_ms", false, 1)) next.event_window_ms = *v;
  if (auto v = fields.integer("identify_budget", false, 0)) next.identify_budget = *v;
  if (auto v = fields.integer("identify_window_ms", false, 1)) next.identify_window_ms = *v;
  if (auto v = fields.integer("resume_window_ms", false, 0)) next.resume_window_ms = *v;
  if (auto v = fields.integer("buffer_size", false, 0, 1000000)) next.buffer_size = *v;
  if (auto v = fields.integer("max_payload_bytes", false, 2, 65536)) next.max_payload_bytes = *v;
  const bool reset = fields.boolean("reset", false).value_or(false);
  if (!errors.empty()) return invalid_form_body(errors);
  settings_ = reset ? GatewaySettings{} : next;
  check_expiry_by(0);  // a shorter zombie timeout or resume window may be due already
  if (reset) identify_times_.clear();
  return HttpResponse::json(200, limits_json());
}

// ---- API
// ----------------------------------------------------------------------------------------------------

HttpResponse GatewayModule::api_get_gateway(const RouteContext&) {
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("url");
                              write_string(writer, endpoints_.gateway_url);
                              writer.EndObject();
                            }));
}

// Bot tokens only (a user's Bearer token gets 401, as on the platform). One shard is enough for any emulated
// bot; the session start limit is the Gateway's identify budget of the application (its window on the fake
// clock), shared with the Social SDK's users of the same application as the emulator counts it.
HttpResponse GatewayModule::api_get_gateway_bot(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal || principal->grant != nullptr) return status_error(401);
  const auto now = clock_.now_ms();
  const auto& starts = identify_starts(principal->application->id, now);
  const auto total = settings_.identify_budget;
  const auto remaining = std::max<std::int64_t>(0, total - static_cast<std::int64_t>(starts.size()));
  const auto reset_after =
      starts.empty() ? settings_.identify_window_ms : settings_.identify_window_ms - (now - starts.front());
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("url");
                              write_string(writer, endpoints_.gateway_url);
                              writer.Key("shards");
                              writer.Int(1);
                              writer.Key("session_start_limit");
                              writer.StartObject();
                              writer.Key("total");
                              writer.Int64(total);
                              writer.Key("remaining");
                              writer.Int64(remaining);
                              writer.Key("reset_after");
                              writer.Int64(reset_after);
                              writer.Key("max_concurrency");
                              writer.Int(1);
                              writer.EndObject();
                              writer.EndObject();
                            }));
}

// {guild_members?, presences?, message_content?}: turns the application's privileged Gateway intents on or
// off (the developer portal's switches); answers them with the application's flags.
HttpResponse GatewayModule::admin_set_privileged_intents(const RouteContext& context) {
  Application* app = state_.find_application_mutable(context.params.at("app_id"));
  if (app == nullptr) return unknown_application();
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

// {enabled: bool}: the developer portal's Private Channel Obfuscation toggle (Bot tab). Applies from the next
// dispatch: READY of later sessions and every channel event.
HttpResponse GatewayModule::admin_set_channel_obfuscation(const RouteContext& context) {
  Application* app = state_.find_application_mutable(context.params.at("app_id"));
  if (app == nullptr) return unknown_application();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto enabled = fields.boolean("enabled", true);
  if (!errors.empty()) return invalid_form_body(errors);
  app->private_channel_obfuscation = *enabled;
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("enabled");
                              writer.Bool(app->private_channel_obfuscation);
                              writer.EndObject();
                            }));
}

// {flags: "<decimal bits>"}: the application's flags besides the intent ones (those follow /intents), any bit
// up to 63. Answers {flags, flags_new} as the application object then shows them.
HttpResponse GatewayModule::admin_set_application_flags(const RouteContext& context) {
  Application* app = state_.find_application_mutable(context.params.at("app_id"));
  if (app == nullptr) return unknown_application();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto text = fields.string("flags", true);
  const auto flags = text ? decimal_bits(*text) : std::nullopt;
  if (text && !flags)
    fields.add_issue("flags", {"BASE_TYPE_INVALID", "Must be flag bits: a decimal string."});
  if (!errors.empty()) return invalid_form_body(errors);
  constexpr std::uint64_t kIntentFlags =
      (std::uint64_t{1} << 12) | (std::uint64_t{1} << 14) | (std::uint64_t{1} << 18);
  app->extra_flags = *flags & ~kIntentFlags;
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("flags");
                              writer.Uint64(app->flags_31_bits());
                              writer.Key("flags_new");
                              write_string(writer, std::to_string(app->flags()));
                              writer.EndObject();
                            }));
}

}  // namespace platformpp::emulator
