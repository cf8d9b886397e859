// Roles on the wire (role_json.hpp) and CheckRoleChanges. The reader is lenient as the other answer readers
// are: a wrong-typed field keeps its default rather than losing the role, since a newer platform may change
// a field's shape before the SDK knows it.
#include "backend/role_json.hpp"

#include "core/utf8.hpp"

#include <charconv>
#include <exception>
#include <limits>
#include <system_error>

namespace platformpp::backend {
namespace {

using Allocator = json::Document::AllocatorType;

constexpr uint32_t kMaxColor = 0xFFFFFF;
constexpr std::size_t kMaxNameLength = 100;

// `permissions` is a decimal string on the wire; older answers and hand-written JSON carry a number.
std::optional<uint64_t> Permissions(const json::Value& value) {
  const json::Value* member = json::Member(value, "permissions");
  if (member == nullptr) return std::nullopt;
  if (member->IsUint64()) return member->GetUint64();
  if (!member->IsString()) return std::nullopt;
  std::string_view text(member->GetString(), member->GetStringLength());
  uint64_t bits = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), bits);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return bits;
}

std::optional<uint32_t> Color(const json::Value& object, std::string_view name) {
  auto number = json::GetInt(object, name);
  if (!number || *number < 0 || *number > static_cast<int64_t>(std::numeric_limits<uint32_t>::max()))
    return std::nullopt;
  return static_cast<uint32_t>(*number);
}

std::optional<std::string> OptionalString(const json::Value& object, std::string_view name) {
  auto text = json::GetString(object, name);
  if (!text) return std::nullopt;
  return std::string(*text);
}

void CheckColor(std::optional<uint32_t> color, const std::string& path, std::vector<FieldError>& errors) {
  if (color && *color > kMaxColor) {
    errors.push_back(FieldError{path, "NUMBER_TYPE_MAX", path + ": must be at most 0xFFFFFF (16777215)"});
  }
}

}  // namespace

std::optional<Role> ParseRoleValue(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  auto id = json::GetSnowflake(value, "id");
  if (!id) return std::nullopt;
  Role role;
  role.id = *id;
  role.name = OptionalString(value, "name").value_or("");
  role.permissions = Permissions(value).value_or(0);
  auto position = json::GetInt(value, "position");
  if (position && *position >= std::numeric_limits<int32_t>::min() &&
      *position <= std::numeric_limits<int32_t>::max())
    role.position = static_cast<int32_t>(*position);
  role.color = Color(value, "color").value_or(0);
  role.colors.primary = role.color;
  if (const json::Value* colors = json::Member(value, "colors"); colors != nullptr && colors->IsObject()) {
    role.colors.primary = Color(*colors, "primary_color").value_or(role.color);
    role.colors.secondary = Color(*colors, "secondary_color");
    role.colors.tertiary = Color(*colors, "tertiary_color");
  }
  role.hoist = json::GetBool(value, "hoist").value_or(false);
  role.managed = json::GetBool(value, "managed").value_or(false);
  role.mentionable = json::GetBool(value, "mentionable").value_or(false);
  role.icon = OptionalString(value, "icon");
  role.unicodeEmoji = OptionalString(value, "unicode_emoji");
  auto flags = json::GetInt(value, "flags");
  if (flags && *flags >= 0) role.flags = static_cast<uint64_t>(*flags);
  if (const json::Value* tags = json::Member(value, "tags"); tags != nullptr && tags->IsObject())
    role.botId = json::GetSnowflake(*tags, "bot_id");
  role.rawJson = json::Serialize(value);
  return role;
}

std::optional<Role> ParseRole(std::string_view json) {
  try {
    json::Document document;
    if (!json::Parse(json, document)) return std::nullopt;
    return ParseRoleValue(document);
  } catch (const std::exception&) {
    return std::nullopt;  // out of memory on a huge document: not a role this process can hold
  }
}

std::vector<FieldError> CheckRoleChanges(const RoleChanges& changes) {
  std::vector<FieldError> errors;
  if (changes.name) {
    // Code points, as the platform counts; invalid UTF-8 is refused rather than counted in bytes.
    auto length = core::CountCodePoints(*changes.name);
    if (!length) {
      errors.push_back(FieldError{"name", "BASE_TYPE_INVALID", "name: must be valid UTF-8"});
    } else if (*length < 1 || *length > kMaxNameLength) {
      errors.push_back(FieldError{"name", "BASE_TYPE_BAD_LENGTH", "name: must be 1 to 100 characters"});
    }
  }
  if (changes.colors) {
    CheckColor(changes.colors->primary, "colors.primary_color", errors);
    CheckColor(changes.colors->secondary, "colors.secondary_color", errors);
    CheckColor(changes.colors->tertiary, "colors.tertiary_color", errors);
    if (changes.colors->tertiary && !changes.colors->secondary) {
      errors.push_back(FieldError{"colors.secondary_color", "BASE_TYPE_REQUIRED",
                                  "colors.secondary_color: required with colors.tertiary_color"});
    }
  }
  if (changes.iconDataUri && !changes.iconDataUri->empty() &&
      std::string_view(*changes.iconDataUri).substr(0, 11) != "data:image/") {
    errors.push_back(FieldError{"icon", "IMAGE_INVALID",
                                "icon: must be an image data URI (data:image/...;base64,...) or empty"});
  }
  return errors;
}

std::string RoleChangesBody(const RoleChanges& changes) {
  json::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  if (changes.name) body.AddMember("name", json::StringValue(*changes.name, a), a);
  if (changes.permissions)
    body.AddMember("permissions", json::StringValue(std::to_string(*changes.permissions), a), a);
  if (changes.colors) {
    json::Value colors(rapidjson::kObjectType);
    colors.AddMember("primary_color", json::Value(changes.colors->primary), a);
    // Unset secondary and tertiary go as null: the platform then drops a gradient the role had.
    json::Value secondary(rapidjson::kNullType);
    if (changes.colors->secondary) secondary.SetUint(*changes.colors->secondary);
    colors.AddMember("secondary_color", secondary, a);
    json::Value tertiary(rapidjson::kNullType);
    if (changes.colors->tertiary) tertiary.SetUint(*changes.colors->tertiary);
    colors.AddMember("tertiary_color", tertiary, a);
    body.AddMember("colors", colors, a);
  }
  if (changes.hoist) body.AddMember("hoist", *changes.hoist, a);
  if (changes.mentionable) body.AddMember("mentionable", *changes.mentionable, a);
  if (changes.unicodeEmoji) json::AddTextOrNull(body, "unicode_emoji", *changes.unicodeEmoji);
  if (changes.iconDataUri) json::AddTextOrNull(body, "icon", *changes.iconDataUri);
  return json::Serialize(body);
}

std::string RolePositionsBody(const std::vector<std::pair<uint64_t, int32_t>>& positions) {
  json::Document body(rapidjson::kArrayType);
  auto& a = body.GetAllocator();
  for (const auto& entry : positions) {
    json::Value object(rapidjson::kObjectType);
    object.AddMember("id", json::StringValue(std::to_string(entry.first), a), a);
    object.AddMember("position", json::Value(entry.second), a);
    body.PushBack(object, a);
  }
  return json::Serialize(body);
}

std::optional<std::map<uint64_t, uint64_t>> ParseRoleMemberCounts(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  std::map<uint64_t, uint64_t> counts;
  for (const auto& member : value.GetObject()) {
    std::string_view key(member.name.GetString(), member.name.GetStringLength());
    uint64_t id = 0;
    auto [end, error] = std::from_chars(key.data(), key.data() + key.size(), id);
    // A count the SDK cannot read whole is not believed in part, as with lists.
    if (error != std::errc() || end != key.data() + key.size() || key.empty()) return std::nullopt;
    if (!member.value.IsUint64()) return std::nullopt;
    counts[id] = member.value.GetUint64();
  }
  return counts;
}

}  // namespace platformpp::backend
