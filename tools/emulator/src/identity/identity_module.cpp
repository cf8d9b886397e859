#include "identity/identity_module.hpp"

#include <utility>

#include "core/api_error.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "identity/profile_limits.hpp"

namespace platformpp::emulator {

namespace {

constexpr std::string_view kProfileRoute =
    "/applications/{application_id}/users/{user_id}/identities/{provider_issued_user_id}/profile";

std::string profile_json(const std::optional<std::string>& username, const std::optional<std::string>& data) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("username");
    write_optional_string(writer, username);
    writer.Key("metadata");
    writer.Null();
    writer.Key("data");
    if (data) {
      write_raw(writer, *data, rapidjson::kObjectType);
    } else {
      writer.Null();
    }
    writer.EndObject();
  });
}

}  // namespace

IdentityModule::IdentityModule(ServiceContext& context) : FeatureModule(context) {
  api_router_.add("PATCH", kProfileRoute, bind(&IdentityModule::api_update_profile));
  api_router_.add("GET", kProfileRoute, bind(&IdentityModule::api_get_profile));
  admin_router_.add("PUT", "/applications/{application_id}/claimed",
                    bind(&IdentityModule::admin_set_claimed));
  register_documents();
}

std::optional<HttpResponse> IdentityModule::check_caller(const RouteContext& context, bool writing) const {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto& app_id = context.params.at("application_id");
  // The application's own bot token only: a user's bearer token, or another application's bot, may not.
  if (principal->grant != nullptr || principal->application == nullptr ||
      principal->application->id != app_id)
    return error_response(403, error_code::kMissingAccess, "Missing Access");
  // Only a claimed game has a Game Stats Widget to write to.
  if (writing && !claimed_.contains(app_id))
    return error_response(403, error_code::kMissingAccess, "Missing Access");
  if (state_.find_user(context.params.at("user_id")) == nullptr)
    return error_response(404, error_code::kUnknownUser, "Unknown User");
  if (!identity::valid_provider_issued_user_id(context.params.at("provider_issued_user_id"))) {
    FieldErrors errors;
    errors.add({"provider_issued_user_id"},
               {"BASE_TYPE_BAD_LENGTH", "Must be 1 to 256 characters of A-Z, a-z, 0-9 and ._~:@-."});
    return invalid_form_body(errors);
  }
  return std::nullopt;
}

HttpResponse IdentityModule::api_update_profile(const RouteContext& context) {
  if (auto refused = check_caller(context, true)) return std::move(*refused);
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  auto update = identity::read_profile_update(body, errors);
  const auto key = std::make_tuple(context.params.at("application_id"), context.params.at("user_id"));
  const auto& provider_issued_user_id = context.params.at("provider_issued_user_id");
  const auto existing = profiles_.find(key);
  if (existing != profiles_.end() && existing->second.provider_issued_user_id != provider_issued_user_id) {
    errors.add({"provider_issued_user_id"},
               {"BASE_TYPE_INVALID", "Does not match the user's application identity."});
  }
  if (!errors.empty()) return invalid_form_body(errors);
  changes_.touch(document_kind::kGameStatsProfile, std::get<0>(key) + ":" + std::get<1>(key));
  if (existing == profiles_.end()) {
    Profile profile{provider_issued_user_id, std::move(update.username), std::move(update.data_json)};
    auto answer = profile_json(profile.username, profile.data_json);
    profiles_.emplace(key, std::move(profile));
    return HttpResponse::json(201, std::move(answer));
  }
  if (update.username) existing->second.username = std::move(update.username);
  if (update.data_json) existing->second.data_json = std::move(update.data_json);
  return HttpResponse::empty(204);
}

HttpResponse IdentityModule::api_get_profile(const RouteContext& context) {
  if (auto refused = check_caller(context, false)) return std::move(*refused);
  const auto found =
      profiles_.find(std::make_tuple(context.params.at("application_id"), context.params.at("user_id")));
  if (found == profiles_.end() ||
      found->second.provider_issued_user_id != context.params.at("provider_issued_user_id"))
    return error_response(404, error_code::kUnknownUser, "Unknown Application Identity");
  return HttpResponse::json(200, profile_json(found->second.username, found->second.data_json));
}

// PUT /_emulator/applications/{id}/claimed {claimed}: whether the game is claimed on the platform.
HttpResponse IdentityModule::admin_set_claimed(const RouteContext& context) {
  const auto& app_id = context.params.at("application_id");
  if (state_.find_application(app_id) == nullptr) return unknown_application();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto claimed = fields.boolean("claimed", true);
  if (!errors.empty()) return invalid_form_body(errors);
  changes_.touch(document_kind::kClaimedGame, app_id);
  if (*claimed) {
    claimed_.insert(app_id);
  } else {
    claimed_.erase(app_id);
  }
  return HttpResponse::empty(204);
}

}  // namespace platformpp::emulator
