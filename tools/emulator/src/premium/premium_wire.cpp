#include "premium/premium_wire.hpp"

#include <optional>
#include <vector>

#include "core/fake_clock.hpp"

namespace platformpp::emulator {

namespace {

void write_optional_time(JsonWriter& writer, const std::optional<std::int64_t>& ms) {
  if (ms) {
    write_string(writer, format_rfc3339_ms(*ms));
  } else {
    writer.Null();
  }
}

void write_ids(JsonWriter& writer, const std::vector<std::string>& ids) {
  writer.StartArray();
  for (const auto& id : ids)
    write_string(writer, id);
  writer.EndArray();
}

}  // namespace

void write_sku(JsonWriter& writer, const Sku& sku) {
  writer.StartObject();
  writer.Key("id");
  write_string(writer, sku.id);
  writer.Key("type");
  writer.Int(sku.type);
  writer.Key("application_id");
  write_string(writer, sku.app_id);
  writer.Key("name");
  write_string(writer, sku.name);
  writer.Key("slug");
  write_string(writer, sku.slug);
  writer.Key("flags");
  writer.Uint(sku.flags);
  writer.Key("dependent_sku_id");
  writer.Null();
  writer.Key("access_type");
  writer.Int(1);
  writer.EndObject();
}

std::string sku_json(const Sku& sku) {
  return to_json([&](JsonWriter& writer) { write_sku(writer, sku); });
}

void write_entitlement(JsonWriter& writer, const Entitlement& entitlement, bool deleted) {
  writer.StartObject();
  writer.Key("id");
  write_string(writer, entitlement.id);
  writer.Key("sku_id");
  write_string(writer, entitlement.sku_id);
  writer.Key("application_id");
  write_string(writer, entitlement.app_id);
  writer.Key("user_id");
  write_string(writer, entitlement.user_id);
  writer.Key("type");
  writer.Int(entitlement.type);
  writer.Key("deleted");
  writer.Bool(deleted);
  writer.Key("consumed");
  writer.Bool(entitlement.consumed);
  writer.Key("starts_at");
  write_optional_time(writer, entitlement.starts_at_ms);
  writer.Key("ends_at");
  write_optional_time(writer, entitlement.ends_at_ms);
  writer.EndObject();
}

std::string entitlement_json(const Entitlement& entitlement, bool deleted) {
  return to_json([&](JsonWriter& writer) { write_entitlement(writer, entitlement, deleted); });
}

void write_subscription(JsonWriter& writer, const Subscription& subscription) {
  writer.StartObject();
  writer.Key("id");
  write_string(writer, subscription.id);
  writer.Key("user_id");
  write_string(writer, subscription.user_id);
  writer.Key("sku_ids");
  write_ids(writer, subscription.sku_ids);
  writer.Key("entitlement_ids");
  write_ids(writer, subscription.entitlement_ids);
  writer.Key("renewal_sku_ids");
  if (subscription.renewal_sku_ids) {
    write_ids(writer, *subscription.renewal_sku_ids);
  } else {
    writer.Null();
  }
  writer.Key("current_period_start");
  write_string(writer, format_rfc3339_ms(subscription.period_start_ms));
  writer.Key("current_period_end");
  write_string(writer, format_rfc3339_ms(subscription.period_end_ms));
  writer.Key("status");
  writer.Int(subscription.status);
  writer.Key("canceled_at");
  write_optional_time(writer, subscription.canceled_at_ms);
  writer.EndObject();
}

std::string subscription_json(const Subscription& subscription) {
  return to_json([&](JsonWriter& writer) { write_subscription(writer, subscription); });
}

}  // namespace platformpp::emulator
