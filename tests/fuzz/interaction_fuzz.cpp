// Interactions as the platform POSTs them, and the messages it answers with (forwards' snapshots among them):
// any bytes read to a whole interaction (or message) or to nothing, never a crash or an exception; what reads
// has its identity, and the typed helpers and the message writers take whatever was read.
#include "backend/interaction_json.hpp"
#include "backend/message_json.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

using namespace platformpp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  if (auto interaction = backend::ParseInteraction(input)) {
    if (interaction->token.empty() || interaction->rawJson.empty()) __builtin_trap();
    (void)interaction->Invoker();
    if (const auto* command = interaction->Command()) {
      (void)command->Find("name");
      (void)command->Focused();
    }
    if (const auto* modal = interaction->Modal()) {
      for (const auto& value : modal->values)
        if (modal->Find(value.customId) == nullptr) __builtin_trap();
    }
    // Echoing what was read back as an update exercises the writers on hostile content.
    if (interaction->message) {
      backend::MessagePayload payload;
      payload.components = interaction->message->components;
      (void)backend::CheckMessagePayload(payload, backend::MessagePayloadUse::Edit, true);
      (void)backend::InteractionResponseBody(backend::InteractionResponse::Update(payload));
    }
  }
  if (auto message = backend::ParseChannelMessage(input)) {
    if (message->rawJson.empty()) __builtin_trap();
    // A channel message made of what was read (its reference, nonce, snapshots' components): the checks and
    // the writer on hostile ids and component trees.
    backend::MessagePayload echo;
    echo.messageReference = message->messageReference;
    echo.nonce = message->nonce;
    for (const auto& snapshot : message->messageSnapshots) {
      if (snapshot.rawJson.empty()) __builtin_trap();
      echo.components = snapshot.components;
    }
    (void)backend::CheckMessagePayload(echo, backend::MessagePayloadUse::Create, false);
    json::Document holder;
    (void)json::Serialize(backend::MessagePayloadValue(echo, holder.GetAllocator()));
  }
  return 0;
}
