#pragma once
// Soundboard sounds and application emoji on the wire: the objects the platform answers with (read leniently,
// as platformpp/guild_soundboard.hpp and application_emoji.hpp promise) and the bodies their create and
// modify calls send, the files as base64 data URIs.

#include "json/json.hpp"

#include <platformpp/application_emoji.hpp>
#include <platformpp/guild_soundboard.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::backend {

/// A soundboard sound object; nullopt when `value` is not an object.
std::optional<SoundboardSound> ParseSoundboardSoundValue(const json::Value& value);

/// A list of sounds: an array (the default sounds) or `{"items": [...]}` (a guild's); nullopt otherwise.
std::optional<std::vector<SoundboardSound>> ParseSoundboardSounds(const json::Value& value);

/// The JSON object CreateGuildSoundboardSound (`creating`, which sends the sound) or
/// ModifyGuildSoundboardSound sends: only the fields `changes` sets.
std::string SoundChangesBody(const SoundChanges& changes, bool creating);

/// The JSON object SendSoundboardSound sends.
std::string SendSoundBody(uint64_t soundId, std::optional<uint64_t> sourceGuildId);

/// An emoji object; nullopt when `value` is not an object.
std::optional<Emoji> ParseEmojiValue(const json::Value& value);

/// A list of emoji: `{"items": [...]}` (or a bare array); nullopt otherwise.
std::optional<std::vector<Emoji>> ParseEmojiList(const json::Value& value);

/// The JSON object CreateApplicationEmoji (`creating`, which sends the image) or ModifyApplicationEmoji
/// sends.
std::string EmojiBody(const EmojiChanges& changes, bool creating);

/// "data:<mimeType>;base64,<bytes in standard base64>".
std::string DataUri(std::string_view mimeType, std::string_view bytes);

}  // namespace platformpp::backend
