// The emulator's application command rules fed what a bot may send as a command (create, edit, bulk item):
// any JSON is either a command that holds every rule, which writes back to a body that reads to the same
// command, or refused with field errors. Nothing may crash, throw or recurse without bound.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/json.hpp"
#include "interactions/command_rules.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace platformpp::emulator;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  rapidjson::Document document;
  if (!parse_json(input, document)) return 0;
  for (const bool guild : {false, true}) {
    const CommandScope scope{guild ? std::optional<std::string>("1") : std::nullopt, !guild};
    FieldErrors errors;
    auto command = read_command(document, scope, errors, {});
    if (command.has_value() == !errors.empty()) __builtin_trap();
    if (!command) continue;
    rapidjson::Document again;
    if (!parse_json(command_body_json(*command), again)) __builtin_trap();
    FieldErrors none;
    auto reread = read_command(again, scope, none, {});
    if (!reread || reread->name != command->name || reread->options != command->options) __builtin_trap();
  }
  return 0;
}
