#include "guild/audit_log.hpp"

#include <rapidjson/encodings.h>
#include <rapidjson/stream.h>

#include "core/form_encoding.hpp"
#include "core/json.hpp"

namespace platformpp::emulator {

namespace {

// A std::string ends with a NUL, so a truncated sequence fails to decode rather than reading past the end.
bool valid_utf8(const std::string& text) {
  rapidjson::StringStream stream(text.c_str());
  const char* const end = text.c_str() + text.size();
  while (stream.src_ != end) {
    unsigned codepoint = 0;
    if (!rapidjson::UTF8<>::Decode(stream, &codepoint)) return false;
  }
  return true;
}

// The first `count` code points of valid UTF-8 text.
std::string first_characters(std::string_view text, std::size_t count) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      if (seen == count) return std::string(text.substr(0, i));
      ++seen;
    }
  }
  return std::string(text);
}

std::optional<std::string> json_of(const std::optional<std::string>& value) {
  if (!value) return std::nullopt;
  return to_json([&](JsonWriter& writer) { write_string(writer, *value); });
}

}  // namespace

std::optional<AuditLogChange> audit_change(std::string key, const std::optional<std::string>& before,
                                           const std::optional<std::string>& after) {
  if (before == after) return std::nullopt;
  return AuditLogChange{std::move(key), json_of(before), json_of(after)};
}

std::optional<AuditLogChange> audit_change(std::string key, std::optional<std::int64_t> before,
                                           std::optional<std::int64_t> after) {
  if (before == after) return std::nullopt;
  const auto text = [](std::optional<std::int64_t> value) {
    return value ? std::optional(std::to_string(*value)) : std::nullopt;
  };
  return AuditLogChange{std::move(key), text(before), text(after)};
}

std::optional<AuditLogChange> audit_change(std::string key, bool before, bool after) {
  if (before == after) return std::nullopt;
  return AuditLogChange{std::move(key), before ? "true" : "false", after ? "true" : "false"};
}

std::optional<AuditLogChange> audit_json_change(std::string key, std::optional<std::string> before,
                                                std::optional<std::string> after) {
  if (before == after) return std::nullopt;
  return AuditLogChange{std::move(key), std::move(before), std::move(after)};
}

void add_change(AuditLogEntry& entry, std::optional<AuditLogChange> change) {
  if (change) entry.changes.push_back(std::move(*change));
}

std::optional<std::string> audit_log_reason(const HttpRequest& request) {
  const auto header = request.header("X-Audit-Log-Reason");
  if (!header || header->empty()) return std::nullopt;
  auto decoded = percent_decode(*header);
  if (!decoded || decoded->empty() || !valid_utf8(*decoded)) return std::nullopt;
  return first_characters(*decoded, kMaxAuditLogReasonCharacters);
}

std::string audit_log_entry_json(const AuditLogEntry& entry, std::string_view guild_id) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    if (!guild_id.empty()) {
      writer.Key("guild_id");
      write_string(writer, guild_id);
    }
    writer.Key("id");
    write_string(writer, entry.id);
    writer.Key("user_id");
    write_optional_string(writer, entry.user_id);
    writer.Key("target_id");
    write_optional_string(writer, entry.target_id);
    writer.Key("action_type");
    writer.Int(entry.action_type);
    if (!entry.changes.empty()) {
      writer.Key("changes");
      writer.StartArray();
      for (const auto& change : entry.changes) {
        writer.StartObject();
        writer.Key("key");
        write_string(writer, change.key);
        if (change.old_value) {
          writer.Key("old_value");
          writer.RawValue(change.old_value->data(), change.old_value->size(), rapidjson::kObjectType);
        }
        if (change.new_value) {
          writer.Key("new_value");
          writer.RawValue(change.new_value->data(), change.new_value->size(), rapidjson::kObjectType);
        }
        writer.EndObject();
      }
      writer.EndArray();
    }
    if (!entry.options.empty()) {
      writer.Key("options");
      writer.StartObject();
      for (const auto& [name, value] : entry.options) {
        writer.Key(name.c_str(), static_cast<rapidjson::SizeType>(name.size()));
        write_string(writer, value);
      }
      writer.EndObject();
    }
    if (entry.reason) {
      writer.Key("reason");
      write_string(writer, *entry.reason);
    }
    writer.EndObject();
  });
}

}  // namespace platformpp::emulator
