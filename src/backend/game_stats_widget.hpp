#pragma once
// The Game Stats Widget's Application Identity Profile on the wire: its limits, checked before anything is
// sent (docs/premium-protocol.md, "Game Stats Widget"), the PATCH body, and the profile read back.

#include <platformpp/backend.hpp>
#include <platformpp/client_result.hpp>

#include "json/json.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::backend::game_stats {

inline constexpr std::size_t kMaxUsername = 1024;             // the platform's
inline constexpr std::size_t kMaxDataBytes = 10240;           // the platform's "10 KB", serialized
inline constexpr std::size_t kMaxDynamicFields = 30;          // the platform's
inline constexpr std::size_t kMaxText = 100;                  // ours: primary names and dynamic string values
inline constexpr std::size_t kMaxUrl = 2048;                  // ours
inline constexpr std::size_t kMaxFieldName = 64;              // ours
inline constexpr std::size_t kMaxProviderIssuedUserId = 256;  // ours
inline constexpr int64_t kMaxCount = (int64_t{1} << 53) - 1;  // ours: exact in every JSON reader

/// The provider-issued user id of the path, checked into `errors`.
void CheckProviderIssuedUserId(std::string_view id, std::vector<FieldError>& errors);
/// The PATCH body `{username?, data?: {primary, dynamic}}`, every limit checked into `errors`.
std::string ProfileBody(const GameStatsProfile& profile, std::vector<FieldError>& errors);
/// `{username, metadata, data}` as the platform answers; nothing when it is not one.
std::optional<GameStatsProfile> ParseProfile(const json::Value& value);

}  // namespace platformpp::backend::game_stats
