#pragma once
// Soundboard sounds as the backend reads and changes them with the bot token (BackendClient's soundboard
// calls): SoundboardSound, the sound object the platform answers with (read leniently, unknown fields kept in
// `rawJson`); SoundChanges, what creating or modifying a guild's sound sends, checked against the platform's
// limits by CheckSoundChanges before anything leaves the process (the sound's bytes go as a base64 data URI).

#include <platformpp/client_result.hpp>
#include <platformpp/message_payload.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::backend {

/// The limits CheckSoundChanges applies, as the platform sets them.
namespace soundboard_limits {
/// A sound's name is at least 2 characters...
inline constexpr std::size_t MinNameLength = 2;
/// ...and at most 32.
inline constexpr std::size_t MaxNameLength = 32;
/// A sound's file is at most 512 KiB.
inline constexpr std::size_t MaxSoundBytes = std::size_t{512} * 1024;
}  // namespace soundboard_limits

/// A soundboard sound: one of a guild's, or one of the platform's default sounds.
struct SoundboardSound {
  /// The sound's id.
  uint64_t soundId = 0;
  /// The sound's name.
  std::string name;
  /// Its volume, 0 to 1.
  double volume = 1.0;
  /// The id of its custom emoji; 0 when none.
  uint64_t emojiId = 0;
  /// Its standard emoji (unicode); empty when none.
  std::string emojiName;
  /// The guild it belongs to; 0 for a default sound.
  uint64_t guildId = 0;
  /// Whether it can be played (a guild that lost boosts may lose sounds).
  bool available = true;
  /// Who uploaded it; absent unless the caller may manage the guild's expressions.
  std::optional<User> user;
  /// The whole sound object as JSON text.
  std::string rawJson;
};

/// What CreateGuildSoundboardSound and ModifyGuildSoundboardSound send. Unset fields are not sent (a
/// modified sound keeps them). Creating needs `name` and `sound`; modifying cannot change the sound itself.
struct SoundChanges {
  /// The sound's name, 2 to 32 characters.
  std::optional<std::string> name;
  /// Its volume, 0 to 1 (the platform's default: 1).
  std::optional<double> volume;
  /// The id of a custom emoji for it; 0 removes it (sent as null).
  std::optional<uint64_t> emojiId;
  /// A standard emoji for it; empty removes it (sent as null).
  std::optional<std::string> emojiName;
  /// Create only: the sound file's bytes, 1 byte to 512 KiB.
  std::string sound;
  /// Create only: the file's type, "audio/mpeg" (or "audio/mp3") or "audio/ogg".
  std::string soundMimeType;
};

/// Reads a soundboard sound object; nullopt when `json` is not an object. A field of the wrong type is left
/// at its default. Never throws.
std::optional<SoundboardSound> ParseSoundboardSound(std::string_view json);

/// Every rule `changes` breaks, at its wire path ("name", "volume", "sound"); empty when it may be sent.
/// `creating`: `name` and `sound` are required; otherwise (modify) `sound` must be empty.
std::vector<FieldError> CheckSoundChanges(const SoundChanges& changes, bool creating);

}  // namespace platformpp::backend
