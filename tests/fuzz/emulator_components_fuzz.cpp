// The emulator's component rules fed any JSON as a message's or a modal's components: refused with field
// errors or accepted, on every surface, without crashing, throwing or recursing without bound; the walks of
// stored components (attachments shown, find by custom_id) take the same input; and every custom_id of an
// accepted legacy message is found again.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/api_error.hpp"
#include "core/json.hpp"
#include "interactions/component_rules.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace platformpp::emulator;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  rapidjson::Document document;
  if (!parse_json(input, document)) return 0;
  const SkuPublished odd = [](std::string_view id) { return !id.empty() && (id.back() - '0') % 2 == 1; };
  for (const auto surface :
       {ComponentSurface::kMessage, ComponentSurface::kMessageV2, ComponentSurface::kModal}) {
    FieldErrors errors;
    check_components(document, surface, errors, {"components"}, odd);
    (void)error_body(error_code::kInvalidFormBody, "Invalid Form Body", &errors);
    if (surface != ComponentSurface::kMessage || !errors.empty()) continue;
    // Accepted: 5 rows at most, each of buttons or one select, every custom_id a string that find returns.
    for (const auto& row : document.GetArray()) {
      for (const auto& child : row["components"].GetArray()) {
        const auto it = child.FindMember("custom_id");
        if (it == child.MemberEnd() || it->value.IsNull()) continue;
        const std::string_view id(it->value.GetString(), it->value.GetStringLength());
        if (find_component(document, id) == nullptr) __builtin_trap();
      }
    }
  }
  (void)referenced_attachments(document);
  (void)find_component(document, "a");
  return 0;
}
