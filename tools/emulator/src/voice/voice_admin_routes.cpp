// The voice admin routes under /_emulator/voice (docs/voice-protocol.md, "Admin API"): sessions, settings,
// drops, closes and moves (DAVE's calls and transitions: voice_dave_routes.cpp), and the refusal of
// voice gateway requests the server did not upgrade.
#include <algorithm>
#include <variant>

#include "core/api_error.hpp"
#include "core/connection_admin.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/random_token.hpp"
#include "voice/voice_module.hpp"

namespace platformpp::emulator {

// ---- admin routes ----------------------------------------------------------------------------------------

void VoiceModule::register_routes() {
  admin_router_.add("GET", "/voice/sessions", bind(&VoiceModule::admin_sessions));
  admin_router_.add("GET", "/voice/settings", bind(&VoiceModule::admin_get_settings));
  admin_router_.add("POST", "/voice/settings", bind(&VoiceModule::admin_set_settings));
  admin_router_.add("POST", "/voice/drop", bind(&VoiceModule::admin_drop));
  admin_router_.add("POST", "/voice/close", bind(&VoiceModule::admin_close));
  admin_router_.add("POST", "/voice/move", bind(&VoiceModule::admin_move));
  admin_router_.add("GET", "/voice/calls", bind(&VoiceModule::admin_calls));
  admin_router_.add("POST", "/voice/dave", bind(&VoiceModule::admin_dave));
  // A request for the voice gateway that the server did not upgrade: no or a bad version (or no upgrade).
  const auto refuse = [](const RouteContext& context) {
    if (!voice_gateway_version(context.request.target)) {
      return error_response(400, error_code::kInvalidApiVersion, "Invalid API version");
    }
    return error_response(400, error_code::kGeneral, "WebSocket upgrade expected");
  };
  web_router_.add("GET", "/voice", refuse);
  web_router_.add("GET", "/voice/", refuse);
}

HttpResponse VoiceModule::admin_sessions(const RouteContext&) {
  return HttpResponse::json(
      200, to_json([&](JsonWriter& writer) {
        writer.StartArray();
        for (const auto& [id, session] : voice_.sessions) {
          const auto stats = forwarding_unit_.stats(id).value_or(ForwardingStats{});
          writer.StartObject();
          writer.Key("user_id");
          write_string(writer, session.user_id);
          writer.Key("lobby_id");
          write_string(writer, session.lobby_id);
          writer.Key("session_id");
          write_string(writer, session.session_id);
          writer.Key("ssrc");
          writer.Uint(session.ssrc);
          writer.Key("version");
          writer.Int(session.version);
          writer.Key("mode");
          if (session.mode) {
            write_string(writer, media_wire::TransportModeName(*session.mode));
          } else {
            writer.Null();
          }
          writer.Key("connected");
          writer.Bool(session.connection.has_value());
          writer.Key("media_address");
          if (session.media) {
            write_string(writer, session.media->address + ":" + std::to_string(session.media->port));
          } else {
            writer.Null();
          }
          writer.Key("packets_received");
          writer.Uint64(stats.packets_received);
          writer.Key("packets_forwarded");
          writer.Uint64(stats.packets_forwarded);
          writer.Key("packets_rejected");
          writer.Uint64(stats.packets_rejected);
          writer.Key("payloads_e2ee");
          writer.Uint64(stats.payloads_e2ee);
          writer.Key("payloads_clear");
          writer.Uint64(stats.payloads_clear);
          writer.EndObject();
        }
        writer.EndArray();
      }));
}

std::string VoiceModule::settings_json() const {
  const auto& s = voice_.settings;
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("modes");
    writer.StartArray();
    for (const auto& mode : s.modes)
      write_string(writer, mode);
    writer.EndArray();
    writer.Key("heartbeat_interval_ms");
    writer.Int64(s.heartbeat_interval_ms);
    writer.Key("resume_window_ms");
    writer.Int64(s.resume_window_ms);
    writer.Key("buffer_size");
    writer.Int64(s.buffer_size);
    writer.Key("e2ee");
    write_string(writer, s.e2ee);
    writer.Key("dave_transition_timeout_ms");
    writer.Int64(s.dave_transition_timeout_ms);
    writer.Key("dave_new_group_wait_ms");
    writer.Int64(s.dave_new_group_wait_ms);
    writer.EndObject();
  });
}

HttpResponse VoiceModule::admin_get_settings(const RouteContext&) {
  return HttpResponse::json(200, settings_json());
}

HttpResponse VoiceModule::admin_set_settings(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  auto next = voice_.settings;
  if (const auto* modes = fields.value("modes", false)) {
    const bool valid = modes->IsArray() && !modes->Empty() &&
                       std::all_of(modes->Begin(), modes->End(), [](const rapidjson::Value& m) {
                         return m.IsString() && m.GetStringLength() > 0;
                       });
    if (valid) {
      next.modes.clear();
      for (const auto& mode : modes->GetArray())
        next.modes.emplace_back(mode.GetString(), mode.GetStringLength());
    } else {
      fields.add_issue("modes", {"BASE_TYPE_INVALID", "A non-empty array of mode names."});
    }
  }
  if (auto v = fields.integer("heartbeat_interval_ms", false, 10, 3600000)) next.heartbeat_interval_ms = *v;
  if (auto v = fields.integer("resume_window_ms", false, 0, 3600000)) next.resume_window_ms = *v;
  if (auto v = fields.integer("buffer_size", false, 1, 100000)) next.buffer_size = *v;
  if (auto v = fields.string("e2ee", false)) {
    if (*v == "by_date" || *v == "required" || *v == "optional") {
      next.e2ee = std::string(*v);
    } else {
      fields.add_issue("e2ee", {"BASE_TYPE_CHOICES", "One of by_date, required, optional."});
    }
  }
  if (auto v = fields.integer("dave_transition_timeout_ms", false, 0, 600000))
    next.dave_transition_timeout_ms = *v;
  if (auto v = fields.integer("dave_new_group_wait_ms", false, 0, 600000)) next.dave_new_group_wait_ms = *v;
  const bool reset = fields.boolean("reset", false).value_or(false);
  if (!errors.empty()) return invalid_form_body(errors);
  voice_.settings = reset ? VoiceSettings{} : next;
  // Requiring E2EE now ends the calls of clients that cannot do it, as Identify would have refused them.
  if (e2ee_required()) {
    std::vector<std::uint64_t> plain;
    for (const auto& [id, connection] : voice_.connections) {
      if (!connection.voice_session) continue;
      const auto session = voice_.sessions.find(*connection.voice_session);
      if (session != voice_.sessions.end() && session->second.max_dave_version < kDaveProtocolVersion)
        plain.push_back(id);
    }
    for (const auto id : plain)
      close_connection(id, voice_close::kE2eeRequired, "E2EE/DAVE protocol required.");
  }
  return HttpResponse::json(200, settings_json());
}

std::variant<std::optional<std::string>, HttpResponse> VoiceModule::target_user(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_optional_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  auto user_id = fields.string("user_id", false);
  if (!errors.empty()) return invalid_form_body(errors);
  return user_id;
}

std::vector<std::uint64_t> VoiceModule::select(BodyFields& fields) const {
  const auto user_id = fields.string("user_id", false);
  std::vector<std::uint64_t> ids;
  for (const auto& [id, connection] : voice_.connections) {
    if (user_id) {
      if (!connection.voice_session) continue;
      const auto session = voice_.sessions.find(*connection.voice_session);
      if (session == voice_.sessions.end() || session->second.user_id != *user_id) continue;
    }
    ids.push_back(id);
  }
  return ids;
}

HttpResponse VoiceModule::admin_drop(const RouteContext& context) {
  return act_on_connections(
      context, [this](BodyFields& fields) { return select(fields); }, nullptr,
      [this](std::uint64_t id) { drop_connection(id); });
}

HttpResponse VoiceModule::admin_close(const RouteContext& context) {
  CloseRequest close;
  return act_on_connections(
      context, [this](BodyFields& fields) { return select(fields); },
      [&](BodyFields& fields) { close = read_close_request(fields); },
      [&](std::uint64_t id) { close_connection(id, close.code, close.reason); });
}

// As when the platform moves a call to another voice server (failover, region change): every voice state of
// the user (or of everyone) gets a new token and a LOBBY_VOICE_SERVER_UPDATE, and its voice session is
// detached from the state. That session lives on until its client leaves it for the new server (ending
// it then ends that session only) or its connection is closed; Identify with the new token starts afresh.
HttpResponse VoiceModule::admin_move(const RouteContext& context) {
  auto target = target_user(context);
  if (auto* error = std::get_if<HttpResponse>(&target)) return std::move(*error);
  const auto& user_id = std::get<std::optional<std::string>>(target);
  std::size_t moved = 0;
  for (auto& [key, state] : voice_.states) {
    if (user_id && state.user_id != *user_id) continue;
    state.token = random_token(24);
    state.voice_session.reset();
    dispatch_server(state);
    ++moved;
  }
  return HttpResponse::json(200, "{\"moved\":" + std::to_string(moved) + "}");
}

}  // namespace platformpp::emulator
