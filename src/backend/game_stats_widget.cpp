#include "backend/game_stats_widget.hpp"

#include "core/utf8.hpp"

#include <cmath>
#include <utility>

namespace platformpp::backend::game_stats {
namespace {

using Allocator = json::Document::AllocatorType;

void Add(std::vector<FieldError>& errors, std::string path, const char* code, const std::string& rule) {
  std::string message = path + ": " + rule;
  errors.push_back(FieldError{std::move(path), code, std::move(message)});
}

void CheckText(std::string_view text, std::size_t max, const std::string& path,
               std::vector<FieldError>& errors) {
  auto length = core::CountCodePoints(text);
  if (!length || *length < 1 || *length > max)
    Add(errors, path, "BASE_TYPE_BAD_LENGTH", "must be 1 to " + std::to_string(max) + " characters");
}

void CheckUrl(std::string_view url, const std::string& path, std::vector<FieldError>& errors) {
  if (url.size() > kMaxUrl || !(url.starts_with("https://") || url.starts_with("http://")) ||
      url.find_first_of(" \r\n") != std::string_view::npos) {
    Add(errors, path, "URL_TYPE_INVALID_URL",
        "must be an http(s) URL of at most " + std::to_string(kMaxUrl) + " characters");
  }
}

void CheckCount(int64_t value, const std::string& path, std::vector<FieldError>& errors) {
  if (value < 0 || value > kMaxCount) Add(errors, path, "NUMBER_TYPE_MAX", "must be 0 to 2^53-1");
}

bool NameCharacter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

json::Value Media(std::string_view url, Allocator& a) {
  json::Value media(rapidjson::kObjectType);
  media.AddMember("url", json::StringValue(url, a), a);
  return media;
}

json::Value PrimaryBody(const GameStatsPrimary& primary, std::vector<FieldError>& errors, Allocator& a) {
  json::Value object(rapidjson::kObjectType);
  auto text = [&](const std::optional<std::string>& value, const char* name) {
    if (!value) return;
    CheckText(*value, kMaxText, std::string("data.primary.") + name, errors);
    object.AddMember(json::Value(name, a), json::StringValue(*value, a), a);
  };
  auto image = [&](const std::optional<std::string>& url, const char* name) {
    if (!url) return;
    CheckUrl(*url, std::string("data.primary.") + name + ".url", errors);
    object.AddMember(json::Value(name, a), Media(*url, a), a);
  };
  auto count = [&](const std::optional<int64_t>& value, const char* name) {
    if (!value) return;
    CheckCount(*value, std::string("data.primary.") + name, errors);
    object.AddMember(json::Value(name, a), json::Value(*value), a);
  };
  text(primary.season, "season");
  text(primary.rankName, "rank_name");
  image(primary.rankImageUrl, "rank_image");
  text(primary.highestRank, "highest_rank");
  image(primary.highestRankImageUrl, "highest_rank_image");
  text(primary.featuredPlayedCharacter, "featured_played_character");
  image(primary.featuredPlayedCharacterImageUrl, "featured_played_character_image");
  if (primary.playtimeHours) {
    const double hours = *primary.playtimeHours;
    if (!std::isfinite(hours) || hours < 0 || hours > static_cast<double>(kMaxCount))
      Add(errors, "data.primary.playtime_hours", "NUMBER_TYPE_MAX", "must be 0 to 2^53-1");
    else
      object.AddMember("playtime_hours", json::Value(hours), a);
  }
  count(primary.totalWins, "total_wins");
  count(primary.currentPeriodWins, "current_period_wins");
  count(primary.totalGames, "total_games");
  count(primary.currentPeriodGames, "current_period_games");
  count(primary.totalKills, "total_kills");
  count(primary.currentPeriodKills, "current_period_kills");
  count(primary.totalAssists, "total_assists");
  count(primary.currentPeriodAssists, "current_period_assists");
  count(primary.totalDeaths, "total_deaths");
  count(primary.currentPeriodDeaths, "current_period_deaths");
  return object;
}

json::Value DynamicBody(const GameStatsDynamicField& field, const std::string& path,
                        std::vector<FieldError>& errors, Allocator& a) {
  json::Value object(rapidjson::kObjectType);
  object.AddMember("type", json::Value(static_cast<int32_t>(field.type)), a);
  bool nameOk = !field.name.empty() && field.name.size() <= kMaxFieldName;
  for (char c : field.name)
    nameOk = nameOk && NameCharacter(c);
  if (!nameOk) {
    Add(errors, path + ".name", "BASE_TYPE_BAD_LENGTH",
        "must be 1 to " + std::to_string(kMaxFieldName) + " characters of A-Z, a-z, 0-9 and _");
  }
  object.AddMember("name", json::StringValue(field.name, a), a);
  switch (field.type) {
    case GameStatsDynamicField::Type::String:
      CheckText(field.text, kMaxText, path + ".value", errors);
      object.AddMember("value", json::StringValue(field.text, a), a);
      break;
    case GameStatsDynamicField::Type::Number: {
      const double value = field.number;
      const auto limit = static_cast<double>(kMaxCount);
      if (!std::isfinite(value) || value < -limit || value > limit) {
        Add(errors, path + ".value", "NUMBER_TYPE_MAX", "must be finite, within ±(2^53-1)");
      } else if (value == std::trunc(value)) {
        object.AddMember("value", json::Value(static_cast<int64_t>(value)), a);
      } else {
        object.AddMember("value", json::Value(value), a);
      }
      break;
    }
    case GameStatsDynamicField::Type::Media:
      CheckUrl(field.text, path + ".value.url", errors);
      object.AddMember("value", Media(field.text, a), a);
      break;
    default:
      Add(errors, path + ".type", "BASE_TYPE_CHOICES", "must be 1 (string), 2 (number) or 3 (media)");
  }
  return object;
}

std::optional<std::string> MediaUrl(const json::Value& object, const char* name) {
  const json::Value* media = json::Member(object, name);
  if (!media || !media->IsObject()) return std::nullopt;
  return json::GetOptionalText(*media, "url");
}

}  // namespace

void CheckProviderIssuedUserId(std::string_view id, std::vector<FieldError>& errors) {
  bool ok = !id.empty() && id.size() <= kMaxProviderIssuedUserId;
  for (char c : id)
    ok = ok && (NameCharacter(c) || c == '.' || c == '~' || c == ':' || c == '@' || c == '-');
  if (!ok) {
    Add(errors, "provider_issued_user_id", "BASE_TYPE_BAD_LENGTH",
        "must be 1 to " + std::to_string(kMaxProviderIssuedUserId) +
            " characters of A-Z, a-z, 0-9 and ._~:@-");
  }
}

std::string ProfileBody(const GameStatsProfile& profile, std::vector<FieldError>& errors) {
  json::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  if (profile.username) {
    CheckText(*profile.username, kMaxUsername, "username", errors);
    body.AddMember("username", json::StringValue(*profile.username, a), a);
  }
  if (profile.data) {
    json::Value data(rapidjson::kObjectType);
    data.AddMember("primary", PrimaryBody(profile.data->primary, errors, a), a);
    const auto& fields = profile.data->dynamic;
    if (fields.size() > kMaxDynamicFields) {
      Add(errors, "data.dynamic", "BASE_TYPE_MAX_LENGTH",
          "at most " + std::to_string(kMaxDynamicFields) + " fields");
    }
    json::Value dynamic(rapidjson::kArrayType);
    for (std::size_t i = 0; i < fields.size(); ++i)
      dynamic.PushBack(DynamicBody(fields[i], "data.dynamic." + std::to_string(i), errors, a), a);
    data.AddMember("dynamic", dynamic, a);
    const std::size_t size = json::Serialize(data).size();
    if (size > kMaxDataBytes) {
      Add(errors, "data", "BASE_TYPE_MAX_LENGTH",
          "at most " + std::to_string(kMaxDataBytes) + " bytes serialized (" + std::to_string(size) + ")");
    }
    body.AddMember("data", data, a);
  }
  return json::Serialize(body);
}

std::optional<GameStatsProfile> ParseProfile(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  GameStatsProfile profile;
  profile.username = json::GetOptionalText(value, "username");
  const json::Value* data = json::Member(value, "data");
  if (!data || !data->IsObject()) return profile;
  GameStatsData stats;
  if (const json::Value* primary = json::Member(*data, "primary"); primary && primary->IsObject()) {
    GameStatsPrimary& p = stats.primary;
    p.season = json::GetOptionalText(*primary, "season");
    p.rankName = json::GetOptionalText(*primary, "rank_name");
    p.rankImageUrl = MediaUrl(*primary, "rank_image");
    p.highestRank = json::GetOptionalText(*primary, "highest_rank");
    p.highestRankImageUrl = MediaUrl(*primary, "highest_rank_image");
    p.featuredPlayedCharacter = json::GetOptionalText(*primary, "featured_played_character");
    p.featuredPlayedCharacterImageUrl = MediaUrl(*primary, "featured_played_character_image");
    p.playtimeHours = json::GetNumber(*primary, "playtime_hours");
    p.totalWins = json::GetInt(*primary, "total_wins");
    p.currentPeriodWins = json::GetInt(*primary, "current_period_wins");
    p.totalGames = json::GetInt(*primary, "total_games");
    p.currentPeriodGames = json::GetInt(*primary, "current_period_games");
    p.totalKills = json::GetInt(*primary, "total_kills");
    p.currentPeriodKills = json::GetInt(*primary, "current_period_kills");
    p.totalAssists = json::GetInt(*primary, "total_assists");
    p.currentPeriodAssists = json::GetInt(*primary, "current_period_assists");
    p.totalDeaths = json::GetInt(*primary, "total_deaths");
    p.currentPeriodDeaths = json::GetInt(*primary, "current_period_deaths");
  }
  if (const json::Value* dynamic = json::Member(*data, "dynamic"); dynamic && dynamic->IsArray()) {
    for (const json::Value& item : dynamic->GetArray()) {
      auto type = json::GetInt(item, "type");
      auto name = json::GetString(item, "name");
      if (!type || !name || *type < 1 || *type > 3) return std::nullopt;
      GameStatsDynamicField field;
      field.type = static_cast<GameStatsDynamicField::Type>(*type);
      field.name = std::string(*name);
      if (field.type == GameStatsDynamicField::Type::Number)
        field.number = json::GetNumber(item, "value").value_or(0);
      else if (field.type == GameStatsDynamicField::Type::Media)
        field.text = MediaUrl(item, "value").value_or("");
      else
        field.text = json::GetOptionalText(item, "value").value_or("");
      stats.dynamic.push_back(std::move(field));
    }
  }
  profile.data = std::move(stats);
  return profile;
}

}  // namespace platformpp::backend::game_stats
