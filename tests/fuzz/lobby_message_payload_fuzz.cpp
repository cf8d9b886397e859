// Lobbies and messages as the Gateway and HTTP deliver them (lobbies with their members and voice states,
// member and voice state dispatches,
// lobby messages and DMs, message timestamps): every decoder on the parsed JSON, arrays element by element,
// and the members of objects; then what was decoded is checked for the invariants the stores rely on.
#include "json/json.hpp"
#include "json/timestamp.hpp"
#include "lobby/lobby_json.hpp"
#include "messaging/message_json.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

using namespace platformpp;

void Decode(const json::Value& value) {
  if (auto lobby = lobby::ParseLobby(value)) {
    if (lobby->id == 0) __builtin_trap();
    for (const auto& member : lobby->members) {
      if (member.id == 0) __builtin_trap();
      if (lobby->FindMember(member.id) == nullptr) __builtin_trap();
    }
  }
  if (auto member = lobby::ParseMember(value); member && member->id == 0) __builtin_trap();
  if (auto state = lobby::ParseVoiceState(value); state && state->userId == 0) __builtin_trap();
  if (auto event = lobby::ParseVoiceStateEvent(value);
      event && (event->lobbyId == 0 || event->state.userId == 0))
    __builtin_trap();
  if (auto event = lobby::ParseMemberEvent(value); event && event->member.id == 0) __builtin_trap();
  (void)lobby::ParseMetadata(&value);
  for (uint64_t self : {uint64_t{0}, uint64_t{42}}) {
    if (auto message = messaging::ParseMessage(value, self)) {
      // A decoded message has its identity; the limits checks accept or refuse it without failing.
      if (message->data.id == 0 || message->data.channelId == 0 || message->data.authorId == 0)
        __builtin_trap();
      (void)messaging::CheckContent(message->data.content);
      (void)messaging::CheckMetadata(message->data.metadata);
    }
  }
  if (value.IsString()) {
    std::string_view text(value.GetString(), value.GetStringLength());
    (void)json::ParseTimestampMs(text);
    (void)messaging::CheckContent(text);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  (void)json::ParseTimestampMs(input);
  (void)messaging::CheckContent(input);
  json::Document document;
  if (!json::Parse(input, document)) return 0;
  Decode(document);
  if (document.IsArray()) {
    for (const auto& element : document.GetArray())
      Decode(element);
  } else if (document.IsObject()) {
    // READY carries lobbies in a member; dispatches carry the member or message inside.
    for (const auto& member : document.GetObject()) {
      if (member.value.IsArray()) {
        for (const auto& element : member.value.GetArray())
          Decode(element);
      } else {
        Decode(member.value);
      }
    }
  }
  return 0;
}
