// The audit log answer and the reason header (audit_log_json.hpp). The reader is lenient about fields, as the
// other readers are, but an entry without an id makes the page unreadable: paging goes by entry ids.
#include "backend/audit_log_json.hpp"

#include "backend/message_json.hpp"
#include "core/utf8.hpp"
#include "net/url.hpp"

#include <exception>
#include <limits>
#include <string_view>
#include <utility>

namespace platformpp::backend {
namespace {

std::optional<std::string> JsonText(const json::Value* value) {
  if (value == nullptr) return std::nullopt;
  return json::Serialize(*value);
}

std::optional<AuditLogEntry> ParseEntry(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  auto id = json::GetSnowflake(value, "id");
  if (!id) return std::nullopt;
  AuditLogEntry entry;
  entry.id = *id;
  entry.userId = json::GetSnowflake(value, "user_id");
  entry.targetId = json::GetSnowflake(value, "target_id");
  auto action = json::GetInt(value, "action_type");
  if (action && *action >= std::numeric_limits<int32_t>::min() &&
      *action <= std::numeric_limits<int32_t>::max())
    entry.actionType = static_cast<AuditLogEvent>(*action);
  if (const json::Value* changes = json::Member(value, "changes"); changes != nullptr && changes->IsArray()) {
    for (const json::Value& change : changes->GetArray()) {
      auto key = change.IsObject() ? json::GetString(change, "key") : std::nullopt;
      if (!key) continue;  // a change without a key says nothing readable
      entry.changes.push_back(AuditLogChange{std::string(*key), JsonText(json::Member(change, "old_value")),
                                             JsonText(json::Member(change, "new_value"))});
    }
  }
  if (const json::Value* options = json::Member(value, "options");
      options != nullptr && options->IsObject()) {
    for (const auto& option : options->GetObject()) {
      std::string name(option.name.GetString(), option.name.GetStringLength());
      // The documented options are strings; anything else is kept as its JSON text.
      entry.options[std::move(name)] =
          option.value.IsString() ? std::string(option.value.GetString(), option.value.GetStringLength())
                                  : json::Serialize(option.value);
    }
  }
  if (auto reason = json::GetString(value, "reason")) entry.reason = std::string(*reason);
  entry.rawJson = json::Serialize(value);
  return entry;
}

}  // namespace

std::optional<AuditLog> ParseAuditLogValue(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  const json::Value* entries = json::Member(value, "audit_log_entries");
  if (entries == nullptr || !entries->IsArray()) return std::nullopt;
  AuditLog log;
  log.entries.reserve(entries->Size());
  for (const json::Value& item : entries->GetArray()) {
    auto entry = ParseEntry(item);
    if (!entry) return std::nullopt;
    log.entries.push_back(std::move(*entry));
  }
  if (const json::Value* users = json::Member(value, "users"); users != nullptr && users->IsArray()) {
    for (const json::Value& item : users->GetArray())
      if (auto user = ParseUser(item)) log.users.push_back(std::move(*user));
  }
  log.rawJson = json::Serialize(value);
  return log;
}

std::optional<AuditLog> ParseAuditLog(std::string_view json) {
  try {
    json::Document document;
    if (!json::Parse(json, document)) return std::nullopt;
    return ParseAuditLogValue(document);
  } catch (const std::exception&) {
    return std::nullopt;  // out of memory on a huge document
  }
}

std::vector<FieldError> CheckAuditLogReason(std::string_view reason) {
  std::vector<FieldError> errors;
  auto length = core::CountCodePoints(reason);
  if (!length) {
    errors.push_back(FieldError{"reason", "BASE_TYPE_INVALID", "reason: must be valid UTF-8"});
  } else if (*length < 1 || *length > audit_log_limits::MaxReasonLength) {
    errors.push_back(FieldError{"reason", "BASE_TYPE_BAD_LENGTH", "reason: must be 1 to 512 characters"});
  }
  return errors;
}

void AddAuditLogReason(api::ApiRequest& request, const std::string& reason) {
  if (reason.empty()) return;  // no reason given: no header
  auto errors = CheckAuditLogReason(reason);
  if (!errors.empty()) {
    for (auto& error : errors)
      request.violations.push_back(std::move(error));
    return;
  }
  // Percent-encoded: a header value carries no raw UTF-8 or line breaks, and '+' stays a plus.
  request.headers.emplace_back("X-Audit-Log-Reason", net::UrlEncode(reason));
}

}  // namespace platformpp::backend
