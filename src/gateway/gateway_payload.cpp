#include "gateway/gateway_payload.hpp"

#include "json/json.hpp"

#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <limits>

namespace platformpp::gateway {
namespace {

// One SAX pass: the top-level fields are read as they go by, and `d` is located by stream offsets (after its
// key, after its value) rather than built, so nobody pays for a DOM of a dispatch here.
class EnvelopeHandler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, EnvelopeHandler> {
 public:
  enum class Field { Other, Op, S, T, D };

  explicit EnvelopeHandler(const rapidjson::MemoryStream& stream) : stream_(stream) {}

  bool Default() { return Scalar(); }
  bool Null() {
    if (depth_ == 1 && (field_ == Field::S || field_ == Field::T)) {
      if (field_ == Field::S) envelope.s.reset();
      if (field_ == Field::T) envelope.t.clear();
      field_ = Field::Other;
      return true;
    }
    return Scalar();
  }
  bool Int(int v) { return Integer(v); }
  bool Uint(unsigned v) { return Integer(v); }
  bool Int64(int64_t v) { return Integer(v); }
  bool Uint64(uint64_t v) {
    if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return Scalar();
    return Integer(static_cast<int64_t>(v));
  }
  bool String(const char* text, rapidjson::SizeType length, bool) {
    if (depth_ == 1 && field_ == Field::T) {
      envelope.t.assign(text, length);
      field_ = Field::Other;
      return true;
    }
    return Scalar();
  }
  bool Key(const char* text, rapidjson::SizeType length, bool) {
    if (depth_ != 1) return true;
    std::string_view key(text, length);
    field_ = key == "op"  ? Field::Op
             : key == "s" ? Field::S
             : key == "t" ? Field::T
             : key == "d" ? Field::D
                          : Field::Other;
    if (field_ == Field::D) dStart_ = stream_.Tell();
    return true;
  }
  bool StartObject() { return Open(); }
  bool EndObject(rapidjson::SizeType) { return Close(); }
  bool StartArray() {
    if (depth_ == 0) {
      error = "the payload is not a JSON object";
      return false;
    }
    return Open();
  }
  bool EndArray(rapidjson::SizeType) { return Close(); }

  Envelope envelope;
  bool sawOp = false;
  std::string error;
  std::size_t dStart_ = 0;
  std::size_t dEnd_ = 0;
  bool sawD = false;

 private:
  bool Integer(int64_t v) {
    if (depth_ == 1 && field_ == Field::Op) {
      if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
        error = "`op` is out of range";
        return false;
      }
      envelope.op = static_cast<int32_t>(v);
      sawOp = true;
      field_ = Field::Other;
      return true;
    }
    if (depth_ == 1 && field_ == Field::S) {
      envelope.s = v;
      field_ = Field::Other;
      return true;
    }
    return Scalar();
  }
  // A value that is not what `op`, `s` or `t` must be, or any value inside `d` or other fields.
  bool Scalar() {
    if (depth_ == 0) {
      error = "the payload is not a JSON object";
      return false;
    }
    if (depth_ == 1) {
      switch (field_) {
        case Field::Op:
          error = "`op` is not an integer";
          return false;
        case Field::S:
          error = "`s` is not an integer or null";
          return false;
        case Field::T:
          error = "`t` is not a string or null";
          return false;
        case Field::D:
          dEnd_ = stream_.Tell();
          sawD = true;
          break;
        case Field::Other:
          break;
      }
      field_ = Field::Other;
    }
    return true;
  }
  bool Open() {
    if (depth_ == 0 && topOpened_) return false;
    if (depth_ == 0) {
      topOpened_ = true;
    } else if (depth_ == 1 && field_ != Field::D && field_ != Field::Other) {
      return Scalar();  // an object or array where op/s/t belong
    }
    ++depth_;
    return true;
  }
  bool Close() {
    --depth_;
    if (depth_ == 1 && field_ == Field::D) {
      dEnd_ = stream_.Tell() + 1;  // the iterative parser reports the end before it takes the bracket
      sawD = true;
      field_ = Field::Other;
    } else if (depth_ == 1) {
      field_ = Field::Other;
    }
    return true;
  }

  const rapidjson::MemoryStream& stream_;
  int depth_ = 0;
  bool topOpened_ = false;
  Field field_ = Field::Other;
};

bool IsJsonSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::optional<std::string> Sized(std::string payload, std::string* error) {
  if (payload.size() > kMaxClientPayloadBytes) {
    if (error) {
      *error = "the payload is " + std::to_string(payload.size()) + " bytes, over the Gateway's limit of " +
               std::to_string(kMaxClientPayloadBytes);
    }
    return std::nullopt;
  }
  return payload;
}

const char* DefaultOs() {
#if defined(_WIN32)
  return "windows";
#elif defined(__APPLE__)
  return "macos";
#elif defined(__ANDROID__)
  return "android";
#else
  return "linux";
#endif
}

}  // namespace

std::optional<Envelope> ParseEnvelope(std::string_view text, std::string* error) {
  // RapidJSON stops at a NUL as at the end of the text; whatever follows one would go unchecked.
  if (text.find('\0') != std::string_view::npos) {
    if (error) *error = "the payload contains a NUL character";
    return std::nullopt;
  }
  rapidjson::MemoryStream stream(text.data(), text.size());
  EnvelopeHandler handler(stream);
  rapidjson::Reader reader;
  reader.Parse<rapidjson::kParseIterativeFlag>(stream, handler);
  if (reader.HasParseError()) {
    if (error) {
      *error = !handler.error.empty() ? handler.error
                                      : std::string(rapidjson::GetParseError_En(reader.GetParseErrorCode())) +
                                            " at offset " + std::to_string(reader.GetErrorOffset());
    }
    return std::nullopt;
  }
  if (!handler.sawOp) {
    if (error) *error = "`op` is missing";
    return std::nullopt;
  }
  Envelope envelope = std::move(handler.envelope);
  if (handler.sawD && handler.dEnd_ > handler.dStart_ && handler.dEnd_ <= text.size()) {
    std::string_view d = text.substr(handler.dStart_, handler.dEnd_ - handler.dStart_);
    while (!d.empty() && (IsJsonSpace(d.front()) || d.front() == ':'))
      d.remove_prefix(1);
    envelope.d = d;
  }
  return envelope;
}

std::optional<std::string> BuildPayload(Opcode op, std::string_view dJson, std::string* error) {
  json::Document check;
  std::string parseError;
  if (!json::Parse(dJson, check, &parseError)) {
    if (error) *error = "`d` is not JSON: " + parseError;
    return std::nullopt;
  }
  std::string payload;
  payload.reserve(dJson.size() + 20);
  payload += "{\"op\":";
  payload += std::to_string(static_cast<int32_t>(op));
  payload += ",\"d\":";
  payload += dJson;
  payload += '}';
  return Sized(std::move(payload), error);
}

std::string BuildHeartbeat(std::optional<int64_t> seq) {
  return "{\"op\":1,\"d\":" + (seq ? std::to_string(*seq) : std::string("null")) + "}";
}

std::optional<std::string> BuildIdentify(const IdentifyParams& params, std::string* error) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("op");
  w.Int(static_cast<int>(Opcode::Identify));
  w.Key("d");
  w.StartObject();
  w.Key("token");
  w.String(params.token.data(), static_cast<rapidjson::SizeType>(params.token.size()));
  w.Key("properties");
  w.StartObject();
  w.Key("os");
  w.String(params.os.empty() ? DefaultOs() : params.os.c_str());
  w.Key("browser");
  w.String("platformpp");
  w.Key("device");
  w.String("platformpp");
  w.EndObject();
  w.Key("intents");
  w.Int64(params.intents);
  w.Key("capabilities");
  w.Int64(params.capabilities);
  if (params.transportCompression) {
    w.Key("compress");
    w.Bool(false);
  }
  w.EndObject();
  w.EndObject();
  return Sized(std::string(buffer.GetString(), buffer.GetSize()), error);
}

std::optional<std::string> BuildResume(std::string_view token, std::string_view sessionId,
                                       std::optional<int64_t> seq, std::string* error) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("op");
  w.Int(static_cast<int>(Opcode::Resume));
  w.Key("d");
  w.StartObject();
  w.Key("token");
  w.String(token.data(), static_cast<rapidjson::SizeType>(token.size()));
  w.Key("session_id");
  w.String(sessionId.data(), static_cast<rapidjson::SizeType>(sessionId.size()));
  w.Key("seq");
  if (seq) {
    w.Int64(*seq);
  } else {
    w.Null();
  }
  w.EndObject();
  w.EndObject();
  return Sized(std::string(buffer.GetString(), buffer.GetSize()), error);
}

std::optional<int64_t> ParseHelloInterval(std::string_view dJson) {
  json::Document document;
  if (!json::Parse(dJson, document)) return std::nullopt;
  std::optional<double> interval = json::GetNumber(document, "heartbeat_interval");
  if (!interval || !(*interval >= 1.0) || *interval > 24.0 * 3600 * 1000) return std::nullopt;
  return static_cast<int64_t>(*interval);
}

std::optional<ReadyInfo> ParseReady(std::string_view dJson, std::string* error) {
  json::Document document;
  std::string parseError;
  if (!json::Parse(dJson, document, &parseError)) {
    if (error) *error = "READY is not JSON: " + parseError;
    return std::nullopt;
  }
  return ParseReady(document, error);
}

std::optional<ReadyInfo> ParseReady(const json::Value& document, std::string* error) {
  if (!document.IsObject()) {
    if (error) *error = "READY's d is not an object";
    return std::nullopt;
  }
  std::optional<std::string_view> sessionId = json::GetString(document, "session_id");
  if (!sessionId || sessionId->empty()) {
    if (error) *error = "READY has no session_id";
    return std::nullopt;
  }
  ReadyInfo info;
  info.sessionId = std::string(*sessionId);
  info.resumeGatewayUrl = std::string(json::GetString(document, "resume_gateway_url").value_or(""));
  if (const json::Value* user = json::Member(document, "user"); user && user->IsObject()) {
    info.userJson = json::Serialize(*user);
    info.userId = json::GetSnowflake(*user, "id");
  } else {
    info.userJson = "null";
  }
  return info;
}

bool ParseInvalidSessionResumable(std::string_view dJson) {
  return dJson == "true";
}

std::optional<std::string> ParseGatewayUrl(std::string_view body) {
  json::Document document;
  if (!json::Parse(body, document)) return std::nullopt;
  std::optional<std::string_view> url = json::GetString(document, "url");
  if (!url || url->empty()) return std::nullopt;
  return std::string(*url);
}

std::string GatewayConnectUrl(std::string_view url, bool compress) {
  std::string base(url.substr(0, url.find('?')));
  if (base.empty() || base.back() != '/') base += '/';
  base += "?v=10&encoding=json";
  if (compress) base += "&compress=zlib-stream";
  return base;
}

}  // namespace platformpp::gateway
