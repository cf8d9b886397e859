// BackendClient's AutoMod, soundboard and application emoji calls (backend.hpp): each call's route, body and
// checks, then the API session's one line. Kept apart from backend_client.cpp and backend_guild.cpp; the
// session and the application id are reached through BackendAccess.
#include "api/api_session.hpp"
#include "backend/audit_log_json.hpp"
#include "backend/automod_json.hpp"
#include "backend/backend_access.hpp"
#include "backend/expression_json.hpp"
#include "backend/request_parts.hpp"

#include <platformpp/backend.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace platformpp::backend {
namespace {

void Append(std::vector<FieldError>& errors, std::vector<FieldError> more) {
  for (auto& error : more)
    errors.push_back(std::move(error));
}

// "/guilds/{guild}/auto-moderation/rules" and, with `ruleId`, "/{rule}" after it.
std::string RulesPath(uint64_t guildId, std::optional<uint64_t> ruleId, std::vector<FieldError>& errors) {
  RequireId(guildId, "guildId", errors);
  std::string path = "/guilds/" + std::to_string(guildId) + "/auto-moderation/rules";
  if (ruleId) {
    RequireId(*ruleId, "ruleId", errors);
    path += "/" + std::to_string(*ruleId);
  }
  return path;
}

// "/guilds/{guild}/soundboard-sounds" and, with `soundId`, "/{sound}" after it.
std::string SoundsPath(uint64_t guildId, std::optional<uint64_t> soundId, std::vector<FieldError>& errors) {
  RequireId(guildId, "guildId", errors);
  std::string path = "/guilds/" + std::to_string(guildId) + "/soundboard-sounds";
  if (soundId) {
    RequireId(*soundId, "soundId", errors);
    path += "/" + std::to_string(*soundId);
  }
  return path;
}

// "/applications/{app}/emojis" and, with `emojiId`, "/{emoji}" after it.
std::string EmojisPath(uint64_t applicationId, std::optional<uint64_t> emojiId,
                       std::vector<FieldError>& errors) {
  if (applicationId == 0) {
    errors.push_back(FieldError{"applicationId", "BASE_TYPE_REQUIRED",
                                "applicationId: set BackendOptions::applicationId (the bot's application)"});
  }
  std::string path = "/applications/" + std::to_string(applicationId) + "/emojis";
  if (emojiId) {
    RequireId(*emojiId, "emojiId", errors);
    path += "/" + std::to_string(*emojiId);
  }
  return path;
}

}  // namespace

// --- AutoMod rules
// ------------------------------------------------------------------------------------------

void BackendClient::ListAutoModRules(uint64_t guildId, AutoModRulesCallback callback) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = RulesPath(guildId, std::nullopt, errors);
    api->Perform<std::vector<AutoModRule>>(
        std::move(callback), AuditedRequest("GET", std::move(path), std::nullopt, std::move(errors)),
        "not a list of AutoMod rules", ParseAutoModRules);
  }
}

void BackendClient::GetAutoModRule(uint64_t guildId, uint64_t ruleId, AutoModRuleCallback callback) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = RulesPath(guildId, ruleId, errors);
    api->Perform<AutoModRule>(std::move(callback),
                              AuditedRequest("GET", std::move(path), std::nullopt, std::move(errors)),
                              "not an AutoMod rule", ParseAutoModRuleValue);
  }
}

void BackendClient::CreateAutoModRule(uint64_t guildId, const AutoModRuleChanges& changes,
                                      AutoModRuleCallback callback, const std::string& reason) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = RulesPath(guildId, std::nullopt, errors);
    Append(errors, CheckAutoModRuleChanges(changes, true));
    api->Perform<AutoModRule>(
        std::move(callback),
        AuditedRequest("POST", std::move(path), AutoModRuleBody(changes, true), std::move(errors), reason),
        "not an AutoMod rule", ParseAutoModRuleValue);
  }
}

void BackendClient::ModifyAutoModRule(uint64_t guildId, uint64_t ruleId, const AutoModRuleChanges& changes,
                                      AutoModRuleCallback callback, const std::string& reason) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = RulesPath(guildId, ruleId, errors);
    Append(errors, CheckAutoModRuleChanges(changes, false));
    api->Perform<AutoModRule>(
        std::move(callback),
        AuditedRequest("PATCH", std::move(path), AutoModRuleBody(changes, false), std::move(errors), reason),
        "not an AutoMod rule", ParseAutoModRuleValue);
  }
}

void BackendClient::DeleteAutoModRule(uint64_t guildId, uint64_t ruleId, ResultCallback callback,
                                      const std::string& reason) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = RulesPath(guildId, ruleId, errors);
    api->Perform(std::move(callback),
                 AuditedRequest("DELETE", std::move(path), std::nullopt, std::move(errors), reason));
  }
}

// --- Soundboard sounds
// --------------------------------------------------------------------------------------

void BackendClient::ListDefaultSoundboardSounds(SoundsCallback callback) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    api->Perform<std::vector<SoundboardSound>>(
        std::move(callback), AuditedRequest("GET", "/soundboard-default-sounds", std::nullopt, {}),
        "not a list of sounds", ParseSoundboardSounds);
  }
}

void BackendClient::ListGuildSoundboardSounds(uint64_t guildId, SoundsCallback callback) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = SoundsPath(guildId, std::nullopt, errors);
    api->Perform<std::vector<SoundboardSound>>(
        std::move(callback), AuditedRequest("GET", std::move(path), std::nullopt, std::move(errors)),
        "not a list of sounds", ParseSoundboardSounds);
  }
}

void BackendClient::GetGuildSoundboardSound(uint64_t guildId, uint64_t soundId, SoundCallback callback) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = SoundsPath(guildId, soundId, errors);
    api->Perform<SoundboardSound>(std::move(callback),
                                  AuditedRequest("GET", std::move(path), std::nullopt, std::move(errors)),
                                  "not a soundboard sound", ParseSoundboardSoundValue);
  }
}

void BackendClient::CreateGuildSoundboardSound(uint64_t guildId, const SoundChanges& changes,
                                               SoundCallback callback, const std::string& reason) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = SoundsPath(guildId, std::nullopt, errors);
    Append(errors, CheckSoundChanges(changes, true));
    // The body (a data URI of up to 512 KiB) is only built for a sound that may be sent.
    std::optional<std::string> body = errors.empty() ? SoundChangesBody(changes, true) : std::string("{}");
    api->Perform<SoundboardSound>(
        std::move(callback),
        AuditedRequest("POST", std::move(path), std::move(body), std::move(errors), reason),
        "not a soundboard sound", ParseSoundboardSoundValue);
  }
}

void BackendClient::ModifyGuildSoundboardSound(uint64_t guildId, uint64_t soundId,
                                               const SoundChanges& changes, SoundCallback callback,
                                               const std::string& reason) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = SoundsPath(guildId, soundId, errors);
    Append(errors, CheckSoundChanges(changes, false));
    api->Perform<SoundboardSound>(
        std::move(callback),
        AuditedRequest("PATCH", std::move(path), SoundChangesBody(changes, false), std::move(errors), reason),
        "not a soundboard sound", ParseSoundboardSoundValue);
  }
}

void BackendClient::DeleteGuildSoundboardSound(uint64_t guildId, uint64_t soundId, ResultCallback callback,
                                               const std::string& reason) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = SoundsPath(guildId, soundId, errors);
    api->Perform(std::move(callback),
                 AuditedRequest("DELETE", std::move(path), std::nullopt, std::move(errors), reason));
  }
}

void BackendClient::SendSoundboardSound(uint64_t channelId, uint64_t soundId,
                                        std::optional<uint64_t> sourceGuildId, ResultCallback callback) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    RequireId(channelId, "channelId", errors);
    RequireId(soundId, "sound_id", errors);
    if (sourceGuildId) RequireId(*sourceGuildId, "source_guild_id", errors);
    api->Perform(std::move(callback),
                 AuditedRequest("POST", "/channels/" + std::to_string(channelId) + "/send-soundboard-sound",
                                SendSoundBody(soundId, sourceGuildId), std::move(errors)));
  }
}

// --- Application emoji
// --------------------------------------------------------------------------------------

void BackendClient::ListApplicationEmojis(EmojisCallback callback) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = EmojisPath(BackendAccess::ApplicationIdOf(*this), std::nullopt, errors);
    api->Perform<std::vector<Emoji>>(std::move(callback),
                                     AuditedRequest("GET", std::move(path), std::nullopt, std::move(errors)),
                                     "not a list of emoji", ParseEmojiList);
  }
}

void BackendClient::GetApplicationEmoji(uint64_t emojiId, EmojiCallback callback) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = EmojisPath(BackendAccess::ApplicationIdOf(*this), emojiId, errors);
    api->Perform<Emoji>(std::move(callback),
                        AuditedRequest("GET", std::move(path), std::nullopt, std::move(errors)),
                        "not an emoji", ParseEmojiValue);
  }
}

void BackendClient::CreateApplicationEmoji(const EmojiChanges& changes, EmojiCallback callback) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = EmojisPath(BackendAccess::ApplicationIdOf(*this), std::nullopt, errors);
    Append(errors, CheckEmoji(changes, true));
    std::optional<std::string> body = errors.empty() ? EmojiBody(changes, true) : std::string("{}");
    api->Perform<Emoji>(std::move(callback),
                        AuditedRequest("POST", std::move(path), std::move(body), std::move(errors)),
                        "not an emoji", ParseEmojiValue);
  }
}

void BackendClient::ModifyApplicationEmoji(uint64_t emojiId, const EmojiChanges& changes,
                                           EmojiCallback callback) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = EmojisPath(BackendAccess::ApplicationIdOf(*this), emojiId, errors);
    Append(errors, CheckEmoji(changes, false));
    api->Perform<Emoji>(
        std::move(callback),
        AuditedRequest("PATCH", std::move(path), EmojiBody(changes, false), std::move(errors)),
        "not an emoji", ParseEmojiValue);
  }
}

void BackendClient::DeleteApplicationEmoji(uint64_t emojiId, ResultCallback callback) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = EmojisPath(BackendAccess::ApplicationIdOf(*this), emojiId, errors);
    api->Perform(std::move(callback),
                 AuditedRequest("DELETE", std::move(path), std::nullopt, std::move(errors)));
  }
}

}  // namespace platformpp::backend
