// The wire objects of premium/ (docs/premium-protocol.md): the SKU, EntitlementResponse and
// SubscriptionResponse, as the API answers them and the Gateway dispatches them.
#pragma once

#include <string>

#include "core/json.hpp"
#include "premium/premium_state.hpp"

namespace platformpp::emulator {

// {id, type, application_id, name, slug, flags, dependent_sku_id: null, access_type: 1}
void write_sku(JsonWriter& writer, const Sku& sku);
std::string sku_json(const Sku& sku);
// EntitlementResponse. `deleted` is true only in ENTITLEMENT_DELETE. No guild_id: the emulator's entitlements
// belong to users (the Gateway's shape has it optional and not nullable).
void write_entitlement(JsonWriter& writer, const Entitlement& entitlement, bool deleted = false);
std::string entitlement_json(const Entitlement& entitlement, bool deleted = false);
// SubscriptionResponse (without `country`: the emulator takes no payment source).
void write_subscription(JsonWriter& writer, const Subscription& subscription);
std::string subscription_json(const Subscription& subscription);

}  // namespace platformpp::emulator
