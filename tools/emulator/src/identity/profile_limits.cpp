#include "identity/profile_limits.hpp"

#include <cmath>
#include <vector>

#include "core/validation.hpp"

namespace platformpp::emulator::identity {
namespace {

using Path = std::vector<std::string>;

constexpr const char* kTextFields[] = {"season", "rank_name", "highest_rank", "featured_played_character"};
constexpr const char* kMediaFields[] = {"rank_image", "highest_rank_image",
                                        "featured_played_character_image"};
constexpr const char* kCountFields[] = {
    "total_wins",   "current_period_wins",  "total_games",   "current_period_games",
    "total_kills",  "current_period_kills", "total_assists", "current_period_assists",
    "total_deaths", "current_period_deaths"};

template <std::size_t N>
bool one_of(std::string_view name, const char* const (&names)[N]) {
  for (const char* candidate : names) {
    if (name == candidate) return true;
  }
  return false;
}

bool name_character(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

void check_text(const rapidjson::Value& value, std::size_t max, const Path& path, FieldErrors& errors) {
  if (!value.IsString()) {
    errors.add(path, {"BASE_TYPE_STRING", "Must be a string."});
    return;
  }
  const auto length = utf8_length(std::string_view(value.GetString(), value.GetStringLength()));
  if (length < 1 || length > max) errors.add(path, length_issue(1, max));
}

void check_media(const rapidjson::Value& value, Path path, FieldErrors& errors) {
  if (!value.IsObject()) {
    errors.add(path, {"MODEL_TYPE_CONVERT", "Must be an object with a url."});
    return;
  }
  path.emplace_back("url");
  const auto url = value.FindMember("url");
  if (url == value.MemberEnd() || !url->value.IsString()) {
    errors.add(path, required_field_issue());
    return;
  }
  const std::string_view text(url->value.GetString(), url->value.GetStringLength());
  if (text.size() > kMaxUrl || !(text.starts_with("https://") || text.starts_with("http://")) ||
      text.find_first_of(" \r\n") != std::string_view::npos) {
    errors.add(path, {"URL_TYPE_INVALID_URL", "Not a well formed URL."});
  }
}

// A number within [min, max]; `integer`: a whole one.
void check_number(const rapidjson::Value& value, bool integer, double min, double max, const Path& path,
                  FieldErrors& errors) {
  if (!value.IsNumber()) {
    errors.add(path, {"NUMBER_TYPE_COERCE", "Value is not a number."});
    return;
  }
  const double number = value.GetDouble();
  if (integer && !(value.IsInt64() || value.IsUint64())) {
    errors.add(path, {"NUMBER_TYPE_COERCE", "Value is not an integer."});
  } else if (!std::isfinite(number) || number < min || number > max ||
             (value.IsUint64() && value.GetUint64() > static_cast<std::uint64_t>(kMaxCount))) {
    errors.add(path, {"NUMBER_TYPE_MAX", "Value is out of range."});
  }
}

void check_primary(const rapidjson::Value& primary, FieldErrors& errors) {
  if (!primary.IsObject()) {
    errors.add({"data", "primary"}, {"MODEL_TYPE_CONVERT", "Must be an object."});
    return;
  }
  const auto max = static_cast<double>(kMaxCount);
  for (const auto& member : primary.GetObject()) {
    const std::string name(member.name.GetString(), member.name.GetStringLength());
    const Path path{"data", "primary", name};
    if (member.value.IsNull()) continue;
    if (one_of(name, kTextFields)) {
      check_text(member.value, kMaxText, path, errors);
    } else if (one_of(name, kMediaFields)) {
      check_media(member.value, path, errors);
    } else if (one_of(name, kCountFields)) {
      check_number(member.value, true, 0, max, path, errors);
    } else if (name == "playtime_hours") {
      check_number(member.value, false, 0, max, path, errors);
    } else {
      errors.add(path, {"UNKNOWN_FIELD", "Not a primary field."});
    }
  }
}

void check_dynamic_field(const rapidjson::Value& field, const Path& at, FieldErrors& errors) {
  if (!field.IsObject()) {
    errors.add(at, {"MODEL_TYPE_CONVERT", "Must be an object."});
    return;
  }
  auto path = [&](const char* member) {
    Path full = at;
    full.emplace_back(member);
    return full;
  };
  const auto name = field.FindMember("name");
  if (name == field.MemberEnd() || !name->value.IsString()) {
    errors.add(path("name"), required_field_issue());
  } else {
    const std::string_view text(name->value.GetString(), name->value.GetStringLength());
    bool ok = !text.empty() && text.size() <= kMaxFieldName;
    for (char c : text)
      ok = ok && name_character(c);
    if (!ok)
      errors.add(path("name"), {"BASE_TYPE_BAD_LENGTH", "Must be 1 to 64 characters of A-Z, a-z, 0-9, _."});
  }
  const auto type = field.FindMember("type");
  const auto value = field.FindMember("value");
  if (value == field.MemberEnd() || value->value.IsNull()) errors.add(path("value"), required_field_issue());
  if (type == field.MemberEnd() || !type->value.IsInt() || type->value.GetInt() < 1 ||
      type->value.GetInt() > 3) {
    errors.add(path("type"), {"BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3}."});
    return;
  }
  if (value == field.MemberEnd() || value->value.IsNull()) return;
  const auto limit = static_cast<double>(kMaxCount);
  switch (type->value.GetInt()) {
    case 1:
      check_text(value->value, kMaxText, path("value"), errors);
      break;
    case 2:
      check_number(value->value, false, -limit, limit, path("value"), errors);
      break;
    default:
      check_media(value->value, path("value"), errors);
  }
}

}  // namespace

bool valid_provider_issued_user_id(std::string_view id) {
  if (id.empty() || id.size() > kMaxProviderIssuedUserId) return false;
  for (char c : id) {
    if (!(name_character(c) || c == '.' || c == '~' || c == ':' || c == '@' || c == '-')) return false;
  }
  return true;
}

ProfileUpdate read_profile_update(const rapidjson::Value& body, FieldErrors& errors) {
  ProfileUpdate update;
  if (const auto username = body.FindMember("username");
      username != body.MemberEnd() && !username->value.IsNull()) {
    check_text(username->value, kMaxUsername, {"username"}, errors);
    if (username->value.IsString())
      update.username = std::string(username->value.GetString(), username->value.GetStringLength());
  }
  const auto data = body.FindMember("data");
  if (data == body.MemberEnd() || data->value.IsNull()) return update;
  if (!data->value.IsObject()) {
    errors.add({"data"}, {"MODEL_TYPE_CONVERT", "Must be an object."});
    return update;
  }
  for (const auto& member : data->value.GetObject()) {
    const std::string_view name(member.name.GetString(), member.name.GetStringLength());
    if (name != "primary" && name != "dynamic")
      errors.add({"data", std::string(name)}, {"UNKNOWN_FIELD", "Not a profile data field."});
  }
  if (const auto primary = data->value.FindMember("primary");
      primary != data->value.MemberEnd() && !primary->value.IsNull()) {
    check_primary(primary->value, errors);
  }
  if (const auto dynamic = data->value.FindMember("dynamic");
      dynamic != data->value.MemberEnd() && !dynamic->value.IsNull()) {
    if (!dynamic->value.IsArray()) {
      errors.add({"data", "dynamic"}, {"LIST_TYPE_CONVERT", "Must be a list."});
    } else {
      if (dynamic->value.Size() > kMaxDynamicFields)
        errors.add({"data", "dynamic"}, {"BASE_TYPE_MAX_LENGTH", "Must be 30 or fewer in length."});
      for (rapidjson::SizeType i = 0; i < dynamic->value.Size(); ++i)
        check_dynamic_field(dynamic->value[i], {"data", "dynamic", std::to_string(i)}, errors);
    }
  }
  std::string text = json_text(data->value);
  if (text.size() > kMaxDataBytes)
    errors.add({"data"}, {"BASE_TYPE_MAX_LENGTH", "Must be 10240 or fewer bytes serialized."});
  update.data_json = std::move(text);
  return update;
}

}  // namespace platformpp::emulator::identity
