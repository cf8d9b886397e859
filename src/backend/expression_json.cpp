// Soundboard sounds and application emoji on the wire (expression_json.hpp), CheckSoundChanges and
// CheckEmoji. The readers are lenient as the other answer readers are: a wrong-typed field keeps its default.
#include "backend/expression_json.hpp"
#include "backend/request_parts.hpp"

#include "backend/message_json.hpp"
#include "core/utf8.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <exception>
#include <system_error>

namespace platformpp::backend {
namespace {

using Allocator = json::Document::AllocatorType;

void CheckName(const std::string& name, std::size_t min, std::size_t max, std::vector<FieldError>& errors) {
  auto length = core::CountCodePoints(name);
  if (!length) {
    AddViolation(errors, "name", "BASE_TYPE_INVALID", "must be valid UTF-8");
  } else if (*length < min || *length > max) {
    AddViolation(errors, "name", "BASE_TYPE_BAD_LENGTH",
                 "must be " + std::to_string(min) + " to " + std::to_string(max) + " characters");
  }
}

// A file the create call uploads: present when creating (and only then), of an accepted type and size.
void CheckFile(const std::string& bytes, const std::string& mimeType, const char* path, bool creating,
               std::size_t maxBytes, std::initializer_list<std::string_view> types,
               std::vector<FieldError>& errors) {
  if (!creating) {
    if (!bytes.empty() || !mimeType.empty())
      AddViolation(errors, path, "BASE_TYPE_INVALID", "only on create");
    return;
  }
  if (bytes.empty()) {
    AddViolation(errors, path, "BASE_TYPE_REQUIRED", "required to create");
  } else if (bytes.size() > maxBytes) {
    AddViolation(errors, path, "BINARY_TYPE_MAX_SIZE", "at most " + std::to_string(maxBytes / 1024) + " KiB");
  }
  if (std::find(types.begin(), types.end(), mimeType) == types.end()) {
    std::string list;
    for (auto type : types)
      list += (list.empty() ? "" : ", ") + std::string(type);
    AddViolation(errors, path, "BINARY_TYPE_INVALID", "the type must be one of " + list);
  }
}

// The platform's wire form of ids: an id or null (0 clears).
void AddOptionalId(json::Document& body, const char* name, uint64_t id) {
  auto& a = body.GetAllocator();
  if (id == 0) {
    body.AddMember(json::Value(name, a), json::Value(rapidjson::kNullType), a);
  } else {
    body.AddMember(json::Value(name, a), json::StringValue(std::to_string(id), a), a);
  }
}

template <class T>
std::optional<std::vector<T>> ParseItems(const json::Value& value,
                                         std::optional<T> (*parse)(const json::Value&)) {
  const json::Value* list = &value;
  if (value.IsObject()) list = json::Member(value, "items");
  if (list == nullptr || !list->IsArray()) return std::nullopt;
  std::vector<T> items;
  for (const json::Value& item : list->GetArray()) {
    auto parsed = parse(item);
    if (!parsed) return std::nullopt;
    items.push_back(std::move(*parsed));
  }
  return items;
}

template <class T>
std::optional<T> ParseText(std::string_view text, std::optional<T> (*parse)(const json::Value&)) {
  try {
    json::Document document;
    if (!json::Parse(text, document)) return std::nullopt;
    return parse(document);
  } catch (const std::exception&) {
    return std::nullopt;  // out of memory on a huge document
  }
}

}  // namespace

std::string DataUri(std::string_view mimeType, std::string_view bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out = "data:" + std::string(mimeType) + ";base64,";
  out.reserve(out.size() + (bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  auto byte = [&](std::size_t at) { return static_cast<uint32_t>(static_cast<unsigned char>(bytes[at])); };
  for (; i + 3 <= bytes.size(); i += 3) {
    uint32_t v = (byte(i) << 16) | (byte(i + 1) << 8) | byte(i + 2);
    for (int shift : {18, 12, 6, 0})
      out.push_back(kAlphabet[(v >> shift) & 63]);
  }
  const std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    uint32_t v = byte(i) << 16;
    if (rest == 2) v |= byte(i + 1) << 8;
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(rest == 2 ? kAlphabet[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

// --- Soundboard
// ---------------------------------------------------------------------------------------------

std::optional<SoundboardSound> ParseSoundboardSoundValue(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  SoundboardSound sound;
  sound.soundId = json::GetSnowflake(value, "sound_id").value_or(0);
  sound.name = json::GetText(value, "name");
  if (auto volume = json::GetNumber(value, "volume")) sound.volume = *volume;
  sound.emojiId = json::GetSnowflake(value, "emoji_id").value_or(0);
  sound.emojiName = json::GetText(value, "emoji_name");
  sound.guildId = json::GetSnowflake(value, "guild_id").value_or(0);
  sound.available = json::GetBool(value, "available").value_or(true);
  if (const json::Value* user = json::Member(value, "user")) sound.user = ParseUser(*user);
  sound.rawJson = json::Serialize(value);
  return sound;
}

std::optional<std::vector<SoundboardSound>> ParseSoundboardSounds(const json::Value& value) {
  return ParseItems<SoundboardSound>(value, ParseSoundboardSoundValue);
}

std::optional<SoundboardSound> ParseSoundboardSound(std::string_view json) {
  return ParseText<SoundboardSound>(json, ParseSoundboardSoundValue);
}

std::vector<FieldError> CheckSoundChanges(const SoundChanges& changes, bool creating) {
  std::vector<FieldError> errors;
  if (changes.name) {
    CheckName(*changes.name, soundboard_limits::MinNameLength, soundboard_limits::MaxNameLength, errors);
  } else if (creating) {
    AddViolation(errors, "name", "BASE_TYPE_REQUIRED", "required to create");
  }
  if (changes.volume && !(std::isfinite(*changes.volume) && *changes.volume >= 0.0 && *changes.volume <= 1.0))
    AddViolation(errors, "volume", "NUMBER_TYPE_OUT_OF_RANGE", "must be 0 to 1");
  CheckFile(changes.sound, changes.soundMimeType, "sound", creating, soundboard_limits::MaxSoundBytes,
            {"audio/mpeg", "audio/mp3", "audio/ogg"}, errors);
  return errors;
}

std::string SoundChangesBody(const SoundChanges& changes, bool creating) {
  json::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  if (changes.name) body.AddMember("name", json::StringValue(*changes.name, a), a);
  if (creating)
    body.AddMember("sound", json::StringValue(DataUri(changes.soundMimeType, changes.sound), a), a);
  if (changes.volume) body.AddMember("volume", json::Value(*changes.volume), a);
  if (changes.emojiId) AddOptionalId(body, "emoji_id", *changes.emojiId);
  if (changes.emojiName) {
    if (changes.emojiName->empty()) {
      body.AddMember("emoji_name", json::Value(rapidjson::kNullType), a);
    } else {
      body.AddMember("emoji_name", json::StringValue(*changes.emojiName, a), a);
    }
  }
  return json::Serialize(body);
}

std::string SendSoundBody(uint64_t soundId, std::optional<uint64_t> sourceGuildId) {
  json::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  body.AddMember("sound_id", json::StringValue(std::to_string(soundId), a), a);
  if (sourceGuildId)
    body.AddMember("source_guild_id", json::StringValue(std::to_string(*sourceGuildId), a), a);
  return json::Serialize(body);
}

// --- Application emoji
// --------------------------------------------------------------------------------------

std::optional<Emoji> ParseEmojiValue(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  Emoji emoji;
  emoji.id = json::GetSnowflake(value, "id").value_or(0);
  emoji.name = json::GetText(value, "name");
  if (const json::Value* user = json::Member(value, "user")) emoji.user = ParseUser(*user);
  if (const json::Value* roles = json::Member(value, "roles"); roles != nullptr && roles->IsArray()) {
    for (const json::Value& role : roles->GetArray()) {
      const uint64_t id = json::AsSnowflake(role).value_or(0);
      if (id != 0) emoji.roles.push_back(id);  // an unreadable id is skipped, not the emoji
    }
  }
  emoji.requireColons = json::GetBool(value, "require_colons").value_or(false);
  emoji.managed = json::GetBool(value, "managed").value_or(false);
  emoji.animated = json::GetBool(value, "animated").value_or(false);
  emoji.available = json::GetBool(value, "available").value_or(true);
  emoji.rawJson = json::Serialize(value);
  return emoji;
}

std::optional<std::vector<Emoji>> ParseEmojiList(const json::Value& value) {
  return ParseItems<Emoji>(value, ParseEmojiValue);
}

std::optional<Emoji> ParseEmoji(std::string_view json) {
  return ParseText<Emoji>(json, ParseEmojiValue);
}

std::vector<FieldError> CheckEmoji(const EmojiChanges& changes, bool creating) {
  std::vector<FieldError> errors;
  if (!changes.name) {
    AddViolation(errors, "name", "BASE_TYPE_REQUIRED", creating ? "required to create" : "required");
  } else {
    const std::string& name = *changes.name;
    const bool word = std::all_of(name.begin(), name.end(), [](char c) {
      return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
    if (name.size() < emoji_limits::MinNameLength || name.size() > emoji_limits::MaxNameLength) {
      AddViolation(errors, "name", "BASE_TYPE_BAD_LENGTH", "must be 2 to 32 characters");
    } else if (!word) {
      AddViolation(errors, "name", "STRING_TYPE_REGEX", "only A-Z, a-z, 0-9 and _");
    }
  }
  CheckFile(changes.image, changes.imageMimeType, "image", creating, emoji_limits::MaxImageBytes,
            {"image/png", "image/jpeg", "image/gif", "image/webp", "image/avif"}, errors);
  return errors;
}

std::string EmojiBody(const EmojiChanges& changes, bool creating) {
  json::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  if (changes.name) body.AddMember("name", json::StringValue(*changes.name, a), a);
  if (creating)
    body.AddMember("image", json::StringValue(DataUri(changes.imageMimeType, changes.image), a), a);
  return json::Serialize(body);
}

}  // namespace platformpp::backend
