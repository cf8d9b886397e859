#include "lobby/lobby_validation.hpp"

#include "core/utf8.hpp"

#include <utility>

namespace platformpp::lobby {
namespace {

void Add(std::vector<FieldError>& errors, const std::string& path, const char* code,
         const std::string& what) {
  errors.push_back(FieldError{path, code, path + ": " + what});
}

// Adds an error unless `text` has `min` to `max` code points of valid UTF-8.
void CheckLength(std::string_view text, std::size_t min, std::size_t max, const std::string& path,
                 std::vector<FieldError>& errors) {
  auto length = core::CountCodePoints(text);
  if (!length) {
    Add(errors, path, "STRING_TYPE_INVALID", "must be valid UTF-8");
  } else if (*length < min || *length > max) {
    Add(errors, path, "BASE_TYPE_BAD_LENGTH",
        "must be between " + std::to_string(min) + " and " + std::to_string(max) + " characters in length");
  }
}

}  // namespace

void CheckSecret(std::string_view secret, const std::string& path, std::vector<FieldError>& errors) {
  CheckLength(secret, 1, kMaxSecretLength, path, errors);
}

std::optional<std::size_t> MetadataLength(const Metadata& metadata) {
  std::size_t total = 0;
  for (const auto& [key, value] : metadata) {
    auto k = core::CountCodePoints(key);
    auto v = core::CountCodePoints(value);
    if (!k || !v) return std::nullopt;
    total += *k + *v;
  }
  return total;
}

void CheckMetadata(const Metadata& metadata, const std::string& path, std::vector<FieldError>& errors) {
  if (metadata.size() > kMaxMetadataPairs) {
    Add(errors, path, "BASE_TYPE_MAX_LENGTH",
        "must have at most " + std::to_string(kMaxMetadataPairs) + " pairs");
  }
  auto length = MetadataLength(metadata);
  if (!length) {
    Add(errors, path, "STRING_TYPE_INVALID", "keys and values must be valid UTF-8");
  } else if (*length > kMaxMetadataLength) {
    Add(errors, path, "BASE_TYPE_MAX_LENGTH",
        "must be at most " + std::to_string(kMaxMetadataLength) +
            " characters in total (keys and values), is " + std::to_string(*length));
  }
}

void CheckAdditionalName(std::string_view name, const std::string& path, std::vector<FieldError>& errors) {
  CheckLength(name, 1, kMaxAdditionalNameLength, path, errors);
}

void CheckIdleTimeout(int64_t seconds, const std::string& path, std::vector<FieldError>& errors) {
  if (seconds < kMinIdleTimeoutSeconds || seconds > kMaxIdleTimeoutSeconds) {
    Add(errors, path, "NUMBER_TYPE_OUT_OF_RANGE",
        "must be between " + std::to_string(kMinIdleTimeoutSeconds) + " and " +
            std::to_string(kMaxIdleTimeoutSeconds));
  }
}

void CheckModerationMetadata(const Metadata& metadata, const std::string& path,
                             std::vector<FieldError>& errors) {
  if (metadata.size() > kMaxModerationPairs) {
    Add(errors, path, "BASE_TYPE_MAX_LENGTH",
        "must have at most " + std::to_string(kMaxModerationPairs) + " pairs");
  }
  for (const auto& [key, value] : metadata) {
    if (!core::CountCodePoints(key)) Add(errors, path, "STRING_TYPE_INVALID", "keys must be valid UTF-8");
    CheckLength(value, 0, kMaxModerationValueLength, path + "." + key, errors);
  }
}

}  // namespace platformpp::lobby
