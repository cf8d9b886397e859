// PremiumModule's data as documents (core/state_changes.hpp): SKUs, entitlements and subscriptions, each by
// its own snowflake, with what the wire hides (a test entitlement's flag, a subscription's entitlements and
// the plan it renews onto) and "v", the format version. Times are the fake clock's milliseconds: a
// subscription loaded with its period over renews (or ends) at the first sweep, as if the emulator had run
// all along. Not kept: the purchase-flow outcomes (premium_state.hpp says why).
#include <charconv>
#include <stdexcept>

#include "core/document_json.hpp"
#include "premium/premium_module.hpp"

namespace platformpp::emulator {

namespace {

constexpr std::int64_t kFormat = 1;

void check_format(const rapidjson::Value& body) {
  const auto version = document::integer(body, "v");
  if (version < 1 || version > kFormat) {
    throw std::invalid_argument("format version " + std::to_string(version) +
                                " is not one this emulator reads");
  }
}

template <class WriteFn>
std::string document_json(WriteFn&& write) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    document::write_member(writer, "v", kFormat);
    write(writer);
    writer.EndObject();
  });
}

std::uint64_t numeric_id(const std::string& id) {
  std::uint64_t value = 0;
  const auto* end = id.data() + id.size();
  if (id.empty() || std::from_chars(id.data(), end, value).ptr != end) {
    throw std::invalid_argument("id " + id + " is not a snowflake");
  }
  return value;
}

// The entity of document `id`, or null (an id that is no snowflake names none).
template <class Map>
const auto* find_document(const Map& map, const std::string& id) {
  std::uint64_t value = 0;
  const auto* end = id.data() + id.size();
  const bool valid = !id.empty() && std::from_chars(id.data(), end, value).ptr == end;
  const auto it = valid ? map.find(value) : map.end();
  return it == map.end() ? nullptr : &it->second;
}

template <class Map>
std::vector<std::string> ids_of(const Map& map) {
  std::vector<std::string> ids;
  ids.reserve(map.size());
  for (const auto& entry : map)
    ids.push_back(entry.second.id);
  return ids;
}

std::string sku_document(const Sku& sku) {
  return document_json([&](JsonWriter& writer) {
    document::write_member(writer, "app_id", sku.app_id);
    document::write_member(writer, "type", sku.type);
    document::write_member(writer, "name", sku.name);
    document::write_member(writer, "slug", sku.slug);
    document::write_member(writer, "flags", std::int64_t{sku.flags});
  });
}

Sku read_sku(const std::string& id, const rapidjson::Value& body) {
  Sku sku;
  sku.id = id;
  sku.app_id = document::string(body, "app_id");
  sku.type = static_cast<int>(document::integer(body, "type"));
  sku.name = document::string(body, "name");
  sku.slug = document::string(body, "slug");
  sku.flags = static_cast<std::uint32_t>(document::integer(body, "flags"));
  return sku;
}

std::string entitlement_document(const Entitlement& entitlement) {
  return document_json([&](JsonWriter& writer) {
    document::write_member(writer, "sku_id", entitlement.sku_id);
    document::write_member(writer, "app_id", entitlement.app_id);
    document::write_member(writer, "user_id", entitlement.user_id);
    document::write_member(writer, "type", entitlement.type);
    if (entitlement.consumed) document::write_member(writer, "consumed", true);
    document::write_member(writer, "starts_at_ms", entitlement.starts_at_ms);
    document::write_member(writer, "ends_at_ms", entitlement.ends_at_ms);
    if (entitlement.test) document::write_member(writer, "test", true);
    document::write_member(writer, "subscription_id", entitlement.subscription_id);
  });
}

Entitlement read_entitlement(const std::string& id, const rapidjson::Value& body) {
  Entitlement entitlement;
  entitlement.id = id;
  entitlement.sku_id = document::string(body, "sku_id");
  entitlement.app_id = document::string(body, "app_id");
  entitlement.user_id = document::string(body, "user_id");
  entitlement.type = static_cast<int>(document::integer(body, "type"));
  entitlement.consumed = document::boolean_or(body, "consumed", false);
  entitlement.starts_at_ms = document::optional_integer(body, "starts_at_ms");
  entitlement.ends_at_ms = document::optional_integer(body, "ends_at_ms");
  entitlement.test = document::boolean_or(body, "test", false);
  entitlement.subscription_id = document::optional_string(body, "subscription_id");
  return entitlement;
}

std::string subscription_document(const Subscription& subscription) {
  return document_json([&](JsonWriter& writer) {
    document::write_member(writer, "app_id", subscription.app_id);
    document::write_member(writer, "user_id", subscription.user_id);
    document::write_member(writer, "sku_ids", subscription.sku_ids);
    document::write_member(writer, "entitlement_ids", subscription.entitlement_ids);
    // Absent once canceled (null on the wire); an empty list is not the same.
    if (subscription.renewal_sku_ids) {
      document::write_member(writer, "renewal_sku_ids", *subscription.renewal_sku_ids);
    }
    document::write_member(writer, "period_start_ms", subscription.period_start_ms);
    document::write_member(writer, "period_end_ms", subscription.period_end_ms);
    document::write_member(writer, "status", subscription.status);
    document::write_member(writer, "canceled_at_ms", subscription.canceled_at_ms);
  });
}

Subscription read_subscription(const std::string& id, const rapidjson::Value& body) {
  Subscription subscription;
  subscription.id = id;
  subscription.app_id = document::string(body, "app_id");
  subscription.user_id = document::string(body, "user_id");
  subscription.sku_ids = document::strings(body, "sku_ids");
  subscription.entitlement_ids = document::strings(body, "entitlement_ids");
  if (const auto it = body.FindMember("renewal_sku_ids"); it != body.MemberEnd() && !it->value.IsNull()) {
    subscription.renewal_sku_ids = document::strings(body, "renewal_sku_ids");
  }
  subscription.period_start_ms = document::integer(body, "period_start_ms");
  subscription.period_end_ms = document::integer(body, "period_end_ms");
  subscription.status = static_cast<int>(document::integer(body, "status"));
  if (subscription.status != subscription_status::kActive &&
      subscription.status != subscription_status::kInactive &&
      subscription.status != subscription_status::kEnding) {
    throw std::invalid_argument("\"status\" is not a subscription status");
  }
  subscription.canceled_at_ms = document::optional_integer(body, "canceled_at_ms");
  return subscription;
}

}  // namespace

void PremiumModule::changed(const Sku& sku) {
  changes_.touch(document_kind::kSku, sku.id);
}

void PremiumModule::changed(const Entitlement& entitlement) {
  changes_.touch(document_kind::kEntitlement, entitlement.id);
}

void PremiumModule::changed(const Subscription& subscription) {
  changes_.touch(document_kind::kSubscription, subscription.id);
}

void PremiumModule::register_documents() {
  changes_.register_kind(
      DocumentKind{std::string(document_kind::kSku),
                   [this](const std::string& id) -> std::optional<std::string> {
                     const auto* sku = find_document(premium_.skus, id);
                     return sku == nullptr ? std::nullopt : std::optional(sku_document(*sku));
                   },
                   [this](const std::string& id, const rapidjson::Value& body) {
                     check_format(body);
                     premium_.skus.insert_or_assign(numeric_id(id), read_sku(id, body));
                   },
                   [this] { return ids_of(premium_.skus); }, [this] { premium_.skus.clear(); }});
  changes_.register_kind(DocumentKind{
      std::string(document_kind::kEntitlement),
      [this](const std::string& id) -> std::optional<std::string> {
        const auto* entitlement = find_document(premium_.entitlements, id);
        return entitlement == nullptr ? std::nullopt : std::optional(entitlement_document(*entitlement));
      },
      [this](const std::string& id, const rapidjson::Value& body) {
        check_format(body);
        premium_.entitlements.insert_or_assign(numeric_id(id), read_entitlement(id, body));
      },
      [this] { return ids_of(premium_.entitlements); }, [this] { premium_.entitlements.clear(); }});
  changes_.register_kind(DocumentKind{
      std::string(document_kind::kSubscription),
      [this](const std::string& id) -> std::optional<std::string> {
        const auto* subscription = find_document(premium_.subscriptions, id);
        return subscription == nullptr ? std::nullopt : std::optional(subscription_document(*subscription));
      },
      [this](const std::string& id, const rapidjson::Value& body) {
        check_format(body);
        premium_.subscriptions.insert_or_assign(numeric_id(id), read_subscription(id, body));
      },
      [this] { return ids_of(premium_.subscriptions); }, [this] { premium_.subscriptions.clear(); }});
}

}  // namespace platformpp::emulator
