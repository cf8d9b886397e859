// Soundboard sounds: their document ("guild_soundboard": a guild's sounds in creation order, with "v"), the
// default sounds, the sound object and the data URI of an upload.
#include "guild/soundboard.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <utility>

#include "core/document_json.hpp"
#include "core/json.hpp"
#include "core/state_changes.hpp"
#include "core/user_json.hpp"

namespace platformpp::emulator {

namespace {

using document::check_format;
using document::document_json;

std::string sounds_json(const std::vector<SoundboardSound>& sounds) {
  return document_json([&](JsonWriter& writer) {
    writer.Key("sounds");
    writer.StartArray();
    for (const auto& sound : sounds) {
      writer.StartObject();
      document::write_member(writer, "sound_id", sound.sound_id);
      document::write_member(writer, "name", sound.name);
      writer.Key("volume");
      writer.Double(sound.volume);
      document::write_member(writer, "emoji_id", sound.emoji_id);
      document::write_member(writer, "emoji_name", sound.emoji_name);
      document::write_member(writer, "user_id", sound.user_id);
      document::write_member(writer, "media_type", sound.media_type);
      document::write_member(writer, "size_bytes", static_cast<std::int64_t>(sound.size_bytes));
      writer.EndObject();
    }
    writer.EndArray();
  });
}

std::vector<SoundboardSound> read_sounds(const std::string& guild_id, const rapidjson::Value& body) {
  std::vector<SoundboardSound> sounds;
  for (const auto& value : document::array(body, "sounds").GetArray()) {
    SoundboardSound sound;
    sound.sound_id = document::string(value, "sound_id");
    sound.guild_id = guild_id;
    sound.name = document::string(value, "name");
    if (!value.HasMember("volume") || !value["volume"].IsNumber())
      throw std::invalid_argument("\"volume\" is not a number");
    sound.volume = value["volume"].GetDouble();
    sound.emoji_id = document::optional_string(value, "emoji_id");
    sound.emoji_name = document::optional_string(value, "emoji_name");
    sound.user_id = document::string(value, "user_id");
    sound.media_type = document::string(value, "media_type");
    sound.size_bytes = static_cast<std::size_t>(document::integer(value, "size_bytes"));
    sounds.push_back(std::move(sound));
  }
  return sounds;
}

}  // namespace

bool soundboard_media_type_allowed(std::string_view media_type) {
  return media_type == "audio/mpeg" || media_type == "audio/mp3" || media_type == "audio/ogg";
}

const std::vector<SoundboardSound>& default_soundboard_sounds() {
  // The platform's default set: its small integer ids, names and emoji.
  static const std::vector<SoundboardSound> sounds = [] {
    std::vector<SoundboardSound> made;
    const std::pair<const char*, const char*> defaults[] = {
        {"quack", "\xF0\x9F\xA6\x86"},    {"airhorn", "\xF0\x9F\x94\x8A"},
        {"cricket", "\xF0\x9F\xA6\x97"},  {"golf clap", "\xF0\x9F\x91\x8F"},
        {"sad horn", "\xF0\x9F\x8E\xBA"}, {"ba dum tss", "\xF0\x9F\xA5\x81"},
    };
    int id = 1;
    for (const auto& [name, emoji] : defaults) {
      SoundboardSound sound;
      sound.sound_id = std::to_string(id++);
      sound.name = name;
      sound.emoji_name = emoji;
      made.push_back(std::move(sound));
    }
    return made;
  }();
  return sounds;
}

std::string soundboard_sound_json(const SoundboardSound& sound, const User* creator) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("name");
    write_string(writer, sound.name);
    writer.Key("sound_id");
    write_string(writer, sound.sound_id);
    writer.Key("volume");
    writer.Double(sound.volume);
    writer.Key("emoji_id");
    write_optional_string(writer, sound.emoji_id);
    writer.Key("emoji_name");
    write_optional_string(writer, sound.emoji_name);
    if (!sound.guild_id.empty()) {
      writer.Key("guild_id");
      write_string(writer, sound.guild_id);
    }
    writer.Key("available");
    writer.Bool(true);  // the emulator's guilds have no boosts to lose
    if (creator != nullptr) {
      writer.Key("user");
      write_raw(writer, user_json(*creator), rapidjson::kObjectType);
    }
    writer.EndObject();
  });
}

const std::vector<SoundboardSound>& SoundboardState::sounds(std::string_view guild_id) const {
  static const std::vector<SoundboardSound> none;
  const auto it = sounds_.find(guild_id);
  return it == sounds_.end() ? none : it->second;
}

const SoundboardSound* SoundboardState::find(std::string_view guild_id, std::string_view sound_id) const {
  const auto& list = sounds(guild_id);
  const auto it = std::find_if(list.begin(), list.end(),
                               [&](const SoundboardSound& sound) { return sound.sound_id == sound_id; });
  return it == list.end() ? nullptr : &*it;
}

void SoundboardState::put(SoundboardSound sound) {
  touch(sound.guild_id);
  auto& list = sounds_[sound.guild_id];
  const auto it = std::find_if(list.begin(), list.end(),
                               [&](const SoundboardSound& kept) { return kept.sound_id == sound.sound_id; });
  if (it != list.end()) {
    *it = std::move(sound);
  } else {
    list.push_back(std::move(sound));
  }
}

bool SoundboardState::remove(std::string_view guild_id, std::string_view sound_id) {
  const auto it = sounds_.find(guild_id);
  if (it == sounds_.end()) return false;
  const auto erased =
      std::erase_if(it->second, [&](const SoundboardSound& sound) { return sound.sound_id == sound_id; });
  if (erased == 0) return false;
  touch(guild_id);
  if (it->second.empty()) sounds_.erase(it);  // the document goes with the last sound
  return true;
}

void SoundboardState::touch(std::string_view guild_id) {
  if (changes_ != nullptr) changes_->touch(document_kind::kGuildSoundboard, guild_id);
}

void SoundboardState::register_documents(StateChanges& changes) {
  changes_ = &changes;
  changes.register_kind(DocumentKind{
      std::string(document_kind::kGuildSoundboard),
      [this](const std::string& id) -> std::optional<std::string> {
        const auto it = sounds_.find(id);
        return it == sounds_.end() || it->second.empty() ? std::nullopt
                                                         : std::optional(sounds_json(it->second));
      },
      [this](const std::string& id, const rapidjson::Value& body) {
        check_format(body);
        sounds_.insert_or_assign(id, read_sounds(id, body));
      },
      [this] { return document::keys_of(sounds_); }, [this] { sounds_.clear(); }});
}

}  // namespace platformpp::emulator
