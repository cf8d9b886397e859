// The Game Stats Widget against the emulator process: BackendClient::UpdateGameStatsProfile and
// GetGameStatsProfile with the bot token. An unclaimed game is refused (403), a claimed one writes (and reads
// back exactly what it wrote), and a limit crossed by one is refused in the SDK with nothing sent (a fault
// armed on the route is still there for the next request).
#include "emulator_fixture.hpp"

#include <platformpp/backend.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace game_stats_widget_test {

namespace {

using platformpp::ClientResult;
using platformpp::ErrorType;
using platformpp::backend::BackendClient;
using platformpp::backend::GameStatsData;
using platformpp::backend::GameStatsDynamicField;
using platformpp::backend::GameStatsProfile;
using namespace std::chrono_literals;

struct Widget {
  platformpp::testkit::EmulatorAdmin::App app;
  platformpp::testkit::EmulatorAdmin::User player;
  std::unique_ptr<BackendClient> client;

  Widget() {
    static std::atomic<int> counter{0};
    const int n = counter++;
    auto& e = itest::Shared();
    app = e.admin->CreateApp("Widget Game " + std::to_string(n));
    player = e.admin->CreateUser("widget_player" + std::to_string(n));
    platformpp::backend::BackendOptions options;
    options.apiBase = e.process->Connection().apiBase;
    options.caFile = e.process->Connection().caFile;
    options.botToken = app.botToken;
    options.applicationId = app.id;
    client = std::make_unique<BackendClient>(std::move(options));
  }

  template <class Result, class Start>
  Result Await(Start start) {
    auto out = std::make_shared<std::optional<Result>>();
    start(out);
    const auto deadline = std::chrono::steady_clock::now() + 20s;
    while (!out->has_value() && std::chrono::steady_clock::now() < deadline) {
      client->WaitForCallbacks(50);
      client->RunCallbacks();
    }
    REQUIRE(out->has_value());
    return std::move(**out);
  }

  ClientResult Write(const GameStatsProfile& profile, const std::string& providerId = "player-1") {
    return Await<ClientResult>([&](const auto& out) {
      client->UpdateGameStatsProfile(player.id, providerId, profile,
                                     [out](const ClientResult& result) { *out = result; });
    });
  }

  std::pair<ClientResult, GameStatsProfile> Read(const std::string& providerId = "player-1") {
    return Await<std::pair<ClientResult, GameStatsProfile>>([&](const auto& out) {
      client->GetGameStatsProfile(player.id, providerId,
                                  [out](ClientResult result, GameStatsProfile profile) {
                                    *out = std::make_pair(std::move(result), std::move(profile));
                                  });
    });
  }
};

GameStatsProfile Sample() {
  GameStatsProfile profile;
  profile.username = "Ada";
  GameStatsData data;
  data.primary.rankName = "Gold II";
  data.primary.rankImageUrl = "https://game.example/ranks/gold2.png";
  data.primary.totalWins = 128;
  data.primary.playtimeHours = 69.41;
  GameStatsDynamicField elo;
  elo.type = GameStatsDynamicField::Type::Number;
  elo.name = "elo";
  elo.number = 1523.5;
  GameStatsDynamicField main;
  main.type = GameStatsDynamicField::Type::String;
  main.name = "main_class";
  main.text = "Ranger";
  data.dynamic = {elo, main};
  profile.data = std::move(data);
  return profile;
}

}  // namespace

TEST_CASE("game stats widget: an unclaimed game is refused, a claimed one writes and reads back") {
  itest::FaultScope faults;
  Widget widget;
  auto& admin = *itest::Shared().admin;

  // Nothing written yet: the platform's Unknown Application Identity.
  // Named, not structured bindings, throughout: doctest's macros capture them (clang-tidy's clang 14 cannot).
  const ClientResult unknown = widget.Read().first;
  CHECK(unknown.Status() == 404);
  CHECK(unknown.ErrorCode() == 10013);

  auto refused = widget.Write(Sample());
  CHECK(refused.Type() == ErrorType::HTTPError);
  CHECK(refused.Status() == 403);
  CHECK(refused.ErrorCode() == 50001);

  admin.SetGameClaimed(widget.app.id);
  auto written = widget.Write(Sample());
  CHECK_MESSAGE(written.Successful(), written.ToString());
  const auto readBack = widget.Read();
  const ClientResult& read = readBack.first;
  const GameStatsProfile& profile = readBack.second;
  REQUIRE_MESSAGE(read.Successful(), read.ToString());
  CHECK(profile.username == "Ada");
  REQUIRE(profile.data);
  CHECK(profile.data->primary.rankName == "Gold II");
  CHECK(profile.data->primary.rankImageUrl == "https://game.example/ranks/gold2.png");
  CHECK(profile.data->primary.totalWins == 128);
  CHECK(profile.data->primary.playtimeHours == doctest::Approx(69.41));
  CHECK_FALSE(profile.data->primary.totalKills);
  REQUIRE(profile.data->dynamic.size() == 2);
  CHECK(profile.data->dynamic[0].type == GameStatsDynamicField::Type::Number);
  CHECK(profile.data->dynamic[0].name == "elo");
  CHECK(profile.data->dynamic[0].number == doctest::Approx(1523.5));
  CHECK(profile.data->dynamic[1].text == "Ranger");

  // A second write (204 on the wire) replaces every stat; a username-only write keeps them.
  GameStatsProfile next;
  next.data = GameStatsData{};
  next.data->primary.totalWins = 129;
  CHECK(widget.Write(next).Successful());
  GameStatsProfile rename;
  rename.username = "Ada L.";
  CHECK(widget.Write(rename).Successful());
  const auto again = widget.Read();
  REQUIRE(again.first.Successful());
  const GameStatsProfile& replaced = again.second;
  CHECK(replaced.username == "Ada L.");
  REQUIRE(replaced.data);
  CHECK(replaced.data->primary.totalWins == 129);
  CHECK_FALSE(replaced.data->primary.rankName);
  CHECK(replaced.data->dynamic.empty());

  // Unclaimed again: refused again, and the stored profile stays.
  admin.SetGameClaimed(widget.app.id, false);
  CHECK(widget.Write(Sample()).Status() == 403);
  CHECK(widget.Read().second.username == "Ada L.");
}

TEST_CASE("game stats widget: a limit crossed by one is refused locally, nothing sent") {
  itest::FaultScope faults;
  Widget widget;
  auto& admin = *itest::Shared().admin;
  admin.SetGameClaimed(widget.app.id);
  REQUIRE(widget.Write(Sample()).Successful());

  // Armed for one request on the profile route: a request that reached the emulator would consume it.
  platformpp::testkit::EmulatorAdmin::Fault fault;
  fault.route = "PATCH /applications/" + std::to_string(widget.app.id) + "/users/" +
                std::to_string(widget.player.id) + "/identities/player-1/profile";
  fault.status = 409;  // not one the HTTP client retries
  fault.count = 1;
  admin.AddFault(fault);

  // 31 dynamic fields: the platform allows 30.
  GameStatsProfile tooMany = Sample();
  tooMany.data->dynamic.clear();
  for (int i = 0; i < 31; ++i) {
    GameStatsDynamicField field;
    field.type = GameStatsDynamicField::Type::Number;
    field.name = "stat_" + std::to_string(i);
    field.number = i;
    tooMany.data->dynamic.push_back(field);
  }
  auto refused = widget.Write(tooMany);
  CHECK(refused.Type() == ErrorType::ValidationError);
  REQUIRE_FALSE(refused.FieldErrors().empty());
  CHECK(refused.FieldErrors().front().path.find("dynamic") != std::string::npos);

  // 30 are accepted by the SDK, and this request is the first to reach the route: it meets the fault.
  tooMany.data->dynamic.pop_back();
  auto faulted = widget.Write(tooMany);
  CHECK(faulted.Status() == 409);
  // The refused write changed nothing; the next one goes through.
  const auto unchanged = widget.Read();
  REQUIRE(unchanged.first.Successful());
  const GameStatsProfile& profile = unchanged.second;
  REQUIRE(profile.data);
  CHECK(profile.data->dynamic.size() == 2);
  CHECK(widget.Write(tooMany).Successful());
  CHECK(widget.Read().second.data->dynamic.size() == 30);
}

}  // namespace game_stats_widget_test
