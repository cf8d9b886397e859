// An application's answers to its interactions: the initial response (POST
// /interactions/{id}/{token}/callback, or an endpoint's inline answer) with every callback type the platform
// has, and the original response and follow-ups through the interaction's webhook routes. The messages they
// make are the full message object (content, embeds, components, flags, attachments from JSON or
// multipart/form-data) with `interaction_metadata`. Errors: 404 Unknown interaction (10062) for an unknown
// or invalidated interaction (no initial response within 3 s), 400 Interaction has already been acknowledged
// (40060), 401 Invalid Webhook Token (50027) once the 15-minute token is over, 404 Unknown Webhook (10015)
// for another application's id or a follow-up before the initial response, 404 Unknown Message (10008) for a
// message the token did not make, 400 (40094) past 5 follow-ups of a user-installed app, 413 (40005) for a
// file over the user's upload limit, 400 (50035) with the offending field for what the platform refuses.
#include <rapidjson/document.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <utility>

#include "core/form_encoding.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/multipart_form.hpp"
#include "core/validation.hpp"
#include "interactions/component_rules.hpp"
#include "interactions/interactions_module.hpp"

namespace platformpp::emulator {

namespace {

constexpr int kUnknownWebhook = 10015;
constexpr int kUnknownInteraction = 10062;
constexpr int kAlreadyAcknowledged = 40060;
constexpr int kInvalidWebhookToken = 50027;
constexpr int kTooManyFollowups = 40094;
constexpr int kEntityTooLarge = 40005;

constexpr std::size_t kContentMax = 2000;
constexpr std::size_t kEmbedsMax = 10;
constexpr std::size_t kAttachmentsMax = 10;
// The embed limits (the seed: 25 fields; the platform's docs for the rest).
constexpr std::size_t kEmbedFieldsMax = 25;
constexpr std::size_t kEmbedTitleMax = 256;
constexpr std::size_t kEmbedDescriptionMax = 4096;
constexpr std::size_t kEmbedFieldNameMax = 256;
constexpr std::size_t kEmbedFieldValueMax = 1024;
constexpr std::size_t kEmbedFooterMax = 2048;
constexpr std::size_t kEmbedAuthorMax = 256;
constexpr std::size_t kEmbedTotalMax = 6000;

constexpr int kFlagSuppressEmbeds = 1 << 2;
constexpr int kFlagSuppressNotifications = 1 << 12;
constexpr int kFlagComponentsV2 = static_cast<int>(kMessageFlagIsComponentsV2);
constexpr int kSettableFlags =
    kFlagSuppressEmbeds | kMessageFlagEphemeral | kFlagSuppressNotifications | kFlagComponentsV2;

using rapidjson::Value;

FieldIssue issue(std::string code, std::string message) {
  return {std::move(code), std::move(message)};
}

HttpResponse unknown_interaction() {
  return error_response(404, kUnknownInteraction, "Unknown interaction");
}

std::size_t characters(const Value& value) {
  return value.IsString() ? utf8_length(value.GetString()) : 0;
}

// Records the string member's length issue if it is longer than `max`; returns its length.
std::size_t check_text(const Value& object, const char* name, std::size_t max, FieldErrors& errors,
                       std::vector<std::string> path) {
  const auto it = object.FindMember(name);
  if (it == object.MemberEnd() || it->value.IsNull()) return 0;
  path.emplace_back(name);
  if (!it->value.IsString()) {
    errors.add(path, issue("BASE_TYPE_STRING", "Must be a string"));
    return 0;
  }
  const auto length = characters(it->value);
  if (length > max) errors.add(path, length_issue(0, max));
  return length;
}

void check_embeds(const Value& embeds, FieldErrors& errors) {
  if (!embeds.IsArray()) {
    errors.add({"embeds"}, issue("BASE_TYPE_ARRAY", "Must be an array"));
    return;
  }
  if (embeds.Size() > kEmbedsMax) errors.add({"embeds"}, length_issue(0, kEmbedsMax));
  for (rapidjson::SizeType i = 0; i < embeds.Size(); ++i) {
    const std::vector<std::string> at{"embeds", std::to_string(i)};
    const auto& embed = embeds[i];
    if (!embed.IsObject()) {
      errors.add(at, issue("MODEL_TYPE_CONVERT", "Must be an object"));
      continue;
    }
    std::size_t total = check_text(embed, "title", kEmbedTitleMax, errors, at) +
                        check_text(embed, "description", kEmbedDescriptionMax, errors, at);
    if (const auto footer = embed.FindMember("footer");
        footer != embed.MemberEnd() && footer->value.IsObject()) {
      auto path = at;
      path.emplace_back("footer");
      total += check_text(footer->value, "text", kEmbedFooterMax, errors, path);
    }
    if (const auto author = embed.FindMember("author");
        author != embed.MemberEnd() && author->value.IsObject()) {
      auto path = at;
      path.emplace_back("author");
      total += check_text(author->value, "name", kEmbedAuthorMax, errors, path);
    }
    if (const auto fields = embed.FindMember("fields"); fields != embed.MemberEnd()) {
      auto path = at;
      path.emplace_back("fields");
      if (!fields->value.IsArray()) {
        errors.add(path, issue("BASE_TYPE_ARRAY", "Must be an array"));
      } else {
        // The seed: at most 25 fields.
        if (fields->value.Size() > kEmbedFieldsMax) errors.add(path, length_issue(0, kEmbedFieldsMax));
        for (rapidjson::SizeType f = 0; f < fields->value.Size(); ++f) {
          auto field_path = path;
          field_path.push_back(std::to_string(f));
          const auto& field = fields->value[f];
          if (!field.IsObject()) {
            errors.add(field_path, issue("MODEL_TYPE_CONVERT", "Must be an object"));
            continue;
          }
          for (const char* required : {"name", "value"}) {
            if (!field.HasMember(required) || !field[required].IsString() ||
                field[required].GetStringLength() == 0) {
              auto p = field_path;
              p.emplace_back(required);
              errors.add(p, required_field_issue());
            }
          }
          total += check_text(field, "name", kEmbedFieldNameMax, errors, field_path) +
                   check_text(field, "value", kEmbedFieldValueMax, errors, field_path);
        }
      }
    }
    if (total > kEmbedTotalMax) {
      errors.add(at, issue("EMBED_TOO_LONG", "Embed size exceeds maximum size of 6000"));
    }
  }
}

bool is_components_v2(int flags) {
  return (flags & kFlagComponentsV2) != 0;
}

// A message body as the routes take it: JSON, or multipart/form-data with `payload_json` and `files[n]`.
struct MessageBody {
  rapidjson::Document payload;
  std::map<std::size_t, MultipartPart> files;  // by n of files[n]
};

std::optional<HttpResponse> read_message_body(const HttpRequest& request, MessageBody& body) {
  const auto content_type = request.header("Content-Type");
  if (content_type) {
    if (const auto boundary = multipart_boundary(*content_type)) {
      auto parts = parse_multipart_form(request.body, *boundary);
      if (!parts) return error_response(400, error_code::kInvalidFormBody, "Invalid multipart body");
      bool has_payload = false;
      for (auto& part : *parts) {
        if (part.name == "payload_json") {
          body.payload.Parse(part.body.data(), part.body.size());
          if (body.payload.HasParseError() || !body.payload.IsObject()) {
            return error_response(400, error_code::kInvalidJson, "The request body contains invalid JSON.");
          }
          has_payload = true;
          continue;
        }
        std::size_t n = 0;
        const std::string_view name = part.name;
        const bool indexed = name.size() > 7 && name.substr(0, 6) == "files[" && name.back() == ']' &&
                             std::from_chars(name.data() + 6, name.data() + name.size() - 1, n).ptr ==
                                 name.data() + name.size() - 1;
        if (!indexed) continue;  // the platform ignores parts it does not know
        if (!part.filename || part.filename->empty()) {
          FieldErrors errors;
          errors.add({std::string(name)}, issue("FILE_NAME_REQUIRED", "A file needs a filename"));
          return invalid_form_body(errors);
        }
        body.files.insert_or_assign(n, std::move(part));
      }
      if (!has_payload) body.payload.SetObject();
      return std::nullopt;
    }
  }
  return read_json_object(request, body.payload);
}

bool spoiler_name(std::string_view filename) {
  return filename.substr(0, 8) == "SPOILER_";
}

}  // namespace

void InteractionsModule::register_response_routes() {
  api_router_.add("POST", "/interactions/{interaction_id}/{interaction_token}/callback",
                  bind(&InteractionsModule::api_callback));
  api_router_.add("POST", "/webhooks/{application_id}/{token}",
                  bind(&InteractionsModule::api_create_followup));
  api_router_.add("GET", "/webhooks/{application_id}/{token}/messages/{message_id}",
                  bind(&InteractionsModule::api_get_webhook_message));
  api_router_.add("PATCH", "/webhooks/{application_id}/{token}/messages/{message_id}",
                  bind(&InteractionsModule::api_edit_webhook_message));
  api_router_.add("DELETE", "/webhooks/{application_id}/{token}/messages/{message_id}",
                  bind(&InteractionsModule::api_delete_webhook_message));
}

std::optional<Message> InteractionsModule::read_app_message(const Interaction& interaction, const Value& body,
                                                            const std::map<std::size_t, MultipartPart>& files,
                                                            FieldErrors& errors, const Message* base,
                                                            std::optional<HttpResponse>& refused) const {
  Message message;
  if (base != nullptr) {
    message = *base;
  } else {
    message.channel_id = interaction.channel_id;
    message.guild_id = interaction.guild_id;
    const Application* app = state_.find_application(interaction.app_id);
    message.author_id = app != nullptr ? app->bot_user_id : std::string();
    message.application_id = interaction.app_id;
    message.webhook_id = interaction.app_id;
    message.timestamp_ms = clock_.now_ms();
  }
  BodyFields fields(body, errors);
  if (body.HasMember("content")) {
    if (body["content"].IsNull()) {
      message.content.clear();
    } else if (const auto content = fields.string("content", false)) {
      if (utf8_length(*content) > kContentMax) fields.add_issue("content", length_issue(0, kContentMax));
      message.content = *content;
    }
  }
  if (const auto* embeds = fields.value("embeds", false)) {
    check_embeds(*embeds, errors);
    if (embeds->IsArray()) message.embeds = json_text(*embeds);
  } else if (body.HasMember("embeds") && body["embeds"].IsNull()) {
    message.embeds = "[]";
  }
  if (const auto* components = fields.value("components", false)) {
    if (!components->IsArray()) {
      fields.add_issue("components", issue("BASE_TYPE_ARRAY", "Must be an array"));
    } else {
      message.components = json_text(*components);
    }
  } else if (body.HasMember("components") && body["components"].IsNull()) {
    message.components = "[]";
  }
  if (const auto flags = fields.integer("flags", false, 0, std::numeric_limits<std::int32_t>::max())) {
    if ((*flags & ~kSettableFlags) != 0) {
      fields.add_issue("flags", issue("MESSAGE_FLAGS_INVALID",
                                      "Only SUPPRESS_EMBEDS, EPHEMERAL, "
                                      "SUPPRESS_NOTIFICATIONS and IS_COMPONENTS_V2 "
                                      "can be set"));
    }
    const int settable = static_cast<int>(*flags) & kSettableFlags;
    if (base != nullptr) {
      // Ephemerality never changes on an existing message, and IS_COMPONENTS_V2 is never taken off.
      if (is_components_v2(base->flags) && !is_components_v2(settable)) {
        fields.add_issue("flags", issue("MESSAGE_FLAGS_COMPONENTS_V2", "IS_COMPONENTS_V2 cannot be removed"));
      }
      message.flags =
          (base->flags & (kMessageFlagEphemeral | kMessageFlagLoading)) | (settable & ~kMessageFlagEphemeral);
    } else {
      message.flags = settable;
    }
  }
  // A deferred response's placeholder stops loading with its first edit.
  message.flags &= ~kMessageFlagLoading;

  // Attachments: the uploads (files[n]) and, on an edit, the kept ones with their editable description and
  // is_spoiler; an edit's `attachments` lists every attachment that stays.
  const User* user = state_.find_user(interaction.user_id);
  const auto limit =
      user != nullptr ? attachment_size_limit(*user) : interaction_limit::kDefaultAttachmentSizeLimit;
  std::vector<MessageAttachment> attachments =
      base != nullptr ? base->attachments : std::vector<MessageAttachment>{};
  std::set<std::size_t> used_files;
  if (const auto* listed = fields.value("attachments", false)) {
    if (!listed->IsArray()) {
      fields.add_issue("attachments", issue("BASE_TYPE_ARRAY", "Must be an array"));
    } else {
      std::vector<MessageAttachment> kept;
      for (rapidjson::SizeType i = 0; i < listed->Size(); ++i) {
        const std::vector<std::string> at{"attachments", std::to_string(i)};
        const auto& entry = (*listed)[i];
        const auto id_it = entry.IsObject() ? entry.FindMember("id") : Value::ConstMemberIterator();
        if (!entry.IsObject() || id_it == entry.MemberEnd() ||
            !(id_it->value.IsString() || id_it->value.IsUint64())) {
          auto p = at;
          p.emplace_back("id");
          errors.add(p, required_field_issue());
          continue;
        }
        const std::string id =
            id_it->value.IsString() ? id_it->value.GetString() : std::to_string(id_it->value.GetUint64());
        MessageAttachment attachment;
        const auto existing = std::find_if(attachments.begin(), attachments.end(),
                                           [&](const MessageAttachment& a) { return a.id == id; });
        std::size_t n = 0;
        const bool numeric =
            std::from_chars(id.data(), id.data() + id.size(), n).ptr == id.data() + id.size();
        if (existing != attachments.end()) {
          attachment = *existing;
        } else if (numeric && files.contains(n)) {
          const auto& file = files.at(n);
          attachment.id = snowflakes_.next_string();
          attachment.filename = *file.filename;
          attachment.content_type = file.content_type;
          attachment.size = static_cast<std::int64_t>(file.body.size());
          used_files.insert(n);
        } else {
          auto p = at;
          p.emplace_back("id");
          errors.add(p,
                     issue("ATTACHMENT_NOT_FOUND", "Names neither a kept attachment nor an uploaded file"));
          continue;
        }
        if (entry.HasMember("filename") && entry["filename"].IsString() && existing == attachments.end())
          attachment.filename = entry["filename"].GetString();
        if (entry.HasMember("description")) {
          if (entry["description"].IsString()) {
            if (characters(entry["description"]) > 1024) {
              auto p = at;
              p.emplace_back("description");
              errors.add(p, length_issue(0, 1024));
            }
            attachment.description = entry["description"].GetString();
          } else if (entry["description"].IsNull()) {
            attachment.description.reset();
          }
        }
        if (entry.HasMember("is_spoiler") && entry["is_spoiler"].IsBool()) {
          attachment.flags = entry["is_spoiler"].GetBool() ? (attachment.flags | kAttachmentFlagIsSpoiler)
                                                           : (attachment.flags & ~kAttachmentFlagIsSpoiler);
        }
        kept.push_back(std::move(attachment));
      }
      attachments = std::move(kept);
    }
  }
  for (const auto& [n, file] : files) {
    if (used_files.contains(n)) continue;
    MessageAttachment attachment;
    attachment.id = snowflakes_.next_string();
    attachment.filename = *file.filename;
    attachment.content_type = file.content_type;
    attachment.size = static_cast<std::int64_t>(file.body.size());
    attachments.push_back(std::move(attachment));
  }
  for (const auto& [n, file] : files) {
    if (static_cast<std::int64_t>(file.body.size()) > limit) {
      refused = error_response(413, kEntityTooLarge, "Request entity too large");
      return std::nullopt;
    }
  }
  for (auto& attachment : attachments) {
    // The legacy prefix still marks a spoiler (the seed); not every spoiler has it.
    if (spoiler_name(attachment.filename)) attachment.flags |= kAttachmentFlagIsSpoiler;
  }
  if (attachments.size() > kAttachmentsMax) fields.add_issue("attachments", length_issue(0, kAttachmentsMax));
  message.attachments = std::move(attachments);

  // With IS_COMPONENTS_V2, content and embeds do not work (the seed): the platform refuses them.
  if (is_components_v2(message.flags)) {
    if (!message.content.empty()) {
      fields.add_issue("content",
                       issue("MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                             "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2"));
    }
    if (message.embeds != "[]") {
      fields.add_issue("embeds",
                       issue("MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                             "The 'embeds' field cannot be used when using MessageFlags.IS_COMPONENTS_V2"));
    }
    for (const char* disabled : {"poll", "sticker_ids"}) {
      if (body.HasMember(disabled) && !body[disabled].IsNull()) {
        fields.add_issue(disabled, issue("MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                                         "Disabled with MessageFlags.IS_COMPONENTS_V2"));
      }
    }
  }
  check_message_components(interaction.app_id, message, errors);
  if (base == nullptr && message.content.empty() && message.embeds == "[]" && message.components == "[]" &&
      message.attachments.empty()) {
    errors.add({"content"}, issue("BASE_TYPE_REQUIRED", "Cannot send an empty message"));
  }
  if (base != nullptr) message.edited_ms = clock_.now_ms();
  if (!errors.empty()) return std::nullopt;
  return message;
}

std::optional<HttpResponse> InteractionsModule::respond(Interaction& interaction, const Value& body,
                                                        const std::map<std::size_t, MultipartPart>& files,
                                                        std::string* callback_json) {
  if (interaction.expired_unanswered) return unknown_interaction();
  if (interaction.response_type) {
    return error_response(400, kAlreadyAcknowledged, "Interaction has already been acknowledged.");
  }
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto read_type = fields.integer("type", true, 1, 100);
  const Value* data = fields.value("data", false);
  if (data != nullptr && !data->IsObject())
    fields.add_issue("data", issue("MODEL_TYPE_CONVERT", "Must be an object"));
  if (!errors.empty() || !read_type) return invalid_form_body(errors);
  const int type = static_cast<int>(*read_type);  // 1..100
  static const Value kNoData(rapidjson::kObjectType);
  const Value& d = data != nullptr ? *data : kNoData;

  // Which callback types each interaction type takes (the platform's table; LAUNCH_ACTIVITY: the seed).
  const int it = interaction.type;
  const bool command = it == interaction_type::kApplicationCommand;
  const bool component = it == interaction_type::kMessageComponent;
  const bool modal_submit = it == interaction_type::kModalSubmit;
  bool allowed = false;
  switch (type) {
    case callback_type::kChannelMessageWithSource:
    case callback_type::kDeferredChannelMessageWithSource:
    case callback_type::kPremiumRequired:
    case callback_type::kLaunchActivity:
      allowed = command || component || modal_submit;
      break;
    case callback_type::kDeferredUpdateMessage:
    case callback_type::kUpdateMessage:
      allowed = component || (modal_submit && interaction.source_message_id);
      break;
    case callback_type::kAutocompleteResult:
      allowed = it == interaction_type::kAutocomplete;
      break;
    case callback_type::kModal:
      allowed = command || component;
      break;
    default:
      break;
  }
  if (!allowed) {
    fields.add_issue("type", issue("INTERACTION_RESPONSE_TYPE_INVALID",
                                   "This callback type is not valid for this interaction type"));
    return invalid_form_body(errors);
  }
  const Application* app = state_.find_application(interaction.app_id);
  if (type == callback_type::kLaunchActivity && (app->flags() & kApplicationFlagEmbedded) == 0) {
    fields.add_issue("type",
                     issue("INTERACTION_LAUNCH_ACTIVITY_NOT_EMBEDDED", "The application has no activity"));
    return invalid_form_body(errors);
  }

  std::optional<Message> created;
  std::optional<Message> updated;
  bool loading = false;
  switch (type) {
    case callback_type::kChannelMessageWithSource: {
      std::optional<HttpResponse> refused;
      FieldErrors message_errors;
      created = read_app_message(interaction, d, files, message_errors, nullptr, refused);
      if (refused) return std::move(*refused);
      if (!created) return invalid_form_body(std::move(message_errors).nested_under("data"));
      break;
    }
    case callback_type::kDeferredChannelMessageWithSource: {
      // Only EPHEMERAL may be asked; a components v2 message comes with the edit of the original.
      const auto flags = d.HasMember("flags") && d["flags"].IsInt() ? d["flags"].GetInt() : 0;
      if ((flags & ~kMessageFlagEphemeral) != 0) {
        errors.add({"data", "flags"},
                   issue("MESSAGE_FLAGS_INVALID", "Only EPHEMERAL can be set on a deferred response"));
        return invalid_form_body(errors);
      }
      Message message;
      message.channel_id = interaction.channel_id;
      message.guild_id = interaction.guild_id;
      message.author_id = app->bot_user_id;
      message.application_id = app->id;
      message.webhook_id = app->id;
      message.timestamp_ms = clock_.now_ms();
      message.flags = flags | kMessageFlagLoading;
      created = std::move(message);
      loading = true;
      break;
    }
    case callback_type::kUpdateMessage: {
      const auto* source =
          messaging_.find_channel_message(interaction.channel_id, *interaction.source_message_id);
      if (source == nullptr) return unknown_message();
      std::optional<HttpResponse> refused;
      FieldErrors message_errors;
      updated = read_app_message(interaction, d, files, message_errors, source, refused);
      if (refused) return std::move(*refused);
      if (!updated) return invalid_form_body(std::move(message_errors).nested_under("data"));
      break;
    }
    case callback_type::kAutocompleteResult: {
      const auto choices = d.FindMember("choices");
      if (choices == d.MemberEnd() || !choices->value.IsArray()) {
        errors.add({"data", "choices"}, required_field_issue());
      } else {
        if (choices->value.Size() > interaction_limit::kAutocompleteChoicesMax) {
          errors.add({"data", "choices"}, length_issue(0, interaction_limit::kAutocompleteChoicesMax));
        }
        for (rapidjson::SizeType i = 0; i < choices->value.Size(); ++i) {
          const auto& choice = choices->value[i];
          const std::vector<std::string> at{"data", "choices", std::to_string(i)};
          const bool named = choice.IsObject() && choice.HasMember("name") && choice["name"].IsString() &&
                             choice["name"].GetStringLength() > 0 && characters(choice["name"]) <= 100;
          const bool valued = choice.IsObject() && choice.HasMember("value") &&
                              (choice["value"].IsNumber() ||
                               (choice["value"].IsString() && characters(choice["value"]) <= 100));
          if (!named) errors.add(at, issue("BASE_TYPE_BAD_LENGTH", "A choice's name is 1 to 100 characters"));
          if (!valued)
            errors.add(at,
                       issue("BASE_TYPE_BAD_LENGTH", "A choice's value is a number or up to 100 characters"));
        }
      }
      if (!errors.empty()) return invalid_form_body(errors);
      break;
    }
    case callback_type::kModal: {
      FieldErrors modal_errors;
      BodyFields modal(d, modal_errors);
      const auto custom_id = modal.string("custom_id", true);
      const auto title = modal.string("title", true);
      const auto* components = modal.value("components", true);
      if (custom_id && (custom_id->empty() || utf8_length(*custom_id) > interaction_limit::kCustomIdMax))
        modal.add_issue("custom_id", length_issue(1, interaction_limit::kCustomIdMax));
      if (title && (title->empty() || utf8_length(*title) > interaction_limit::kModalTitleMax))
        modal.add_issue("title", length_issue(1, interaction_limit::kModalTitleMax));
      if (components != nullptr) check_modal_components(interaction.app_id, *components, modal_errors);
      if (!modal_errors.empty()) return invalid_form_body(std::move(modal_errors).nested_under("data"));
      interaction.modal_json = json_text(d);
      break;
    }
    case callback_type::kLaunchActivity:
      interaction.activity_instance_id = "i-" + snowflakes_.next_string();
      break;
    default:  // DEFERRED_UPDATE_MESSAGE, PREMIUM_REQUIRED: nothing is made
      break;
  }

  interaction.response_type = type;
  interaction.response_json = json_text(body);
  bool ephemeral = false;
  if (created) {
    created->id = snowflakes_.next_string();
    created->type = !command ? message_type::kDefault
                    : interaction.command_type == command_type::kChatInput
                        ? message_type::kChatInputCommand
                        : message_type::kContextMenuCommand;
    created->interaction_metadata = interaction_metadata_json(interaction, std::nullopt);
    ephemeral = (created->flags & kMessageFlagEphemeral) != 0;
    if (ephemeral) created->ephemeral_for = interaction.user_id;
    interaction.original_message_id = created->id;
    messaging_.post_app_message(std::move(*created));
  } else if (updated) {
    interaction.original_message_id = updated->id;
    ephemeral = (updated->flags & kMessageFlagEphemeral) != 0;
    messaging_.update_app_message(std::move(*updated));
  } else if (type == callback_type::kDeferredUpdateMessage) {
    interaction.original_message_id = interaction.source_message_id;
  }
  if (callback_json != nullptr) {
    const Message* message =
        interaction.original_message_id
            ? messaging_.find_channel_message(interaction.channel_id, *interaction.original_message_id)
            : nullptr;
    *callback_json = to_json([&](JsonWriter& writer) {
      writer.StartObject();
      writer.Key("interaction");
      writer.StartObject();
      writer.Key("id");
      write_string(writer, interaction.id);
      writer.Key("type");
      writer.Int(interaction.type);
      if (interaction.activity_instance_id) {
        writer.Key("activity_instance_id");
        write_string(writer, *interaction.activity_instance_id);
      }
      if (message != nullptr) {
        writer.Key("response_message_id");
        write_string(writer, message->id);
        writer.Key("response_message_loading");
        writer.Bool(loading);
        writer.Key("response_message_ephemeral");
        writer.Bool(ephemeral);
      }
      writer.EndObject();
      writer.Key("resource");
      writer.StartObject();
      writer.Key("type");
      writer.Int(type);
      if (type == callback_type::kLaunchActivity) {
        writer.Key("activity_instance");
        writer.StartObject();
        writer.Key("id");
        write_string(writer, *interaction.activity_instance_id);
        writer.EndObject();
      }
      if (message != nullptr &&
          (type == callback_type::kChannelMessageWithSource || type == callback_type::kUpdateMessage)) {
        writer.Key("message");
        write_raw(writer, messaging_.api_message_json(*message), rapidjson::kObjectType);
      }
      writer.EndObject();
      writer.EndObject();
    });
  }
  report(interaction, std::nullopt);
  return std::nullopt;
}

HttpResponse InteractionsModule::api_callback(const RouteContext& context) {
  const auto found = interactions_.find(context.params.at("interaction_id"));
  if (found == interactions_.end() || found->second.token != context.params.at("interaction_token")) {
    return unknown_interaction();
  }
  auto& interaction = found->second;
  // The 3-second deadline, on the fake clock, even if the tick has not run since it moved.
  if (!interaction.response_type &&
      clock_.now_ms() - interaction.created_ms > interaction_limit::kInitialResponseMs) {
    report(interaction, "the application did not respond within 3 s");
    return unknown_interaction();
  }
  MessageBody body;
  if (auto error = read_message_body(context.request, body)) return std::move(*error);
  const auto query = FormFields::parse(query_of(context.request));
  const bool with_response = query && query->get("with_response").value_or("false") == "true";
  std::string callback;
  if (auto refused = respond(interaction, body.payload, body.files, with_response ? &callback : nullptr)) {
    return std::move(*refused);
  }
  return with_response ? HttpResponse::json(200, std::move(callback)) : HttpResponse::empty(204);
}

std::variant<Interaction*, HttpResponse> InteractionsModule::interaction_of_token(
    const RouteContext& context) {
  const auto id = interaction_of_token_.find(context.params.at("token"));
  const auto invalid_token = [] {
    return error_response(401, kInvalidWebhookToken, "Invalid Webhook Token");
  };
  if (id == interaction_of_token_.end()) return invalid_token();
  auto& interaction = interactions_.at(id->second);
  if (interaction.app_id != context.params.at("application_id")) {
    return error_response(404, kUnknownWebhook, "Unknown Webhook");
  }
  // The token is void once the initial response missed its deadline, and 15 minutes after the interaction.
  if (interaction.expired_unanswered ||
      clock_.now_ms() - interaction.created_ms > interaction_limit::kTokenLifetimeMs) {
    return invalid_token();
  }
  if (!interaction.response_type) return error_response(404, kUnknownWebhook, "Unknown Webhook");
  return &interaction;
}

namespace {

// The message a webhook route's {message_id} names among those of the interaction's token.
std::optional<std::string> message_of(const Interaction& interaction, const std::string& message_id) {
  if (message_id == "@original") return interaction.original_message_id;
  if (interaction.original_message_id == message_id) return message_id;
  const auto& ids = interaction.followup_ids;
  if (std::find(ids.begin(), ids.end(), message_id) != ids.end()) return message_id;
  return std::nullopt;
}

}  // namespace

HttpResponse InteractionsModule::api_get_webhook_message(const RouteContext& context) {
  auto found = interaction_of_token(context);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& interaction = *std::get<Interaction*>(found);
  const auto id = message_of(interaction, context.params.at("message_id"));
  const auto* message = id ? messaging_.find_channel_message(interaction.channel_id, *id) : nullptr;
  if (message == nullptr) return unknown_message();
  return HttpResponse::json(200, messaging_.api_message_json(*message));
}

HttpResponse InteractionsModule::api_edit_webhook_message(const RouteContext& context) {
  auto found = interaction_of_token(context);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  auto& interaction = *std::get<Interaction*>(found);
  const auto id = message_of(interaction, context.params.at("message_id"));
  const auto* message = id ? messaging_.find_channel_message(interaction.channel_id, *id) : nullptr;
  if (message == nullptr) return unknown_message();
  MessageBody body;
  if (auto error = read_message_body(context.request, body)) return std::move(*error);
  FieldErrors errors;
  std::optional<HttpResponse> refused;
  auto edited = read_app_message(interaction, body.payload, body.files, errors, message, refused);
  if (refused) return std::move(*refused);
  if (!edited) return invalid_form_body(errors);
  return HttpResponse::json(200,
                            messaging_.api_message_json(messaging_.update_app_message(std::move(*edited))));
}

HttpResponse InteractionsModule::api_delete_webhook_message(const RouteContext& context) {
  auto found = interaction_of_token(context);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  auto& interaction = *std::get<Interaction*>(found);
  const auto id = message_of(interaction, context.params.at("message_id"));
  if (!id || !messaging_.delete_app_message(interaction.channel_id, *id)) return unknown_message();
  return HttpResponse::empty(204);
}

HttpResponse InteractionsModule::api_create_followup(const RouteContext& context) {
  auto found = interaction_of_token(context);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  auto& interaction = *std::get<Interaction*>(found);
  MessageBody body;
  if (auto error = read_message_body(context.request, body)) return std::move(*error);
  FieldErrors errors;
  std::optional<HttpResponse> refused;
  // The deprecated behavior the platform keeps: right after a deferred response, a follow-up edits the
  // loading message instead of making one (and keeps its ephemerality).
  if (interaction.response_type == callback_type::kDeferredChannelMessageWithSource &&
      interaction.original_message_id) {
    const auto* original =
        messaging_.find_channel_message(interaction.channel_id, *interaction.original_message_id);
    if (original != nullptr && (original->flags & kMessageFlagLoading) != 0) {
      auto edited = read_app_message(interaction, body.payload, body.files, errors, original, refused);
      if (refused) return std::move(*refused);
      if (!edited) return invalid_form_body(errors);
      return HttpResponse::json(
          200, messaging_.api_message_json(messaging_.update_app_message(std::move(*edited))));
    }
  }
  if (interaction.user_install_only() &&
      interaction.followup_ids.size() >= interaction_limit::kUserInstallFollowups) {
    return error_response(400, kTooManyFollowups,
                          "This interaction has hit the maximum number of follow up messages");
  }
  auto message = read_app_message(interaction, body.payload, body.files, errors, nullptr, refused);
  if (refused) return std::move(*refused);
  if (!message) return invalid_form_body(errors);
  message->id = snowflakes_.next_string();
  message->interaction_metadata = interaction_metadata_json(interaction, interaction.original_message_id);
  if ((message->flags & kMessageFlagEphemeral) != 0) message->ephemeral_for = interaction.user_id;
  interaction.followup_ids.push_back(message->id);
  return HttpResponse::json(200,
                            messaging_.api_message_json(messaging_.post_app_message(std::move(*message))));
}

}  // namespace platformpp::emulator
