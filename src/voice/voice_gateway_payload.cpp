#include "voice/voice_gateway_payload.hpp"

#include "json/json.hpp"

#include <charconv>
#include <cmath>
#include <limits>

namespace platformpp::voice {
namespace {

using json::Value;

VoiceServerMessage Malformed(VoiceServerMessage message, std::string error) {
  message.payload = VoiceMalformed{std::move(error)};
  return message;
}

std::optional<uint32_t> GetU32(const Value& object, std::string_view name) {
  const Value* v = json::Member(object, name);
  if (!v || !v->IsUint()) return std::nullopt;
  return v->GetUint();
}

// Intervals may be sent as 13750 or 13750.0; anything else, or outside 1 ms .. 1 h, is refused.
std::optional<int64_t> GetInterval(const Value& object) {
  const Value* v = json::Member(object, "heartbeat_interval");
  if (!v || !v->IsNumber()) return std::nullopt;
  double ms = v->GetDouble();
  if (!std::isfinite(ms) || ms < 1.0 || ms > static_cast<double>(kMaxVoiceHeartbeatIntervalMs))
    return std::nullopt;
  return static_cast<int64_t>(std::llround(ms));
}

VoiceServerMessage ParseHello(VoiceServerMessage message, const Value& d) {
  std::optional<int64_t> interval = GetInterval(d);
  if (!interval) return Malformed(std::move(message), "Hello without a valid heartbeat_interval");
  message.payload = VoiceHello{*interval};
  return message;
}

VoiceServerMessage ParseReady(VoiceServerMessage message, const Value& d) {
  VoiceReady ready;
  std::optional<uint32_t> ssrc = GetU32(d, "ssrc");
  std::optional<std::string_view> ip = json::GetString(d, "ip");
  std::optional<uint32_t> port = GetU32(d, "port");
  const Value* modes = json::Member(d, "modes");
  if (!ssrc) return Malformed(std::move(message), "Ready without a u32 ssrc");
  if (!ip || ip->empty() || ip->find('\0') != std::string_view::npos)
    return Malformed(std::move(message), "Ready without an ip");
  if (!port || *port == 0 || *port > 65535) return Malformed(std::move(message), "Ready without a UDP port");
  if (!modes || !modes->IsArray()) return Malformed(std::move(message), "Ready without modes");
  for (const Value& mode : modes->GetArray()) {
    if (!mode.IsString()) return Malformed(std::move(message), "Ready with a mode that is not a string");
    ready.modes.emplace_back(mode.GetString(), mode.GetStringLength());
  }
  ready.ssrc = *ssrc;
  ready.ip.assign(ip->data(), ip->size());
  ready.port = static_cast<uint16_t>(*port);
  if (json::Member(d, "heartbeat_interval")) ready.heartbeatIntervalMs = GetInterval(d);
  message.payload = std::move(ready);
  return message;
}

VoiceServerMessage ParseSessionDescription(VoiceServerMessage message, const Value& d) {
  VoiceSessionDescription description;
  std::optional<std::string_view> mode = json::GetString(d, "mode");
  if (!mode) return Malformed(std::move(message), "Session Description without a mode");
  const Value* key = json::Member(d, "secret_key");
  if (!key || !key->IsArray() || key->Size() != media_wire::kTransportKeySize) {
    return Malformed(std::move(message), "Session Description without a secret_key of exactly " +
                                             std::to_string(media_wire::kTransportKeySize) + " bytes");
  }
  for (rapidjson::SizeType i = 0; i < key->Size(); ++i) {
    const Value& byte = (*key)[i];
    if (!byte.IsUint() || byte.GetUint() > 255)
      return Malformed(std::move(message), "Session Description with a secret_key value outside 0..255");
    description.secretKey[i] = static_cast<uint8_t>(byte.GetUint());
  }
  if (const Value* dave = json::Member(d, "dave_protocol_version")) {
    if (!dave->IsInt() || dave->GetInt() < 0)
      return Malformed(std::move(message), "Session Description with a bad dave_protocol_version");
    description.daveProtocolVersion = dave->GetInt();
  }
  description.mode.assign(mode->data(), mode->size());
  description.parsedMode = media_wire::ParseTransportMode(*mode);
  message.payload = std::move(description);
  return message;
}

VoiceServerMessage ParseSpeaking(VoiceServerMessage message, const Value& d) {
  std::optional<uint64_t> user = json::GetSnowflake(d, "user_id");
  std::optional<uint32_t> ssrc = GetU32(d, "ssrc");
  std::optional<uint32_t> speaking = GetU32(d, "speaking");
  if (!user || !ssrc || !speaking)
    return Malformed(std::move(message), "Speaking without user_id, ssrc or speaking");
  message.payload = VoiceSpeaking{*user, *ssrc, *speaking};
  return message;
}

VoiceServerMessage ParseHeartbeatAck(VoiceServerMessage message, const Value& d) {
  VoiceHeartbeatAck ack;
  // v8 sends {"t": nonce}; older versions sent the nonce alone. Either acknowledges.
  const Value* t = d.IsObject() ? json::Member(d, "t") : &d;
  if (t && t->IsUint64()) ack.t = t->GetUint64();
  message.payload = ack;
  return message;
}

VoiceServerMessage ParseClientsConnect(VoiceServerMessage message, const Value& d) {
  const Value* ids = json::Member(d, "user_ids");
  if (!ids || !ids->IsArray()) return Malformed(std::move(message), "Clients Connect without user_ids");
  VoiceClientsConnect connect;
  connect.userIds.reserve(ids->Size());
  for (const Value& id : ids->GetArray()) {
    std::optional<uint64_t> value = json::AsSnowflake(id);
    if (!value) return Malformed(std::move(message), "Clients Connect with an invalid user id");
    connect.userIds.push_back(*value);
  }
  message.payload = std::move(connect);
  return message;
}

VoiceServerMessage ParseClientDisconnect(VoiceServerMessage message, const Value& d) {
  std::optional<uint64_t> user = json::GetSnowflake(d, "user_id");
  if (!user) return Malformed(std::move(message), "Client Disconnect without user_id");
  message.payload = VoiceClientDisconnect{*user};
  return message;
}

// A transition id is a u16 on the wire's binary side (op 29/30); JSON carries it as a number.
std::optional<uint16_t> TransitionId(const Value& d) {
  const Value* id = d.IsObject() ? json::Member(d, "transition_id") : nullptr;
  if (!id || !id->IsUint() || id->GetUint() > UINT16_MAX) return std::nullopt;
  return static_cast<uint16_t>(id->GetUint());
}

std::optional<int32_t> ProtocolVersion(const Value& d) {
  const Value* version = d.IsObject() ? json::Member(d, "protocol_version") : nullptr;
  if (!version || !version->IsInt() || version->GetInt() < 0) return std::nullopt;
  return version->GetInt();
}

VoiceServerMessage ParseDavePrepareTransition(VoiceServerMessage message, const Value& d) {
  const auto id = TransitionId(d);
  const auto version = ProtocolVersion(d);
  if (!id || !version) return Malformed(std::move(message), "DAVE prepare transition without its fields");
  message.payload = VoiceDavePrepareTransition{*id, *version};
  return message;
}

VoiceServerMessage ParseDaveExecuteTransition(VoiceServerMessage message, const Value& d) {
  const auto id = TransitionId(d);
  if (!id) return Malformed(std::move(message), "DAVE execute transition without a transition_id");
  message.payload = VoiceDaveExecuteTransition{*id};
  return message;
}

VoiceServerMessage ParseDavePrepareEpoch(VoiceServerMessage message, const Value& d) {
  const Value* epoch = d.IsObject() ? json::Member(d, "epoch") : nullptr;
  const auto version = ProtocolVersion(d);
  if (!epoch || !epoch->IsUint64() || !version)
    return Malformed(std::move(message), "DAVE prepare epoch without its fields");
  message.payload = VoiceDavePrepareEpoch{epoch->GetUint64(), *version};
  return message;
}

void WriteId(rapidjson::Writer<rapidjson::StringBuffer>& w, uint64_t id) {
  std::string text = std::to_string(id);
  w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

void WriteString(rapidjson::Writer<rapidjson::StringBuffer>& w, std::string_view text) {
  w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

template <class F>
std::string Payload(VoiceOpcode op, F&& writeD) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("op");
  w.Int(static_cast<int>(op));
  w.Key("d");
  w.StartObject();
  writeD(w);
  w.EndObject();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace

VoiceServerMessage ParseVoiceServerText(std::string_view text) {
  VoiceServerMessage message;
  // RapidJSON stops at a NUL as at the end of the text; whatever follows one would go unchecked.
  if (text.find('\0') != std::string_view::npos)
    return Malformed(std::move(message), "the message contains a NUL character");
  json::Document doc;
  std::string error;
  if (!json::Parse(text, doc, &error)) return Malformed(std::move(message), "not JSON: " + error);
  if (!doc.IsObject()) return Malformed(std::move(message), "the message is not a JSON object");
  const Value* op = json::Member(doc, "op");
  if (!op || !op->IsInt()) return Malformed(std::move(message), "`op` is missing or not an integer");
  if (const Value* seq = json::Member(doc, "seq"); seq && !seq->IsNull()) {
    if (!seq->IsInt64() || seq->GetInt64() < 0)
      return Malformed(std::move(message), "`seq` is not a non-negative integer");
    message.seq = seq->GetInt64();
  }
  message.op = op->GetInt();
  static const Value kNull;
  const Value* found = json::Member(doc, "d");
  const Value& d = found ? *found : kNull;
  switch (static_cast<VoiceOpcode>(message.op)) {
    case VoiceOpcode::Hello:
      return ParseHello(std::move(message), d);
    case VoiceOpcode::Ready:
      return ParseReady(std::move(message), d);
    case VoiceOpcode::SessionDescription:
      return ParseSessionDescription(std::move(message), d);
    case VoiceOpcode::Speaking:
      return ParseSpeaking(std::move(message), d);
    case VoiceOpcode::HeartbeatAck:
      return ParseHeartbeatAck(std::move(message), d);
    case VoiceOpcode::Resumed:
      message.payload = VoiceResumed{};
      return message;
    case VoiceOpcode::ClientsConnect:
      return ParseClientsConnect(std::move(message), d);
    case VoiceOpcode::ClientDisconnect:
      return ParseClientDisconnect(std::move(message), d);
    case VoiceOpcode::DavePrepareTransition:
      return ParseDavePrepareTransition(std::move(message), d);
    case VoiceOpcode::DaveExecuteTransition:
      return ParseDaveExecuteTransition(std::move(message), d);
    case VoiceOpcode::DavePrepareEpoch:
      return ParseDavePrepareEpoch(std::move(message), d);
    default:
      message.payload = VoiceUnknown{found ? json::Serialize(d) : std::string("null")};
      return message;
  }
}

VoiceServerMessage ParseVoiceServerBinary(std::span<const uint8_t> frame) {
  VoiceServerMessage message;
  if (frame.size() < 3) return Malformed(std::move(message), "a binary frame shorter than its 3-byte header");
  message.seq = (static_cast<int64_t>(frame[0]) << 8) | frame[1];
  message.op = frame[2];
  message.payload = VoiceBinary{frame[2], std::vector<uint8_t>(frame.begin() + 3, frame.end())};
  return message;
}

std::string BuildVoiceIdentify(uint64_t serverId, uint64_t userId, std::string_view sessionId,
                               std::string_view token, int32_t maxDaveProtocolVersion) {
  return Payload(VoiceOpcode::Identify, [&](auto& w) {
    w.Key("server_id");
    WriteId(w, serverId);
    w.Key("user_id");
    WriteId(w, userId);
    w.Key("session_id");
    WriteString(w, sessionId);
    w.Key("token");
    WriteString(w, token);
    w.Key("max_dave_protocol_version");
    w.Int(maxDaveProtocolVersion);
  });
}

std::string BuildVoiceDaveReadyForTransition(uint16_t transitionId) {
  return Payload(VoiceOpcode::DaveReadyForTransition, [&](auto& w) {
    w.Key("transition_id");
    w.Uint(transitionId);
  });
}

std::string BuildVoiceDaveInvalidCommitWelcome(uint16_t transitionId) {
  return Payload(VoiceOpcode::DaveInvalidCommitWelcome, [&](auto& w) {
    w.Key("transition_id");
    w.Uint(transitionId);
  });
}

std::vector<uint8_t> BuildVoiceBinary(uint8_t op, std::span<const uint8_t> payload) {
  std::vector<uint8_t> frame;
  frame.reserve(payload.size() + 1);
  frame.push_back(op);
  frame.insert(frame.end(), payload.begin(), payload.end());
  return frame;
}

std::string BuildVoiceSelectProtocol(std::string_view address, uint16_t port,
                                     media_wire::TransportMode mode) {
  return Payload(VoiceOpcode::SelectProtocol, [&](auto& w) {
    w.Key("protocol");
    w.String("udp");
    w.Key("data");
    w.StartObject();
    w.Key("address");
    WriteString(w, address);
    w.Key("port");
    w.Uint(port);
    w.Key("mode");
    WriteString(w, media_wire::TransportModeName(mode));
    w.EndObject();
  });
}

std::string BuildVoiceHeartbeat(uint64_t t, int64_t seqAck) {
  return Payload(VoiceOpcode::Heartbeat, [&](auto& w) {
    w.Key("t");
    w.Uint64(t);
    w.Key("seq_ack");
    w.Int64(seqAck < 0 ? -1 : seqAck);
  });
}

std::string BuildVoiceResume(uint64_t serverId, std::string_view sessionId, std::string_view token,
                             int64_t seqAck) {
  return Payload(VoiceOpcode::Resume, [&](auto& w) {
    w.Key("server_id");
    WriteId(w, serverId);
    w.Key("session_id");
    WriteString(w, sessionId);
    w.Key("token");
    WriteString(w, token);
    w.Key("seq_ack");
    w.Int64(seqAck < 0 ? -1 : seqAck);
  });
}

std::string BuildVoiceSpeaking(uint32_t speaking, uint32_t ssrc) {
  return Payload(VoiceOpcode::Speaking, [&](auto& w) {
    w.Key("speaking");
    w.Uint(speaking);
    w.Key("delay");
    w.Int(0);
    w.Key("ssrc");
    w.Uint(ssrc);
  });
}

std::string VoiceGatewayUrl(std::string_view endpoint, bool plain) {
  for (std::string_view scheme : {"wss://", "ws://", "https://", "http://"}) {
    if (endpoint.substr(0, scheme.size()) == scheme) {
      endpoint.remove_prefix(scheme.size());
      break;
    }
  }
  std::string url = plain ? "ws://" : "wss://";
  url += endpoint;
  if (url.empty() || url.back() != '/') url += '/';
  url += "?v=8";
  return url;
}

}  // namespace platformpp::voice
