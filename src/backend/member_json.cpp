// Members on the wire (member_json.hpp) and the member checks. The reader is lenient as the other answer
// readers are: a wrong-typed field keeps its default rather than losing the member.
#include "backend/member_json.hpp"

#include "backend/message_json.hpp"
#include "core/utf8.hpp"
#include "json/timestamp.hpp"

#include <charconv>
#include <cstdint>
#include <exception>
#include <string_view>
#include <system_error>

namespace platformpp::backend {
namespace {

using Allocator = json::Document::AllocatorType;

// A snowflake as the wire carries it: a decimal string (or, from hand-written JSON, a number).
// A text field of at most `max` code points, as the platform counts. Empty text is sent as null (it clears
// the field), so only the upper bound applies to what reaches the wire as text.
void CheckLength(const std::string& text, const char* path, std::size_t max,
                 std::vector<FieldError>& errors) {
  auto length = core::CountCodePoints(text);
  if (!length) {
    errors.push_back(FieldError{path, "BASE_TYPE_INVALID", std::string(path) + ": must be valid UTF-8"});
  } else if (*length > max) {
    errors.push_back(
        FieldError{path, "BASE_TYPE_BAD_LENGTH",
                   std::string(path) + ": must be at most " + std::to_string(max) + " characters"});
  }
}

void CheckImage(const std::optional<std::string>& dataUri, const char* path,
                std::vector<FieldError>& errors) {
  if (dataUri && !dataUri->empty() && std::string_view(*dataUri).substr(0, 11) != "data:image/") {
    errors.push_back(
        FieldError{path, "IMAGE_INVALID",
                   std::string(path) + ": must be an image data URI (data:image/...;base64,...) or empty"});
  }
}

}  // namespace

std::optional<GuildMember> ParseGuildMemberValue(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  GuildMember member;
  if (const json::Value* user = json::Member(value, "user")) member.user = ParseUser(*user);
  member.nick = json::GetText(value, "nick");
  if (const json::Value* roles = json::Member(value, "roles"); roles != nullptr && roles->IsArray()) {
    // A role id the SDK cannot read is skipped, not the member.
    for (const json::Value& role : roles->GetArray())
      if (auto id = json::AsSnowflake(role)) member.roles.push_back(*id);
  }
  member.permissions = json::GetSnowflake(value, "permissions");
  member.joinedAt = json::GetText(value, "joined_at");
  member.avatar = json::GetText(value, "avatar");
  member.banner = json::GetText(value, "banner");
  member.bio = json::GetText(value, "bio");
  member.communicationDisabledUntil = json::GetText(value, "communication_disabled_until");
  auto flags = json::GetInt(value, "flags");
  if (flags && *flags >= 0) member.flags = static_cast<uint64_t>(*flags);
  member.deaf = json::GetBool(value, "deaf").value_or(false);
  member.mute = json::GetBool(value, "mute").value_or(false);
  member.pending = json::GetBool(value, "pending").value_or(false);
  member.premiumSince = json::GetText(value, "premium_since");
  member.rawJson = json::Serialize(value);
  return member;
}

std::optional<GuildMember> ParseGuildMember(std::string_view json) {
  try {
    json::Document document;
    if (!json::Parse(json, document)) return std::nullopt;
    return ParseGuildMemberValue(document);
  } catch (const std::exception&) {
    return std::nullopt;  // out of memory on a huge document: not a member this process can hold
  }
}

std::vector<FieldError> CheckMemberChanges(const MemberChanges& changes, uint64_t nowMs) {
  std::vector<FieldError> errors;
  if (changes.nick) CheckLength(*changes.nick, "nick", member_limits::MaxNickLength, errors);
  if (changes.roles) {
    for (std::size_t i = 0; i < changes.roles->size(); ++i) {
      if ((*changes.roles)[i] == 0) {
        const std::string path = "roles." + std::to_string(i);
        errors.push_back(FieldError{path, "BASE_TYPE_REQUIRED", path + ": must not be 0"});
      }
    }
  }
  // 0 ends a timeout; any other time is at most 28 days ahead of now, as the platform counts.
  if (changes.timeoutUntilMs && *changes.timeoutUntilMs != 0 &&
      *changes.timeoutUntilMs > nowMs + member_limits::MaxTimeoutMs) {
    errors.push_back(FieldError{"communication_disabled_until", "COMMUNICATION_DISABLED_TIMESTAMP_TOO_LARGE",
                                "communication_disabled_until: at most 28 days from now"});
  }
  if (changes.flags && *changes.flags > static_cast<uint64_t>(INT32_MAX)) {
    errors.push_back(FieldError{"flags", "NUMBER_TYPE_MAX", "flags: must be at most 2147483647"});
  }
  return errors;
}

std::vector<FieldError> CheckCurrentMemberChanges(const CurrentMemberChanges& changes) {
  std::vector<FieldError> errors;
  if (changes.nick) CheckLength(*changes.nick, "nick", member_limits::MaxNickLength, errors);
  CheckImage(changes.avatarDataUri, "avatar", errors);
  CheckImage(changes.bannerDataUri, "banner", errors);
  if (changes.bio) CheckLength(*changes.bio, "bio", member_limits::MaxBioLength, errors);
  return errors;
}

std::string MemberChangesBody(const MemberChanges& changes) {
  json::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  if (changes.nick) json::AddTextOrNull(body, "nick", *changes.nick);
  if (changes.roles) body.AddMember("roles", json::SnowflakeArray(*changes.roles, a), a);
  if (changes.timeoutUntilMs) {
    json::AddTextOrNull(
        body, "communication_disabled_until",
        *changes.timeoutUntilMs == 0 ? std::string() : json::FormatTimestampMs(*changes.timeoutUntilMs));
  }
  if (changes.flags) body.AddMember("flags", json::Value(*changes.flags), a);
  return json::Serialize(body);
}

std::string CurrentMemberChangesBody(const CurrentMemberChanges& changes) {
  json::Document body(rapidjson::kObjectType);
  if (changes.nick) json::AddTextOrNull(body, "nick", *changes.nick);
  if (changes.avatarDataUri) json::AddTextOrNull(body, "avatar", *changes.avatarDataUri);
  if (changes.bannerDataUri) json::AddTextOrNull(body, "banner", *changes.bannerDataUri);
  if (changes.bio) json::AddTextOrNull(body, "bio", *changes.bio);
  return json::Serialize(body);
}

std::string PruneBody(const PruneArgs& args) {
  json::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  body.AddMember("days", json::Value(args.days), a);
  body.AddMember("compute_prune_count", args.computePruneCount, a);
  if (!args.includeRoles.empty())
    body.AddMember("include_roles", json::SnowflakeArray(args.includeRoles, a), a);
  return json::Serialize(body);
}

std::optional<int64_t> ParsePruneCount(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  const json::Value* pruned = json::Member(value, "pruned");
  if (pruned == nullptr) return std::nullopt;
  if (pruned->IsNull()) return -1;
  if (!pruned->IsUint64() || pruned->GetUint64() > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
  return static_cast<int64_t>(pruned->GetUint64());
}

}  // namespace platformpp::backend
