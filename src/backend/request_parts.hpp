#pragma once
// The parts the BackendClient's calls (backend_*.cpp) build their requests from: a required id, a query
// string, a request that may carry an audit log reason.

#include "api/api_request.hpp"

#include <platformpp/client_result.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace platformpp::backend {

/// Adds a BASE_TYPE_REQUIRED violation at `path` when `id` is 0 (no snowflake is 0).
void RequireId(uint64_t id, const std::string& path, std::vector<FieldError>& errors);

/// Adds the violation `code` at `path`, its message "path: what".
void AddViolation(std::vector<FieldError>& errors, const std::string& path, const char* code,
                  const std::string& what);

/// Appends `name=value` to `query` (which starts with '?' once it has a parameter); `value` is sent as given.
void AddQuery(std::string& query, const char* name, const std::string& value);

/// Appends `name=id` when `id` is set.
void AddQuery(std::string& query, const char* name, const std::optional<uint64_t>& id);
/// Appends `name=true` or `name=false` when `flag` is set.
void AddQuery(std::string& query, const char* name, const std::optional<bool>& flag);

/// A request with the X-Audit-Log-Reason `reason` (none when empty; a refused reason becomes a violation).
api::ApiRequest AuditedRequest(const char* method, std::string path, std::optional<std::string> body,
                               std::vector<FieldError> errors, const std::string& reason = {});

}  // namespace platformpp::backend
