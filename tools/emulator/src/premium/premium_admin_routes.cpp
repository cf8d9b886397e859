// The admin API of premium apps (tools/emulator/README.md, "Premium apps"): SKUs, purchases (the checkout's
// own code path), the purchase-flow outcome, cancel, end, renew, plan changes, legacy subscriptions and their
// migration, and a dump of the state.
#include <cctype>
#include <string>
#include <variant>
#include <vector>

#include "core/api_error.hpp"
#include "core/json_body.hpp"
#include "core/validation.hpp"
#include "premium/premium_module.hpp"
#include "premium/premium_wire.hpp"

namespace platformpp::emulator {

namespace {

// The slug the platform derives from a name: lower-case letters and digits, '-' for the rest, no '-' runs.
std::string slug_of(std::string_view name) {
  std::string slug;
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) != 0 && byte < 0x80) {
      slug.push_back(static_cast<char>(std::tolower(byte)));
    } else if (!slug.empty() && slug.back() != '-') {
      slug.push_back('-');
    }
  }
  while (!slug.empty() && slug.back() == '-')
    slug.pop_back();
  return slug.empty() ? "sku" : slug;
}

HttpResponse purchase_error(PremiumModule::PurchaseError error) {
  // The RPC error codes of START_PURCHASE (docs/premium-protocol.md, "Purchase flow from the game").
  switch (error) {
    case PremiumModule::PurchaseError::canceled:
      return error_response(400, 5005, "Purchase canceled");
    case PremiumModule::PurchaseError::failed:
      return error_response(400, 5006, "Purchase failed");
    case PremiumModule::PurchaseError::unknown_sku:
      return error_response(404, 10032, "Unknown SKU");
    case PremiumModule::PurchaseError::already_owned:
    case PremiumModule::PurchaseError::none:
      break;
  }
  return error_response(400, 5008, "Already owned");
}

HttpResponse subscription_answer(const Subscription& subscription) {
  return HttpResponse::json(200, subscription_json(subscription));
}

HttpResponse not_now(std::string_view message) {
  return error_response(400, error_code::kGeneral, message);
}

}  // namespace

void PremiumModule::register_admin_routes() {
  auto bind = [this](HttpResponse (PremiumModule::*handler)(const RouteContext&)) {
    return [this, handler](const RouteContext& context) {
      sweep();
      return (this->*handler)(context);
    };
  };
  admin_router_.add("GET", "/applications/{app_id}/premium", bind(&PremiumModule::admin_state));
  admin_router_.add("POST", "/applications/{app_id}/skus", bind(&PremiumModule::admin_create_skus));
  admin_router_.add("POST", "/applications/{app_id}/purchases", bind(&PremiumModule::admin_purchase));
  admin_router_.add("POST", "/applications/{app_id}/purchase-flow",
                    bind(&PremiumModule::admin_purchase_flow));
  admin_router_.add("POST", "/applications/{app_id}/legacy-subscriptions",
                    bind(&PremiumModule::admin_legacy_subscription));
  admin_router_.add("POST", "/applications/{app_id}/entitlements/{entitlement_id}/migrate",
                    bind(&PremiumModule::admin_migrate));
  admin_router_.add("POST", "/applications/{app_id}/subscriptions/{subscription_id}/cancel",
                    bind(&PremiumModule::admin_cancel));
  admin_router_.add("POST", "/applications/{app_id}/subscriptions/{subscription_id}/end",
                    bind(&PremiumModule::admin_end));
  admin_router_.add("POST", "/applications/{app_id}/subscriptions/{subscription_id}/renew",
                    bind(&PremiumModule::admin_renew));
  admin_router_.add("POST", "/applications/{app_id}/subscriptions/{subscription_id}/change-plan",
                    bind(&PremiumModule::admin_change_plan));
}

HttpResponse PremiumModule::admin_create_skus(const RouteContext& context) {
  const auto& app_id = context.params.at("app_id");
  if (state_.find_application(app_id) == nullptr) return unknown_application();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return *error;
  // One SKU {name, type} or several {"skus": [{name, type}, ...]}.
  std::vector<const rapidjson::Value*> entries;
  std::vector<std::string> prefix;
  if (const auto list = body.FindMember("skus"); list != body.MemberEnd()) {
    if (!list->value.IsArray() || list->value.Empty()) {
      FieldErrors errors;
      errors.add({"skus"}, {"BASE_TYPE_ARRAY", "Must be a non-empty array."});
      return invalid_form_body(errors);
    }
    for (const auto& entry : list->value.GetArray())
      entries.push_back(&entry);
  } else {
    entries.push_back(&body);
  }
  FieldErrors errors;
  std::vector<Sku> made;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& entry = *entries[i];
    std::vector<std::string> at;
    if (entries.size() > 1 || &entry != &body) at = {"skus", std::to_string(i)};
    auto path = [&](const char* name) {
      auto full = at;
      full.emplace_back(name);
      return full;
    };
    if (!entry.IsObject()) {
      errors.add(at, {"BASE_TYPE_OBJECT", "Must be an object."});
      continue;
    }
    Sku sku;
    const auto name = entry.FindMember("name");
    if (name == entry.MemberEnd() || !name->value.IsString()) {
      errors.add(path("name"), required_field_issue());
    } else {
      sku.name.assign(name->value.GetString(), name->value.GetStringLength());
      if (const auto issue = check_app_name(sku.name)) errors.add(path("name"), *issue);
    }
    const auto type = entry.FindMember("type");
    if (type == entry.MemberEnd() || !type->value.IsInt() ||
        (type->value.GetInt() != sku_type::kDurable && type->value.GetInt() != sku_type::kConsumable &&
         type->value.GetInt() != sku_type::kSubscription)) {
      errors.add(path("type"), {"BASE_TYPE_CHOICES", "Value must be one of {2, 3, 5}."});
    } else {
      sku.type = type->value.GetInt();
    }
    made.push_back(std::move(sku));
  }
  if (!errors.empty()) return invalid_form_body(errors);
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("skus");
                              writer.StartArray();
                              for (auto& sku : made) {
                                const auto id = snowflakes_.next();
                                sku.id = std::to_string(id);
                                sku.app_id = app_id;
                                sku.slug = slug_of(sku.name);
                                sku.flags = sku_flag::kAvailable;
                                if (sku.type == sku_type::kSubscription)
                                  sku.flags |= sku_flag::kUserSubscription;
                                const auto& added = premium_.skus.emplace(id, std::move(sku)).first->second;
                                changed(added);
                                write_sku(writer, added);
                              }
                              writer.EndArray();
                              writer.EndObject();
                            }));
}

std::variant<PremiumModule::UserAndSku, HttpResponse> PremiumModule::read_user_and_sku(
    const RouteContext& context) {
  if (state_.find_application(context.params.at("app_id")) == nullptr) return unknown_application();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  auto user_id = fields.string("user_id", true);
  auto sku_id = fields.string("sku_id", true);
  if (!errors.empty()) return invalid_form_body(errors);
  if (state_.find_user(*user_id) == nullptr) return unknown_user();
  return UserAndSku{std::move(*user_id), std::move(*sku_id)};
}

HttpResponse PremiumModule::admin_purchase(const RouteContext& context) {
  const auto& app_id = context.params.at("app_id");
  auto read = read_user_and_sku(context);
  if (auto* refused = std::get_if<HttpResponse>(&read)) return std::move(*refused);
  const auto& [user_id, sku_id] = std::get<UserAndSku>(read);
  const auto result = purchase(app_id, user_id, sku_id);
  if (result.error != PurchaseError::none) return purchase_error(result.error);
  const auto* subscription = result.subscription_id ? find_subscription(*result.subscription_id) : nullptr;
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("entitlements");
                              write_raw(writer, result.entitlements_json, rapidjson::kArrayType);
                              writer.Key("subscription");
                              if (subscription != nullptr) {
                                write_subscription(writer, *subscription);
                              } else {
                                writer.Null();
                              }
                              writer.EndObject();
                            }));
}

HttpResponse PremiumModule::admin_purchase_flow(const RouteContext& context) {
  const auto& app_id = context.params.at("app_id");
  if (state_.find_application(app_id) == nullptr) return unknown_application();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return *error;
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto outcome = fields.string("outcome", true);
  if (outcome && *outcome != "complete" && *outcome != "cancel" && *outcome != "fail") {
    fields.add_issue("outcome", {"BASE_TYPE_CHOICES", "Value must be one of {complete, cancel, fail}."});
  }
  if (!errors.empty()) return invalid_form_body(errors);
  premium_.purchase_flow[app_id] = *outcome == "cancel" ? PurchaseOutcome::cancel
                                   : *outcome == "fail" ? PurchaseOutcome::fail
                                                        : PurchaseOutcome::complete;
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("outcome");
                              write_string(writer, *outcome);
                              writer.EndObject();
                            }));
}

std::variant<Subscription*, HttpResponse> PremiumModule::admin_subscription(const RouteContext& context) {
  const auto& app_id = context.params.at("app_id");
  if (state_.find_application(app_id) == nullptr) return unknown_application();
  auto* subscription = find_subscription(context.params.at("subscription_id"));
  if (subscription == nullptr || subscription->app_id != app_id) {
    return error_response(404, error_code::kGeneral, "Unknown Subscription");
  }
  return subscription;
}

HttpResponse PremiumModule::admin_cancel(const RouteContext& context) {
  auto found = admin_subscription(context);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  auto& subscription = *std::get<Subscription*>(found);
  if (subscription.status != subscription_status::kActive) return not_now("The subscription is not active");
  // Visible only through SUBSCRIPTION_UPDATE and the Subscription API: the entitlement lasts to the end.
  subscription.status = subscription_status::kEnding;
  subscription.canceled_at_ms = clock_.now_ms();
  subscription.renewal_sku_ids.reset();
  changed(subscription);
  dispatch_subscription("SUBSCRIPTION_UPDATE", subscription);
  return subscription_answer(subscription);
}

HttpResponse PremiumModule::admin_end(const RouteContext& context) {
  auto found = admin_subscription(context);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  auto& subscription = *std::get<Subscription*>(found);
  if (subscription.status == subscription_status::kInactive) return not_now("The subscription has ended");
  // The period ends now, as if the clock had reached it while ENDING.
  const auto now = clock_.now_ms();
  subscription.period_end_ms = now;
  if (!subscription.canceled_at_ms) subscription.canceled_at_ms = now;
  changed(subscription);
  end(subscription, now);
  return subscription_answer(subscription);
}

HttpResponse PremiumModule::admin_renew(const RouteContext& context) {
  auto found = admin_subscription(context);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  auto& subscription = *std::get<Subscription*>(found);
  if (subscription.status != subscription_status::kActive) return not_now("The subscription is not active");
  // The period ends now and the next one starts: what the clock would do at the period's end.
  subscription.period_end_ms = clock_.now_ms();
  changed(subscription);
  renew(subscription);
  return subscription_answer(subscription);
}

HttpResponse PremiumModule::admin_change_plan(const RouteContext& context) {
  auto found = admin_subscription(context);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  auto& subscription = *std::get<Subscription*>(found);
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return *error;
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto sku_id = fields.string("sku_id", true);
  if (!errors.empty()) return invalid_form_body(errors);
  const auto* sku = find_sku(*sku_id);
  if (sku == nullptr || sku->app_id != subscription.app_id || sku->type != sku_type::kSubscription) {
    return error_response(404, 10032, "Unknown SKU");
  }
  if (subscription.status != subscription_status::kActive) return not_now("The subscription is not active");
  // Takes effect at the renewal; the entitlement stays as it is until then.
  subscription.renewal_sku_ids = std::vector<std::string>{sku->id};
  changed(subscription);
  dispatch_subscription("SUBSCRIPTION_UPDATE", subscription);
  return subscription_answer(subscription);
}

HttpResponse PremiumModule::admin_legacy_subscription(const RouteContext& context) {
  const auto& app_id = context.params.at("app_id");
  auto read = read_user_and_sku(context);
  if (auto* refused = std::get_if<HttpResponse>(&read)) return std::move(*refused);
  const auto& [user_id, sku_id] = std::get<UserAndSku>(read);
  const auto* sku = find_sku(sku_id);
  if (sku == nullptr || sku->app_id != app_id || sku->type != sku_type::kSubscription) {
    return error_response(404, 10032, "Unknown SKU");
  }
  if (owns(*sku, user_id)) return purchase_error(PurchaseError::already_owned);
  const auto& subscription = add_legacy_subscription(*sku, user_id);
  return subscription_answer(subscription);
}

HttpResponse PremiumModule::admin_migrate(const RouteContext& context) {
  const auto& app_id = context.params.at("app_id");
  if (state_.find_application(app_id) == nullptr) return unknown_application();
  auto* entitlement = find_entitlement(context.params.at("entitlement_id"));
  if (entitlement == nullptr || entitlement->app_id != app_id) {
    return error_response(404, 10029, "Unknown Entitlement");
  }
  if (entitlement->type != entitlement_type::kApplicationSubscription) {
    return not_now("Not a legacy subscription entitlement");
  }
  if (ended(*entitlement, clock_.now_ms())) return not_now("The entitlement has ended");
  migrate(*entitlement);
  return HttpResponse::json(200, entitlement_json(*entitlement));
}

HttpResponse PremiumModule::admin_state(const RouteContext& context) {
  const auto& app_id = context.params.at("app_id");
  if (state_.find_application(app_id) == nullptr) return unknown_application();
  const auto flow = premium_.purchase_flow.find(app_id);
  const auto outcome = flow == premium_.purchase_flow.end() ? PurchaseOutcome::complete : flow->second;
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("purchase_flow");
                              writer.String(outcome == PurchaseOutcome::cancel ? "cancel"
                                            : outcome == PurchaseOutcome::fail ? "fail"
                                                                               : "complete");
                              writer.Key("skus");
                              writer.StartArray();
                              for (const auto& [id, sku] : premium_.skus) {
                                if (sku.app_id == app_id) write_sku(writer, sku);
                              }
                              writer.EndArray();
                              writer.Key("entitlements");
                              writer.StartArray();
                              for (const auto& [id, entitlement] : premium_.entitlements) {
                                if (entitlement.app_id == app_id) write_entitlement(writer, entitlement);
                              }
                              writer.EndArray();
                              writer.Key("subscriptions");
                              writer.StartArray();
                              for (const auto& [id, subscription] : premium_.subscriptions) {
                                if (subscription.app_id == app_id) write_subscription(writer, subscription);
                              }
                              writer.EndArray();
                              writer.EndObject();
                            }));
}

}  // namespace platformpp::emulator
