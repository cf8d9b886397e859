// Users and guilds against the emulator: the player and its friends from READY, user changes pushed by the
// Gateway, the player's guilds and a guild's channels over HTTP, with the voice channels' statuses read over
// the Gateway (op 43) while the player is connected.
#include "bot_backend.hpp"
#include "emulator_fixture.hpp"
#include "json/json.hpp"

#include <platformpp/client.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace users_guilds_test {

namespace {

using platformpp::Client;
using platformpp::ClientResult;
using platformpp::ErrorType;
using namespace std::chrono_literals;

std::string UniqueName(const std::string& base) {
  static std::atomic<int> counter{0};
  return base + std::to_string(counter++);
}

struct Player {
  platformpp::testkit::EmulatorAdmin::User user;
  std::unique_ptr<Client> client;
  std::vector<uint64_t> userUpdated, groupsUpdated;

  uint64_t Id() const { return user.id; }
  void Connect() {
    client->Connect();
    REQUIRE(itest::RunUntil(
        *client, [&] { return client->GetStatus() == Client::Status::Ready; }, 20s));
  }
};

std::unique_ptr<Player> NewPlayer(const std::string& base, const std::string& globalName = {},
                                  const std::string& scopes = "openid sdk.social_layer guilds") {
  auto& e = itest::Shared();
  auto player = std::make_unique<Player>();
  player->user = e.admin->CreateUser(UniqueName(base), globalName);
  std::string token = e.admin->MintToken(player->user.id, e.app.id, scopes).accessToken;
  player->client = std::make_unique<Client>(e.Options());
  player->client->SetApplicationId(e.app.id);
  Player* p = player.get();
  player->client->SetUserUpdatedCallback([p](uint64_t id) { p->userUpdated.push_back(id); });
  player->client->SetRelationshipGroupsUpdatedCallback([p](uint64_t id) { p->groupsUpdated.push_back(id); });
  bool updated = false;
  player->client->UpdateToken(platformpp::AuthorizationTokenType::Bearer, token,
                              [&](const ClientResult& result) { updated = result.Successful(); });
  REQUIRE(itest::RunUntil(*player->client, [&] { return updated; }));
  return player;
}

bool Has(const std::vector<uint64_t>& ids, uint64_t id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

/// An admin call that answers an object with an `id`.
uint64_t AdminCreate(const std::string& path, const std::string& body) {
  auto response = itest::Shared().admin->Request("POST", path, body);
  REQUIRE_MESSAGE(response.status == 200, response.body);
  platformpp::json::Document document;
  REQUIRE(platformpp::json::Parse(response.body, document));
  auto id = platformpp::json::GetSnowflake(document, "id");
  REQUIRE(id);
  return *id;
}

struct GuildsOutcome {
  bool done = false;
  ClientResult result;
  std::vector<platformpp::GuildMinimal> guilds;
};

GuildsOutcome FetchGuilds(Player& player) {
  GuildsOutcome out;
  player.client->GetUserGuilds([&](ClientResult result, std::vector<platformpp::GuildMinimal> guilds) {
    out.done = true;
    out.result = std::move(result);
    out.guilds = std::move(guilds);
  });
  REQUIRE(itest::RunUntil(
      *player.client, [&] { return out.done; }, 20s));
  return out;
}

struct ChannelsOutcome {
  bool done = false;
  ClientResult result;
  std::vector<platformpp::GuildChannel> channels;
};

ChannelsOutcome FetchChannels(Player& player, uint64_t guildId) {
  ChannelsOutcome out;
  player.client->GetGuildChannels(guildId,
                                  [&](ClientResult result, std::vector<platformpp::GuildChannel> channels) {
                                    out.done = true;
                                    out.result = std::move(result);
                                    out.channels = std::move(channels);
                                  });
  REQUIRE(itest::RunUntil(
      *player.client, [&] { return out.done; }, 20s));
  return out;
}

}  // namespace

TEST_CASE("the player is known once the connection is Ready") {
  auto a = NewPlayer("ug_a", "Player Aa");
  CHECK_FALSE(a->client->GetCurrentUserV2());
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  CHECK(a->client->GetCurrentUser().Id() == 0);
  a->Connect();
  CHECK(a->client->GetCurrentUser().Id() == a->Id());
#pragma GCC diagnostic pop
  auto self = a->client->GetCurrentUserV2();
  REQUIRE(self);
  CHECK(self->Id() == a->Id());
  CHECK(self->Username() == a->user.username);
  CHECK(self->DisplayName() == "Player Aa");
  CHECK(self->Status() == platformpp::StatusType::Online);
  CHECK_FALSE(self->IsProvisional());
  CHECK(self->PremiumType() == 0);
  CHECK(self->AvatarUrl(platformpp::UserHandle::AvatarType::Gif, platformpp::UserHandle::AvatarType::Png) ==
        "https://cdn.discordapp.com/embed/avatars/" + std::to_string((a->Id() >> 22) % 6) + ".png");
  CHECK(a->client->GetUser(a->Id()));
}

TEST_CASE("friends come with READY; name, tag and avatar changes reach the player") {
  auto a = NewPlayer("ug_b");
  auto b = NewPlayer("ug_c", "Bee");
  itest::Shared().admin->MakeFriends(a->Id(), b->Id());
  a->Connect();
  auto friendUser = a->client->GetUser(b->Id());
  REQUIRE(friendUser);
  CHECK(friendUser->Username() == b->user.username);
  CHECK(friendUser->DisplayName() == "Bee");
  CHECK(friendUser->Status() == platformpp::StatusType::Offline);  // B is not connected
  CHECK(friendUser->Relationship() == platformpp::RelationshipType::Friend);
  auto offline = a->client->GetRelationshipsByGroup(platformpp::RelationshipGroupType::Offline);
  REQUIRE(offline.size() == 1);
  CHECK(offline[0].Id() == b->Id());
  CHECK_FALSE(a->client->GetUser(b->Id() + 1000000));

  auto changed =
      itest::Shared().admin->Request("POST", "/users/" + std::to_string(b->Id()) + "/profile",
                                     R"({"global_name":"Zebra","tag":"ZZZZ","avatar":"a_0123abc"})");
  REQUIRE(changed.status == 200);
  CHECK(itest::RunUntil(*a->client, [&] {
    auto user = a->client->GetUser(b->Id());
    return user && user->DisplayName() == "Zebra" && Has(a->userUpdated, b->Id()) &&
           Has(a->groupsUpdated, b->Id());
  }));
  auto zebra = a->client->GetUser(b->Id());
  REQUIRE(zebra);
  CHECK(zebra->PrimaryGuildTag() == std::optional<std::string>("ZZZZ"));
  CHECK(zebra->AvatarUrl(platformpp::UserHandle::AvatarType::Gif, platformpp::UserHandle::AvatarType::Png) ==
        "https://cdn.discordapp.com/avatars/" + std::to_string(b->Id()) + "/a_0123abc.gif");

  // The player's own change arrives as USER_UPDATE.
  REQUIRE(
      itest::Shared()
          .admin
          ->Request("POST", "/users/" + std::to_string(a->Id()) + "/profile", R"({"global_name":"Me Now"})")
          .status == 200);
  CHECK(itest::RunUntil(*a->client, [&] {
    return a->client->GetCurrentUserV2()->DisplayName() == "Me Now" && Has(a->userUpdated, a->Id());
  }));
}

TEST_CASE("GetUserGuilds lists the player's guilds with their banners") {
  auto a = NewPlayer("ug_d");
  auto other = NewPlayer("ug_e");
  uint64_t owned = AdminCreate("/guilds", R"({"name":"Owned Guild","owner_id":")" + std::to_string(a->Id()) +
                                              R"(","banner":"bannerhash1"})");
  uint64_t joined =
      AdminCreate("/guilds", R"({"name":"Joined Guild","owner_id":")" + std::to_string(other->Id()) + "\"}");
  REQUIRE(itest::Shared()
              .admin
              ->Request("POST", "/guilds/" + std::to_string(joined) + "/members",
                        R"({"user_id":")" + std::to_string(a->Id()) + "\"}")
              .status == 200);
  uint64_t foreign =
      AdminCreate("/guilds", R"({"name":"Foreign Guild","owner_id":")" + std::to_string(other->Id()) + "\"}");

  auto out = FetchGuilds(*a);
  REQUIRE(out.result.Successful());
  REQUIRE(out.guilds.size() == 2);
  auto find = [&](uint64_t id) -> std::optional<platformpp::GuildMinimal> {
    for (const auto& guild : out.guilds) {
      if (guild.Id() == id) return guild;
    }
    return std::nullopt;
  };
  REQUIRE(find(owned));
  CHECK(find(owned)->Name() == "Owned Guild");
  CHECK(find(owned)->Banner() == "bannerhash1");
  REQUIRE(find(joined));
  CHECK(find(joined)->Banner().empty());
  CHECK_FALSE(find(foreign));

  // Without a token nothing is sent.
  Player lonely;
  lonely.client = std::make_unique<Client>(itest::Shared().Options());
  CHECK(FetchGuilds(lonely).result.Type() == ErrorType::ClientNotReady);
}

TEST_CASE("GetUserGuilds needs the guilds scope") {
  auto a = NewPlayer("ug_f", {}, "openid");
  auto out = FetchGuilds(*a);
  CHECK(out.result.Type() == ErrorType::HTTPError);
  CHECK(out.result.Status() == 403);
  CHECK(out.result.ErrorCode() == 50001);
  CHECK(out.guilds.empty());
}

TEST_CASE("GetGuildChannels sorts channels as the desktop client lists them") {
  auto a = NewPlayer("ug_g");
  uint64_t guild =
      AdminCreate("/guilds", R"({"name":"Sorted Guild","owner_id":")" + std::to_string(a->Id()) + "\"}");
  std::string base = "/guilds/" + std::to_string(guild) + "/channels";
  auto channel = [&](const std::string& name, int type, int position, std::optional<uint64_t> parent = {}) {
    std::string body = R"({"name":")" + name + R"(","type":)" + std::to_string(type) + R"(,"position":)" +
                       std::to_string(position);
    if (parent) body += R"(,"parent_id":")" + std::to_string(*parent) + "\"";
    return AdminCreate(base, body + "}");
  };
  uint64_t catB = channel("cat-b", 4, 2);
  uint64_t voiceB = channel("voice-b", 2, 0, catB);
  uint64_t textB = channel("text-b", 0, 3, catB);
  uint64_t catA = channel("cat-a", 4, 1);
  uint64_t secondA = channel("second-a", 0, 7, catA);
  uint64_t firstA = channel("first-a", 0, 2, catA);
  uint64_t lobby = channel("lobby", 0, 5);
  uint64_t welcome = channel("welcome", 0, 0);

  auto out = FetchChannels(*a, guild);
  REQUIRE(out.result.Successful());
  std::vector<uint64_t> ids;
  for (const auto& c : out.channels)
    ids.push_back(c.Id());
  CHECK(ids == std::vector<uint64_t>{welcome, lobby, catA, firstA, secondA, catB, textB, voiceB});
  REQUIRE(out.channels.size() == 8);
  CHECK(out.channels[0].Name() == "welcome");
  CHECK(out.channels[2].Type() == 4);
  CHECK(out.channels[3].ParentCategoryId() == std::optional<uint64_t>(catA));
  CHECK(out.channels[3].Position() == 2);
  CHECK_FALSE(out.channels[0].ParentCategoryId());
  CHECK(out.channels[7].Type() == 2);

  CHECK(FetchChannels(*a, 0).result.Type() == ErrorType::ValidationError);
  auto unknown = FetchChannels(*a, guild + 1);
  CHECK(unknown.result.Type() == ErrorType::HTTPError);
  CHECK(unknown.result.Status() == 404);
}

TEST_CASE("GetGuildChannels: voice channel statuses while the player is connected, none when not") {
  auto& e = itest::Shared();
  auto a = NewPlayer("ug_voice");
  itest::BotBackend bot("Voice Status Bot");
  const uint64_t guild = e.admin->CreateGuild("Voice Status Guild", a->Id());
  using Spec = platformpp::testkit::EmulatorAdmin::ChannelSpec;
  const uint64_t chat = e.admin->CreateChannel(guild, Spec{.name = "chat", .type = 0, .position = 0});
  const uint64_t squad = e.admin->CreateChannel(guild, Spec{.name = "squad", .type = 2, .position = 1});
  const uint64_t stage = e.admin->CreateChannel(guild, Spec{.name = "stage", .type = 13, .position = 2});
  constexpr uint64_t kManageChannels = uint64_t{1} << 4;
  constexpr uint64_t kSetVoiceChannelStatus = uint64_t{1} << 48;
  const auto role = e.admin->CreateRole(guild, "Status Setter", kManageChannels | kSetVoiceChannelStatus);
  e.admin->AddGuildMember(guild, bot.app.botUserId, {role});
  CHECK(bot.WaitResult([&](auto done) { bot.backend->SetVoiceChannelStatus(squad, "Ranked, join us", done); })
            .Successful());

  auto statusOf = [](const ChannelsOutcome& out, uint64_t id) {
    for (const auto& channel : out.channels)
      if (channel.Id() == id) return channel.VoiceStatus();
    FAIL("channel missing");
    return std::optional<std::string>();
  };
  // Not connected: the list as before, without statuses (they could not be read).
  auto offline = FetchChannels(*a, guild);
  REQUIRE(offline.result.Successful());
  REQUIRE(offline.channels.size() == 3);
  CHECK_FALSE(statusOf(offline, squad));

  a->Connect();
  auto online = FetchChannels(*a, guild);
  REQUIRE_MESSAGE(online.result.Successful(), online.result.Error());
  REQUIRE(online.channels.size() == 3);
  CHECK(statusOf(online, squad) == std::optional<std::string>("Ranked, join us"));
  CHECK_FALSE(statusOf(online, stage));  // a stage without a status
  CHECK_FALSE(statusOf(online, chat));   // a text channel has none
  CHECK(online.channels[1].Name() == "squad");

  // Cleared: read again, it is gone; two calls at once share one question and both end once.
  CHECK(bot.WaitResult([&](auto done) { bot.backend->SetVoiceChannelStatus(squad, "", done); }).Successful());
  int ends = 0;
  std::vector<std::optional<std::string>> seen;
  for (int i = 0; i < 2; ++i) {
    a->client->GetGuildChannels(
        guild, [&](const ClientResult& result, const std::vector<platformpp::GuildChannel>& channels) {
          ++ends;
          CHECK(result.Successful());
          for (const auto& channel : channels)
            if (channel.Id() == squad) seen.push_back(channel.VoiceStatus());
        });
  }
  REQUIRE(itest::RunUntil(
      *a->client, [&] { return ends == 2; }, 20s));
  CHECK(seen == std::vector<std::optional<std::string>>{std::nullopt, std::nullopt});
}

TEST_CASE("a provisional account's external identity is among its user application profiles") {
  auto& e = itest::Shared();
  Client client(e.Options());
  client.SetApplicationId(e.app.id);
  CHECK(client.GetUserApplicationProfiles().empty());
  bool done = false;
  std::string access;
  client.GetProvisionalToken(e.app.id, platformpp::AuthenticationExternalAuthType::OIDC,
                             UniqueName("ug-oidc-"),
                             [&](const ClientResult& result, std::string token, const std::string&,
                                 platformpp::AuthorizationTokenType, int32_t, const std::string&) {
                               done = true;
                               if (result.Successful()) access = std::move(token);
                             });
  REQUIRE(itest::RunUntil(
      client, [&] { return done; }, 20s));
  REQUIRE_FALSE(access.empty());
  bool updated = false;
  client.UpdateToken(platformpp::AuthorizationTokenType::Bearer, access,
                     [&](const ClientResult&) { updated = true; });
  REQUIRE(itest::RunUntil(client, [&] { return updated; }));
  client.Connect();
  REQUIRE(itest::RunUntil(
      client, [&] { return client.GetStatus() == Client::Status::Ready; }, 20s));
  auto self = client.GetCurrentUserV2();
  REQUIRE(self);
  CHECK(self->IsProvisional());
  auto profiles = client.GetUserApplicationProfiles();
  REQUIRE(profiles.size() == 1);
  CHECK(profiles[0].ProviderType() == "OIDC");  // the external_auth_type wire name
  CHECK_FALSE(profiles[0].ProviderIssuedUserId().empty());
  CHECK_FALSE(profiles[0].ProviderId());
  CHECK(profiles[0].Metadata() == "{}");
  CHECK(client.GetUserApplicationProfilesNoLock().size() == 1);
}

// Seed: "from 16 November 2026 channels the bot lacks VIEW_CHANNEL for are omitted" from the HTTP list. An
// emulator of its own, started frozen one second before that date, crosses it by one millisecond.
TEST_CASE("GetGuildChannels before and after 16 November 2026: a channel the player cannot view") {
  platformpp::testkit::EmulatorProcess::Options options;
  options.binary = PLATFORMPP_EMULATOR_PATH;
  options.extraArguments = {"--frozen-clock", "--clock-start", "2026-11-15T23:59:59Z"};
  auto emulator = platformpp::testkit::EmulatorProcess::Start(options);
  platformpp::testkit::EmulatorAdmin admin(emulator->Connection());
  auto app = admin.CreateApp("Dated Game");
  auto owner = admin.CreateUser("dated_owner");
  auto player = admin.CreateUser("dated_player");
  uint64_t guild = admin.CreateGuild("Dated Guild", owner.id);
  admin.AddGuildMember(guild, player.id);
  using Spec = platformpp::testkit::EmulatorAdmin::ChannelSpec;
  uint64_t general = admin.CreateChannel(guild, Spec{.name = "general", .position = 0});
  uint64_t staff = admin.CreateChannel(
      guild, Spec{.name = "staff",
                  .position = 1,
                  .permissionOverwrites = std::vector<platformpp::testkit::EmulatorAdmin::ChannelOverwrite>{
                      {.id = guild, .type = 0, .allow = 0, .deny = uint64_t{1} << 10}}});

  Client client(emulator->Connection().ClientOptionsFor());
  client.SetApplicationId(app.id);
  client.UpdateToken(platformpp::AuthorizationTokenType::Bearer,
                     admin.MintToken(player.id, app.id, "openid sdk.social_layer guilds").accessToken,
                     nullptr);
  auto fetch = [&] {
    std::optional<std::pair<ClientResult, std::vector<uint64_t>>> out;
    client.GetGuildChannels(guild,
                            [&](ClientResult result, const std::vector<platformpp::GuildChannel>& channels) {
                              std::vector<uint64_t> ids;
                              ids.reserve(channels.size());
                              for (const auto& c : channels)
                                ids.push_back(c.Id());
                              out.emplace(std::move(result), std::move(ids));
                            });
    REQUIRE(itest::RunUntil(
        client, [&] { return out.has_value(); }, 20s));
    CHECK(out->first.Successful());
    return out->second;
  };

  constexpr int64_t kOmittedFrom = 1'794'787'200'000;  // 2026-11-16T00:00:00Z
  admin.AdvanceClock(std::chrono::milliseconds(kOmittedFrom - 1 - admin.ClockMs()));
  REQUIRE(admin.ClockMs() == kOmittedFrom - 1);
  CHECK(fetch() == std::vector<uint64_t>{general, staff});  // 15 November, 23:59:59.999: still listed
  admin.AdvanceClock(std::chrono::milliseconds(1));
  CHECK(fetch() == std::vector<uint64_t>{general});  // 16 November, 00:00:00.000: omitted
}

// The platform calls Identify's capability 1 << 15 (channel obfuscation ahead of its date) temporary and for
// testing: a Client sends it only when its options ask.
TEST_CASE("Identify carries the channel obfuscation capability only when ClientOptions opts in") {
  auto& e = itest::Shared();
  auto plain = NewPlayer("plain_identify");
  auto testing = NewPlayer("obfuscating_identify");
  CHECK_FALSE(platformpp::ClientOptions{}.channelObfuscationOptIn);
  auto options = e.Options();
  options.channelObfuscationOptIn = true;
  testing->client = std::make_unique<Client>(options);
  testing->client->SetApplicationId(e.app.id);
  bool updated = false;
  testing->client->UpdateToken(
      platformpp::AuthorizationTokenType::Bearer,
      e.admin->MintToken(testing->Id(), e.app.id, "openid sdk.social_layer").accessToken,
      [&](const ClientResult& result) { updated = result.Successful(); });
  REQUIRE(itest::RunUntil(*testing->client, [&] { return updated; }));
  plain->Connect();
  testing->Connect();
  std::optional<uint64_t> plainCapabilities, testingCapabilities;
  for (const auto& session : e.admin->GatewaySessions()) {
    if (!session.connected) continue;
    if (session.userId == plain->Id()) plainCapabilities = session.capabilities;
    if (session.userId == testing->Id()) testingCapabilities = session.capabilities;
  }
  REQUIRE(plainCapabilities);
  REQUIRE(testingCapabilities);
  CHECK(*plainCapabilities == 0);
  CHECK(*testingCapabilities == (uint64_t{1} << 15));
}

}  // namespace users_guilds_test
