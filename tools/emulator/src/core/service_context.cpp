#include "core/service_context.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/document_json.hpp"

namespace platformpp::emulator {

namespace {

constexpr std::string_view kPremiumScope = "identify.premium";

}  // namespace

ServiceContext::ServiceContext(FakeClock& clock_ref, ServiceEndpoints served)
    : clock(clock_ref), endpoints(std::move(served)), snowflakes(clock_ref) {
  changes.register_kind(DocumentKind{
      std::string(kClockDocument),
      [this](const std::string&) -> std::optional<std::string> {
        const auto saved = clock.save();
        return to_json([&](JsonWriter& writer) {
          writer.StartObject();
          document::write_member(writer, "v", 1);
          document::write_member(writer, "now", format_rfc3339_ms(saved.last_ms));  // for people reading it
          document::write_member(writer, "frozen", saved.frozen);
          document::write_member(writer, "offset_ms", saved.offset_ms);
          document::write_member(writer, "frozen_at_ms", saved.frozen_at_ms);
          document::write_member(writer, "last_ms", saved.last_ms);
          document::write_member(writer, "snowflake_increment", std::int64_t{snowflakes.increment()});
          document::write_member(writer, "snowflake_last_ms", snowflakes.last_ms());
          writer.EndObject();
        });
      },
      [this](const std::string&, const rapidjson::Value& body) {
        if (document::integer(body, "v") != 1) throw std::invalid_argument("unknown format version");
        clock.restore(
            FakeClock::Saved{document::boolean(body, "frozen"), document::integer(body, "offset_ms"),
                             document::integer(body, "frozen_at_ms"), document::integer(body, "last_ms")});
        // snowflake_last_ms is absent from the files of versions before it: their ids start over the guard.
        snowflakes.restore(static_cast<unsigned>(document::integer(body, "snowflake_increment")),
                           document::integer_or(body, "snowflake_last_ms", -1));
      },
      [] { return std::vector<std::string>{std::string(kClockDocument)}; },
      [] {}});  // the clock goes on across a reset
  changes.save_with_every_change(kClockDocument, kClockDocument);
  state.register_documents(changes);
}

FeatureModule::FeatureModule(ServiceContext& context)
    : clock_(context.clock),
      endpoints_(context.endpoints),
      snowflakes_(context.snowflakes),
      changes_(context.changes),
      state_(context.state),
      api_router_(context.api_router),
      admin_router_(context.admin_router),
      web_router_(context.web_router) {}

std::optional<Principal> FeatureModule::authenticate(const HttpRequest& request) const {
  const auto authorization = request.header("Authorization");
  if (!authorization) return std::nullopt;
  const auto space = authorization->find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  const auto scheme = authorization->substr(0, space);
  const auto token = authorization->substr(space + 1);
  Principal principal;
  if (iequals(scheme, "Bearer")) {
    principal.grant = state_.find_grant_by_access_token(token);
    if (principal.grant == nullptr || clock_.now_ms() >= principal.grant->expires_at_ms) return std::nullopt;
    principal.user = state_.find_user(principal.grant->user_id);
    principal.application = state_.find_application(principal.grant->app_id);
  } else if (iequals(scheme, "Bot")) {
    principal.application = state_.find_application_by_bot_token(token);
    if (principal.application == nullptr) return std::nullopt;
    principal.user = state_.find_user(principal.application->bot_user_id);
  }
  if (principal.user == nullptr) return std::nullopt;
  return principal;
}

bool FeatureModule::premium_visible(std::string_view app_id, const std::vector<std::string>& scopes) const {
  const auto* app = state_.find_application(app_id);
  return app != nullptr && app->premium_approved &&
         std::find(scopes.begin(), scopes.end(), kPremiumScope) != scopes.end();
}

bool FeatureModule::premium_visible(const Principal& principal) const {
  return principal.grant != nullptr && premium_visible(principal.grant->app_id, principal.grant->scopes);
}

}  // namespace platformpp::emulator
