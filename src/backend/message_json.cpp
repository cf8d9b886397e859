#include "backend/message_json.hpp"

#include "backend/component_json.hpp"
#include "core/utf8.hpp"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <exception>
#include <string_view>

namespace platformpp::backend {
namespace {

using Allocator = json::Document::AllocatorType;

constexpr std::size_t kContentMax = 2000;
constexpr std::size_t kEmbedsMax = 10;
constexpr std::size_t kEmbedFieldsMax = 25;
constexpr std::size_t kEmbedTitleMax = 256;
constexpr std::size_t kEmbedDescriptionMax = 4096;
constexpr std::size_t kFieldNameMax = 256;
constexpr std::size_t kFieldValueMax = 1024;
constexpr std::size_t kFooterMax = 2048;
constexpr std::size_t kAuthorMax = 256;
constexpr std::size_t kEmbedsTotalMax = 6000;
constexpr std::size_t kFilesMax = 10;
constexpr std::size_t kAttachmentDescriptionMax = 1024;
constexpr std::size_t kFileNameMax = 1024;
constexpr std::size_t kMentionIdsMax = 100;
constexpr uint32_t kColorMax = 0xFFFFFF;
constexpr std::size_t kNonceMax = 25;

uint64_t Unsigned(const json::Value& object, std::string_view name) {
  const json::Value* value = json::Member(object, name);
  return value && value->IsUint64() ? value->GetUint64() : 0;
}

// Collects the broken rules of one payload.
class MessageChecker {
 public:
  explicit MessageChecker(std::vector<FieldError>& errors) : errors_(errors) {}

  void Fail(const std::string& path, const char* code, const std::string& message) {
    errors_.push_back(FieldError{path, code, path + ": " + message});
  }
  // At most `max` characters (code points); returns the count (0 when not UTF-8).
  std::size_t AtMost(const std::string& path, const std::string& text, std::size_t max) {
    auto count = core::CountCodePoints(text);
    if (!count) {
      Fail(path, "BASE_TYPE_BAD_UTF8", "must be valid UTF-8");
      return 0;
    }
    if (*count > max)
      Fail(path, "BASE_TYPE_MAX_LENGTH", "must be " + std::to_string(max) + " or fewer in length");
    return *count;
  }
  std::size_t Between(const std::string& path, const std::string& text, std::size_t max) {
    if (text.empty()) {
      Fail(path, "BASE_TYPE_REQUIRED", "must not be empty");
      return 0;
    }
    return AtMost(path, text, max);
  }

  void Embed(const std::string& at, const backend::Embed& embed, std::size_t& total) {
    if (embed.title) total += AtMost(at + ".title", *embed.title, kEmbedTitleMax);
    if (embed.description) total += AtMost(at + ".description", *embed.description, kEmbedDescriptionMax);
    if (embed.color && *embed.color > kColorMax)
      Fail(at + ".color", "NUMBER_TYPE_MAX", "must be 0 to 0xFFFFFF (RGB)");
    if (embed.footer) total += Between(at + ".footer.text", embed.footer->text, kFooterMax);
    if (embed.author) total += Between(at + ".author.name", embed.author->name, kAuthorMax);
    if (embed.fields.size() > kEmbedFieldsMax)
      Fail(at + ".fields", "BASE_TYPE_MAX_LENGTH", "must be 25 or fewer in length");
    for (std::size_t i = 0; i < embed.fields.size(); ++i) {
      const std::string path = at + ".fields." + std::to_string(i);
      total += Between(path + ".name", embed.fields[i].name, kFieldNameMax);
      total += Between(path + ".value", embed.fields[i].value, kFieldValueMax);
    }
  }

  void Mentions(const AllowedMentions& mentions) {
    bool users = false;
    bool roles = false;
    for (std::size_t i = 0; i < mentions.parse.size(); ++i) {
      const std::string& kind = mentions.parse[i];
      users = users || kind == "users";
      roles = roles || kind == "roles";
      if (kind != "users" && kind != "roles" && kind != "everyone")
        Fail("allowed_mentions.parse." + std::to_string(i), "BASE_TYPE_CHOICES",
             "must be one of roles, users, everyone");
    }
    if (mentions.users.size() > kMentionIdsMax)
      Fail("allowed_mentions.users", "BASE_TYPE_MAX_LENGTH", "must be 100 or fewer in length");
    if (mentions.roles.size() > kMentionIdsMax)
      Fail("allowed_mentions.roles", "BASE_TYPE_MAX_LENGTH", "must be 100 or fewer in length");
    if (users && !mentions.users.empty())
      Fail("allowed_mentions.users", "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
           "\"users\" in parse and a users list are mutually exclusive");
    if (roles && !mentions.roles.empty())
      Fail("allowed_mentions.roles", "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
           "\"roles\" in parse and a roles list are mutually exclusive");
  }

  void Reference(const MessageReference& reference) {
    const bool forward = reference.type == MessageReferenceType::Forward;
    if (!forward && reference.type != MessageReferenceType::Default)
      Fail("message_reference.type", "BASE_TYPE_CHOICES", "must be DEFAULT (0) or FORWARD (1)");
    if (!reference.messageId || *reference.messageId == 0)
      Fail("message_reference.message_id", "BASE_TYPE_REQUIRED", "must be the referenced message's id");
    // A reply may leave the channel out (the platform takes the reply's own); a forward may not.
    if (forward ? !reference.channelId || *reference.channelId == 0
                : reference.channelId && *reference.channelId == 0)
      Fail("message_reference.channel_id", "BASE_TYPE_REQUIRED",
           forward ? "a forward must name the forwarded message's channel" : "must not be 0");
    if (reference.guildId && *reference.guildId == 0)
      Fail("message_reference.guild_id", "BASE_TYPE_REQUIRED", "must not be 0");
  }

  void File(const std::string& at, const FileUpload& file) {
    if (file.name.empty() || file.name.size() > kFileNameMax) {
      Fail(at + ".filename", "BASE_TYPE_BAD_LENGTH", "must be 1 to 1024 bytes");
    } else if (file.name.find_first_of("/\\") != std::string::npos ||
               std::any_of(file.name.begin(), file.name.end(),
                           [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; })) {
      Fail(at + ".filename", "BASE_TYPE_INVALID", "must hold no '/', '\\' or control character");
    } else if (!core::CountCodePoints(file.name)) {
      Fail(at + ".filename", "BASE_TYPE_BAD_UTF8", "must be valid UTF-8");
    }
    AtMost(at + ".description", file.description, kAttachmentDescriptionMax);
  }

 private:
  std::vector<FieldError>& errors_;
};

json::Value EmbedValue(const Embed& embed, Allocator& a) {
  json::Value object(rapidjson::kObjectType);
  if (embed.title) object.AddMember("title", json::StringValue(*embed.title, a), a);
  if (embed.description) object.AddMember("description", json::StringValue(*embed.description, a), a);
  if (embed.url) object.AddMember("url", json::StringValue(*embed.url, a), a);
  if (embed.timestamp) object.AddMember("timestamp", json::StringValue(*embed.timestamp, a), a);
  if (embed.color) object.AddMember("color", *embed.color, a);
  if (embed.footer) {
    json::Value footer(rapidjson::kObjectType);
    footer.AddMember("text", json::StringValue(embed.footer->text, a), a);
    if (!embed.footer->iconUrl.empty())
      footer.AddMember("icon_url", json::StringValue(embed.footer->iconUrl, a), a);
    object.AddMember("footer", footer, a);
  }
  const auto media = [&](const char* name, const std::optional<std::string>& url) {
    if (!url) return;
    json::Value item(rapidjson::kObjectType);
    item.AddMember("url", json::StringValue(*url, a), a);
    object.AddMember(json::Value(name, a), item, a);
  };
  media("image", embed.imageUrl);
  media("thumbnail", embed.thumbnailUrl);
  if (embed.author) {
    json::Value author(rapidjson::kObjectType);
    author.AddMember("name", json::StringValue(embed.author->name, a), a);
    if (!embed.author->url.empty()) author.AddMember("url", json::StringValue(embed.author->url, a), a);
    if (!embed.author->iconUrl.empty())
      author.AddMember("icon_url", json::StringValue(embed.author->iconUrl, a), a);
    object.AddMember("author", author, a);
  }
  if (!embed.fields.empty()) {
    json::Value fields(rapidjson::kArrayType);
    for (const auto& field : embed.fields) {
      json::Value item(rapidjson::kObjectType);
      item.AddMember("name", json::StringValue(field.name, a), a);
      item.AddMember("value", json::StringValue(field.value, a), a);
      if (field.inlined) item.AddMember("inline", true, a);
      fields.PushBack(item, a);
    }
    object.AddMember("fields", fields, a);
  }
  return object;
}

json::Value IdList(const std::vector<uint64_t>& ids, Allocator& a) {
  json::Value list(rapidjson::kArrayType);
  for (uint64_t id : ids)
    list.PushBack(json::StringValue(std::to_string(id), a), a);
  return list;
}

std::string RandomBoundary() {
  if (sodium_init() < 0) std::terminate();  // libsodium cannot work at all: nothing the SDK can recover from
  std::array<unsigned char, 16> random{};
  randombytes_buf(random.data(), random.size());
  std::array<char, 2 * 16 + 1> hex{};
  sodium_bin2hex(hex.data(), hex.size(), random.data(), random.size());
  return std::string("platformpp-") + hex.data();
}

// A form field name or file name inside a quoted Content-Disposition parameter.
std::string Quoted(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\r' || c == '\n') continue;
    out += c;
  }
  return out;
}

std::vector<Attachment> Attachments(const json::Value& object) {
  std::vector<Attachment> list;
  if (const json::Value* items = json::ArrayMember(object, "attachments")) {
    for (const json::Value& item : items->GetArray())
      if (auto attachment = ParseAttachment(item)) list.push_back(std::move(*attachment));
  }
  return list;
}

std::vector<Embed> Embeds(const json::Value& object) {
  std::vector<Embed> list;
  if (const json::Value* items = json::ArrayMember(object, "embeds")) {
    for (const json::Value& item : items->GetArray())
      if (auto embed = ParseEmbed(item)) list.push_back(std::move(*embed));
  }
  return list;
}

std::optional<MessageInteractionMetadata> ParseInteractionMetadata(const json::Value& value) {
  auto id = json::GetSnowflake(value, "id");
  if (!value.IsObject() || !id) return std::nullopt;
  MessageInteractionMetadata metadata;
  metadata.id = *id;
  metadata.type = json::GetInt32(value, "type").value_or(0);
  if (const json::Value* user = json::Member(value, "user"))
    if (auto parsed = ParseUser(*user)) metadata.user = std::move(*parsed);
  metadata.name = json::GetText(value, "name");
  metadata.interactedMessageId = json::GetSnowflake(value, "interacted_message_id");
  metadata.originalResponseMessageId = json::GetSnowflake(value, "original_response_message_id");
  metadata.rawJson = json::Serialize(value);
  return metadata;
}

std::optional<MessageReference> ParseReference(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  MessageReference reference;
  reference.type = static_cast<MessageReferenceType>(json::GetInt32(value, "type").value_or(0));
  reference.messageId = json::GetSnowflake(value, "message_id");
  reference.channelId = json::GetSnowflake(value, "channel_id");
  reference.guildId = json::GetSnowflake(value, "guild_id");
  reference.failIfNotExists = json::GetBool(value, "fail_if_not_exists");
  return reference;
}

// `nonce` is a string or an integer on the wire; either reads as text.
std::optional<std::string> Nonce(const json::Value& object) {
  const json::Value* value = json::Member(object, "nonce");
  if (value == nullptr) return std::nullopt;
  if (value->IsString()) return std::string(value->GetString(), value->GetStringLength());
  if (value->IsUint64()) return std::to_string(value->GetUint64());
  if (value->IsInt64()) return std::to_string(value->GetInt64());
  return std::nullopt;
}

std::vector<MessageSnapshot> Snapshots(const json::Value& object) {
  std::vector<MessageSnapshot> list;
  const json::Value* items = json::ArrayMember(object, "message_snapshots");
  if (!items) return list;
  for (const json::Value& item : items->GetArray()) {
    const json::Value* message = item.IsObject() ? json::Member(item, "message") : nullptr;
    if (!message || !message->IsObject()) continue;
    MessageSnapshot snapshot;
    snapshot.type = json::GetInt32(*message, "type").value_or(0);
    snapshot.content = json::GetText(*message, "content");
    snapshot.embeds = Embeds(*message);
    snapshot.attachments = Attachments(*message);
    snapshot.timestamp = json::GetText(*message, "timestamp");
    snapshot.editedTimestamp = json::GetOptionalText(*message, "edited_timestamp");
    snapshot.flags = Unsigned(*message, "flags");
    if (const json::Value* components = json::Member(*message, "components"))
      snapshot.components = ParseComponents(*components);
    snapshot.rawJson = json::Serialize(*message);
    list.push_back(std::move(snapshot));
  }
  return list;
}

}  // namespace

std::vector<FieldError> CheckMessagePayload(const MessagePayload& payload, MessagePayloadUse use,
                                            bool interaction, std::optional<uint64_t> maxFileBytes) {
  std::vector<FieldError> errors;
  MessageChecker check(errors);
  const uint64_t flags = payload.flags.value_or(0);
  const bool v2 = (flags & message_flags::IsComponentsV2) != 0;
  uint64_t allowed = message_flags::SuppressEmbeds | message_flags::SuppressNotifications |
                     message_flags::IsComponentsV2 | message_flags::IsVoiceMessage;
  if (interaction) allowed |= message_flags::Ephemeral;
  if ((flags & ~allowed) != 0) {
    check.Fail("flags", "MESSAGE_FLAGS_INVALID",
               interaction ? "only SUPPRESS_EMBEDS, EPHEMERAL, SUPPRESS_NOTIFICATIONS, IS_COMPONENTS_V2 and "
                             "IS_VOICE_MESSAGE may be set"
                           : "only SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, IS_COMPONENTS_V2 and "
                             "IS_VOICE_MESSAGE may be set");
  }
  // nonce, enforce_nonce and message_reference belong to Create Message alone: the webhook routes and edits
  // would drop them silently, so they are refused rather than lost.
  const char* notHere = interaction ? "not accepted on interaction responses and follow-ups"
                        : use == MessagePayloadUse::Edit ? "not accepted on an edit"
                                                         : nullptr;
  if (notHere != nullptr) {
    if (payload.nonce) check.Fail("nonce", "BASE_TYPE_INVALID", notHere);
    if (payload.enforceNonce) check.Fail("enforce_nonce", "BASE_TYPE_INVALID", notHere);
    if (payload.messageReference) check.Fail("message_reference", "BASE_TYPE_INVALID", notHere);
  } else {
    if (payload.nonce) check.AtMost("nonce", *payload.nonce, kNonceMax);
    if (payload.enforceNonce && !payload.nonce)
      check.Fail("enforce_nonce", "BASE_TYPE_REQUIRED", "needs a nonce to enforce");
    if (payload.messageReference) check.Reference(*payload.messageReference);
  }
  const bool forward = notHere == nullptr && payload.messageReference &&
                       payload.messageReference->type == MessageReferenceType::Forward;
  if (forward) {
    // The forwarded snapshot is the whole message: anything of its own to show is refused.
    constexpr const char* kOnly = "a forward carries only its message_reference";
    if (payload.content && !payload.content->empty()) check.Fail("content", "BASE_TYPE_INVALID", kOnly);
    if (payload.embeds && !payload.embeds->empty()) check.Fail("embeds", "BASE_TYPE_INVALID", kOnly);
    if (payload.components && !payload.components->empty())
      check.Fail("components", "BASE_TYPE_INVALID", kOnly);
    if (!payload.files.empty()) check.Fail("attachments", "BASE_TYPE_INVALID", kOnly);
    if (payload.tts) check.Fail("tts", "BASE_TYPE_INVALID", kOnly);
    if ((flags & (message_flags::IsComponentsV2 | message_flags::IsVoiceMessage)) != 0)
      check.Fail("flags", "MESSAGE_FLAGS_INVALID",
                 "IS_COMPONENTS_V2 and IS_VOICE_MESSAGE: " + std::string(kOnly));
  }
  if (payload.content) check.AtMost("content", *payload.content, kContentMax);
  if (v2 && payload.content && !payload.content->empty())
    check.Fail("content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
               "refused with IS_COMPONENTS_V2: put the text in a Text Display");
  if (payload.embeds) {
    const auto& embeds = *payload.embeds;
    if (v2 && !embeds.empty())
      check.Fail("embeds", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                 "refused with IS_COMPONENTS_V2");
    if (embeds.size() > kEmbedsMax)
      check.Fail("embeds", "BASE_TYPE_MAX_LENGTH", "must be 10 or fewer in length");
    std::size_t total = 0;
    for (std::size_t i = 0; i < embeds.size(); ++i)
      check.Embed("embeds." + std::to_string(i), embeds[i], total);
    if (total > kEmbedsTotalMax)
      check.Fail("embeds", "MAX_EMBED_SIZE_EXCEEDED",
                 "the embeds' text is " + std::to_string(total) + " characters; at most 6000 together");
  }
  if (payload.allowedMentions) check.Mentions(*payload.allowedMentions);
  if (payload.components) {
    // (CheckComponents names its paths from "components".)
    for (auto& error :
         CheckComponents(*payload.components, v2 ? ComponentSurface::MessageV2 : ComponentSurface::Message))
      errors.push_back(std::move(error));
  }
  const std::size_t kept = payload.keptAttachments ? payload.keptAttachments->size() : 0;
  if (payload.files.size() + kept > kFilesMax)
    check.Fail("attachments", "BASE_TYPE_MAX_LENGTH", "at most 10 files in a message");
  for (std::size_t i = 0; i < payload.files.size(); ++i) {
    check.File("files." + std::to_string(i), payload.files[i]);
    if (maxFileBytes && payload.files[i].bytes.size() > *maxFileBytes)
      check.Fail("files." + std::to_string(i), "ATTACHMENT_TOO_LARGE",
                 std::to_string(payload.files[i].bytes.size()) + " bytes; at most " +
                     std::to_string(*maxFileBytes) + " per file here");
  }
  if (payload.keptAttachments) {
    for (std::size_t i = 0; i < payload.keptAttachments->size(); ++i) {
      const KeptAttachment& item = (*payload.keptAttachments)[i];
      const std::string path = "attachments." + std::to_string(i);
      if (item.id == 0) check.Fail(path + ".id", "BASE_TYPE_REQUIRED", "must not be 0");
      if (item.description) check.AtMost(path + ".description", *item.description, kAttachmentDescriptionMax);
    }
  }
  if (use == MessagePayloadUse::Create) {
    const bool text = !v2 && payload.content && !payload.content->empty();
    const bool embeds = !v2 && payload.embeds && !payload.embeds->empty();
    const bool components = payload.components && !payload.components->empty();
    if (!forward && !text && !embeds && !components && payload.files.empty())
      check.Fail("", "MESSAGE_EMPTY",
                 v2 ? "a message with IS_COMPONENTS_V2 needs components"
                    : "a message needs content, an embed, a component or a file, or must be a forward");
  }
  return errors;
}

std::string UploadName(const FileUpload& file) {
  constexpr std::string_view kPrefix = "SPOILER_";
  if (file.spoiler && file.name.compare(0, kPrefix.size(), kPrefix) != 0)
    return std::string(kPrefix) + file.name;
  return file.name;
}

json::Value MessagePayloadValue(const MessagePayload& payload, Allocator& a) {
  json::Value object(rapidjson::kObjectType);
  if (payload.content) object.AddMember("content", json::StringValue(*payload.content, a), a);
  if (payload.tts) object.AddMember("tts", true, a);
  if (payload.embeds) {
    json::Value embeds(rapidjson::kArrayType);
    for (const auto& embed : *payload.embeds)
      embeds.PushBack(EmbedValue(embed, a), a);
    object.AddMember("embeds", embeds, a);
  }
  if (payload.allowedMentions) {
    const AllowedMentions& mentions = *payload.allowedMentions;
    json::Value value(rapidjson::kObjectType);
    json::Value parse(rapidjson::kArrayType);
    for (const auto& kind : mentions.parse)
      parse.PushBack(json::StringValue(kind, a), a);
    value.AddMember("parse", parse, a);
    if (!mentions.roles.empty()) value.AddMember("roles", IdList(mentions.roles, a), a);
    if (!mentions.users.empty()) value.AddMember("users", IdList(mentions.users, a), a);
    if (mentions.repliedUser) value.AddMember("replied_user", true, a);
    object.AddMember("allowed_mentions", value, a);
  }
  if (payload.flags) object.AddMember("flags", *payload.flags, a);
  if (payload.components) object.AddMember("components", ComponentsValue(*payload.components, a), a);
  // The new files are `files[n]` parts; their attachment objects take the ids 0..n-1 (the platform matches
  // them by that id), after which the attachments kept by an edit are listed by their own ids.
  if (!payload.files.empty() || payload.keptAttachments) {
    json::Value attachments(rapidjson::kArrayType);
    for (std::size_t i = 0; i < payload.files.size(); ++i) {
      const FileUpload& file = payload.files[i];
      json::Value item(rapidjson::kObjectType);
      item.AddMember("id", static_cast<uint64_t>(i), a);
      item.AddMember("filename", json::StringValue(UploadName(file), a), a);
      if (!file.description.empty()) item.AddMember("description", json::StringValue(file.description, a), a);
      if (file.spoiler) item.AddMember("is_spoiler", true, a);
      attachments.PushBack(item, a);
    }
    if (payload.keptAttachments) {
      for (const KeptAttachment& kept : *payload.keptAttachments) {
        json::Value item(rapidjson::kObjectType);
        item.AddMember("id", json::StringValue(std::to_string(kept.id), a), a);
        if (kept.description) item.AddMember("description", json::StringValue(*kept.description, a), a);
        if (kept.spoiler) item.AddMember("is_spoiler", *kept.spoiler, a);
        attachments.PushBack(item, a);
      }
    }
    object.AddMember("attachments", attachments, a);
  }
  if (payload.nonce) object.AddMember("nonce", json::StringValue(*payload.nonce, a), a);
  if (payload.enforceNonce) object.AddMember("enforce_nonce", true, a);
  if (payload.messageReference) {
    const MessageReference& reference = *payload.messageReference;
    json::Value value(rapidjson::kObjectType);
    // The type is always sent: the platform reads an absent one as DEFAULT, and a forward needs it.
    value.AddMember("type", static_cast<int32_t>(reference.type), a);
    if (reference.messageId)
      value.AddMember("message_id", json::StringValue(std::to_string(*reference.messageId), a), a);
    if (reference.channelId)
      value.AddMember("channel_id", json::StringValue(std::to_string(*reference.channelId), a), a);
    if (reference.guildId)
      value.AddMember("guild_id", json::StringValue(std::to_string(*reference.guildId), a), a);
    if (reference.failIfNotExists) value.AddMember("fail_if_not_exists", *reference.failIfNotExists, a);
    object.AddMember("message_reference", value, a);
  }
  return object;
}

EncodedBody EncodeBody(std::string json, const std::vector<FileUpload>& files) {
  if (files.empty()) return EncodedBody{std::move(json), "application/json"};
  // A boundary that occurs in no part (random, so in practice the first one drawn).
  std::string boundary;
  const auto occurs = [&](const std::string& candidate) {
    if (json.find(candidate) != std::string::npos) return true;
    for (const FileUpload& file : files)
      if (file.bytes.find(candidate) != std::string::npos) return true;
    return false;
  };
  do {
    boundary = RandomBoundary();
  } while (occurs(boundary));
  std::string body;
  std::size_t size = json.size() + 256;
  for (const FileUpload& file : files)
    size += file.bytes.size() + file.name.size() + 256;
  body.reserve(size);
  body += "--" + boundary + "\r\n";
  body += "Content-Disposition: form-data; name=\"payload_json\"\r\n";
  body += "Content-Type: application/json\r\n\r\n";
  body += json;
  body += "\r\n";
  for (std::size_t i = 0; i < files.size(); ++i) {
    const FileUpload& file = files[i];
    body += "--" + boundary + "\r\n";
    body += "Content-Disposition: form-data; name=\"files[" + std::to_string(i) + "]\"; filename=\"" +
            Quoted(UploadName(file)) + "\"\r\n";
    body += "Content-Type: " +
            (file.contentType.empty() ? std::string("application/octet-stream") : Quoted(file.contentType)) +
            "\r\n\r\n";
    body += file.bytes;
    body += "\r\n";
  }
  body += "--" + boundary + "--\r\n";
  return EncodedBody{std::move(body), "multipart/form-data; boundary=" + boundary};
}

std::optional<User> ParseUser(const json::Value& value) {
  auto id = json::GetSnowflake(value, "id");
  if (!value.IsObject() || !id) return std::nullopt;
  User user;
  user.id = *id;
  user.username = json::GetText(value, "username");
  user.globalName = json::GetText(value, "global_name");
  user.avatar = json::GetText(value, "avatar");
  user.bot = json::GetBool(value, "bot").value_or(false);
  user.rawJson = json::Serialize(value);
  return user;
}

std::optional<Attachment> ParseAttachment(const json::Value& value) {
  auto id = json::GetSnowflake(value, "id");
  if (!value.IsObject() || !id) return std::nullopt;
  Attachment attachment;
  attachment.id = *id;
  attachment.filename = json::GetText(value, "filename");
  attachment.description = json::GetText(value, "description");
  attachment.contentType = json::GetText(value, "content_type");
  attachment.size = Unsigned(value, "size");
  attachment.url = json::GetText(value, "url");
  attachment.proxyUrl = json::GetText(value, "proxy_url");
  attachment.height = json::GetInt32(value, "height");
  attachment.width = json::GetInt32(value, "width");
  attachment.flags = Unsigned(value, "flags");
  attachment.ephemeral = json::GetBool(value, "ephemeral").value_or(false);
  attachment.rawJson = json::Serialize(value);
  return attachment;
}

std::optional<Embed> ParseEmbed(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  Embed embed;
  embed.title = json::GetOptionalText(value, "title");
  embed.description = json::GetOptionalText(value, "description");
  embed.url = json::GetOptionalText(value, "url");
  embed.timestamp = json::GetOptionalText(value, "timestamp");
  if (const json::Value* color = json::Member(value, "color"); color && color->IsUint())
    embed.color = color->GetUint();
  if (const json::Value* footer = json::Member(value, "footer"); footer && footer->IsObject())
    embed.footer = EmbedFooter{json::GetText(*footer, "text"), json::GetText(*footer, "icon_url")};
  if (const json::Value* image = json::Member(value, "image"); image && image->IsObject())
    embed.imageUrl = json::GetOptionalText(*image, "url");
  if (const json::Value* thumbnail = json::Member(value, "thumbnail"); thumbnail && thumbnail->IsObject())
    embed.thumbnailUrl = json::GetOptionalText(*thumbnail, "url");
  if (const json::Value* author = json::Member(value, "author"); author && author->IsObject())
    embed.author = EmbedAuthor{json::GetText(*author, "name"), json::GetText(*author, "url"),
                               json::GetText(*author, "icon_url")};
  if (const json::Value* fields = json::ArrayMember(value, "fields")) {
    for (const json::Value& field : fields->GetArray()) {
      if (!field.IsObject()) continue;
      embed.fields.push_back(EmbedField{json::GetText(field, "name"), json::GetText(field, "value"),
                                        json::GetBool(field, "inline").value_or(false)});
    }
  }
  embed.rawJson = json::Serialize(value);
  return embed;
}

std::optional<ChannelMessage> ParseMessage(const json::Value& value) {
  auto id = json::GetSnowflake(value, "id");
  if (!value.IsObject() || !id) return std::nullopt;
  ChannelMessage message;
  message.id = *id;
  message.channelId = json::GetSnowflake(value, "channel_id").value_or(0);
  if (const json::Value* author = json::Member(value, "author"))
    if (auto user = ParseUser(*author)) message.author = std::move(*user);
  message.content = json::GetText(value, "content");
  message.timestamp = json::GetText(value, "timestamp");
  message.editedTimestamp = json::GetOptionalText(value, "edited_timestamp");
  message.flags = Unsigned(value, "flags");
  message.type = json::GetInt32(value, "type").value_or(0);
  message.tts = json::GetBool(value, "tts").value_or(false);
  message.attachments = Attachments(value);
  message.embeds = Embeds(value);
  if (const json::Value* components = json::Member(value, "components"))
    message.components = ParseComponents(*components);
  message.applicationId = json::GetSnowflake(value, "application_id");
  message.webhookId = json::GetSnowflake(value, "webhook_id");
  if (const json::Value* metadata = json::Member(value, "interaction_metadata"))
    message.interactionMetadata = ParseInteractionMetadata(*metadata);
  if (const json::Value* reference = json::Member(value, "message_reference"))
    message.messageReference = ParseReference(*reference);
  message.messageSnapshots = Snapshots(value);
  message.nonce = Nonce(value);
  message.rawJson = json::Serialize(value);
  return message;
}

std::optional<ChannelMessage> ParseChannelMessage(std::string_view json) {
  try {
    json::Document document;
    if (!json::Parse(json, document)) return std::nullopt;
    return ParseMessage(document);
  } catch (const std::exception&) {
    return std::nullopt;  // out of memory on a huge document: not a message this process can hold
  }
}

}  // namespace platformpp::backend
