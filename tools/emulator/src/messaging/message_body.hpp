// The full message object's request side, shared by every route that makes or edits one: Create and Edit
// Message in channels (channel_message_routes.cpp), interaction responses and follow-ups (interactions/). A
// body is JSON, or multipart/form-data with `payload_json` and `files[n]`; its content, embeds, components,
// flags and attachments are checked as the platform checks them and applied to a Message.
#pragma once

#include <rapidjson/document.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "core/api_error.hpp"
#include "core/http_message.hpp"
#include "core/multipart_form.hpp"
#include "messaging/message_state.hpp"

namespace platformpp::emulator {

namespace message_flag {
inline constexpr int kSuppressEmbeds = 1 << 2;
inline constexpr int kSuppressNotifications = 1 << 12;
inline constexpr int kIsVoiceMessage = 1 << 13;
inline constexpr int kHasSnapshot = 1 << 14;
inline constexpr int kIsComponentsV2 = 1 << 15;
// What Create Message may set (EPHEMERAL is an interaction response's only).
inline constexpr int kSettableOnCreate =
    kSuppressEmbeds | kSuppressNotifications | kIsVoiceMessage | kIsComponentsV2;
// What an interaction response or follow-up may set.
inline constexpr int kSettableOnResponse =
    kSuppressEmbeds | kMessageFlagEphemeral | kSuppressNotifications | kIsComponentsV2;
}  // namespace message_flag

namespace message_limit {
inline constexpr std::size_t kContent = 2000;
inline constexpr std::size_t kEmbeds = 10;
inline constexpr std::size_t kAttachments = 10;
inline constexpr std::int64_t kDefaultUploadBytes = 10LL * 1024 * 1024;
}  // namespace message_limit

// A message body as the routes take it.
struct MessageBody {
  rapidjson::Document payload;
  std::map<std::size_t, MultipartPart> files;  // by n of files[n]
};

// Reads JSON or multipart/form-data (payload_json and files[n]; other parts ignored, as the platform does);
// the error to answer if the body is neither.
std::optional<HttpResponse> read_message_body(const HttpRequest& request, MessageBody& body);

// The embed limits: 10 embeds, 25 fields each, and the platform's lengths (title 256, description 4096,
// field name 256 and value 1024, footer 2048, author 256, 6000 in all).
void check_embeds(const rapidjson::Value& embeds, FieldErrors& errors);

// How one route applies a body to a message.
struct MessageFieldRules {
  int settable_flags = message_flag::kSettableOnCreate;
  // On an edit, the flags of the kept message that stay whatever the body says (an interaction response's
  // ephemerality and loading state; for Edit Message, every flag it may not set).
  int kept_flags = kMessageFlagEphemeral | kMessageFlagLoading;
  // Whether flags outside `settable_flags` are ignored (Edit Message) rather than refused.
  bool ignore_unsettable_flags = false;
  std::int64_t upload_limit = message_limit::kDefaultUploadBytes;  // bytes per file
  std::function<std::string()> next_id;                            // ids of new attachments
  // The component rules for the message as it will be (its flags choose the surface).
  std::function<void(const Message&, FieldErrors&)> check_components;
  // Whether a message with nothing to show is acceptable (a forward; any edit).
  bool allow_empty = false;
};

// Applies content, embeds, components, flags and attachments of `body` (with the uploaded `files`) to
// `message`: a new one, or a kept one when `editing` (its attachments are kept unless `attachments` lists
// which stay; its ephemerality and IS_COMPONENTS_V2 never go). Field errors go to `errors`; `refused` is set
// for an answer that is not a 50035 (a file over the upload limit: 413). False if either happened.
bool apply_message_fields(const rapidjson::Value& body, const std::map<std::size_t, MultipartPart>& files,
                          bool editing, const MessageFieldRules& rules, Message& message, FieldErrors& errors,
                          std::optional<HttpResponse>& refused);

// The message object (API JSON) as an application without the MESSAGE_CONTENT intent reads another's:
// content, embeds, attachments and components emptied, in its forwarded snapshots too.
std::string without_content(std::string_view message_json);

}  // namespace platformpp::emulator
