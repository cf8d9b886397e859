// The component rules (component_rules.hpp) applied to what an application sends: a message's components on
// the surface its flags choose, with a premium button's SKU one of the application's available SKUs and every
// `attachment://` file of a v2 message one of its attachments; a modal's components.
#include <rapidjson/document.h>

#include <algorithm>

#include "core/json.hpp"
#include "interactions/component_rules.hpp"
#include "interactions/interactions_module.hpp"

namespace platformpp::emulator {

void InteractionsModule::check_message_components(const std::string& app_id, const Message& message,
                                                  FieldErrors& errors) const {
  rapidjson::Document components;
  parse_stored_json(message.components, components);
  const auto flags = static_cast<std::uint64_t>(static_cast<std::uint32_t>(message.flags));
  check_components(components, message_surface(flags), errors, {"components"},
                   [&](std::string_view sku) { return premium_.sku_available(app_id, sku); });
  if ((flags & kMessageFlagIsComponentsV2) == 0) return;
  for (const auto& name : referenced_attachments(components)) {
    const bool attached = std::any_of(message.attachments.begin(), message.attachments.end(),
                                      [&](const MessageAttachment& a) { return a.filename == name; });
    if (!attached) {
      errors.add({"components"}, {"UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                                  "attachment://" + name + " names no attachment of the message"});
    }
  }
}

void InteractionsModule::check_modal_components(const std::string& /*app_id*/,
                                                const rapidjson::Value& components,
                                                FieldErrors& errors) const {
  check_components(components, ComponentSurface::kModal, errors, {"components"});
}

}  // namespace platformpp::emulator
