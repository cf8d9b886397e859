#pragma once
// The application's own emoji as the backend reads and changes them with the bot token (BackendClient's
// application emoji calls, on BackendOptions::applicationId): Emoji, the emoji object the platform answers
// with (read leniently, unknown fields kept in `rawJson`); EmojiChanges, what creating or renaming an emoji
// sends, checked against the platform's limits by CheckEmoji before anything leaves the process (the image's
// bytes go as a base64 data URI).

#include <platformpp/client_result.hpp>
#include <platformpp/message_payload.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::backend {

/// The limits CheckEmoji applies, as the platform sets them.
namespace emoji_limits {
/// An emoji's name is at least 2 characters...
inline constexpr std::size_t MinNameLength = 2;
/// ...and at most 32, of A-Z, a-z, 0-9 and '_'.
inline constexpr std::size_t MaxNameLength = 32;
/// An emoji's image is at most 256 KiB.
inline constexpr std::size_t MaxImageBytes = std::size_t{256} * 1024;
/// An application owns at most 2000 emoji (CreateApplicationEmoji beyond: HTTPError 400 from the platform).
inline constexpr std::size_t MaxApplicationEmoji = 2000;
}  // namespace emoji_limits

/// An emoji as the platform answers it.
struct Emoji {
  /// The emoji's id.
  uint64_t id = 0;
  /// The emoji's name.
  std::string name;
  /// Who uploaded it: the bot user when made through the API; absent when the platform does not say.
  std::optional<User> user;
  /// Roles allowed to use it (guild emoji; empty for an application's).
  std::vector<uint64_t> roles;
  /// Whether it must be wrapped in colons.
  bool requireColons = false;
  /// Whether an integration manages it.
  bool managed = false;
  /// Whether it is animated.
  bool animated = false;
  /// Whether it can be used.
  bool available = true;
  /// The whole emoji object as JSON text.
  std::string rawJson;
};

/// What CreateApplicationEmoji and ModifyApplicationEmoji send. Creating needs `name` and `image`;
/// modifying changes the name only (`image` must be empty).
struct EmojiChanges {
  /// The emoji's name, 2 to 32 characters of A-Z, a-z, 0-9 and '_'.
  std::optional<std::string> name;
  /// Create only: the image file's bytes, 1 byte to 256 KiB.
  std::string image;
  /// Create only: the image's type, "image/png", "image/jpeg", "image/gif", "image/webp" or "image/avif" (the
  /// platform's emoji formats).
  std::string imageMimeType;
};

/// Reads an emoji object; nullopt when `json` is not an object. A field of the wrong type is left at its
/// default. Never throws.
std::optional<Emoji> ParseEmoji(std::string_view json);

/// Every rule `changes` breaks, at its wire path ("name", "image"); empty when it may be sent. `creating`:
/// `name` and `image` are required; otherwise (modify) `name` is and `image` must be empty.
std::vector<FieldError> CheckEmoji(const EmojiChanges& changes, bool creating);

}  // namespace platformpp::backend
