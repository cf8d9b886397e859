#pragma once
// The lobby rules checked before anything is sent (Client's lobby calls and the backend's), as field errors
// named by the wire's paths. Pure functions: no I/O, no state. Lengths count Unicode code points; text that
// is not valid UTF-8 is refused.

#include <platformpp/client_result.hpp>
#include <platformpp/lobby.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::lobby {

constexpr std::size_t kMaxSecretLength = 250;
constexpr std::size_t kMaxMetadataLength = 1000;  ///< keys and values together, per lobby and per member
constexpr std::size_t kMaxMetadataPairs = 25;     ///< per lobby and per member (the platform's maxProperties)
constexpr std::size_t kMaxAdditionalNameLength = 80;
constexpr int64_t kMinIdleTimeoutSeconds = 5;
constexpr int64_t kMaxIdleTimeoutSeconds = 604800;
constexpr std::size_t kMaxBulkMembers = 25;  ///< per bulk request, and members given with a new lobby
constexpr std::size_t kMaxModerationPairs = 5;
constexpr std::size_t kMaxModerationValueLength = 2000;

/// Adds to `errors` what breaks a secret of 1 to 250 code points.
void CheckSecret(std::string_view secret, const std::string& path, std::vector<FieldError>& errors);
/// Adds to `errors` what breaks the 1000 code points of a metadata map (keys and values, valid UTF-8) or its
/// 25 pairs.
void CheckMetadata(const Metadata& metadata, const std::string& path, std::vector<FieldError>& errors);
/// Adds to `errors` what breaks an additional name of 1 to 80 code points.
void CheckAdditionalName(std::string_view name, const std::string& path, std::vector<FieldError>& errors);
void CheckIdleTimeout(int64_t seconds, const std::string& path, std::vector<FieldError>& errors);
/// At most 5 pairs, values of at most 2000 code points (keys and values valid UTF-8).
void CheckModerationMetadata(const Metadata& metadata, const std::string& path,
                             std::vector<FieldError>& errors);
/// The number of code points of the metadata's keys and values; empty when any is not valid UTF-8.
std::optional<std::size_t> MetadataLength(const Metadata& metadata);

}  // namespace platformpp::lobby
