// Guild soundboard sounds: the sounds a guild keeps (SoundboardState, a document per guild that has any),
// the platform's default sounds, the sound object as the API and the Gateway write it, and the reading of
// an uploaded sound's data URI. The routes are in soundboard_routes.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/emulator_state.hpp"

namespace platformpp::emulator {

class StateChanges;

namespace document_kind {
inline constexpr std::string_view kGuildSoundboard = "guild_soundboard";  // id: the guild's
}  // namespace document_kind

// An uploaded sound is at most 512 KiB once decoded (the platform's docs: "512kb").
inline constexpr std::size_t kSoundboardSoundMaxBytes = std::size_t{512} * 1024;
// Sounds per guild: the platform's figure for a guild without boosts (the emulator's guilds have none).
inline constexpr std::size_t kSoundboardSoundsMax = 8;
// A sound's name: 2 to 32 characters.
inline constexpr std::size_t kSoundboardNameMin = 2, kSoundboardNameMax = 32;
// The seed's permission split: from 2026-02-23T00:00:00Z (fake clock) creating a sound needs
// CREATE_GUILD_EXPRESSIONS; before it MANAGE_GUILD_EXPRESSIONS still allowed it.
inline constexpr std::int64_t kCreateExpressionsSplitMs = 1771804800000;

struct SoundboardSound {
  std::string sound_id;  // a snowflake; the default sounds have small integers
  std::string guild_id;  // empty for a default sound
  std::string name;
  double volume = 1.0;  // 0 to 1
  std::optional<std::string> emoji_id{};
  std::optional<std::string> emoji_name{};
  std::string user_id{};       // who created it (empty for a default sound)
  std::string media_type{};    // audio/mpeg or audio/ogg, as uploaded
  std::size_t size_bytes = 0;  // the decoded upload's size
};

// Whether a sound may be uploaded as this media type: MP3 (audio/mpeg, audio/mp3) or Ogg (audio/ogg).
[[nodiscard]] bool soundboard_media_type_allowed(std::string_view media_type);

// The platform's default sounds (List Default Soundboard Sounds), usable in every guild.
[[nodiscard]] const std::vector<SoundboardSound>& default_soundboard_sounds();

// The soundboard sound object; `creator` adds its `user` (for callers who may manage expressions).
[[nodiscard]] std::string soundboard_sound_json(const SoundboardSound& sound, const User* creator);

class SoundboardState {
 public:
  // Registers the "guild_soundboard" kind and from then on names every document it changes.
  void register_documents(StateChanges& changes);

  // The guild's sounds in creation order (empty for an unknown guild).
  [[nodiscard]] const std::vector<SoundboardSound>& sounds(std::string_view guild_id) const;
  [[nodiscard]] const SoundboardSound* find(std::string_view guild_id, std::string_view sound_id) const;
  // Adds the sound, or replaces the one with its id.
  void put(SoundboardSound sound);
  // Removes it; false if there was none.
  bool remove(std::string_view guild_id, std::string_view sound_id);

 private:
  void touch(std::string_view guild_id);

  StateChanges* changes_ = nullptr;
  std::map<std::string, std::vector<SoundboardSound>, std::less<>> sounds_;  // by guild id
};

}  // namespace platformpp::emulator
