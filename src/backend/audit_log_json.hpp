#pragma once
// A guild's audit log on the wire: the answer of Get Guild Audit Log, and the X-Audit-Log-Reason header every
// mutating guild call may carry (checked, then percent-encoded).

#include "api/api_request.hpp"
#include "json/json.hpp"

#include <platformpp/guild_audit_log.hpp>

#include <optional>
#include <string>

namespace platformpp::backend {

/// An audit log answer; nullopt when `value` is not one.
std::optional<AuditLog> ParseAuditLogValue(const json::Value& value);

/// Gives `request` the X-Audit-Log-Reason `reason` (percent-encoded UTF-8); an empty reason adds nothing. A
/// reason CheckAuditLogReason refuses becomes one of the request's violations (nothing is sent).
void AddAuditLogReason(api::ApiRequest& request, const std::string& reason);

}  // namespace platformpp::backend
