// The guild objects BackendClient reads from the platform (guild_members.hpp, channel_pins.hpp,
// guild_audit_log.hpp, guild_automod.hpp, guild_soundboard.hpp, application_emoji.hpp, guild_channels.hpp,
// guild_invites.hpp, message_search.hpp): a member, a page of pins, a page of the audit log, an AutoMod rule,
// a soundboard sound, an emoji, a channel, a voice state, an invite, a target-users job and CSV, a search
// answer. Each either parses or refuses the input, never crashes; what parses keeps its whole object as JSON
// text, as the readers promise.
#include <platformpp/application_emoji.hpp>
#include <platformpp/channel_pins.hpp>
#include <platformpp/guild_audit_log.hpp>
#include <platformpp/guild_automod.hpp>
#include <platformpp/guild_channels.hpp>
#include <platformpp/guild_invites.hpp>
#include <platformpp/guild_members.hpp>
#include <platformpp/guild_soundboard.hpp>
#include <platformpp/message_search.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace backend = platformpp::backend;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto member = backend::ParseGuildMember(text)) {
    if (member->rawJson.empty()) __builtin_trap();
  }
  if (auto page = backend::ParseChannelPinsPage(text)) {
    for (const auto& pin : page->items)
      if (pin.message.rawJson.empty()) __builtin_trap();
  }
  if (auto log = backend::ParseAuditLog(text)) {
    for (const auto& entry : log->entries)
      if (entry.rawJson.empty()) __builtin_trap();
    if (log->rawJson.empty()) __builtin_trap();
  }
  if (auto rule = backend::ParseAutoModRule(text)) {
    if (rule->rawJson.empty()) __builtin_trap();
  }
  if (auto execution = backend::ParseAutoModActionExecution(text)) {
    if (execution->rawJson.empty()) __builtin_trap();
  }
  if (auto sound = backend::ParseSoundboardSound(text)) {
    if (sound->rawJson.empty()) __builtin_trap();
  }
  if (auto emoji = backend::ParseEmoji(text)) {
    if (emoji->rawJson.empty()) __builtin_trap();
  }
  if (auto channel = backend::ParseChannel(text)) {
    if (channel->rawJson.empty()) __builtin_trap();
  }
  if (auto state = backend::ParseVoiceState(text)) {
    if (state->rawJson.empty()) __builtin_trap();
  }
  if (auto invite = backend::ParseInvite(text)) {
    if (invite->rawJson.empty() || invite->code.empty()) __builtin_trap();
  }
  (void)backend::ParseInviteTargetUsersJob(text);
  if (auto ids = backend::ParseInviteTargetUsersCsv(text)) {
    for (uint64_t id : *ids)
      if (id == 0) __builtin_trap();  // 0 is never a user id
  }
  if (auto found = backend::ParseMessageSearchResult(text)) {
    if (found->indexing && !found->messages.empty()) __builtin_trap();
    for (const auto& message : found->messages)
      if (message.rawJson.empty()) __builtin_trap();
  }
  return 0;
}
