// The platform's premium routes (docs/premium-protocol.md): SKUs, entitlements with their filters and
// pagination, test entitlements, consume, and subscriptions. Every route sweeps first, so a subscription
// whose period the fake clock has passed is renewed or ended before anyone reads it.
#include <algorithm>
#include <charconv>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "core/api_error.hpp"
#include "core/form_encoding.hpp"
#include "core/json_body.hpp"
#include "premium/premium_module.hpp"
#include "premium/premium_wire.hpp"

namespace platformpp::emulator {

namespace {

namespace premium_error {
inline constexpr int kUnknownEntitlement = 10029;
inline constexpr int kUnknownSku = 10032;
}  // namespace premium_error

inline constexpr int kOwnerTypeGuild = 1;
inline constexpr int kOwnerTypeUser = 2;

HttpResponse unknown_entitlement() {
  return error_response(404, premium_error::kUnknownEntitlement, "Unknown Entitlement");
}

HttpResponse unknown_sku() {
  return error_response(404, premium_error::kUnknownSku, "Unknown SKU");
}

HttpResponse unknown_subscription() {
  // The platform's code for it is not published: code 0, as for other errors without one.
  return error_response(404, error_code::kGeneral, "Unknown Subscription");
}

std::optional<std::uint64_t> read_snowflake(std::string_view text) {
  std::uint64_t value = 0;
  const auto* end = text.data() + text.size();
  if (text.empty() || std::from_chars(text.data(), end, value).ptr != end) return std::nullopt;
  return value;
}

// The query of the list routes; what a route does not take it ignores.
struct ListQuery {
  std::optional<std::uint64_t> before;
  std::optional<std::uint64_t> after;
  std::int64_t limit = kPremiumListLimitMax;
  std::optional<std::string> user_id;
  std::optional<std::string> guild_id;
  std::optional<std::set<std::string>> sku_ids;
  bool exclude_ended = false;
  bool exclude_deleted = true;
  bool only_active = false;
  bool exclude_consumed = false;
};

std::variant<ListQuery, HttpResponse> read_list_query(const HttpRequest& request) {
  const auto fields = FormFields::parse(query_of(request));
  if (!fields) return status_error(400);
  ListQuery query;
  FieldErrors errors;
  auto snowflake = [&](const char* name) -> std::optional<std::string> {
    auto text = fields->get(name);
    if (!text) return std::nullopt;
    if (!read_snowflake(*text)) {
      errors.add({name}, {"NUMBER_TYPE_COERCE", "Value \"" + *text + "\" is not snowflake."});
      return std::nullopt;
    }
    return text;
  };
  auto boolean = [&](const char* name, bool& target) {
    const auto text = fields->get(name);
    if (!text) return;
    if (*text == "true" || *text == "True" || *text == "1") {
      target = true;
    } else if (*text == "false" || *text == "False" || *text == "0") {
      target = false;
    } else {
      errors.add({name}, {"BOOLEAN_TYPE_CONVERT", "Value \"" + *text + "\" is not a valid boolean."});
    }
  };
  if (const auto before = snowflake("before")) query.before = read_snowflake(*before);
  if (const auto after = snowflake("after")) query.after = read_snowflake(*after);
  query.user_id = snowflake("user_id");
  query.guild_id = snowflake("guild_id");
  if (const auto text = fields->get("limit")) {
    std::int64_t limit = 0;
    const auto* end = text->data() + text->size();
    if (std::from_chars(text->data(), end, limit).ptr != end) {
      errors.add({"limit"}, {"NUMBER_TYPE_COERCE", "Value \"" + *text + "\" is not int."});
    } else if (limit < 1) {
      errors.add({"limit"}, {"NUMBER_TYPE_MIN", "int value should be greater than or equal to 1."});
    } else if (limit > kPremiumListLimitMax) {
      errors.add({"limit"}, {"NUMBER_TYPE_MAX", "int value should be less than or equal to 100."});
    } else {
      query.limit = limit;
    }
  }
  if (const auto text = fields->get("sku_ids")) {
    std::set<std::string> ids;
    std::string_view rest = *text;
    while (true) {
      const auto comma = rest.find(',');
      const auto part = rest.substr(0, comma);
      if (!read_snowflake(part)) {
        errors.add({"sku_ids"},
                   {"NUMBER_TYPE_COERCE", "Value \"" + std::string(part) + "\" is not snowflake."});
        break;
      }
      ids.emplace(part);
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
    if (ids.size() > static_cast<std::size_t>(kPremiumListLimitMax)) {
      errors.add({"sku_ids"}, {"BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length."});
    }
    query.sku_ids = std::move(ids);
  }
  boolean("exclude_ended", query.exclude_ended);
  boolean("exclude_deleted", query.exclude_deleted);
  boolean("only_active", query.only_active);
  boolean("exclude_consumed", query.exclude_consumed);
  if (!errors.empty()) return invalid_form_body(errors);
  return query;
}

// One page of `items` (a map by numeric id): ascending ids after `after` when it is given, else descending
// ids before `before` (the newest first); `keep` filters.
template <class Item, class Keep>
std::vector<const Item*> page(const std::map<std::uint64_t, Item>& items, const ListQuery& query, Keep keep) {
  std::vector<const Item*> found;
  const auto fits = [&](std::uint64_t id) {
    return (!query.after || id > *query.after) && (!query.before || id < *query.before);
  };
  auto take = [&](std::uint64_t id, const Item& item) {
    if (!fits(id) || !keep(item)) return true;
    found.push_back(&item);
    return static_cast<std::int64_t>(found.size()) < query.limit;
  };
  if (query.after) {
    for (auto it = items.begin(); it != items.end() && take(it->first, it->second); ++it) {
    }
  } else {
    for (auto it = items.rbegin(); it != items.rend() && take(it->first, it->second); ++it) {
    }
  }
  return found;
}

template <class Item, class Write>
HttpResponse list_response(const std::vector<const Item*>& items, Write write) {
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartArray();
                              for (const auto* item : items)
                                write(writer, *item);
                              writer.EndArray();
                            }));
}

}  // namespace

void PremiumModule::register_routes() {
  auto bind = [this](HttpResponse (PremiumModule::*handler)(const RouteContext&)) {
    return [this, handler](const RouteContext& context) {
      sweep();  // renewals and endings the fake clock has reached, before anyone reads
      return (this->*handler)(context);
    };
  };
  api_router_.add("GET", "/applications/{application_id}/skus", bind(&PremiumModule::api_list_skus));
  api_router_.add("GET", "/applications/{application_id}/entitlements",
                  bind(&PremiumModule::api_list_entitlements));
  api_router_.add("POST", "/applications/{application_id}/entitlements",
                  bind(&PremiumModule::api_create_test_entitlement));
  api_router_.add("POST", "/applications/{application_id}/entitlements/{entitlement_id}/consume",
                  bind(&PremiumModule::api_consume_entitlement));
  api_router_.add("GET", "/applications/{application_id}/entitlements/{entitlement_id}",
                  bind(&PremiumModule::api_get_entitlement));
  api_router_.add("DELETE", "/applications/{application_id}/entitlements/{entitlement_id}",
                  bind(&PremiumModule::api_delete_entitlement));
  api_router_.add("GET", "/users/@me/applications/{application_id}/entitlements",
                  bind(&PremiumModule::api_my_entitlements));
  api_router_.add("GET", "/skus/{sku_id}/subscriptions", bind(&PremiumModule::api_list_subscriptions));
  api_router_.add("GET", "/skus/{sku_id}/subscriptions/{subscription_id}",
                  bind(&PremiumModule::api_get_subscription));
}

std::variant<Principal, HttpResponse> PremiumModule::authorize(const RouteContext& context,
                                                               const std::string& app_id, bool allow_user) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  if (state_.find_application(app_id) == nullptr) return unknown_application();
  if (principal->application == nullptr || principal->application->id != app_id) return missing_access();
  if (principal->grant != nullptr && !allow_user) return missing_access();
  return *principal;
}

HttpResponse PremiumModule::api_list_skus(const RouteContext& context) {
  const auto& app_id = context.params.at("application_id");
  auto caller = authorize(context, app_id, true);
  if (auto* error = std::get_if<HttpResponse>(&caller)) return std::move(*error);
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartArray();
                              for (const auto& [id, sku] : premium_.skus) {
                                if (sku.app_id == app_id) write_sku(writer, sku);
                              }
                              writer.EndArray();
                            }));
}

HttpResponse PremiumModule::api_list_entitlements(const RouteContext& context) {
  const auto& app_id = context.params.at("application_id");
  auto caller = authorize(context, app_id, false);
  if (auto* error = std::get_if<HttpResponse>(&caller)) return std::move(*error);
  auto parsed = read_list_query(context.request);
  if (auto* error = std::get_if<HttpResponse>(&parsed)) return std::move(*error);
  const auto& query = std::get<ListQuery>(parsed);
  const auto now = clock_.now_ms();
  const auto found = page(premium_.entitlements, query, [&](const Entitlement& entitlement) {
    // Every entitlement belongs to a user: a guild filter finds none.
    if (entitlement.app_id != app_id || query.guild_id) return false;
    if (query.user_id && entitlement.user_id != *query.user_id) return false;
    if (query.sku_ids && query.sku_ids->count(entitlement.sku_id) == 0) return false;
    if ((query.exclude_ended || query.only_active) && ended(entitlement, now)) return false;
    if (query.only_active && entitlement.starts_at_ms && *entitlement.starts_at_ms > now) return false;
    return true;
  });
  return list_response(found, [](JsonWriter& writer, const Entitlement& e) { write_entitlement(writer, e); });
}

HttpResponse PremiumModule::api_create_test_entitlement(const RouteContext& context) {
  const auto& app_id = context.params.at("application_id");
  auto caller = authorize(context, app_id, false);
  if (auto* error = std::get_if<HttpResponse>(&caller)) return std::move(*error);
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return *error;
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto sku_id = fields.string("sku_id", true);
  const auto owner_id = fields.string("owner_id", true);
  const auto owner_type = fields.integer("owner_type", true);
  if (owner_type && *owner_type != kOwnerTypeUser) {
    // Guild entitlements are not modelled: EntitlementResponse requires a user_id.
    fields.add_issue("owner_type", {"BASE_TYPE_CHOICES", *owner_type == kOwnerTypeGuild
                                                             ? "Guild entitlements are not supported."
                                                             : "Value must be one of {1, 2}."});
  }
  if (!errors.empty()) return invalid_form_body(errors);
  const auto* sku = find_sku(*sku_id);
  if (sku == nullptr || sku->app_id != app_id) return unknown_sku();
  const auto* user = state_.find_user(*owner_id);
  if (user == nullptr) return unknown_user();
  // Test entitlements never start or end (null both), and only they can be deleted.
  auto& entitlement =
      add_entitlement(*sku, user->id, entitlement_type::kPurchase, std::nullopt, std::nullopt);
  entitlement.test = true;
  entitlement_created(entitlement);
  return HttpResponse::json(200, entitlement_json(entitlement));
}

HttpResponse PremiumModule::api_get_entitlement(const RouteContext& context) {
  const auto& app_id = context.params.at("application_id");
  auto caller = authorize(context, app_id, false);
  if (auto* error = std::get_if<HttpResponse>(&caller)) return std::move(*error);
  const auto* entitlement = find_entitlement(context.params.at("entitlement_id"));
  if (entitlement == nullptr || entitlement->app_id != app_id) return unknown_entitlement();
  return HttpResponse::json(200, entitlement_json(*entitlement));
}

HttpResponse PremiumModule::api_delete_entitlement(const RouteContext& context) {
  const auto& app_id = context.params.at("application_id");
  auto caller = authorize(context, app_id, false);
  if (auto* error = std::get_if<HttpResponse>(&caller)) return std::move(*error);
  const auto* entitlement = find_entitlement(context.params.at("entitlement_id"));
  if (entitlement == nullptr || entitlement->app_id != app_id) return unknown_entitlement();
  if (!entitlement->test) {
    return error_response(400, error_code::kGeneral, "Only test entitlements can be deleted");
  }
  const auto removed = *entitlement;
  premium_.entitlements.erase(*read_snowflake(removed.id));
  changed(removed);
  dispatch_entitlement("ENTITLEMENT_DELETE", removed, true);
  return HttpResponse::empty(204);
}

HttpResponse PremiumModule::api_consume_entitlement(const RouteContext& context) {
  const auto& app_id = context.params.at("application_id");
  auto caller = authorize(context, app_id, false);
  if (auto* error = std::get_if<HttpResponse>(&caller)) return std::move(*error);
  auto* entitlement = find_entitlement(context.params.at("entitlement_id"));
  if (entitlement == nullptr || entitlement->app_id != app_id) return unknown_entitlement();
  const auto* sku = find_sku(entitlement->sku_id);
  if (sku == nullptr || sku->type != sku_type::kConsumable) {
    return error_response(400, error_code::kGeneral, "Entitlement is not consumable");
  }
  if (entitlement->consumed) {
    return error_response(400, error_code::kGeneral, "Entitlement has already been consumed");
  }
  entitlement->consumed = true;
  changed(*entitlement);
  dispatch_entitlement("ENTITLEMENT_UPDATE", *entitlement);
  return HttpResponse::empty(204);
}

HttpResponse PremiumModule::api_my_entitlements(const RouteContext& context) {
  const auto& app_id = context.params.at("application_id");
  auto caller = authorize(context, app_id, true);
  if (auto* error = std::get_if<HttpResponse>(&caller)) return std::move(*error);
  const auto& principal = std::get<Principal>(caller);
  if (principal.grant == nullptr) return missing_access();  // a user's own: not the bot's
  auto parsed = read_list_query(context.request);
  if (auto* error = std::get_if<HttpResponse>(&parsed)) return std::move(*error);
  auto query = std::get<ListQuery>(parsed);
  query.before.reset();  // this route does not page: all of the player's, the newest first
  query.after.reset();
  query.limit = std::numeric_limits<std::int64_t>::max();
  const auto found = page(premium_.entitlements, query, [&](const Entitlement& entitlement) {
    if (entitlement.app_id != app_id || entitlement.user_id != principal.user->id) return false;
    if (query.sku_ids && query.sku_ids->count(entitlement.sku_id) == 0) return false;
    return !(query.exclude_consumed && entitlement.consumed);
  });
  return list_response(found, [](JsonWriter& writer, const Entitlement& e) { write_entitlement(writer, e); });
}

HttpResponse PremiumModule::api_list_subscriptions(const RouteContext& context) {
  if (!authenticate(context.request)) return status_error(401);
  const auto* sku = find_sku(context.params.at("sku_id"));
  if (sku == nullptr) return unknown_sku();
  auto caller = authorize(context, sku->app_id, true);
  if (auto* error = std::get_if<HttpResponse>(&caller)) return std::move(*error);
  const auto& principal = std::get<Principal>(caller);
  auto parsed = read_list_query(context.request);
  if (auto* error = std::get_if<HttpResponse>(&parsed)) return std::move(*error);
  const auto& query = std::get<ListQuery>(parsed);
  const auto sku_id = sku->id;
  const auto found = page(premium_.subscriptions, query, [&](const Subscription& subscription) {
    const bool has_sku = std::find(subscription.sku_ids.begin(), subscription.sku_ids.end(), sku_id) !=
                         subscription.sku_ids.end();
    if (!has_sku) return false;
    // A player's token sees only the player's own subscriptions.
    if (principal.grant != nullptr && subscription.user_id != principal.user->id) return false;
    return !query.user_id || subscription.user_id == *query.user_id;
  });
  return list_response(found,
                       [](JsonWriter& writer, const Subscription& s) { write_subscription(writer, s); });
}

HttpResponse PremiumModule::api_get_subscription(const RouteContext& context) {
  if (!authenticate(context.request)) return status_error(401);
  const auto* sku = find_sku(context.params.at("sku_id"));
  if (sku == nullptr) return unknown_sku();
  auto caller = authorize(context, sku->app_id, true);
  if (auto* error = std::get_if<HttpResponse>(&caller)) return std::move(*error);
  const auto& principal = std::get<Principal>(caller);
  const auto* subscription = find_subscription(context.params.at("subscription_id"));
  if (subscription == nullptr ||
      std::find(subscription->sku_ids.begin(), subscription->sku_ids.end(), sku->id) ==
          subscription->sku_ids.end() ||
      (principal.grant != nullptr && subscription->user_id != principal.user->id)) {
    return unknown_subscription();
  }
  return HttpResponse::json(200, subscription_json(*subscription));
}

}  // namespace platformpp::emulator
