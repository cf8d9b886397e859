// The admin route that submits a modal as the user fills it in: POST
// /_emulator/applications/{app}/interactions/{interaction_id}/modal-submit {values: {custom_id: value},
// attachments?: {custom_id: [{filename, size, content_type?}]}, locale?}. The interaction must have been
// answered with MODAL (404 10062 otherwise). Each field is checked as the platform's client checks it before
// it lets the user submit (a required field left empty, a text outside its length, values outside a
// select's or group's counts or options, files over the count or the user's upload limit): 400 50035 at
// `values.<custom_id>`. The submission mirrors the modal's tree as the platform sends it: Labels with their
// one component's value, Text Displays with their id, the deprecated action rows of text inputs; every
// component has an id (the modal's, or the next free one in tree order, as the platform numbers them).
#include <rapidjson/document.h>

#include <algorithm>
#include <set>
#include <utility>

#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/validation.hpp"
#include "interactions/interactions_module.hpp"

namespace platformpp::emulator {

namespace {

using rapidjson::Value;

int int_or(const Value& object, const char* name, int fallback) {
  const auto it = object.FindMember(name);
  return it != object.MemberEnd() && it->value.IsInt() ? it->value.GetInt() : fallback;
}

bool bool_or(const Value& object, const char* name, bool fallback) {
  const auto it = object.FindMember(name);
  return it != object.MemberEnd() && it->value.IsBool() ? it->value.GetBool() : fallback;
}

std::string custom_id_of(const Value& component) {
  const auto it = component.FindMember("custom_id");
  return it != component.MemberEnd() && it->value.IsString() ? it->value.GetString() : std::string();
}

bool option_known(const Value& component, const Value& value) {
  const auto options = component.FindMember("options");
  return options != component.MemberEnd() && options->value.IsArray() &&
         std::any_of(options->value.Begin(), options->value.End(), [&](const Value& o) {
           return o.IsObject() && o.HasMember("value") && o["value"] == value;
         });
}

// The ids the modal's components have, so that generated ones avoid them.
void collect_ids(const Value& components, std::set<int>& ids) {
  if (!components.IsArray()) return;
  for (const auto& component : components.GetArray()) {
    if (!component.IsObject()) continue;
    if (const int id = int_or(component, "id", 0); id != 0) ids.insert(id);
    if (const auto it = component.FindMember("components"); it != component.MemberEnd())
      collect_ids(it->value, ids);
    if (const auto it = component.FindMember("component");
        it != component.MemberEnd() && it->value.IsObject()) {
      if (const int id = int_or(it->value, "id", 0); id != 0) ids.insert(id);
    }
  }
}

}  // namespace

HttpResponse InteractionsModule::admin_submit_modal(const RouteContext& context) {
  const Application* app = state_.find_application(context.params.at("app_id"));
  if (app == nullptr) return unknown_application();
  const auto found = interactions_.find(context.params.at("interaction_id"));
  if (found == interactions_.end() || found->second.app_id != app->id || !found->second.modal_json) {
    return error_response(404, 10062, "Unknown interaction");
  }
  const Interaction& opener = found->second;
  rapidjson::Document body;
  if (auto error = read_optional_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto locale = fields.string("locale", false).value_or(opener.locale);
  static const Value kNone(rapidjson::kObjectType);
  const auto* given_values = fields.value("values", false);
  const auto* given_files = fields.value("attachments", false);
  if (given_values != nullptr && !given_values->IsObject())
    fields.add_issue("values", field_issue("MODEL_TYPE_CONVERT", "Must be an object"));
  if (given_files != nullptr && !given_files->IsObject())
    fields.add_issue("attachments", field_issue("MODEL_TYPE_CONVERT", "Must be an object"));
  if (!errors.empty()) return invalid_form_body(errors);
  const Value& values = given_values != nullptr ? *given_values : kNone;
  const Value& files = given_files != nullptr ? *given_files : kNone;
  const User* user = state_.find_user(opener.user_id);
  if (user == nullptr) return unknown_user();
  auto placed = place_of(*app, *user, opener.channel_id);
  if (auto* refused = std::get_if<HttpResponse>(&placed)) return std::move(*refused);
  auto place = std::get<Place>(placed);
  place.guild_installed = opener.guild_installed;
  place.user_installed = opener.user_installed;

  rapidjson::Document modal;
  parse_stored_json(*opener.modal_json, modal);
  const Value& components = modal["components"];
  std::set<int> taken;
  collect_ids(components, taken);
  int next_id = 1;
  const auto id_of = [&](const Value& component) {
    if (const int id = int_or(component, "id", 0); id != 0) return id;
    while (taken.contains(next_id))
      ++next_id;
    taken.insert(next_id);
    return next_id;
  };
  std::vector<std::pair<std::string, std::string>> attachments;  // id -> object JSON
  std::set<std::string, std::less<>> fields_of_modal;            // the custom_ids of its inputs

  // One interactive component's submitted value(s).
  const auto write_input = [&](JsonWriter& writer, const Value& input) {
    const int type = int_or(input, "type", 0);
    const auto custom_id = custom_id_of(input);
    fields_of_modal.insert(custom_id);
    const std::vector<std::string> at{"values", custom_id};
    const auto given = values.FindMember(custom_id.c_str());
    const Value* value = given != values.MemberEnd() ? &given->value : nullptr;
    writer.StartObject();
    writer.Key("type");
    writer.Int(type);
    writer.Key("id");
    writer.Int(id_of(input));
    writer.Key("custom_id");
    write_string(writer, custom_id);
    switch (type) {
      case 4: {  // Text Input: required by default; its length within min_length..max_length
        const std::string text = value != nullptr && value->IsString() ? value->GetString() : std::string();
        if (value != nullptr && !value->IsString())
          errors.add(at, field_issue("BASE_TYPE_STRING", "Must be a string"));
        const auto length = utf8_length(text);
        const bool required = bool_or(input, "required", true);
        if (required && length == 0) errors.add(at, required_field_issue());
        const auto min = static_cast<std::size_t>(int_or(input, "min_length", 0));
        const auto max = static_cast<std::size_t>(int_or(input, "max_length", 4000));
        if (length != 0 && (length < min || length > max)) errors.add(at, length_issue(min, max));
        writer.Key("value");
        write_string(writer, text);
        break;
      }
      case 21: {  // Radio Group: one option's value, or null; required by default
        if (value != nullptr && !value->IsNull() && (!value->IsString() || !option_known(input, *value))) {
          errors.add(at, field_issue("SELECT_VALUE_UNKNOWN", "Not one of the group's options"));
        }
        if ((value == nullptr || value->IsNull()) && bool_or(input, "required", true)) {
          errors.add(at, required_field_issue());
        }
        writer.Key("value");
        if (value != nullptr && value->IsString()) {
          write_string(writer, value->GetString());
        } else {
          writer.Null();
        }
        break;
      }
      case 23: {  // Checkbox: checked or not (never required)
        if (value != nullptr && !value->IsBool())
          errors.add(at, field_issue("BASE_TYPE_BOOLEAN", "Must be a boolean"));
        writer.Key("value");
        writer.Bool(value != nullptr && value->IsBool() ? value->GetBool()
                                                        : bool_or(input, "default", false));
        break;
      }
      case 19: {  // File Upload: 0..10 files within min_values..max_values, each within the upload limit
        const auto listed = files.FindMember(custom_id.c_str());
        const Value* uploads =
            listed != files.MemberEnd() && listed->value.IsArray() ? &listed->value : nullptr;
        const int count = uploads != nullptr ? static_cast<int>(uploads->Size()) : 0;
        const bool required = bool_or(input, "required", true);
        const int min = int_or(input, "min_values", required ? 1 : 0);
        const int max = int_or(input, "max_values", 1);
        const std::vector<std::string> file_at{"attachments", custom_id};
        if (count < min || count > max) {
          errors.add(file_at,
                     field_issue("BASE_TYPE_BAD_LENGTH", "Must be between " + std::to_string(min) + " and " +
                                                             std::to_string(max) + " in length."));
        }
        writer.Key("values");
        writer.StartArray();
        for (int i = 0; uploads != nullptr && i < count; ++i) {
          const auto& upload = (*uploads)[static_cast<rapidjson::SizeType>(i)];
          const auto size = upload.IsObject() && upload.HasMember("size") && upload["size"].IsInt64()
                                ? upload["size"].GetInt64()
                                : -1;
          if (!upload.IsObject() || !upload.HasMember("filename") || !upload["filename"].IsString() ||
              size < 0) {
            errors.add({"attachments", custom_id, std::to_string(i)},
                       field_issue("ATTACHMENT_INVALID", "Needs a filename and a size in bytes"));
            continue;
          }
          if (size > attachment_size_limit(*user)) {
            errors.add({"attachments", custom_id, std::to_string(i), "size"},
                       field_issue("ATTACHMENT_TOO_LARGE", "Larger than the user's upload limit here"));
          }
          const auto id = snowflakes_.next_string();
          write_string(writer, id);
          const std::string filename = upload["filename"].GetString();
          const auto url = "https://" + endpoints_.cdn_host + "/ephemeral-attachments/" + id + "/" + filename;
          attachments.emplace_back(
              id, to_json([&](JsonWriter& w) {
                w.StartObject();
                w.Key("id");
                write_string(w, id);
                w.Key("filename");
                write_string(w, filename);
                if (upload.HasMember("content_type") && upload["content_type"].IsString()) {
                  w.Key("content_type");
                  write_string(w, upload["content_type"].GetString());
                }
                w.Key("size");
                w.Int64(size);
                w.Key("url");
                write_string(w, url);
                w.Key("proxy_url");
                write_string(w, url);
                w.Key("ephemeral");
                w.Bool(true);
                w.EndObject();
              }));
        }
        writer.EndArray();
        break;
      }
      default: {  // the selects (3, 5..8) and Checkbox Group (22): values within min_values..max_values
        const bool required = bool_or(input, "required", true);  // String Select: true by default in modals
        std::vector<std::string> chosen;
        if (value != nullptr) {
          if (!value->IsArray()) {
            errors.add(at, field_issue("BASE_TYPE_ARRAY", "Must be an array"));
          } else {
            for (const auto& item : value->GetArray()) {
              if (!item.IsString() || ((type == 3 || type == 22) && !option_known(input, item))) {
                errors.add(at, field_issue("SELECT_VALUE_UNKNOWN", "Not one of the options"));
                continue;
              }
              chosen.emplace_back(item.GetString());
            }
          }
        }
        const int count = static_cast<int>(chosen.size());
        const int min = int_or(input, "min_values", required ? 1 : 0);
        const int max = int_or(input, "max_values", type == 22 ? 10 : 1);
        if ((count != 0 || required) && (count < min || count > max)) {
          errors.add(at,
                     field_issue("BASE_TYPE_BAD_LENGTH", "Must be between " + std::to_string(min) + " and " +
                                                             std::to_string(max) + " in length."));
        }
        writer.Key("values");
        writer.StartArray();
        for (const auto& item : chosen)
          write_string(writer, item);
        writer.EndArray();
        break;
      }
    }
    writer.EndObject();
  };

  const auto submitted = to_json([&](JsonWriter& writer) {
    writer.StartArray();
    for (const auto& component : components.GetArray()) {
      const int type = int_or(component, "type", 0);
      writer.StartObject();
      writer.Key("type");
      writer.Int(type);
      writer.Key("id");
      writer.Int(id_of(component));
      if (type == 18 && component.HasMember("component") && component["component"].IsObject()) {
        writer.Key("component");
        write_input(writer, component["component"]);
      } else if (type == 1 && component.HasMember("components") && component["components"].IsArray()) {
        writer.Key("components");  // the deprecated action row of text inputs
        writer.StartArray();
        for (const auto& input : component["components"].GetArray())
          write_input(writer, input);
        writer.EndArray();
      }
      writer.EndObject();
    }
    writer.EndArray();
  });
  // Values for custom_ids the modal does not have: the client could not have sent them.
  for (const auto& member : values.GetObject()) {
    if (!fields_of_modal.contains(std::string_view(member.name.GetString(), member.name.GetStringLength()))) {
      errors.add({"values", member.name.GetString()},
                 field_issue("COMPONENT_UNKNOWN", "The modal has no such field"));
    }
  }
  if (!errors.empty()) return invalid_form_body(errors);

  auto interaction = new_interaction(*app, *user, place, interaction_type::kModalSubmit, locale);
  interaction.triggering_interaction_id = opener.id;
  interaction.source_message_id = opener.source_message_id;
  rapidjson::Document opened;
  parse_stored_json(*opener.modal_json, opened);
  const auto data = to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("custom_id");
    write_string(writer, opened["custom_id"].GetString());
    writer.Key("components");
    write_raw(writer, submitted, rapidjson::kArrayType);
    if (!attachments.empty()) {
      writer.Key("resolved");
      writer.StartObject();
      writer.Key("attachments");
      writer.StartObject();
      for (const auto& [id, json] : attachments) {
        writer.Key(id.c_str(), static_cast<rapidjson::SizeType>(id.size()));
        write_raw(writer, json, rapidjson::kObjectType);
      }
      writer.EndObject();
      writer.EndObject();
    }
    writer.EndObject();
  });
  std::optional<std::string> message_json;
  if (interaction.source_message_id) {
    if (const auto* message =
            messaging_.find_channel_message(interaction.channel_id, *interaction.source_message_id))
      message_json = messaging_.api_message_json(*message);
  }
  auto payload = payload_json(interaction, place, data, message_json);
  return deliver(std::move(interaction), std::move(payload));
}

}  // namespace platformpp::emulator
