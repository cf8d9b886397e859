// The SDK's CheckComponents against the emulator's check_components, two implementations of the same rules:
// any JSON the SDK reads to components is written back by the SDK and checked by both, on every surface, and
// both must refuse the same fields with the same codes (the SDK checks what it would send, the emulator what
// it would receive). A difference is a bug in one of them.
#include "backend/component_json.hpp"
#include "json/json.hpp"

#include <platformpp/components.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <string_view>

#include "core/api_error.hpp"
#include "core/json.hpp"
#include "interactions/component_rules.hpp"

namespace {

using Issues = std::multiset<std::string>;

void Flatten(const rapidjson::Value& node, const std::string& path, Issues& out) {
  for (const auto& entry : node.GetObject()) {
    const std::string key(entry.name.GetString(), entry.name.GetStringLength());
    if (key == "_errors") {
      for (const auto& error : entry.value.GetArray())
        out.insert(path + " " + error["code"].GetString());
    } else {
      Flatten(entry.value, path.empty() ? key : path + "." + key, out);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace emu = platformpp::emulator;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  platformpp::json::Document document;
  if (!platformpp::json::Parse(input, document)) return 0;
  const auto components = platformpp::backend::ParseComponents(document);
  const std::string sent = platformpp::backend::ComponentsJson(components);
  rapidjson::Document received;
  if (!emu::parse_json(sent, received)) return 0;  // text that is not valid UTF-8: the platform refuses it
  const std::pair<platformpp::ComponentSurface, emu::ComponentSurface> surfaces[] = {
      {platformpp::ComponentSurface::Message, emu::ComponentSurface::kMessage},
      {platformpp::ComponentSurface::MessageV2, emu::ComponentSurface::kMessageV2},
      {platformpp::ComponentSurface::Modal, emu::ComponentSurface::kModal}};
  for (const auto& [sdkSurface, emulatorSurface] : surfaces) {
    Issues sdk;
    for (const auto& error : platformpp::CheckComponents(components, sdkSurface))
      sdk.insert(error.path + " " + error.code);
    emu::FieldErrors errors;
    emu::check_components(received, emulatorSurface, errors, {"components"});
    Issues emulator;
    if (!errors.empty()) {
      rapidjson::Document tree;
      if (!emu::parse_json(emu::to_json([&](emu::JsonWriter& writer) { errors.write(writer); }), tree))
        __builtin_trap();
      Flatten(tree, "", emulator);
    }
    if (sdk != emulator) {
      std::fprintf(stderr, "surface %d, components %s\n", static_cast<int>(sdkSurface), sent.c_str());
      for (const auto& issue : sdk)
        std::fprintf(stderr, "  SDK:      %s\n", issue.c_str());
      for (const auto& issue : emulator)
        std::fprintf(stderr, "  emulator: %s\n", issue.c_str());
      __builtin_trap();
    }
  }
  return 0;
}
