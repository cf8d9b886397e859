// The front door of every HTTP request: the admin API, the platform API (faults first, then the rate limiter,
// then the route) and the web root; and the admin routes of the faults and rate limits it applies.
#include "http/http_module.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "core/api_error.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"

namespace platformpp::emulator {

namespace {

bool starts_with_segment(std::string_view path, std::string_view base) {
  return path.starts_with(base) && (path.size() == base.size() || path[base.size()] == '/');
}

void add_rate_limit_headers(HttpResponse& response, const RateLimitDecision& decision) {
  response.set_header("X-RateLimit-Limit", std::to_string(decision.limit));
  response.set_header("X-RateLimit-Remaining", std::to_string(decision.remaining));
  response.set_header("X-RateLimit-Reset", format_seconds(decision.reset_at_ms));
  response.set_header("X-RateLimit-Reset-After", format_seconds(decision.reset_after_ms));
  response.set_header("X-RateLimit-Bucket", decision.bucket);
}

}  // namespace

HttpModule::HttpModule(ServiceContext& context, RateLimitSettings rate_limits)
    : FeatureModule(context), rate_limiter_(rate_limits) {
  admin_router_.add("GET", "/faults", bind(&HttpModule::admin_list_faults));
  admin_router_.add("POST", "/faults", bind(&HttpModule::admin_add_fault));
  admin_router_.add("DELETE", "/faults", bind(&HttpModule::admin_clear_faults));
  admin_router_.add("GET", "/ratelimits", bind(&HttpModule::admin_get_ratelimits));
  admin_router_.add("POST", "/ratelimits", bind(&HttpModule::admin_set_ratelimits));
  admin_router_.add("DELETE", "/ratelimits", bind(&HttpModule::admin_reset_ratelimits));
  admin_router_.add("GET", "/social-rate-limits", bind(&HttpModule::admin_get_social_rate_limits));
  admin_router_.add("POST", "/social-rate-limits", bind(&HttpModule::admin_set_social_rate_limits));
}

RequestPlan HttpModule::plan(const HttpRequest& request) {
  RequestPlan result;
  const auto path = request.path();
  if (!starts_with_segment(path, kApiBasePath)) return result;
  auto api_path = path.substr(kApiBasePath.size());
  if (api_path.empty()) api_path = "/";
  result.fault = faults_.take_match(request.method, api_path);
  if (result.fault) result.delay = std::chrono::milliseconds(result.fault->delay_ms);
  return result;
}

Outcome HttpModule::complete(const HttpRequest& request, const RequestPlan& plan) {
  Outcome outcome;
  const auto path = request.path();
  const Fault* fault = plan.fault ? &*plan.fault : nullptr;
  if (fault != nullptr && fault->drop) {
    outcome.delivery = Outcome::Delivery::drop;
    return outcome;
  }

  if (starts_with_segment(path, kAdminBasePath)) {
    auto admin_path = path.substr(kAdminBasePath.size());
    outcome.response = handle_admin(request, admin_path.empty() ? "/" : admin_path);
  } else if (starts_with_segment(path, kApiBasePath)) {
    auto api_path = path.substr(kApiBasePath.size());
    if (api_path.empty()) api_path = "/";
    if (fault != nullptr && (fault->status || fault->body)) {
      outcome.response = fault_response(request, api_path, *fault);
    } else {
      outcome.response = handle_api(request, api_path);
    }
  } else if (starts_with_segment(path, "/api")) {
    // "/api/v<N>/..." with another version N is a known API with an unsupported version.
    // "/api" itself has no version segment (and no character 5 to start one at).
    const auto after_api = path.substr(std::min<std::size_t>(5, path.size()));
    const auto version = after_api.substr(0, after_api.find('/'));
    const bool looks_versioned = version.size() >= 2 && version[0] == 'v' &&
                                 std::all_of(version.begin() + 1, version.end(), [](char c) {
                                   return std::isdigit(static_cast<unsigned char>(c)) != 0;
                                 });
    outcome.response = looks_versioned
                           ? error_response(400, error_code::kInvalidApiVersion, "Invalid API version")
                           : status_error(404);
  } else {
    // The platform's web pages (/oauth2/authorize); "/" is reserved for the Gateway's WebSocket upgrade.
    outcome.response = handle_web(request, path);
  }

  if (fault != nullptr && fault->truncate) outcome.delivery = Outcome::Delivery::truncate;
  if (fault != nullptr && fault->drop_after) outcome.delivery = Outcome::Delivery::drop;
  return outcome;
}

HttpResponse HttpModule::handle_api(const HttpRequest& request, std::string_view api_path) {
  const auto match = api_router_.match(request.method, api_path);
  const std::string route_key =
      match.kind == Router::MatchKind::found ? match.route->key : std::string("unmatched route");
  const auto authorization = request.header("Authorization");
  const std::string identity =
      authorization ? "auth:" + std::string(*authorization) : "ip:" + request.client_address;

  const auto decision = rate_limiter_.check(request.method, api_path, route_key, identity, clock_.now_ms());
  HttpResponse response;
  if (!decision.allowed) {
    response = rate_limited_response(static_cast<double>(decision.retry_after_ms) / 1000.0, decision.global);
  } else if (match.kind == Router::MatchKind::found) {
    response = match.route->handler(RouteContext{request, match.params});
  } else {
    response = status_error(match.kind == Router::MatchKind::method_not_allowed ? 405 : 404);
  }
  add_rate_limit_headers(response, decision);
  if (const auto& observer = api_observer()) {
    observer(
        ApiExchange{request.method,
                    match.kind == Router::MatchKind::found ? match.route->pattern.text() : std::string_view(),
                    request, response});
  }
  return response;
}

HttpResponse HttpModule::handle_admin(const HttpRequest& request, std::string_view admin_path) {
  if (!AdminAccess::is_public(request.method, admin_path) &&
      !admin_access_.accepts_header(request.header("Authorization"))) {
    // As the platform answers a request without a valid token. The log names the path's first segment only
    // (a later one may be a token: DELETE /tokens/{token}), never the header; a flood of refusals logs its
    // first ten and then every thousandth.
    ++admin_refusals_;
    if (admin_refusals_ <= 10 || admin_refusals_ % 1000 == 0) {
      const auto segment = admin_path.substr(0, admin_path.find('/', 1));
      std::fprintf(stderr,
                   "platformpp-emulator: refused %s %.*s%.*s%s without the admin token (refusal %llu; it is "
                   "the connection file's admin_token, sent as Authorization: Bearer)\n",
                   request.method.c_str(), static_cast<int>(kAdminBasePath.size()), kAdminBasePath.data(),
                   static_cast<int>(segment.size()), segment.data(),
                   segment.size() < admin_path.size() ? "/..." : "",
                   static_cast<unsigned long long>(admin_refusals_));
    }
    return status_error(401);
  }
  return dispatch(admin_router_, request, admin_path);
}

HttpResponse HttpModule::handle_web(const HttpRequest& request, std::string_view path) {
  return dispatch(web_router_, request, path);
}

HttpResponse HttpModule::dispatch(const Router& router, const HttpRequest& request, std::string_view path) {
  const auto match = router.match(request.method, path);
  switch (match.kind) {
    case Router::MatchKind::found:
      return match.route->handler(RouteContext{request, match.params});
    case Router::MatchKind::method_not_allowed:
      return status_error(405);
    case Router::MatchKind::not_found:
      break;
  }
  return status_error(404);
}

HttpResponse HttpModule::fault_response(const HttpRequest& request, std::string_view api_path,
                                        const Fault& fault) {
  const int status = fault.status.value_or(200);
  if (status == 429 && !fault.body) {
    const double retry_after = fault.retry_after_s.value_or(1.0);
    auto response = rate_limited_response(retry_after, fault.global);
    const auto match = api_router_.match(request.method, api_path);
    const auto info = rate_limiter_.bucket_for(
        request.method, api_path,
        match.kind == Router::MatchKind::found ? match.route->key : "unmatched route");
    const auto retry_after_ms = static_cast<std::int64_t>(std::llround(retry_after * 1000.0));
    response.set_header("X-RateLimit-Limit", std::to_string(info.limit));
    response.set_header("X-RateLimit-Remaining", "0");
    response.set_header("X-RateLimit-Reset", format_seconds(clock_.now_ms() + retry_after_ms));
    response.set_header("X-RateLimit-Reset-After", format_seconds(retry_after_ms));
    response.set_header("X-RateLimit-Bucket", info.bucket);
    return response;
  }
  if (fault.body) {
    HttpResponse response;
    response.status = status;
    response.body = *fault.body;
    response.set_header("Content-Type", fault.content_type.value_or("application/json"));
    return response;
  }
  return status_error(status);
}

// ---- admin: faults and rate limits
// -------------------------------------------------------------------------

HttpResponse HttpModule::admin_add_fault(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto route_text = fields.string("route", true);
  std::optional<RoutePattern> route;
  if (route_text) {
    route = RoutePattern::parse(*route_text);
    if (!route) {
      fields.add_issue("route",
                       {"ROUTE_INVALID", "Must be \"<METHOD|*> <path pattern>\", e.g. \"GET /users/@me\"."});
    }
  }
  const auto status = fields.integer("status", false, 200, 599);
  const auto retry_after = fields.number("retry_after", false, 0.0);
  const auto global = fields.boolean("global", false);
  const auto delay_ms = fields.integer("delay_ms", false, 0, 600'000);
  const auto drop = fields.boolean("drop", false);
  const auto drop_after = fields.boolean("drop_after", false);
  const auto truncate = fields.boolean("truncate", false);
  auto raw_body = fields.string("body", false);
  auto content_type = fields.string("content_type", false);
  const auto count = fields.integer("count", false, 0, 1'000'000'000);
  if (!errors.empty()) return invalid_form_body(errors);

  Fault fault(std::move(*route));
  if (status) fault.status = static_cast<int>(*status);
  fault.retry_after_s = retry_after;
  fault.global = global.value_or(false);
  fault.delay_ms = delay_ms.value_or(0);
  fault.drop = drop.value_or(false);
  fault.drop_after = drop_after.value_or(false);
  fault.truncate = truncate.value_or(false);
  fault.body = std::move(raw_body);
  fault.content_type = std::move(content_type);
  fault.count = static_cast<int>(count.value_or(1));
  const auto id = faults_.add(std::move(fault));
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("id");
                              write_string(writer, id);
                              writer.EndObject();
                            }));
}

HttpResponse HttpModule::admin_list_faults(const RouteContext&) {
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("faults");
                              writer.StartArray();
                              for (const auto& fault : faults_.faults()) {
                                writer.StartObject();
                                writer.Key("id");
                                write_string(writer, fault.id);
                                writer.Key("route");
                                write_string(writer, fault.route.text());
                                if (fault.status) {
                                  writer.Key("status");
                                  writer.Int(*fault.status);
                                }
                                if (fault.retry_after_s) {
                                  writer.Key("retry_after");
                                  writer.Double(*fault.retry_after_s);
                                }
                                writer.Key("global");
                                writer.Bool(fault.global);
                                writer.Key("delay_ms");
                                writer.Int64(fault.delay_ms);
                                writer.Key("drop");
                                writer.Bool(fault.drop);
                                writer.Key("drop_after");
                                writer.Bool(fault.drop_after);
                                writer.Key("truncate");
                                writer.Bool(fault.truncate);
                                if (fault.body) {
                                  writer.Key("body");
                                  write_string(writer, *fault.body);
                                }
                                if (fault.content_type) {
                                  writer.Key("content_type");
                                  write_string(writer, *fault.content_type);
                                }
                                writer.Key("count");
                                writer.Int(fault.count);
                                writer.Key("remaining");
                                writer.Int(fault.count == 0 ? 0 : fault.remaining);
                                writer.EndObject();
                              }
                              writer.EndArray();
                              writer.EndObject();
                            }));
}

HttpResponse HttpModule::admin_clear_faults(const RouteContext&) {
  faults_.clear();
  return HttpResponse::empty(204);
}

HttpResponse HttpModule::admin_get_ratelimits(const RouteContext&) {
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("global_per_second");
                              writer.Int(rate_limiter_.global_per_second());
                              writer.Key("rules");
                              writer.StartArray();
                              for (const auto& rule : rate_limiter_.rules()) {
                                writer.StartObject();
                                writer.Key("route");
                                write_string(writer, rule.route.text());
                                writer.Key("limit");
                                writer.Int(rule.limit);
                                writer.Key("window_ms");
                                writer.Int64(rule.window_ms);
                                writer.Key("bucket");
                                write_string(writer, bucket_id("rule " + rule.route.text()));
                                writer.EndObject();
                              }
                              writer.EndArray();
                              writer.EndObject();
                            }));
}

HttpResponse HttpModule::admin_set_ratelimits(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const bool has_rule = fields.has("route") || fields.has("limit") || fields.has("window_ms");
  const auto global = fields.integer("global_per_second", !has_rule, 0, 1'000'000);
  std::optional<RoutePattern> route;
  std::optional<std::int64_t> limit;
  std::optional<std::int64_t> window_ms;
  if (has_rule) {
    if (const auto route_text = fields.string("route", true)) {
      route = RoutePattern::parse(*route_text);
      if (!route) {
        fields.add_issue(
            "route", {"ROUTE_INVALID", "Must be \"<METHOD|*> <path pattern>\", e.g. \"GET /users/@me\"."});
      }
    }
    limit = fields.integer("limit", true, 1, 1'000'000);
    window_ms = fields.integer("window_ms", true, 1, 86'400'000);
  }
  if (!errors.empty()) return invalid_form_body(errors);
  if (has_rule) rate_limiter_.add_rule({std::move(*route), static_cast<int>(*limit), *window_ms});
  if (global) rate_limiter_.set_global_per_second(static_cast<int>(*global));
  return admin_get_ratelimits(context);
}

HttpResponse HttpModule::admin_reset_ratelimits(const RouteContext&) {
  rate_limiter_.reset_to_defaults();
  return HttpResponse::empty(204);
}

// ---- admin: the Social SDK development rate limits --------------------------------------------------------

std::string HttpModule::social_rate_limits_json() const {
  static constexpr std::pair<SocialLimit, const char*> kCategories[] = {
      {SocialLimit::lobby_create_join, "lobby_create_join"}, {SocialLimit::lobby_update, "lobby_update"},
      {SocialLimit::lobby_message, "lobby_message"},         {SocialLimit::dm, "dm"},
      {SocialLimit::channel_link, "channel_link"},
  };
  const auto now = clock_.now_ms();
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("enabled");
    writer.Bool(social_limits_.enabled());
    writer.Key("window_ms");
    writer.Int64(SocialRateLimits::kWindowMs);
    writer.Key("limits");
    writer.StartObject();
    for (const auto& [category, name] : kCategories) {
      writer.Key(name);
      writer.Int64(SocialRateLimits::limit_of(category));
    }
    writer.EndObject();
    // Uses in the current window per application (counted only while enabled).
    writer.Key("applications");
    writer.StartObject();
    for (const auto& app_id : social_limits_.applications()) {
      writer.Key(app_id.c_str(), static_cast<rapidjson::SizeType>(app_id.size()));
      writer.StartObject();
      for (const auto& [category, name] : kCategories) {
        writer.Key(name);
        writer.Int64(social_limits_.used(app_id, category, now));
      }
      writer.EndObject();
    }
    writer.EndObject();
    writer.EndObject();
  });
}

HttpResponse HttpModule::admin_get_social_rate_limits(const RouteContext&) {
  return HttpResponse::json(200, social_rate_limits_json());
}

HttpResponse HttpModule::admin_set_social_rate_limits(const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto enabled = fields.boolean("enabled", true);
  if (!errors.empty()) return invalid_form_body(errors);
  social_limits_.set_enabled(*enabled);
  return HttpResponse::json(200, social_rate_limits_json());
}

}  // namespace platformpp::emulator
