#include "backend/request_parts.hpp"

#include "backend/audit_log_json.hpp"

#include <utility>

namespace platformpp::backend {

void RequireId(uint64_t id, const std::string& path, std::vector<FieldError>& errors) {
  if (id == 0) errors.push_back(FieldError{path, "BASE_TYPE_REQUIRED", path + ": must not be 0"});
}

void AddViolation(std::vector<FieldError>& errors, const std::string& path, const char* code,
                  const std::string& what) {
  errors.push_back(FieldError{path, code, path + ": " + what});
}

void AddQuery(std::string& query, const char* name, const std::string& value) {
  query += query.empty() ? '?' : '&';
  query += name;
  query += '=';
  query += value;
}

void AddQuery(std::string& query, const char* name, const std::optional<uint64_t>& id) {
  if (id) AddQuery(query, name, std::to_string(*id));
}

void AddQuery(std::string& query, const char* name, const std::optional<bool>& flag) {
  if (flag) AddQuery(query, name, std::string(*flag ? "true" : "false"));
}

api::ApiRequest AuditedRequest(const char* method, std::string path, std::optional<std::string> body,
                               std::vector<FieldError> errors, const std::string& reason) {
  api::ApiRequest request(method, std::move(path), std::move(body), std::move(errors));
  AddAuditLogReason(request, reason);
  return request;
}

}  // namespace platformpp::backend
