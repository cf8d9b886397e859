#pragma once
// The premium wire objects of docs/premium-protocol.md (SKU, entitlement, subscription) decoded from JSON, as
// HTTP answers, Gateway dispatches and webhook events carry them. Decoding tolerates any JSON value: an
// object without its identity, or with a field of the wrong type, comes back empty, never half-filled.

#include "json/json.hpp"

#include <platformpp/premium.hpp>

#include <optional>
#include <vector>

namespace platformpp::premium {

/// Needs a non-zero `id` and `application_id` and an integer `type`.
std::optional<Sku> ParseSku(const json::Value& value);
/// Needs non-zero `id`, `sku_id` and `application_id` and an integer `type`; timestamps, when present and not
/// null, must be ISO 8601.
std::optional<Entitlement> ParseEntitlement(const json::Value& value);
/// Needs non-zero `id` and `user_id`, `sku_ids`, both period timestamps and an integer `status`.
std::optional<Subscription> ParseSubscription(const json::Value& value);

/// An array of objects, each decoded with `parse`. Empty when `value` is not an array or any element is
/// malformed: a list answer the SDK cannot read whole is not believed in part.
template <class T>
std::optional<std::vector<T>> ParseList(const json::Value& value,
                                        std::optional<T> (*parse)(const json::Value&)) {
  if (!value.IsArray()) return std::nullopt;
  std::vector<T> items;
  items.reserve(value.Size());
  for (const auto& element : value.GetArray()) {
    auto item = parse(element);
    if (!item) return std::nullopt;
    items.push_back(std::move(*item));
  }
  return items;
}

}  // namespace platformpp::premium
