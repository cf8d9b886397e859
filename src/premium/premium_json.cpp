#include "premium/premium_json.hpp"

#include "json/timestamp.hpp"

#include <string>

namespace platformpp::premium {
namespace {

// A required, non-zero snowflake.
bool RequireId(const json::Value& object, const char* name, uint64_t& out) {
  auto id = json::GetSnowflake(object, name);
  if (!id || *id == 0) return false;
  out = *id;
  return true;
}

// An optional snowflake: absent or null leaves `out` at 0; anything else must be a valid one.
bool OptionalId(const json::Value& object, const char* name, uint64_t& out) {
  const json::Value* member = json::Member(object, name);
  if (member == nullptr || member->IsNull()) return true;
  auto id = json::GetSnowflake(object, name);
  if (!id) return false;
  out = *id;
  return true;
}

bool RequireInt32(const json::Value& object, const char* name, int32_t& out) {
  auto number = json::GetInt(object, name);
  if (!number || *number < INT32_MIN || *number > INT32_MAX) return false;
  out = static_cast<int32_t>(*number);
  return true;
}

// An optional boolean: absent or null is false.
bool OptionalBool(const json::Value& object, const char* name, bool& out) {
  const json::Value* member = json::Member(object, name);
  if (member == nullptr || member->IsNull()) return true;
  if (!member->IsBool()) return false;
  out = member->GetBool();
  return true;
}

// An optional, nullable timestamp.
bool OptionalTime(const json::Value& object, const char* name, std::optional<uint64_t>& out) {
  const json::Value* member = json::Member(object, name);
  if (member == nullptr || member->IsNull()) return true;
  if (!member->IsString()) return false;
  out = json::ParseTimestampMs(std::string_view(member->GetString(), member->GetStringLength()));
  return out.has_value();
}

bool RequireTime(const json::Value& object, const char* name, uint64_t& out) {
  std::optional<uint64_t> time;
  if (!OptionalTime(object, name, time) || !time) return false;
  out = *time;
  return true;
}

// An array of snowflakes (strings or numbers).
std::optional<std::vector<uint64_t>> IdList(const json::Value& value) {
  if (!value.IsArray()) return std::nullopt;
  std::vector<uint64_t> ids;
  ids.reserve(value.Size());
  for (const auto& element : value.GetArray()) {
    uint64_t id = 0;
    if (element.IsString()) {
      std::string_view text(element.GetString(), element.GetStringLength());
      if (text.empty() || text.size() > 20) return std::nullopt;
      for (char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        const uint64_t digit = static_cast<uint64_t>(c - '0');
        if (id > (UINT64_MAX - digit) / 10) return std::nullopt;
        id = id * 10 + digit;
      }
    } else if (element.IsUint64()) {
      id = element.GetUint64();
    } else {
      return std::nullopt;
    }
    if (id == 0) return std::nullopt;
    ids.push_back(id);
  }
  return ids;
}

bool OptionalString(const json::Value& object, const char* name, std::optional<std::string>& out) {
  const json::Value* member = json::Member(object, name);
  if (member == nullptr || member->IsNull()) return true;
  if (!member->IsString()) return false;
  out.emplace(member->GetString(), member->GetStringLength());
  return true;
}

}  // namespace

std::optional<Sku> ParseSku(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  Sku sku;
  int32_t type = 0;
  if (!RequireId(value, "id", sku.id) || !RequireId(value, "application_id", sku.applicationId) ||
      !RequireInt32(value, "type", type)) {
    return std::nullopt;
  }
  sku.type = static_cast<SkuType>(type);
  std::optional<std::string> name;
  std::optional<std::string> slug;
  if (!OptionalString(value, "name", name) || !OptionalString(value, "slug", slug)) return std::nullopt;
  sku.name = name.value_or("");
  sku.slug = slug.value_or("");
  if (const json::Value* flags = json::Member(value, "flags"); flags != nullptr && !flags->IsNull()) {
    if (!flags->IsUint()) return std::nullopt;
    sku.flags = flags->GetUint();
  }
  return sku;
}

std::optional<Entitlement> ParseEntitlement(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  Entitlement entitlement;
  int32_t type = 0;
  if (!RequireId(value, "id", entitlement.id) || !RequireId(value, "sku_id", entitlement.skuId) ||
      !RequireId(value, "application_id", entitlement.applicationId) || !RequireInt32(value, "type", type) ||
      !OptionalId(value, "user_id", entitlement.userId) ||
      !OptionalId(value, "guild_id", entitlement.guildId) ||
      !OptionalBool(value, "deleted", entitlement.deleted) ||
      !OptionalBool(value, "consumed", entitlement.consumed) ||
      !OptionalTime(value, "starts_at", entitlement.startsAt) ||
      !OptionalTime(value, "ends_at", entitlement.endsAt)) {
    return std::nullopt;
  }
  entitlement.type = static_cast<EntitlementType>(type);
  return entitlement;
}

std::optional<Subscription> ParseSubscription(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  Subscription subscription;
  int32_t status = 0;
  if (!RequireId(value, "id", subscription.id) || !RequireId(value, "user_id", subscription.userId) ||
      !RequireTime(value, "current_period_start", subscription.currentPeriodStart) ||
      !RequireTime(value, "current_period_end", subscription.currentPeriodEnd) ||
      !RequireInt32(value, "status", status) ||
      !OptionalTime(value, "canceled_at", subscription.canceledAt) ||
      !OptionalString(value, "country", subscription.country)) {
    return std::nullopt;
  }
  subscription.status = static_cast<SubscriptionStatus>(status);
  const json::Value* skuIds = json::Member(value, "sku_ids");
  auto skus = skuIds != nullptr ? IdList(*skuIds) : std::nullopt;
  if (!skus) return std::nullopt;
  subscription.skuIds = std::move(*skus);
  if (const json::Value* entitlementIds = json::Member(value, "entitlement_ids");
      entitlementIds != nullptr && !entitlementIds->IsNull()) {
    auto ids = IdList(*entitlementIds);
    if (!ids) return std::nullopt;
    subscription.entitlementIds = std::move(*ids);
  }
  if (const json::Value* renewal = json::Member(value, "renewal_sku_ids");
      renewal != nullptr && !renewal->IsNull()) {
    subscription.renewalSkuIds = IdList(*renewal);
    if (!subscription.renewalSkuIds) return std::nullopt;
  }
  return subscription;
}

}  // namespace platformpp::premium
