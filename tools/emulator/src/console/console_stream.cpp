#include "console/console_stream.hpp"

#include <rapidjson/document.h>

#include <array>
#include <string_view>

#include "core/json.hpp"

namespace platformpp::emulator {

namespace {

// Kinds whose documents or ids are credentials: tokens, codes, a lobby's join secret (knowing it is being
// able to join), external identities (without a mapping, the emulator takes a game's external token itself as
// the external account's id).
constexpr std::array<std::string_view, 5> kSecretKinds = {"grant", "authorization_code", "external_token",
                                                          "external_identity", "lobby_secret"};
constexpr std::array<const char*, 3> kApplicationSecrets = {"client_secret", "bot_token",
                                                            "signing_secret_key"};

bool shown(std::string_view kind) {
  for (const auto secret : kSecretKinds) {
    if (kind == secret) return false;
  }
  return true;
}

// The body as the page may see it.
std::string shown_body(std::string_view kind, const std::string& body) {
  if (kind != "application" && kind != "lobby") return body;
  rapidjson::Document document;
  if (!parse_json(body, document) || !document.IsObject()) return "{}";
  if (kind == "application") {
    for (const auto* name : kApplicationSecrets)
      document.RemoveMember(name);
  } else {
    document.RemoveMember("secret");
  }
  return json_text(document);
}

void write_change(JsonWriter& writer, const DocumentChange& change) {
  writer.StartObject();
  writer.Key("kind");
  write_string(writer, change.kind);
  writer.Key("id");
  write_string(writer, change.id);
  writer.Key("body");
  if (change.body) {
    write_raw(writer, shown_body(change.kind, *change.body), rapidjson::kObjectType);
  } else {
    writer.Null();
  }
  writer.EndObject();
}

}  // namespace

std::string console_snapshot_json(const StateChanges& changes) {
  const auto documents = changes.save_all();
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("type");
    writer.String("snapshot");
    writer.Key("documents");
    writer.StartArray();
    for (const auto& document : documents) {
      if (shown(document.kind)) write_change(writer, document);
    }
    writer.EndArray();
    writer.EndObject();
  });
}

std::optional<std::string> console_changes_json(const std::vector<DocumentChange>& changes) {
  bool any = false;
  for (const auto& change : changes)
    any = any || shown(change.kind);
  if (!any) return std::nullopt;
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("type");
    writer.String("changes");
    writer.Key("changes");
    writer.StartArray();
    for (const auto& change : changes) {
      if (shown(change.kind)) write_change(writer, change);
    }
    writer.EndArray();
    writer.EndObject();
  });
}

bool console_changes_replace_all(const std::vector<DocumentChange>& changes) {
  return changes.size() == 1 && changes.front().kind == "*";
}

std::string console_admin_token(std::string_view message) {
  rapidjson::Document document;
  document.Parse(message.data(), message.size());
  if (document.HasParseError() || !document.IsObject()) return {};
  const auto token = document.FindMember("admin_token");
  if (token == document.MemberEnd() || !token->value.IsString()) return {};
  return {token->value.GetString(), token->value.GetStringLength()};
}

}  // namespace platformpp::emulator
