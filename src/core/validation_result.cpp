#include "core/validation_result.hpp"

#include <utility>

namespace platformpp::core {

ClientResult ValidationResult(std::vector<FieldError> errors) {
  if (errors.empty()) return {};
  ClientResult::Details details;
  details.type = ErrorType::ValidationError;
  for (const auto& e : errors) {
    if (!details.error.empty()) details.error += "; ";
    details.error += e.message;
  }
  details.fieldErrors = std::move(errors);
  return ClientResult(std::move(details));
}

}  // namespace platformpp::core
