// The Game Stats Widget's Application Identity Profile body, checked as the platform would before storing it
// (docs/premium-protocol.md, "Game Stats Widget": the platform's limits and ours). Socket-free, for tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/api_error.hpp"
#include "core/json.hpp"

namespace platformpp::emulator::identity {

inline constexpr std::size_t kMaxUsername = 1024;
inline constexpr std::size_t kMaxDataBytes = 10240;
inline constexpr std::size_t kMaxDynamicFields = 30;
inline constexpr std::size_t kMaxText = 100;
inline constexpr std::size_t kMaxUrl = 2048;
inline constexpr std::size_t kMaxFieldName = 64;
inline constexpr std::size_t kMaxProviderIssuedUserId = 256;
inline constexpr std::int64_t kMaxCount = (std::int64_t{1} << 53) - 1;

// What a PATCH carries once checked: each member present or not (data as compact JSON text).
struct ProfileUpdate {
  std::optional<std::string> username;
  std::optional<std::string> data_json;
};

// Whether the path's provider-issued user id is acceptable.
[[nodiscard]] bool valid_provider_issued_user_id(std::string_view id);
// The body `{username?, data?}` checked into `errors`; the update when `errors` stays empty.
ProfileUpdate read_profile_update(const rapidjson::Value& body, FieldErrors& errors);

}  // namespace platformpp::emulator::identity
