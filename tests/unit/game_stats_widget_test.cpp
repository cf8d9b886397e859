// The Game Stats Widget's limits, each crossed by one before anything is sent (docs/premium-protocol.md,
// "Game Stats Widget"), the body the platform gets, and the profile read back.
#include <platformpp/backend.hpp>

#include "backend/game_stats_widget.hpp"
#include "json/json.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace game_stats_widget_test {

using platformpp::FieldError;
using platformpp::backend::GameStatsData;
using platformpp::backend::GameStatsDynamicField;
using platformpp::backend::GameStatsProfile;
namespace game_stats = platformpp::backend::game_stats;

std::vector<FieldError> Errors(const GameStatsProfile& profile) {
  std::vector<FieldError> errors;
  (void)game_stats::ProfileBody(profile, errors);
  return errors;
}

// Accepted, or refused naming `path` (and only it).
void Check(const GameStatsProfile& profile, const char* path) {
  auto errors = Errors(profile);
  if (path == nullptr) {
    CHECK(errors.empty());
    for (const auto& error : errors)
      CAPTURE(error.message);
    return;
  }
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].path == path);
}

GameStatsProfile WithData() {
  GameStatsProfile profile;
  profile.data = GameStatsData{};
  return profile;
}

GameStatsDynamicField Field(GameStatsDynamicField::Type type, std::string name, std::string text,
                            double number = 0) {
  GameStatsDynamicField field;
  field.type = type;
  field.name = std::move(name);
  field.text = std::move(text);
  field.number = number;
  return field;
}

constexpr int64_t kMaxCount = (int64_t{1} << 53) - 1;

TEST_CASE("game stats widget: the body the platform gets") {
  GameStatsProfile profile;
  profile.username = "ada";
  profile.data = GameStatsData{};
  profile.data->primary.rankName = "Silver";
  profile.data->primary.totalWins = 12;
  profile.data->primary.playtimeHours = 69.5;
  profile.data->primary.rankImageUrl = "https://cdn.example/silver.png";
  profile.data->dynamic.push_back(Field(GameStatsDynamicField::Type::Number, "bp_level", "", 42));
  profile.data->dynamic.push_back(Field(GameStatsDynamicField::Type::String, "clan", "Owls"));
  profile.data->dynamic.push_back(
      Field(GameStatsDynamicField::Type::Media, "badge", "https://cdn.example/b.png"));
  std::vector<FieldError> errors;
  const std::string body = game_stats::ProfileBody(profile, errors);
  CHECK(errors.empty());
  CHECK(
      body ==
      R"({"username":"ada","data":{"primary":{"rank_name":"Silver","rank_image":{"url":"https://cdn.example/)"
      R"(silver.png"},"playtime_hours":69.5,"total_wins":12},"dynamic":[{"type":2,"name":"bp_level","value":42},)"
      R"({"type":1,"name":"clan","value":"Owls"},{"type":3,"name":"badge","value":{"url":"https://cdn.example/)"
      R"(b.png"}}]}})");
  // And read back.
  platformpp::json::Document document;
  REQUIRE(platformpp::json::Parse(body, document));
  auto parsed = game_stats::ParseProfile(document);
  REQUIRE(parsed);
  CHECK(parsed->username == "ada");
  REQUIRE(parsed->data);
  CHECK(parsed->data->primary.rankName == "Silver");
  CHECK(parsed->data->primary.rankImageUrl == "https://cdn.example/silver.png");
  CHECK(parsed->data->primary.totalWins == 12);
  CHECK(parsed->data->primary.playtimeHours == 69.5);
  REQUIRE(parsed->data->dynamic.size() == 3);
  CHECK(parsed->data->dynamic[0].number == 42);
  CHECK(parsed->data->dynamic[2].text == "https://cdn.example/b.png");
  // Without data, stored stats are kept: no `data` member.
  GameStatsProfile nameOnly;
  nameOnly.username = "ada";
  CHECK(game_stats::ProfileBody(nameOnly, errors) == R"({"username":"ada"})");
}

TEST_CASE("game stats widget: username 1 to 1024 characters") {
  GameStatsProfile profile;
  profile.username = std::string(1024, 'a');
  Check(profile, nullptr);
  profile.username = std::string(1025, 'a');
  Check(profile, "username");
  profile.username = "";
  Check(profile, "username");
  // Characters, not bytes.
  std::string wide;
  for (int i = 0; i < 1024; ++i)
    wide += "\xC3\xA9";
  profile.username = wide;
  Check(profile, nullptr);
}

TEST_CASE("game stats widget: primary names 1 to 100 characters, image URLs http(s) up to 2048") {
  auto profile = WithData();
  profile.data->primary.rankName = std::string(100, 'r');
  Check(profile, nullptr);
  profile.data->primary.rankName = std::string(101, 'r');
  Check(profile, "data.primary.rank_name");
  profile.data->primary.rankName.reset();
  profile.data->primary.season = "";
  Check(profile, "data.primary.season");
  profile.data->primary.season.reset();
  const std::string prefix = "https://cdn.example/";
  profile.data->primary.highestRankImageUrl = prefix + std::string(2048 - prefix.size(), 'x');
  Check(profile, nullptr);
  profile.data->primary.highestRankImageUrl = prefix + std::string(2049 - prefix.size(), 'x');
  Check(profile, "data.primary.highest_rank_image.url");
  profile.data->primary.highestRankImageUrl = "ftp://cdn.example/x.png";
  Check(profile, "data.primary.highest_rank_image.url");
}

TEST_CASE("game stats widget: counts 0 to 2^53-1, playtime non-negative and finite") {
  auto profile = WithData();
  profile.data->primary.totalWins = kMaxCount;
  profile.data->primary.totalDeaths = 0;
  Check(profile, nullptr);
  profile.data->primary.totalWins = kMaxCount + 1;
  Check(profile, "data.primary.total_wins");
  profile.data->primary.totalWins = -1;
  Check(profile, "data.primary.total_wins");
  profile.data->primary.totalWins.reset();
  profile.data->primary.playtimeHours = 0.01;
  Check(profile, nullptr);
  profile.data->primary.playtimeHours = -0.01;
  Check(profile, "data.primary.playtime_hours");
  profile.data->primary.playtimeHours = 1.0 / 0.0;
  Check(profile, "data.primary.playtime_hours");
}

TEST_CASE("game stats widget: 30 dynamic fields, names of 64 characters, string values of 100") {
  auto profile = WithData();
  for (int i = 0; i < 30; ++i)
    profile.data->dynamic.push_back(
        Field(GameStatsDynamicField::Type::Number, "f" + std::to_string(i), "", i));
  Check(profile, nullptr);
  profile.data->dynamic.push_back(Field(GameStatsDynamicField::Type::Number, "f30", "", 30));
  Check(profile, "data.dynamic");

  profile = WithData();
  profile.data->dynamic.push_back(Field(GameStatsDynamicField::Type::String, std::string(64, 'n'), "v"));
  Check(profile, nullptr);
  profile.data->dynamic[0].name = std::string(65, 'n');
  Check(profile, "data.dynamic.0.name");
  profile.data->dynamic[0].name = "";
  Check(profile, "data.dynamic.0.name");
  profile.data->dynamic[0].name = "bp-level";
  Check(profile, "data.dynamic.0.name");
  profile.data->dynamic[0].name = "clan";
  profile.data->dynamic[0].text = std::string(100, 'v');
  Check(profile, nullptr);
  profile.data->dynamic[0].text = std::string(101, 'v');
  Check(profile, "data.dynamic.0.value");
  profile.data->dynamic[0].type = static_cast<GameStatsDynamicField::Type>(4);
  Check(profile, "data.dynamic.0.type");
}

TEST_CASE("game stats widget: dynamic numbers within ±(2^53-1), media URLs as the primary ones") {
  auto profile = WithData();
  const auto limit = static_cast<double>(kMaxCount);
  profile.data->dynamic.push_back(Field(GameStatsDynamicField::Type::Number, "a", "", limit));
  profile.data->dynamic.push_back(Field(GameStatsDynamicField::Type::Number, "b", "", -limit));
  profile.data->dynamic.push_back(Field(GameStatsDynamicField::Type::Number, "c", "", 1.25));
  Check(profile, nullptr);
  profile.data->dynamic[0].number = limit + 1;
  Check(profile, "data.dynamic.0.value");
  profile.data->dynamic[0].number = 0;
  profile.data->dynamic[1].number = -limit - 1;
  Check(profile, "data.dynamic.1.value");
  profile = WithData();
  profile.data->dynamic.push_back(Field(GameStatsDynamicField::Type::Media, "m", "not a url"));
  Check(profile, "data.dynamic.0.value.url");
}

TEST_CASE("game stats widget: data is at most 10,240 bytes serialized") {
  // Media fields with long URLs reach the limit; the last URL is sized to land exactly on it.
  auto profile = WithData();
  const std::string prefix = "https://cdn.example/";
  for (int i = 0; i < 4; ++i)
    profile.data->dynamic.push_back(
        Field(GameStatsDynamicField::Type::Media, "m" + std::to_string(i), prefix + std::string(2000, 'x')));
  profile.data->dynamic.push_back(Field(GameStatsDynamicField::Type::Media, "m4", prefix));
  std::vector<FieldError> errors;
  std::string body = game_stats::ProfileBody(profile, errors);
  REQUIRE(errors.empty());
  const std::size_t dataSize = body.size() - std::string(R"({"data":})").size();
  REQUIRE(dataSize < 10240);
  profile.data->dynamic[4].text += std::string(10240 - dataSize, 'y');
  Check(profile, nullptr);
  profile.data->dynamic[4].text += "y";
  Check(profile, "data");
}

TEST_CASE("game stats widget: the provider-issued user id: 1 to 256 path-safe characters") {
  std::vector<FieldError> errors;
  game_stats::CheckProviderIssuedUserId(std::string(256, 'p'), errors);
  game_stats::CheckProviderIssuedUserId("player-1.eu:main@x_~", errors);
  CHECK(errors.empty());
  game_stats::CheckProviderIssuedUserId(std::string(257, 'p'), errors);
  CHECK(errors.size() == 1);
  game_stats::CheckProviderIssuedUserId("", errors);
  game_stats::CheckProviderIssuedUserId("a/b", errors);
  game_stats::CheckProviderIssuedUserId("a b", errors);
  CHECK(errors.size() == 4);
}

}  // namespace game_stats_widget_test
