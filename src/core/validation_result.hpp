#pragma once
// The result of an operation refused before anything was sent: the one shape every feature's checks report.

#include <platformpp/client_result.hpp>

#include <vector>

namespace platformpp::core {

/// A ValidationError carrying `errors` (its message lists them, "; "-separated); success when `errors` is
/// empty.
ClientResult ValidationResult(std::vector<FieldError> errors);

}  // namespace platformpp::core
