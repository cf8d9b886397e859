#pragma once
// Message and modal components on the wire (the platform's component object), both ways. Writing follows the
// platform's field names and leaves out what is not set. Reading is lenient, since the input comes from the
// network: a known field of the wrong type is dropped, unknown fields and component types are kept (in
// unknownFieldsJson) and written back as they came, and nothing throws. Nesting deeper than any component
// tree can be (kMaxComponentDepth) is dropped, so hostile input cannot exhaust the stack.

#include "json/json.hpp"

#include <platformpp/components.hpp>

#include <optional>
#include <string>
#include <vector>

namespace platformpp::backend {

/// The writer the component writers take (the one the SDK's bodies are written with).
using ComponentWriter = rapidjson::Writer<rapidjson::StringBuffer>;

/// How deep the reader follows children (components, accessory, component). The deepest tree the platform
/// allows is 4 levels (Container > Section > accessory, Container > Action Row > Button); deeper ones
/// are dropped.
inline constexpr int kMaxComponentDepth = 8;

/// Writes one component object.
void WriteComponent(ComponentWriter& writer, const Component& component);
/// Writes a `components` array.
void WriteComponents(ComponentWriter& writer, const std::vector<Component>& components);
/// A `components` array as JSON text.
std::string ComponentsJson(const std::vector<Component>& components);
/// A `components` array as a DOM value (for bodies built as a json::Document).
json::Value ComponentsValue(const std::vector<Component>& components,
                            json::Document::AllocatorType& allocator);

/// One component object; nullopt when `value` is not an object or has no integer `type`.
std::optional<Component> ParseComponent(const json::Value& value);
/// A `components` array: its items that are components (the others are skipped); empty when `value` is not
/// an array.
std::vector<Component> ParseComponents(const json::Value& value);

}  // namespace platformpp::backend
