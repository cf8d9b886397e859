#include "core/connection_admin.hpp"

#include <utility>

#include "core/api_error.hpp"

namespace platformpp::emulator {

HttpResponse act_on_connections(const RouteContext& context, const ConnectionSelector& select,
                                const std::function<void(BodyFields& fields)>& read_fields,
                                const std::function<void(std::uint64_t id)>& act) {
  rapidjson::Document body;
  if (auto error = read_optional_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto ids = select(fields);
  if (!errors.empty()) return invalid_form_body(errors);
  if (read_fields) {
    read_fields(fields);
    if (!errors.empty()) return invalid_form_body(errors);
  }
  for (const auto id : ids)
    act(id);
  return HttpResponse::json(200, "{\"connections\":" + std::to_string(ids.size()) + "}");
}

CloseRequest read_close_request(BodyFields& fields) {
  const auto code = fields.integer("code", true, 1000, 4999);
  auto reason = fields.string("reason", false);
  if (reason && reason->size() > 123) {
    fields.add_issue("reason", {"BASE_TYPE_MAX_LENGTH", "Must be 123 bytes or fewer in length."});
  }
  return {static_cast<int>(code.value_or(0)), std::move(reason).value_or("")};
}

}  // namespace platformpp::emulator
