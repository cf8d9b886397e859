// The platform's rules for message and modal components, as the emulator enforces them on the bodies that
// carry them (create and edit message, interaction responses and follow-ups, modals). Each broken rule is
// recorded at its JSON path with the platform's error code, everything is checked before anything is refused
// (the platform answers 50035 with every problem at once), and a component of a kind that may not stand where
// it is, is refused at its `type` without looking further into it (so the walk is as deep as a valid tree at
// most, whatever the body's nesting). The same rules as the SDK's CheckComponents, written independently.
#pragma once

#include <rapidjson/document.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/api_error.hpp"

namespace platformpp::emulator {

// What a components array is sent on.
enum class ComponentSurface {
  kMessage,    // a message without IS_COMPONENTS_V2: up to 5 action rows
  kMessageV2,  // a message with IS_COMPONENTS_V2 (flag 1 << 15): 40 components in all
  kModal,      // a modal: 1 to 5 Labels, Text Displays (or deprecated action rows of one Text Input)
};

// The message flag that turns the components system on.
inline constexpr std::uint64_t kMessageFlagIsComponentsV2 = std::uint64_t{1} << 15;

// Whether the application has published the SKU `sku_id` (a Premium button's). Empty: any SKU passes.
using SkuPublished = std::function<bool(std::string_view sku_id)>;

// Checks `components` (the array member; the caller decides whether it may be absent) for `surface`,
// recording each broken rule in `errors` under `path` (the array's own path, e.g. {"components"} or
// {"data", "components"}).
void check_components(const rapidjson::Value& components, ComponentSurface surface, FieldErrors& errors,
                      const std::vector<std::string>& path, const SkuPublished& sku_published = {});

// The file names a message with IS_COMPONENTS_V2 shows: the `attachment://<name>` urls of its Thumbnails,
// Media Gallery items and Files, each once, in order of appearance. (Such a message shows no other
// attachment.)
std::vector<std::string> referenced_attachments(const rapidjson::Value& components);

// The component with `custom_id` in a stored message's components (a button clicked, a select chosen), at
// any depth; null when there is none.
const rapidjson::Value* find_component(const rapidjson::Value& components, std::string_view custom_id);

}  // namespace platformpp::emulator
