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
#include "messaging/message_body.hpp"

namespace platformpp::emulator {

namespace {

constexpr int kUnknownWebhook = 10015;
constexpr int kUnknownInteraction = 10062;
constexpr int kAlreadyAcknowledged = 40060;
constexpr int kInvalidWebhookToken = 50027;
constexpr int kTooManyFollowups = 40094;

using rapidjson::Value;

HttpResponse unknown_interaction() {
  return error_response(404, kUnknownInteraction, "Unknown interaction");
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
  MessageFieldRules rules;
  rules.settable_flags = message_flag::kSettableOnResponse;
  const User* user = state_.find_user(interaction.user_id);
  rules.upload_limit =
      user != nullptr ? attachment_size_limit(*user) : interaction_limit::kDefaultAttachmentSizeLimit;
  rules.next_id = [this] { return snowflakes_.next_string(); };
  rules.check_components = [&](const Message& checked, FieldErrors& found) {
    check_message_components(interaction.app_id, checked, found);
  };
  apply_message_fields(body, files, base != nullptr, rules, message, errors, refused);
  if (refused) return std::nullopt;
  if (base != nullptr) message.edited_ms = clock_.now_ms();
  if (!errors.empty()) return std::nullopt;
  // AutoMod reads what the application posts in a guild channel; a blocked edit of a deferred response is
  // the platform's 400.
  if (!message.ephemeral_for && (message.flags & kMessageFlagEphemeral) == 0) {
    refused = messaging_.automod_refusal(message);
    if (refused) return std::nullopt;
  }
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
    fields.add_issue("data", field_issue("MODEL_TYPE_CONVERT", "Must be an object"));
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
    fields.add_issue("type", field_issue("INTERACTION_RESPONSE_TYPE_INVALID",
                                         "This callback type is not valid for this interaction type"));
    return invalid_form_body(errors);
  }
  const Application* app = state_.find_application(interaction.app_id);
  if (type == callback_type::kLaunchActivity && (app->flags() & kApplicationFlagEmbedded) == 0) {
    fields.add_issue(
        "type", field_issue("INTERACTION_LAUNCH_ACTIVITY_NOT_EMBEDDED", "The application has no activity"));
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
                   field_issue("MESSAGE_FLAGS_INVALID", "Only EPHEMERAL can be set on a deferred response"));
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
                             choice["name"].GetStringLength() > 0 && string_characters(choice["name"]) <= 100;
          const bool valued = choice.IsObject() && choice.HasMember("value") &&
                              (choice["value"].IsNumber() ||
                               (choice["value"].IsString() && string_characters(choice["value"]) <= 100));
          if (!named)
            errors.add(at, field_issue("BASE_TYPE_BAD_LENGTH", "A choice's name is 1 to 100 characters"));
          if (!valued)
            errors.add(at, field_issue("BASE_TYPE_BAD_LENGTH",
                                       "A choice's value is a number or up to 100 characters"));
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
