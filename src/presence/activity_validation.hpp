#pragma once
// The rules UpdateRichPresence checks before anything is sent (see Client::UpdateRichPresence), and the
// joinability SendActivityInvite needs. Pure functions: no I/O, no state.

#include "core/utf8.hpp"

#include <platformpp/activity.hpp>
#include <platformpp/client_result.hpp>

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace platformpp::presence {

constexpr std::size_t kMinStateLength = 2;       ///< State and Details, in code points
constexpr std::size_t kMaxTextLength = 128;      ///< State, Details, Name, LargeText, SmallText
constexpr std::size_t kMaxUrlLength = 256;       ///< every URL
constexpr std::size_t kMaxAssetKeyLength = 256;  ///< LargeImage, SmallImage, an InviteCoverImage asset key
constexpr std::size_t kMaxButtons = 2;
constexpr std::size_t kMaxButtonLabelLength = 32;
constexpr std::size_t kMinIdLength = 2;    ///< party id, join secret
constexpr std::size_t kMaxIdLength = 128;  ///< party id, join secret

using core::CountCodePoints;

/// An absolute http:// or https:// URL with a host and no whitespace or control characters.
bool IsHttpUrl(std::string_view url) noexcept;

/// Every rule `activity` breaks, with paths in the wire's names ("activity.state", "activity.buttons.1.url");
/// empty when it may be sent. Rules: type Playing, Listening, Watching or Competing; State and Details (when
/// set) 2 to 128 code points; Name, LargeText, SmallText at most 128; LargeImage and SmallImage at most 256;
/// every string valid UTF-8; StateUrl, DetailsUrl, LargeUrl, SmallUrl and button URLs http(s) URLs of at most
/// 256; at most 2 buttons with labels of 1 to 32; party id and join secret (when not empty) 2 to 128;
/// 0 <= CurrentSize <= MaxSize; InviteCoverImage an https URL or an asset key (letters, digits, '_', '-',
/// '.'); SupportedPlatforms non-zero and only ActivityGamePlatforms bits; the field StatusDisplayType chooses
/// is set.
std::vector<FieldError> ValidateActivity(const Activity& activity);

/// What keeps `activity` from being joinable (an invite needs a party id, room left and a join secret);
/// empty when it is joinable. No activity at all is one entry with path "activity".
std::vector<FieldError> CheckJoinable(const std::optional<Activity>& activity);

}  // namespace platformpp::presence
