// Components as the platform sends them (a message's, a modal submission's): any JSON reads to components or
// to nothing, never throws or recurses without bound; the rules take whatever was read on every surface; and
// what is written back reads to the same components (a second round trip changes nothing).
#include "backend/component_json.hpp"
#include "json/json.hpp"

#include <platformpp/components.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

using namespace platformpp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  json::Document document;
  if (!json::Parse(input, document)) return 0;
  const auto components = backend::ParseComponents(document);
  (void)backend::ParseComponent(document);
  for (const auto surface : {ComponentSurface::Message, ComponentSurface::MessageV2, ComponentSurface::Modal})
    (void)CheckComponents(components, surface);
  const std::string written = backend::ComponentsJson(components);
  // Read back at full precision: the writer prints each double so that it reads back exactly.
  json::Document again;
  again.Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseFullPrecisionFlag>(written.data(),
                                                                                   written.size());
  if (again.HasParseError()) __builtin_trap();
  if (backend::ComponentsJson(backend::ParseComponents(again)) != written) __builtin_trap();
  return 0;
}
