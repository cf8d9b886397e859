// Invites on the wire (invite_json.hpp) and the invite checks. The target users travel as a CSV file in a
// multipart body, as the platform takes them; its answer to Get Target Users is that CSV again.
#include "backend/invite_json.hpp"

#include <charconv>
#include <exception>
#include <string_view>
#include <system_error>

namespace platformpp::backend {
namespace {

using Allocator = json::Document::AllocatorType;

// The multipart boundary. Fixed, because no part can contain it: the CSV is digits, "user_id" and line
// breaks, and the JSON holds numbers, booleans and ids only (a fixed boundary also keeps the body testable).
constexpr std::string_view kBoundary = "platformpp-invite-target-users-0f3c9a1e";

int64_t Int(const json::Value& object, std::string_view name) {
  return json::GetInt(object, name).value_or(0);
}

std::optional<uint64_t> Decimal(std::string_view text) {
  if (text.empty()) return std::nullopt;
  uint64_t id = 0;
  auto [ptr, error] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (error != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return id;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\r'))
    text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
    text.remove_suffix(1);
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') text = text.substr(1, text.size() - 2);
  return text;
}

void AddPart(std::string& body, std::string_view headers, std::string_view content) {
  body += "--";
  body += kBoundary;
  body += "\r\n";
  body += headers;
  body += "\r\n\r\n";
  body += content;
  body += "\r\n";
}

EncodedBody Multipart(const std::string* json, const std::vector<uint64_t>& userIds) {
  std::string body;
  if (json != nullptr) {
    AddPart(body, "Content-Disposition: form-data; name=\"payload_json\"\r\nContent-Type: application/json",
            *json);
  }
  AddPart(body,
          "Content-Disposition: form-data; name=\"target_users_file\"; filename=\"target_users.csv\"\r\n"
          "Content-Type: text/csv",
          TargetUsersCsv(userIds));
  body += "--";
  body += kBoundary;
  body += "--\r\n";
  return EncodedBody{std::move(body), "multipart/form-data; boundary=" + std::string(kBoundary)};
}

}  // namespace

std::optional<Invite> ParseInviteValue(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  auto code = json::GetString(value, "code");
  if (!code || code->empty()) return std::nullopt;
  Invite invite;
  invite.code = std::string(*code);
  if (const json::Value* guild = json::Member(value, "guild"); guild != nullptr && guild->IsObject()) {
    invite.guildId = json::GetSnowflake(*guild, "id").value_or(0);
    invite.guildName = json::GetText(*guild, "name");
  }
  if (invite.guildId == 0) invite.guildId = json::GetSnowflake(value, "guild_id").value_or(0);
  if (const json::Value* channel = json::Member(value, "channel");
      channel != nullptr && channel->IsObject()) {
    invite.channelId = json::GetSnowflake(*channel, "id").value_or(0);
    invite.channelName = json::GetText(*channel, "name");
  }
  if (const json::Value* inviter = json::Member(value, "inviter")) invite.inviter = ParseUser(*inviter);
  invite.targetType = static_cast<int32_t>(Int(value, "target_type"));
  invite.expiresAt = json::GetText(value, "expires_at");
  if (const json::Value* roles = json::Member(value, "roles"); roles != nullptr && roles->IsArray()) {
    for (const json::Value& item : roles->GetArray()) {
      if (!item.IsObject()) continue;
      auto id = json::GetSnowflake(item, "id");
      if (!id) continue;  // a role the SDK cannot name is skipped, not the invite
      InviteRole role;
      role.id = *id;
      role.name = json::GetText(item, "name");
      role.position = static_cast<int32_t>(Int(item, "position"));
      auto color = Int(item, "color");
      role.color = color >= 0 && color <= 0xFFFFFF ? static_cast<uint32_t>(color) : 0;
      invite.roles.push_back(std::move(role));
    }
  }
  invite.approximateMemberCount = Int(value, "approximate_member_count");
  invite.approximatePresenceCount = Int(value, "approximate_presence_count");
  invite.uses = Int(value, "uses");
  invite.maxUses = Int(value, "max_uses");
  invite.maxAge = Int(value, "max_age");
  invite.temporary = json::GetBool(value, "temporary").value_or(false);
  invite.createdAt = json::GetText(value, "created_at");
  invite.rawJson = json::Serialize(value);
  return invite;
}

std::optional<Invite> ParseInvite(std::string_view json) {
  try {
    json::Document document;
    if (!json::Parse(json, document)) return std::nullopt;
    return ParseInviteValue(document);
  } catch (const std::exception&) {
    return std::nullopt;  // out of memory on a huge document
  }
}

std::optional<InviteTargetUsersJob> ParseInviteTargetUsersJobValue(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  auto status = json::GetInt(value, "status");
  if (!status) return std::nullopt;
  InviteTargetUsersJob job;
  job.status = *status >= 1 && *status <= 3 ? static_cast<InviteTargetUsersJobState>(*status)
                                            : InviteTargetUsersJobState::Unspecified;
  job.totalUsers = Int(value, "total_users");
  job.processedUsers = Int(value, "processed_users");
  job.createdAt = json::GetText(value, "created_at");
  job.completedAt = json::GetText(value, "completed_at");
  job.errorMessage = json::GetText(value, "error_message");
  return job;
}

std::optional<InviteTargetUsersJob> ParseInviteTargetUsersJob(std::string_view json) {
  try {
    json::Document document;
    if (!json::Parse(json, document)) return std::nullopt;
    return ParseInviteTargetUsersJobValue(document);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<std::vector<uint64_t>> ParseInviteTargetUsersCsv(std::string_view csv) {
  // A UTF-8 byte order mark is not part of the header.
  if (csv.substr(0, 3) == "\xEF\xBB\xBF") csv.remove_prefix(3);
  std::vector<uint64_t> ids;
  bool first = true;
  while (!csv.empty()) {
    const auto end = csv.find('\n');
    std::string_view line = Trim(csv.substr(0, end));
    csv = end == std::string_view::npos ? std::string_view() : csv.substr(end + 1);
    if (line.empty()) continue;
    const bool wasFirst = first;
    first = false;
    if (auto id = Decimal(line); id && *id != 0) {
      ids.push_back(*id);
    } else if (!wasFirst || line.find_first_of("0123456789") == 0) {
      return std::nullopt;  // only the first line may be a header, and a header is not a number
    }
  }
  return ids;
}

std::vector<FieldError> CheckInviteArgs(const InviteArgs& args) {
  std::vector<FieldError> errors;
  if (args.maxAge < 0 || args.maxAge > invite_limits::MaxAgeSeconds) {
    errors.push_back(FieldError{"max_age", "NUMBER_TYPE_OUT_OF_RANGE", "max_age: must be 0 to 604800"});
  }
  if (args.maxUses < 0 || args.maxUses > invite_limits::MaxUses) {
    errors.push_back(FieldError{"max_uses", "NUMBER_TYPE_OUT_OF_RANGE", "max_uses: must be 0 to 100"});
  }
  if (args.roleIds.size() > invite_limits::MaxRoleIds) {
    errors.push_back(FieldError{"role_ids", "BASE_TYPE_MAX_LENGTH", "role_ids: at most 250"});
  }
  for (std::size_t i = 0; i < args.roleIds.size(); ++i) {
    if (args.roleIds[i] == 0) {
      const std::string path = "role_ids." + std::to_string(i);
      errors.push_back(FieldError{path, "BASE_TYPE_REQUIRED", path + ": must not be 0"});
    }
  }
  for (std::size_t i = 0; i < args.targetUserIds.size(); ++i) {
    if (args.targetUserIds[i] == 0) {
      const std::string path = "target_users_file." + std::to_string(i);
      errors.push_back(FieldError{path, "BASE_TYPE_REQUIRED", path + ": must not be 0"});
    }
  }
  return errors;
}

std::string TargetUsersCsv(const std::vector<uint64_t>& userIds) {
  std::string csv = "user_id\n";
  for (uint64_t id : userIds)
    csv += std::to_string(id) + "\n";
  return csv;
}

EncodedBody InviteArgsBody(const InviteArgs& args) {
  json::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  body.AddMember("max_age", args.maxAge, a);
  body.AddMember("max_uses", args.maxUses, a);
  body.AddMember("temporary", args.temporary, a);
  body.AddMember("unique", args.unique, a);
  if (!args.roleIds.empty()) {
    json::Value roles(rapidjson::kArrayType);
    for (uint64_t id : args.roleIds)
      roles.PushBack(json::StringValue(std::to_string(id), a), a);
    body.AddMember("role_ids", roles, a);
  }
  if (args.targetApplicationId != 0) {
    body.AddMember("target_type", 2, a);
    body.AddMember("target_application_id", json::StringValue(std::to_string(args.targetApplicationId), a),
                   a);
  }
  std::string json = json::Serialize(body);
  if (args.targetUserIds.empty()) return EncodedBody{std::move(json), "application/json"};
  return Multipart(&json, args.targetUserIds);
}

EncodedBody TargetUsersBody(const std::vector<uint64_t>& userIds) {
  return Multipart(nullptr, userIds);
}

}  // namespace platformpp::backend
