// Application commands as the platform answers them (BackendClient's list, get, create, edit and bulk
// overwrite): any JSON reads to a whole command or to nothing, what reads has an id and a name, and the
// rules and the body writer take whatever was read without crashing.
#include "backend/application_command_json.hpp"
#include "json/json.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

using namespace platformpp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  json::Document document;
  if (!json::Parse(input, document)) return 0;
  if (auto command = backend::ParseCommand(document)) {
    if (command->id == 0) __builtin_trap();
    (void)backend::CheckApplicationCommand(*command, true);
    (void)backend::CommandBodyJson(*command);
  }
  if (auto commands = backend::ParseCommands(document)) {
    for (const auto& command : *commands)
      if (command.id == 0) __builtin_trap();
  }
  return 0;
}
