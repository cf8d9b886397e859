// The guild objects BackendClient reads from the platform (guild_members.hpp, channel_pins.hpp,
// guild_audit_log.hpp, guild_automod.hpp, guild_soundboard.hpp, application_emoji.hpp): a member, a page of
// pins, a page of the audit log, an AutoMod rule, a soundboard sound, an emoji. Each either parses or refuses the
// input, never crashes; what parses keeps its whole object as JSON text, as the readers promise.
#include <platformpp/application_emoji.hpp>
#include <platformpp/channel_pins.hpp>
#include <platformpp/guild_audit_log.hpp>
#include <platformpp/guild_automod.hpp>
#include <platformpp/guild_members.hpp>
#include <platformpp/guild_soundboard.hpp>

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
  if (auto sound = backend::ParseSoundboardSound(text)) {
    if (sound->rawJson.empty()) __builtin_trap();
  }
  if (auto emoji = backend::ParseEmoji(text)) {
    if (emoji->rawJson.empty()) __builtin_trap();
  }
  return 0;
}
