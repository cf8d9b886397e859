#include "ipc/ipc_message.hpp"

#include "json/json.hpp"

#include <utility>
#include <vector>

namespace platformpp::ipc {
namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

// Parsing is iterative, but re-serialising `data` recurses once per level: a 64 KiB payload of brackets would
// be 32,000 levels of stack. Real messages nest a handful of levels.
constexpr int kMaxDepth = 64;

// Without recursion, for the same reason.
bool WithinDepth(const json::Value& root) {
  std::vector<std::pair<const json::Value*, int>> stack{{&root, 1}};
  while (!stack.empty()) {
    auto [value, depth] = stack.back();
    stack.pop_back();
    if (depth > kMaxDepth) return false;
    if (value->IsObject()) {
      for (auto it = value->MemberBegin(); it != value->MemberEnd(); ++it)
        if (it->value.IsObject() || it->value.IsArray()) stack.emplace_back(&it->value, depth + 1);
    } else if (value->IsArray()) {
      for (const json::Value& item : value->GetArray())
        if (item.IsObject() || item.IsArray()) stack.emplace_back(&item, depth + 1);
    }
  }
  return true;
}

bool SetError(std::string* error, std::string text) {
  if (error) *error = std::move(text);
  return false;
}

bool ParseObject(std::string_view text, json::Document& document, const char* what, std::string* error) {
  std::string parseError;
  if (!json::Parse(text, document, &parseError)) {
    return SetError(error, std::string(what) + " is not JSON: " + parseError);
  }
  if (!document.IsObject()) return SetError(error, std::string(what) + " is not a JSON object");
  if (!WithinDepth(document)) {
    return SetError(error, std::string(what) + " nests deeper than " + std::to_string(kMaxDepth) + " levels");
  }
  return true;
}

// A string member, or absent when missing or null; false when it has another type.
bool OptionalString(const json::Value& object, std::string_view name, std::optional<std::string>& out,
                    std::string* error) {
  const json::Value* value = json::Member(object, name);
  if (!value || value->IsNull()) return true;
  if (!value->IsString()) return SetError(error, "\"" + std::string(name) + "\" is not a string");
  out.emplace(value->GetString(), value->GetStringLength());
  return true;
}

std::string SerializeMember(const json::Value& object, std::string_view name) {
  const json::Value* value = json::Member(object, name);
  if (!value || value->IsNull()) return {};
  return json::Serialize(*value);
}

std::optional<IpcErrorInfo> ParseCodeAndMessage(std::string_view text, const char* what, std::string* error) {
  json::Document document;
  if (!ParseObject(text, document, what, error)) return std::nullopt;
  std::optional<int64_t> code = json::GetInt(document, "code");
  if (!code) {
    SetError(error, std::string(what) + " has no integer \"code\"");
    return std::nullopt;
  }
  IpcErrorInfo info;
  info.code = *code;
  if (auto message = json::GetString(document, "message")) info.message = std::string(*message);
  return info;
}

void WriteString(Writer& writer, std::string_view text) {
  writer.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

}  // namespace

std::optional<IpcMessage> ParseIpcMessage(std::string_view payload, std::string* error) {
  json::Document document;
  if (!ParseObject(payload, document, "message", error)) return std::nullopt;
  IpcMessage message;
  auto cmd = json::GetString(document, "cmd");
  if (!cmd) {
    SetError(error, "message has no string \"cmd\"");
    return std::nullopt;
  }
  message.cmd = std::string(*cmd);
  if (!OptionalString(document, "evt", message.evt, error)) return std::nullopt;
  if (!OptionalString(document, "nonce", message.nonce, error)) return std::nullopt;
  message.dataJson = SerializeMember(document, "data");
  return message;
}

std::optional<IpcReady> ParseIpcReady(std::string_view dataJson, std::string* error) {
  json::Document document;
  if (!ParseObject(dataJson, document, "READY data", error)) return std::nullopt;
  IpcReady ready;
  if (auto version = json::GetInt(document, "v")) ready.version = static_cast<int>(*version);
  ready.configJson = SerializeMember(document, "config");
  ready.userJson = SerializeMember(document, "user");
  return ready;
}

std::optional<IpcErrorInfo> ParseIpcClose(std::string_view payload, std::string* error) {
  return ParseCodeAndMessage(payload, "CLOSE payload", error);
}

std::optional<IpcErrorInfo> ParseIpcError(std::string_view dataJson, std::string* error) {
  return ParseCodeAndMessage(dataJson, "ERROR data", error);
}

std::optional<std::string> BuildIpcCommand(std::string_view cmd, std::string_view argsJson,
                                           std::string_view nonce, std::optional<std::string_view> evt,
                                           std::string* error) {
  json::Document args;
  if (argsJson.empty()) {
    args.SetObject();
  } else if (!ParseObject(argsJson, args, "args", error)) {
    return std::nullopt;
  }
  rapidjson::StringBuffer buffer;
  Writer writer(buffer);
  writer.StartObject();
  writer.Key("cmd");
  WriteString(writer, cmd);
  writer.Key("args");
  args.Accept(writer);
  if (evt) {
    writer.Key("evt");
    WriteString(writer, *evt);
  }
  writer.Key("nonce");
  WriteString(writer, nonce);
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string BuildIpcHandshake(std::string_view clientId) {
  rapidjson::StringBuffer buffer;
  Writer writer(buffer);
  writer.StartObject();
  writer.Key("v");
  writer.Int(1);
  writer.Key("client_id");
  WriteString(writer, clientId);
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace platformpp::ipc
