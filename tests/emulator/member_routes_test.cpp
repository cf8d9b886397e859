// A guild's members through the API without sockets: get, list (the GUILD_MEMBERS intent, limit and after),
// modify (nick 32, roles under the hierarchy, a timeout of at most 28 days and what it leaves of the
// member's permissions, flags under the updated rule), the current member's profile (nick, avatar, banner,
// bio), a role added and removed, a kick; GUILD_MEMBER_UPDATE and GUILD_MEMBER_REMOVE.
#include <doctest/doctest.h>

#include <string>

#include "core/fake_clock.hpp"
#include "recording_gateway_peer.hpp"
#include "service_bench.hpp"
#include "test_support.hpp"

namespace member_routes_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;
using namespace platformpp::emulator::permission;

namespace {

constexpr std::int64_t kDayMs = 24LL * 60 * 60 * 1000;
constexpr std::uint64_t kGuildsAndMembers = (1U << 0) | (1U << 1) | (1U << 9);

// Owner Olivia; Alice (role Racer, position 1); the bot (role Staff, position 2, with the member-managing
// permissions); #general (@everyone may view, send and read history).
struct Emulator : ServiceBench {
  std::string olivia, alice, app_id, bot_id, bot_token, racer, staff, general;
  RecordingGatewayPeer bot_peer;

  Emulator() {
    olivia = user("olivia");
    alice = user("alice");
    const auto game = app("Game");
    app_id = game.id;
    bot_id = game.bot_id;
    bot_token = game.bot_token;
    guild(olivia);
    racer = role("Racer", 0);
    staff =
        role("Staff", kKickMembers | kManageNicknames | kManageRoles | kModerateMembers | kChangeNickname);
    member(alice, racer);
    member(bot_id, staff);
    general = channel(R"({"name":"general"})");
  }
  HttpResponse bot(std::string method, const std::string& path, std::string body = {}) {
    return as_json("Bot " + bot_token, std::move(method), "/guilds/" + guild_id + path, std::move(body));
  }
  void connect_bot() {
    identify(bot_peer, bot_token, kGuildsAndMembers);
    REQUIRE(bot_peer.dispatches("READY").size() == 1);
  }
};

void check_error(const HttpResponse& response, int status, int code) {
  CHECK_MESSAGE(response.status == status, response.body);
  CHECK_MESSAGE(parse(response.body)["code"].GetInt() == code, response.body);
}

}  // namespace

TEST_CASE("Get Guild Member and List Guild Members: limit 1..1000, after, the GUILD_MEMBERS intent") {
  Emulator e;
  const auto alice = e.ok(e.bot("GET", "/members/" + e.alice));
  CHECK(str(alice["user"]["id"]) == e.alice);
  CHECK(str(alice["roles"][0]) == e.racer);
  CHECK(alice["nick"].IsNull());
  CHECK(alice["communication_disabled_until"].IsNull());
  check_error(e.bot("GET", "/members/424242"), 404, 10007);
  CHECK(e.ok(e.bot("GET", "/members")).Size() == 1);  // the default limit is 1
  const auto all = e.ok(e.bot("GET", "/members?limit=1000"));
  REQUIRE(all.Size() == 3);
  const auto after = e.ok(e.bot("GET", "/members?limit=1000&after=" + str(all[0]["user"]["id"])));
  CHECK(after.Size() == 2);
  check_error(e.bot("GET", "/members?limit=1001"), 400, 50035);
  check_error(e.bot("GET", "/members?limit=0"), 400, 50035);
  e.call("POST", "/_emulator/apps/" + e.app_id + "/intents", R"({"guild_members":false})");
  check_error(e.bot("GET", "/members?limit=10"), 403, 50001);
}

TEST_CASE("Modify Guild Member: nick (32) and roles under the hierarchy; GUILD_MEMBER_UPDATE") {
  Emulator e;
  e.connect_bot();
  const auto named =
      e.ok(e.bot("PATCH", "/members/" + e.alice, R"({"nick":")" + std::string(32, 'n') + R"("})"));
  CHECK(str(named["nick"]).size() == 32);
  const auto update = e.bot_peer.only("GUILD_MEMBER_UPDATE");
  CHECK(str(update["d"]["guild_id"]) == e.guild_id);
  CHECK(str(update["d"]["user"]["id"]) == e.alice);
  check_error(e.bot("PATCH", "/members/" + e.alice, R"({"nick":")" + std::string(33, 'n') + R"("})"), 400,
              50035);
  // The owner outranks the bot: no nick for her.
  check_error(e.bot("PATCH", "/members/" + e.olivia, R"({"nick":"boss"})"), 403, 50013);

  // Roles: Racer (below Staff) can go; Staff (the bot's own highest) cannot be given.
  const auto cleared = e.ok(e.bot("PATCH", "/members/" + e.alice, R"({"roles":[]})"));
  CHECK(cleared["roles"].Size() == 0);
  check_error(e.bot("PATCH", "/members/" + e.alice, R"({"roles":[")" + e.staff + R"("]})"), 403, 50013);
  check_error(e.bot("PATCH", "/members/" + e.alice, R"({"roles":["424242"]})"), 404, 10011);
  CHECK(e.bot("PUT", "/members/" + e.alice + "/roles/" + e.racer).status == 204);
  CHECK(str(e.ok(e.bot("GET", "/members/" + e.alice))["roles"][0]) == e.racer);
  CHECK(e.bot("DELETE", "/members/" + e.alice + "/roles/" + e.racer).status == 204);
  CHECK(e.ok(e.bot("GET", "/members/" + e.alice))["roles"].Size() == 0);
  check_error(e.bot("PUT", "/members/" + e.alice + "/roles/" + e.staff), 403, 50013);
}

TEST_CASE(
    "timeouts: MODERATE_MEMBERS, at most 28 days, never the owner; a timed-out member keeps reading only") {
  Emulator e;
  const auto until = [&](std::int64_t ms) { return format_rfc3339_ms(kBenchStart + ms); };
  e.ok(e.bot("PATCH", "/members/" + e.alice,
             R"({"communication_disabled_until":")" + until(28 * kDayMs) + R"("})"));
  check_error(e.bot("PATCH", "/members/" + e.alice,
                    R"({"communication_disabled_until":")" + until(28 * kDayMs + 1000) + R"("})"),
              400, 50035);
  check_error(e.bot("PATCH", "/members/" + e.olivia,
                    R"({"communication_disabled_until":")" + until(kDayMs) + R"("})"),
              403, 50013);
  const auto member = e.ok(e.bot("GET", "/members/" + e.alice));
  CHECK(str(member["communication_disabled_until"]) == until(28 * kDayMs));
  const auto cleared =
      e.ok(e.bot("PATCH", "/members/" + e.alice, R"({"communication_disabled_until":null})"));
  CHECK(cleared["communication_disabled_until"].IsNull());

  // A second bot, below Staff, timed out for a day: it still reads #general but cannot post, until the end.
  const auto helper = e.app_json("Helper");
  e.member(str(helper["bot_user_id"]), e.racer);
  const auto post = [&] {
    return e.raw(
        "POST", "/api/v10/channels/" + e.general + "/messages", R"({"content":"gg"})",
        {{"Authorization", "Bot " + str(helper["bot_token"])}, {"Content-Type", "application/json"}});
  };
  CHECK(post().status == 200);
  e.ok(e.bot("PATCH", "/members/" + str(helper["bot_user_id"]),
             R"({"communication_disabled_until":")" + until(kDayMs) + R"("})"));
  check_error(post(), 403, 50013);
  const auto read = e.raw("GET", "/api/v10/channels/" + e.general + "/messages", {},
                          {{"Authorization", "Bot " + str(helper["bot_token"])}});
  CHECK(parse(read.body).Size() == 1);  // VIEW_CHANNEL and READ_MESSAGE_HISTORY stay
  REQUIRE(e.clock.advance(kDayMs));
  CHECK(post().status == 200);
}

TEST_CASE(
    "flags: MANAGE_GUILD, MANAGE_ROLES, or MODERATE_MEMBERS with KICK and BAN; BYPASSES_VERIFICATION only") {
  Emulator e;
  const auto flagged = e.ok(e.bot("PATCH", "/members/" + e.alice, R"({"flags":4})"));  // MANAGE_ROLES
  CHECK(flagged["flags"].GetInt() == 4);
  const auto other_bits = e.ok(e.bot("PATCH", "/members/" + e.alice, R"({"flags":3})"));
  CHECK(other_bits["flags"].GetInt() == 0);  // only BYPASSES_VERIFICATION is settable
  // A bot with only MODERATE_MEMBERS and KICK_MEMBERS (no BAN_MEMBERS, MANAGE_ROLES, MANAGE_GUILD): refused.
  const auto limited = e.role("Limited", kModerateMembers | kKickMembers);
  e.member(e.bot_id, limited);
  check_error(e.bot("PATCH", "/members/" + e.alice, R"({"flags":4})"), 403, 50013);
  const auto manager = e.role("Manager", kManageGuild);
  e.member(e.bot_id, manager);
  e.ok(e.bot("PATCH", "/members/" + e.alice, R"({"flags":4})"));
}

TEST_CASE("Modify Current Member: a bot's nick, avatar, banner and bio") {
  Emulator e;
  const auto me = e.ok(e.bot("PATCH", "/members/@me",
                             R"({"nick":"Race Control","avatar":"data:image/png;base64,AAAA",)"
                             R"("banner":"data:image/png;base64,BBBB","bio":")" +
                                 std::string(190, 'b') + R"("})"));
  CHECK(str(me["nick"]) == "Race Control");
  CHECK(str(me["avatar"]).size() == 32);
  CHECK(str(me["banner"]).size() == 32);
  CHECK(str(me["bio"]).size() == 190);
  check_error(e.bot("PATCH", "/members/@me", R"({"bio":")" + std::string(191, 'b') + R"("})"), 400, 50035);
  check_error(e.bot("PATCH", "/members/@me", R"({"avatar":"not an image"})"), 400, 50035);
  const auto cleared = e.ok(e.bot("PATCH", "/members/@me", R"({"avatar":null,"nick":null})"));
  CHECK(cleared["avatar"].IsNull());
  CHECK(cleared["nick"].IsNull());
}

TEST_CASE("Remove Guild Member: KICK_MEMBERS and the hierarchy; GUILD_MEMBER_REMOVE") {
  Emulator e;
  e.connect_bot();
  check_error(e.bot("DELETE", "/members/" + e.olivia), 403, 50013);
  CHECK(e.bot("DELETE", "/members/" + e.alice).status == 204);
  const auto removed = e.bot_peer.only("GUILD_MEMBER_REMOVE");
  CHECK(str(removed["d"]["user"]["id"]) == e.alice);
  CHECK(str(removed["d"]["guild_id"]) == e.guild_id);
  check_error(e.bot("GET", "/members/" + e.alice), 404, 10007);
  check_error(e.bot("DELETE", "/members/" + e.alice), 404, 10007);
}

TEST_CASE("prune: MANAGE_GUILD with KICK_MEMBERS; days 1..30; members without roles, or only included ones") {
  Emulator e;
  // Bob joined with no role; Alice has Racer. Eight days pass, nobody connected.
  const auto bob = e.user("bob");
  e.member(bob);
  check_error(e.bot("GET", "/prune"), 403, 50013);  // KICK_MEMBERS alone is not enough
  const auto manager = e.role("Manager", kManageGuild | kKickMembers);
  e.call("POST", "/_emulator/guilds/" + e.guild_id + "/members",
         R"({"user_id":")" + e.bot_id + R"(","roles":[")" + e.staff + R"(",")" + manager + R"("]})");
  CHECK(e.ok(e.bot("GET", "/prune"))["pruned"].GetInt() == 0);  // joined less than 7 days ago
  REQUIRE(e.clock.advance(8 * kDayMs));
  CHECK(e.ok(e.bot("GET", "/prune"))["pruned"].GetInt() == 1);  // Bob: no roles
  CHECK(e.ok(e.bot("GET", "/prune?include_roles=" + e.racer))["pruned"].GetInt() == 2);
  CHECK(e.ok(e.bot("GET", "/prune?days=30"))["pruned"].GetInt() == 0);
  check_error(e.bot("GET", "/prune?days=31"), 400, 50035);
  check_error(e.bot("GET", "/prune?days=0"), 400, 50035);
  e.connect_bot();
  const auto pruned = e.ok(e.bot("POST", "/prune", R"({"days":1,"include_roles":[")" + e.racer + R"("]})"));
  CHECK(pruned["pruned"].GetInt() == 2);
  CHECK(e.bot_peer.dispatches("GUILD_MEMBER_REMOVE").size() == 2);
  check_error(e.bot("GET", "/members/" + bob), 404, 10007);
  CHECK(e.ok(e.bot("POST", "/prune", R"({"compute_prune_count":false})"))["pruned"].IsNull());
}

}  // namespace member_routes_test
