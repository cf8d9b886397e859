#include "expressions/application_emoji_module.hpp"

#include <algorithm>
#include <cctype>

#include "core/api_error.hpp"
#include "core/data_uri.hpp"
#include "core/document_json.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/snowflake.hpp"
#include "core/state_changes.hpp"
#include "core/user_json.hpp"
#include "core/validation.hpp"

namespace platformpp::emulator {

namespace {

constexpr std::string_view kDocumentKind = "application_emoji";  // id: "<application>:<emoji>"
constexpr int kUnknownEmoji = 10014;
constexpr int kMaximumEmojis = 30008;
constexpr std::size_t kNameMin = 2;
constexpr std::size_t kNameMax = 32;

HttpResponse unknown_emoji() {
  return error_response(404, kUnknownEmoji, "Unknown Emoji");
}

// An emoji's name: 2 to 32 of A-Z, a-z, 0-9 and _ (the platform's rule for emoji names).
std::optional<FieldIssue> name_issue(std::string_view name) {
  if (name.size() < kNameMin || name.size() > kNameMax) return length_issue(kNameMin, kNameMax);
  const bool valid = std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
  });
  if (!valid) return FieldIssue{"STRING_TYPE_REGEX", "String value did not match validation regex."};
  return std::nullopt;
}

bool image_type_allowed(std::string_view media_type) {
  return media_type == "image/png" || media_type == "image/jpeg" || media_type == "image/jpg" ||
         media_type == "image/gif" || media_type == "image/webp" || media_type == "image/avif";
}

std::string document_id(const ApplicationEmoji& emoji) {
  return emoji.application_id + ":" + emoji.id;
}

}  // namespace

ApplicationEmojiModule::ApplicationEmojiModule(ServiceContext& context) : FeatureModule(context) {
  api_router_.add("GET", "/applications/{application_id}/emojis", bind(&ApplicationEmojiModule::api_list));
  api_router_.add("POST", "/applications/{application_id}/emojis", bind(&ApplicationEmojiModule::api_create));
  api_router_.add("GET", "/applications/{application_id}/emojis/{emoji_id}",
                  bind(&ApplicationEmojiModule::api_get));
  api_router_.add("PATCH", "/applications/{application_id}/emojis/{emoji_id}",
                  bind(&ApplicationEmojiModule::api_modify));
  api_router_.add("DELETE", "/applications/{application_id}/emojis/{emoji_id}",
                  bind(&ApplicationEmojiModule::api_delete));
  register_documents();
}

std::vector<const ApplicationEmoji*> ApplicationEmojiModule::emojis_of(
    std::string_view application_id) const {
  std::vector<const ApplicationEmoji*> found;
  for (const auto& [key, emoji] : emojis_) {
    if (key.first == application_id) found.push_back(&emoji);
  }
  std::sort(found.begin(), found.end(), [](const ApplicationEmoji* a, const ApplicationEmoji* b) {
    return snowflake_less(a->id, b->id);
  });
  return found;
}

std::variant<const Application*, HttpResponse> ApplicationEmojiModule::owner(
    const RouteContext& context) const {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto* app = state_.find_application(context.params.at("application_id"));
  if (app == nullptr) return unknown_application();
  // The application's own bot token only: a user's token or another application's has no access.
  if (principal->grant != nullptr || principal->application == nullptr ||
      principal->application->id != app->id)
    return missing_access();
  return app;
}

std::string ApplicationEmojiModule::emoji_json(const ApplicationEmoji& emoji) const {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("id");
    write_string(writer, emoji.id);
    writer.Key("name");
    write_string(writer, emoji.name);
    writer.Key("roles");
    writer.StartArray();
    writer.EndArray();
    if (const auto* user = state_.find_user(emoji.user_id)) {
      writer.Key("user");
      write_raw(writer, user_json(*user), rapidjson::kObjectType);
    }
    writer.Key("require_colons");
    writer.Bool(true);
    writer.Key("managed");
    writer.Bool(false);
    writer.Key("animated");
    writer.Bool(emoji.animated);
    writer.Key("available");
    writer.Bool(true);
    writer.EndObject();
  });
}

HttpResponse ApplicationEmojiModule::api_list(const RouteContext& context) {
  auto found = owner(context);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto* app = std::get<const Application*>(found);
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("items");
                              writer.StartArray();
                              for (const auto* emoji : emojis_of(app->id))
                                write_raw(writer, emoji_json(*emoji), rapidjson::kObjectType);
                              writer.EndArray();
                              writer.EndObject();
                            }));
}

HttpResponse ApplicationEmojiModule::api_get(const RouteContext& context) {
  auto found = owner(context);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto it = emojis_.find({std::get<const Application*>(found)->id, context.params.at("emoji_id")});
  if (it == emojis_.end()) return unknown_emoji();
  return HttpResponse::json(200, emoji_json(it->second));
}

HttpResponse ApplicationEmojiModule::api_create(const RouteContext& context) {
  auto found = owner(context);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto* app = std::get<const Application*>(found);
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  ApplicationEmoji emoji;
  if (auto name = fields.string("name", true)) {
    if (auto issue = name_issue(*name)) {
      fields.add_issue("name", std::move(*issue));
    } else {
      emoji.name = std::move(*name);
    }
  }
  std::optional<DataUri> image;
  if (auto uri = fields.string("image", true)) {
    image = parse_data_uri(*uri);
    if (!image || !image_type_allowed(image->media_type))
      fields.add_issue("image", {"IMAGE_INVALID", "Invalid image data"});
  }
  const auto existing = emojis_of(app->id);
  if (!emoji.name.empty() &&
      std::any_of(existing.begin(), existing.end(),
                  [&](const ApplicationEmoji* other) { return other->name == emoji.name; })) {
    fields.add_issue("name",
                     {"APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Application emoji names must be unique."});
  }
  if (!errors.empty()) return invalid_form_body(errors);
  // The platform: a 400 with a message and no JSON code of its own (here the general 0).
  if (image->size_bytes > kMaxEmojiImageBytes) {
    return error_response(400, 0, "Asset exceeds maximum size: " + std::to_string(kMaxEmojiImageBytes));
  }
  if (existing.size() >= kMaxApplicationEmojis) {
    return error_response(400, kMaximumEmojis, "Maximum number of emojis reached (2000)");
  }
  emoji.id = snowflakes_.next_string();
  emoji.application_id = app->id;
  emoji.user_id = app->bot_user_id;
  emoji.media_type = image->media_type;
  emoji.animated = image->media_type == "image/gif";
  changes_.touch(kDocumentKind, document_id(emoji));
  const auto& stored = emojis_.insert_or_assign({emoji.application_id, emoji.id}, emoji).first->second;
  return HttpResponse::json(201, emoji_json(stored));
}

HttpResponse ApplicationEmojiModule::api_modify(const RouteContext& context) {
  auto found = owner(context);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto* app = std::get<const Application*>(found);
  const auto it = emojis_.find({app->id, context.params.at("emoji_id")});
  if (it == emojis_.end()) return unknown_emoji();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  if (auto name = fields.string("name", true)) {
    const auto existing = emojis_of(app->id);
    if (auto issue = name_issue(*name)) {
      fields.add_issue("name", std::move(*issue));
    } else if (std::any_of(existing.begin(), existing.end(), [&](const ApplicationEmoji* other) {
                 return other->name == *name && other->id != it->second.id;
               })) {
      fields.add_issue("name",
                       {"APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Application emoji names must be unique."});
    } else {
      if (errors.empty()) {
        changes_.touch(kDocumentKind, document_id(it->second));
        it->second.name = std::move(*name);
      }
    }
  }
  if (!errors.empty()) return invalid_form_body(errors);
  return HttpResponse::json(200, emoji_json(it->second));
}

HttpResponse ApplicationEmojiModule::api_delete(const RouteContext& context) {
  auto found = owner(context);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto it = emojis_.find({std::get<const Application*>(found)->id, context.params.at("emoji_id")});
  if (it == emojis_.end()) return unknown_emoji();
  changes_.touch(kDocumentKind, document_id(it->second));
  emojis_.erase(it);
  return HttpResponse::empty(204);
}

void ApplicationEmojiModule::register_documents() {
  changes_.register_kind(DocumentKind{std::string(kDocumentKind),
                                      [this](const std::string& id) -> std::optional<std::string> {
                                        const auto parts = document::split_id(id, 2);
                                        const auto it = emojis_.find({parts[0], parts[1]});
                                        if (it == emojis_.end()) return std::nullopt;
                                        const auto& emoji = it->second;
                                        return document::document_json([&](JsonWriter& writer) {
                                          document::write_member(writer, "application_id",
                                                                 emoji.application_id);
                                          document::write_member(writer, "emoji_id", emoji.id);
                                          document::write_member(writer, "name", emoji.name);
                                          document::write_member(writer, "user_id", emoji.user_id);
                                          document::write_member(writer, "animated", emoji.animated);
                                          document::write_member(writer, "media_type", emoji.media_type);
                                        });
                                      },
                                      [this](const std::string&, const rapidjson::Value& body) {
                                        document::check_format(body);
                                        ApplicationEmoji emoji;
                                        emoji.application_id = document::string(body, "application_id");
                                        emoji.id = document::string(body, "emoji_id");
                                        emoji.name = document::string(body, "name");
                                        emoji.user_id = document::string(body, "user_id");
                                        emoji.animated = document::boolean(body, "animated");
                                        emoji.media_type = document::string(body, "media_type");
                                        auto key = std::make_pair(emoji.application_id, emoji.id);
                                        emojis_.insert_or_assign(std::move(key), std::move(emoji));
                                      },
                                      [this] {
                                        std::vector<std::string> ids;
                                        for (const auto& entry : emojis_)
                                          ids.push_back(document_id(entry.second));
                                        return ids;
                                      },
                                      [this] { emojis_.clear(); }});
}

}  // namespace platformpp::emulator
