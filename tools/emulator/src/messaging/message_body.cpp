// The request side of the full message object (message_body.hpp).
#include "messaging/message_body.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <set>
#include <utility>
#include <vector>

#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/validation.hpp"

namespace platformpp::emulator {

namespace {

// The embed limits (the seed: 25 fields; the platform's docs for the rest).
constexpr std::size_t kEmbedFieldsMax = 25;
constexpr std::size_t kEmbedTitleMax = 256;
constexpr std::size_t kEmbedDescriptionMax = 4096;
constexpr std::size_t kEmbedFieldNameMax = 256;
constexpr std::size_t kEmbedFieldValueMax = 1024;
constexpr std::size_t kEmbedFooterMax = 2048;
constexpr std::size_t kEmbedAuthorMax = 256;
constexpr std::size_t kEmbedTotalMax = 6000;
constexpr std::size_t kAttachmentDescriptionMax = 1024;
constexpr int kEntityTooLarge = 40005;

using rapidjson::Value;

// Records the string member's length issue if it is longer than `max`; returns its length.
std::size_t check_text(const Value& object, const char* name, std::size_t max, FieldErrors& errors,
                       std::vector<std::string> path) {
  const auto it = object.FindMember(name);
  if (it == object.MemberEnd() || it->value.IsNull()) return 0;
  path.emplace_back(name);
  if (!it->value.IsString()) {
    errors.add(path, field_issue("BASE_TYPE_STRING", "Must be a string"));
    return 0;
  }
  const auto length = string_characters(it->value);
  if (length > max) errors.add(path, length_issue(0, max));
  return length;
}

}  // namespace

void check_embeds(const Value& embeds, FieldErrors& errors) {
  if (!embeds.IsArray()) {
    errors.add({"embeds"}, field_issue("BASE_TYPE_ARRAY", "Must be an array"));
    return;
  }
  if (embeds.Size() > message_limit::kEmbeds) errors.add({"embeds"}, length_issue(0, message_limit::kEmbeds));
  for (rapidjson::SizeType i = 0; i < embeds.Size(); ++i) {
    const std::vector<std::string> at{"embeds", std::to_string(i)};
    const auto& embed = embeds[i];
    if (!embed.IsObject()) {
      errors.add(at, field_issue("MODEL_TYPE_CONVERT", "Must be an object"));
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
        errors.add(path, field_issue("BASE_TYPE_ARRAY", "Must be an array"));
      } else {
        // The seed: at most 25 fields.
        if (fields->value.Size() > kEmbedFieldsMax) errors.add(path, length_issue(0, kEmbedFieldsMax));
        for (rapidjson::SizeType f = 0; f < fields->value.Size(); ++f) {
          auto field_path = path;
          field_path.push_back(std::to_string(f));
          const auto& field = fields->value[f];
          if (!field.IsObject()) {
            errors.add(field_path, field_issue("MODEL_TYPE_CONVERT", "Must be an object"));
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
      errors.add(at, field_issue("EMBED_TOO_LONG", "Embed size exceeds maximum size of 6000"));
    }
  }
}

namespace {

bool is_components_v2(int flags) {
  return (flags & message_flag::kIsComponentsV2) != 0;
}

// An application's embeds as the platform keeps them: each of type "rich", whatever the request said (the
// platform's docs: `type` cannot be set).
std::string rich_embeds(const Value& embeds) {
  rapidjson::Document copy;
  copy.CopyFrom(embeds, copy.GetAllocator());
  for (auto& embed : copy.GetArray()) {
    if (!embed.IsObject()) continue;
    embed.RemoveMember("type");
    embed.AddMember("type", "rich", copy.GetAllocator());
    if (const auto fields = embed.FindMember("fields");
        fields != embed.MemberEnd() && fields->value.IsArray()) {
      for (auto& field : fields->value.GetArray()) {
        if (field.IsObject() && !field.HasMember("inline"))
          field.AddMember("inline", false, copy.GetAllocator());
      }
    }
  }
  return json_text(copy);
}

// Visits the component, then what it holds: `components` (rows, sections, containers), `accessory` (a
// section's), `component` (a label's).
template <typename Visit>
void visit_component(Value& component, const Visit& visit) {
  if (!component.IsObject()) return;
  visit(component);
  if (const auto it = component.FindMember("components");
      it != component.MemberEnd() && it->value.IsArray()) {
    for (auto& child : it->value.GetArray())
      visit_component(child, visit);
  }
  for (const char* single : {"accessory", "component"}) {
    if (const auto it = component.FindMember(single); it != component.MemberEnd())
      visit_component(it->value, visit);
  }
}

// The components as the platform keeps them: each with an `id`, the ones sent without one (or with 0)
// numbered in order from 1, skipping the ids the message already uses (the platform's component docs).
std::string numbered_components(const Value& components) {
  rapidjson::Document copy;
  copy.CopyFrom(components, copy.GetAllocator());
  std::set<std::int64_t> used;
  for (auto& component : copy.GetArray()) {
    visit_component(component, [&](Value& c) {
      if (const auto it = c.FindMember("id");
          it != c.MemberEnd() && it->value.IsInt64() && it->value.GetInt64() != 0)
        used.insert(it->value.GetInt64());
    });
  }
  std::int64_t next = 1;
  for (auto& component : copy.GetArray()) {
    visit_component(component, [&](Value& c) {
      const auto it = c.FindMember("id");
      if (it != c.MemberEnd() && it->value.IsInt64() && it->value.GetInt64() != 0) return;
      while (used.contains(next))
        ++next;
      if (it != c.MemberEnd()) c.RemoveMember(it);
      c.AddMember("id", next, copy.GetAllocator());
      used.insert(next);
    });
  }
  return json_text(copy);
}

bool spoiler_name(std::string_view filename) {
  return filename.substr(0, 8) == "SPOILER_";
}

}  // namespace

std::optional<HttpResponse> read_message_body(const HttpRequest& request, MessageBody& body) {
  const auto content_type = request.header("Content-Type");
  if (content_type) {
    if (const auto boundary = multipart_boundary(*content_type)) {
      auto parts = parse_multipart_form(request.body, *boundary);
      if (!parts) return error_response(400, error_code::kInvalidFormBody, "Invalid multipart body");
      bool has_payload = false;
      for (auto& part : *parts) {
        if (part.name == "payload_json") {
          // parse_json: iterative, so that deeply nested input cannot exhaust the stack.
          if (!parse_json(part.body, body.payload) || !body.payload.IsObject()) {
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
          errors.add({std::string(name)}, field_issue("FILE_NAME_REQUIRED", "A file needs a filename"));
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

bool apply_message_fields(const Value& body, const std::map<std::size_t, MultipartPart>& files, bool editing,
                          const MessageFieldRules& rules, Message& message, FieldErrors& errors,
                          std::optional<HttpResponse>& refused) {
  BodyFields fields(body, errors);
  if (body.HasMember("content")) {
    if (body["content"].IsNull()) {
      message.content.clear();
    } else if (const auto content = fields.string("content", false)) {
      if (utf8_length(*content) > message_limit::kContent)
        fields.add_issue("content", length_issue(0, message_limit::kContent));
      message.content = *content;
    }
  }
  if (const auto* embeds = fields.value("embeds", false)) {
    check_embeds(*embeds, errors);
    if (embeds->IsArray()) message.embeds = rich_embeds(*embeds);
  } else if (body.HasMember("embeds") && body["embeds"].IsNull()) {
    message.embeds = "[]";
  }
  if (const auto* components = fields.value("components", false)) {
    if (!components->IsArray()) {
      fields.add_issue("components", field_issue("BASE_TYPE_ARRAY", "Must be an array"));
    } else {
      message.components = numbered_components(*components);
    }
  } else if (body.HasMember("components") && body["components"].IsNull()) {
    message.components = "[]";
  }
  if (const auto flags = fields.integer("flags", false, 0, std::numeric_limits<std::int32_t>::max())) {
    if ((*flags & ~rules.settable_flags) != 0 && !rules.ignore_unsettable_flags) {
      fields.add_issue("flags", field_issue("MESSAGE_FLAGS_INVALID", "Only some flags can be set"));
    }
    const int settable = static_cast<int>(*flags) & rules.settable_flags;
    if (editing) {
      // IS_COMPONENTS_V2 is never taken off; an interaction response's ephemerality never changes.
      if ((rules.settable_flags & message_flag::kIsComponentsV2) != 0 && is_components_v2(message.flags) &&
          !is_components_v2(settable)) {
        fields.add_issue("flags",
                         field_issue("MESSAGE_FLAGS_COMPONENTS_V2", "IS_COMPONENTS_V2 cannot be removed"));
      }
      message.flags = (message.flags & rules.kept_flags) | (settable & ~kMessageFlagEphemeral);
    } else {
      message.flags = settable;
    }
  }
  // A deferred response's placeholder stops loading with its first edit.
  message.flags &= ~kMessageFlagLoading;

  // Attachments: the uploads (files[n]) and, on an edit, the kept ones with their editable description and
  // is_spoiler; an edit's `attachments` lists every attachment that stays.
  const auto limit = rules.upload_limit;
  std::vector<MessageAttachment> attachments =
      editing ? message.attachments : std::vector<MessageAttachment>{};
  std::set<std::size_t> used_files;
  if (const auto* listed = fields.value("attachments", false)) {
    if (!listed->IsArray()) {
      fields.add_issue("attachments", field_issue("BASE_TYPE_ARRAY", "Must be an array"));
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
          attachment.id = rules.next_id();
          attachment.filename = *file.filename;
          attachment.content_type = file.content_type;
          attachment.size = static_cast<std::int64_t>(file.body.size());
          used_files.insert(n);
        } else {
          auto p = at;
          p.emplace_back("id");
          errors.add(
              p, field_issue("ATTACHMENT_NOT_FOUND", "Names neither a kept attachment nor an uploaded file"));
          continue;
        }
        if (entry.HasMember("filename") && entry["filename"].IsString() && existing == attachments.end())
          attachment.filename = entry["filename"].GetString();
        if (entry.HasMember("description")) {
          if (entry["description"].IsString()) {
            if (string_characters(entry["description"]) > kAttachmentDescriptionMax) {
              auto p = at;
              p.emplace_back("description");
              errors.add(p, length_issue(0, kAttachmentDescriptionMax));
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
    attachment.id = rules.next_id();
    attachment.filename = *file.filename;
    attachment.content_type = file.content_type;
    attachment.size = static_cast<std::int64_t>(file.body.size());
    attachments.push_back(std::move(attachment));
  }
  for (const auto& [n, file] : files) {
    if (static_cast<std::int64_t>(file.body.size()) > limit) {
      refused = error_response(413, kEntityTooLarge, "Request entity too large");
      return false;
    }
  }
  for (auto& attachment : attachments) {
    // The legacy prefix still marks a spoiler (the seed); not every spoiler has it.
    if (spoiler_name(attachment.filename)) attachment.flags |= kAttachmentFlagIsSpoiler;
  }
  if (attachments.size() > message_limit::kAttachments)
    fields.add_issue("attachments", length_issue(0, message_limit::kAttachments));
  message.attachments = std::move(attachments);

  // With IS_COMPONENTS_V2, content and embeds do not work (the seed): the platform refuses them.
  if (is_components_v2(message.flags)) {
    if (!message.content.empty()) {
      fields.add_issue(
          "content",
          field_issue("MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                      "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2"));
    }
    if (message.embeds != "[]") {
      fields.add_issue(
          "embeds",
          field_issue("MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                      "The 'embeds' field cannot be used when using MessageFlags.IS_COMPONENTS_V2"));
    }
    for (const char* disabled : {"poll", "sticker_ids"}) {
      if (body.HasMember(disabled) && !body[disabled].IsNull()) {
        fields.add_issue(disabled, field_issue("MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                                               "Disabled with MessageFlags.IS_COMPONENTS_V2"));
      }
    }
  }
  if (rules.check_components) rules.check_components(message, errors);
  if (!rules.allow_empty && !editing && message.content.empty() && message.embeds == "[]" &&
      message.components == "[]" && message.attachments.empty()) {
    errors.add({"content"}, field_issue("BASE_TYPE_REQUIRED", "Cannot send an empty message"));
  }
  return errors.empty();
}

std::string without_content(std::string_view message_json) {
  rapidjson::Document d;
  parse_stored_json(message_json, d);
  if (!d.IsObject()) return std::string(message_json);
  const auto empty = [](Value& message) {
    if (!message.IsObject()) return;
    if (const auto it = message.FindMember("content"); it != message.MemberEnd()) it->value.SetString("");
    for (const char* list : {"embeds", "attachments", "components"}) {
      if (const auto it = message.FindMember(list); it != message.MemberEnd()) it->value.SetArray();
    }
  };
  empty(d);
  if (const auto it = d.FindMember("message_snapshots"); it != d.MemberEnd() && it->value.IsArray()) {
    for (auto& snapshot : it->value.GetArray()) {
      if (snapshot.IsObject() && snapshot.HasMember("message")) empty(snapshot["message"]);
    }
  }
  return json_text(d);
}

}  // namespace platformpp::emulator
