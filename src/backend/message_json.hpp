#pragma once
// Messages on the wire: the body of a message the backend sends (MessagePayload, as JSON or as the
// multipart/form-data body that carries files), and the message object the platform answers with, read
// leniently (a field of the wrong type is left at its default, unknown fields stay in rawJson).

#include "json/json.hpp"

#include <platformpp/message_payload.hpp>

#include <optional>
#include <string>
#include <vector>

namespace platformpp::backend {

/// A request body and its Content-Type.
struct EncodedBody {
  std::string body;
  /// "application/json", or "multipart/form-data; boundary=..." when files are attached.
  std::string contentType;
};

/// The payload as a JSON object (the message fields; with `attachments` for the files and kept attachments).
json::Value MessagePayloadValue(const MessagePayload& payload, json::Document::AllocatorType& allocator);

/// `json` (an object's text) alone, or with `files` as multipart/form-data: `payload_json` then
/// `files[0]`, `files[1]`, ... (the ids the `attachments` array of the JSON gives them).
EncodedBody EncodeBody(std::string json, const std::vector<FileUpload>& files);

/// The name a file is sent under: `SPOILER_` prefixed to a spoiler's name (the platform's legacy marker, so
/// that readers that do not know `is_spoiler` blur it too).
std::string UploadName(const FileUpload& file);

/// Readers of the objects messages and interactions carry. Each returns nullopt when `value` is not an object
/// with a valid `id`.
std::optional<User> ParseUser(const json::Value& value);
std::optional<Attachment> ParseAttachment(const json::Value& value);
/// An embed; nullopt when `value` is not an object.
std::optional<Embed> ParseEmbed(const json::Value& value);
std::optional<ChannelMessage> ParseMessage(const json::Value& value);

}  // namespace platformpp::backend
