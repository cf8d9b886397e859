// A guild's channels through the API without sockets: Get, Create (201), Modify, positions, Delete, and
// Edit/Delete Channel Permission; MANAGE_CHANNELS and MANAGE_ROLES counted in the channel; overwrites only of
// bits the bot has (MANAGE_ROLES only for administrators); the field limits crossed by one; type changes;
// CHANNEL_* dispatches; audit entries 10-15. Slowmode: a member's messages through the admin stand-in for the
// platform's client, refused with 429 20016 until rate_limit_per_user seconds have passed (crossed by one
// millisecond), bots exempt, BYPASS_SLOWMODE exempt after the 2026-02-23 split and MANAGE_MESSAGES before it.
#include <doctest/doctest.h>

#include <string>

#include "recording_gateway_peer.hpp"
#include "service_bench.hpp"
#include "state_mirror.hpp"
#include "test_support.hpp"

namespace channel_routes_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;
using namespace platformpp::emulator::permission;

namespace {

constexpr std::int64_t kBeforeSplit = 1771804800000 - 1;  // 2026-02-22T23:59:59.999Z
constexpr std::uint64_t kGuildsIntent = 1U << 0;

// Owner Olivia and member Alice; the bot with "Builder" (MANAGE_CHANNELS, MANAGE_ROLES, VIEW_CHANNEL,
// SEND_MESSAGES, or `bits`), and #general. @everyone views and sends.
struct Emulator : ServiceBench {
  std::string olivia, alice, bot_id, bot_token, builder, general;

  struct Empty {};
  explicit Emulator(Empty /*unused*/) {}
  explicit Emulator(std::uint64_t bits = kManageChannels | kManageRoles | kViewChannel | kSendMessages,
                    std::int64_t start = kBenchStart, const std::string& features = "[]")
      : ServiceBench(start) {
    olivia = user("olivia");
    alice = user("alice");
    const auto app = app_json("Game");
    bot_id = str(app["bot_user_id"]);
    bot_token = str(app["bot_token"]);
    guild(olivia, "Home", R"(,"features":)" + features);
    builder = role("Builder", bits);
    member(bot_id, builder);
    member(alice);
    general = channel(R"({"name":"general","type":0})");
  }
  HttpResponse bot(std::string method, const std::string& path, std::string body = {}) {
    return as_json("Bot " + bot_token, std::move(method), path, std::move(body));
  }
  // A member's message from the platform's client (the admin stand-in).
  HttpResponse member_says(const std::string& user_id, const std::string& channel_id,
                           const std::string& text) {
    return raw("POST", "/_emulator/channels/" + channel_id + "/messages?author_id=" + user_id,
               R"({"content":")" + text + R"("})");
  }
  void connect(RecordingGatewayPeer& peer) {
    identify(peer, bot_token, kGuildsIntent);
    REQUIRE(peer.dispatches("READY").size() == 1);
  }
  // The audit log as the owner's bot sees it: read through the API with a second, administrator bot.
  rapidjson::Document audit_entries() {
    const auto app = app_json("Auditor");
    member(str(app["bot_user_id"]), role("Auditor", kAdministrator));
    const auto response = raw("GET", "/api/v10/guilds/" + guild_id + "/audit-logs", {},
                              {{"Authorization", "Bot " + str(app["bot_token"])}});
    REQUIRE_MESSAGE(response.status == 200, response.body);
    return parse(response.body);
  }
};

void check_error(const HttpResponse& response, int status, int code) {
  CHECK_MESSAGE(response.status == status, response.body);
  CHECK_MESSAGE(parse(response.body)["code"].GetInt() == code, response.body);
}

// The field errors of a 50035 name `field` at the top level.
void check_field_error(const HttpResponse& response, const char* field) {
  REQUIRE_MESSAGE(response.status == 400, response.body);
  const auto body = parse(response.body);
  CHECK(body["code"].GetInt() == 50035);
  CHECK_MESSAGE(body["errors"].HasMember(field), response.body);
}

}  // namespace

TEST_CASE("Create Guild Channel: MANAGE_CHANNELS, 201, the limits crossed by one, CHANNEL_CREATE, entry 10") {
  Emulator without(kViewChannel);
  check_error(without.bot("POST", "/guilds/" + without.guild_id + "/channels", R"({"name":"x"})"), 403,
              50013);

  Emulator e;
  RecordingGatewayPeer peer;
  e.connect(peer);
  const auto channels = "/guilds/" + e.guild_id + "/channels";
  const auto created = e.bot("POST", channels,
                             R"({"name":")" + std::string(100, 'n') +
                                 R"(","type":0,"topic":"t","rate_limit_per_user":21600,"nsfw":true})");
  CHECK(created.status == 201);
  const auto channel = parse(created.body);
  CHECK(channel["rate_limit_per_user"].GetInt() == 21600);
  CHECK(channel["nsfw"].GetBool());
  CHECK(str(channel["guild_id"]) == e.guild_id);
  const auto dispatched = peer.dispatches("CHANNEL_CREATE");
  REQUIRE(dispatched.size() == 1);
  CHECK(str(dispatched[0]["d"]["id"]) == str(channel["id"]));

  check_field_error(e.bot("POST", channels, R"({"name":")" + std::string(101, 'n') + R"("})"), "name");
  check_field_error(e.bot("POST", channels, R"({"name":"slow","rate_limit_per_user":21601})"),
                    "rate_limit_per_user");
  check_field_error(e.bot("POST", channels, R"({"name":"slow","rate_limit_per_user":-1})"),
                    "rate_limit_per_user");
  check_field_error(e.bot("POST", channels, R"({"name":"cat","type":4,"rate_limit_per_user":5})"),
                    "rate_limit_per_user");
  check_field_error(e.bot("POST", channels, R"({"name":"odd","type":3})"), "type");
  check_field_error(e.bot("POST", channels, R"({"type":0})"), "name");

  const auto entries = e.audit_entries();
  REQUIRE(entries["audit_log_entries"].Size() == 1);
  const auto& entry = entries["audit_log_entries"][0];
  CHECK(entry["action_type"].GetInt() == 10);
  CHECK(str(entry["target_id"]) == str(channel["id"]));
  CHECK(str(entry["user_id"]) == e.bot_id);
}

TEST_CASE("channel overwrites: only bits the bot has, MANAGE_ROLES only for administrators") {
  Emulator e;
  const auto channels = "/guilds/" + e.guild_id + "/channels";
  const auto overwrite = [&](std::uint64_t allow, std::uint64_t deny) {
    return R"({"name":"private","permission_overwrites":[{"id":")" + e.guild_id + R"(","type":0,"allow":")" +
           std::to_string(allow) + R"(","deny":")" + std::to_string(deny) + R"("}]})";
  };
  CHECK(e.bot("POST", channels, overwrite(0, kViewChannel)).status == 201);
  // MANAGE_MESSAGES is not the bot's: neither allowed nor denied.
  check_error(e.bot("POST", channels, overwrite(kManageMessages, 0)), 403, 50013);
  check_error(e.bot("POST", channels, overwrite(0, kManageMessages)), 403, 50013);
  // MANAGE_ROLES the bot has, but only an administrator puts it in an overwrite.
  check_error(e.bot("POST", channels, overwrite(kManageRoles, 0)), 403, 50013);
  Emulator admin(kAdministrator);
  CHECK(admin
            .bot("POST", "/guilds/" + admin.guild_id + "/channels",
                 R"({"name":"p","permission_overwrites":[{"id":")" + admin.guild_id +
                     R"(","type":0,"allow":")" + std::to_string(kManageRoles) + R"("}]})")
            .status == 201);
}

TEST_CASE(
    "Modify Channel: MANAGE_CHANNELS in the channel, overwrites with MANAGE_ROLES, type changes, entries") {
  Emulator e;
  RecordingGatewayPeer peer;
  e.connect(peer);
  const auto path = "/channels/" + e.general;
  const auto changed = e.ok(e.bot("PATCH", path, R"({"name":"lobby","rate_limit_per_user":10})"));
  CHECK(str(changed["name"]) == "lobby");
  CHECK(changed["rate_limit_per_user"].GetInt() == 10);
  CHECK(peer.dispatches("CHANNEL_UPDATE").size() == 1);
  check_field_error(e.bot("PATCH", path, R"({"name":""})"), "name");
  check_field_error(e.bot("PATCH", path, R"({"topic":")" + std::string(1025, 't') + R"("})"), "topic");
  CHECK(e.bot("PATCH", path, R"({"topic":")" + std::string(1024, 't') + R"("})").status == 200);
  // A text channel stays text (or announcement, with NEWS).
  check_field_error(e.bot("PATCH", path, R"({"type":2})"), "type");
  check_field_error(e.bot("PATCH", path, R"({"type":5})"), "type");
  Emulator news(kManageChannels | kManageRoles | kViewChannel | kSendMessages, kBenchStart, R"(["NEWS"])");
  CHECK(news.ok(news.bot("PATCH", "/channels/" + news.general, R"({"type":5})"))["type"].GetInt() == 5);

  // An overwrite denying the bot's role MANAGE_CHANNELS here: the guild-wide bit is not enough.
  e.ok(e.bot("PUT", path + "/permissions/" + e.builder,
             R"({"type":0,"deny":")" + std::to_string(kManageChannels) + R"("})"));
  check_error(e.bot("PATCH", path, R"({"name":"nope"})"), 403, 50013);
  check_error(e.bot("DELETE", path), 403, 50013);
  e.ok(e.bot("DELETE", path + "/permissions/" + e.builder));
  CHECK(e.bot("PATCH", path, R"({"name":"again"})").status == 200);

  // permission_overwrites needs MANAGE_ROLES as well.
  Emulator no_roles(kManageChannels | kViewChannel);
  check_error(no_roles.bot("PATCH", "/channels/" + no_roles.general, R"({"permission_overwrites":[]})"), 403,
              50013);
  CHECK(no_roles.bot("PATCH", "/channels/" + no_roles.general, R"({"name":"fine"})").status == 200);

  const auto entries = e.audit_entries();
  const auto& list = entries["audit_log_entries"];
  // Newest first: rename (11), overwrite deleted (15), overwrite created (13), topic (11), rename+slowmode
  // (11).
  REQUIRE(list.Size() == 5);
  CHECK(list[0]["action_type"].GetInt() == 11);
  CHECK(list[1]["action_type"].GetInt() == 15);
  CHECK(list[2]["action_type"].GetInt() == 13);
  CHECK(str(list[2]["options"]["id"]) == e.builder);
  CHECK(str(list[2]["options"]["type"]) == "0");
  CHECK(str(list[2]["options"]["role_name"]) == "Builder");
  CHECK(list[4]["action_type"].GetInt() == 11);
  bool saw_slowmode = false;
  for (const auto& change : list[4]["changes"].GetArray()) {
    if (str(change["key"]) == "rate_limit_per_user") {
      saw_slowmode = true;
      CHECK(change["old_value"].GetInt() == 0);
      CHECK(change["new_value"].GetInt() == 10);
    }
  }
  CHECK(saw_slowmode);
}

TEST_CASE("Edit and Delete Channel Permission: MANAGE_ROLES, unknown targets, entries 13, 14, 15") {
  Emulator e;
  const auto path = "/channels/" + e.general + "/permissions/";
  const auto view = std::to_string(kViewChannel);
  CHECK(e.bot("PUT", path + e.alice, R"({"type":1,"deny":")" + view + R"("})").status == 204);
  CHECK(e.bot("PUT", path + e.alice, R"({"type":1,"allow":")" + view + R"("})").status == 204);
  CHECK(e.bot("PUT", path + e.alice, R"({"type":1,"allow":")" + view + R"("})").status == 204);  // no change
  CHECK(e.bot("DELETE", path + e.alice).status == 204);
  CHECK(e.bot("DELETE", path + e.alice).status == 204);  // already gone: nothing happens
  check_error(e.bot("PUT", path + "424242", R"({"type":0})"), 404, 10011);
  check_error(e.bot("PUT", path + "424242", R"({"type":1})"), 404, 10007);
  check_field_error(e.bot("PUT", path + e.alice, R"({"type":2})"), "type");
  check_field_error(e.bot("PUT", path + e.alice, R"({})"), "type");

  const auto entries = e.audit_entries();
  const auto& list = entries["audit_log_entries"];
  REQUIRE(list.Size() == 3);
  CHECK(list[0]["action_type"].GetInt() == 15);
  CHECK(list[1]["action_type"].GetInt() == 14);
  CHECK(list[2]["action_type"].GetInt() == 13);
  CHECK(str(list[1]["options"]["type"]) == "1");
  CHECK_FALSE(list[1]["options"].HasMember("role_name"));

  Emulator without(kManageChannels | kViewChannel);
  check_error(without.bot("PUT", "/channels/" + without.general + "/permissions/" + without.alice,
                          R"({"type":1,"deny":"1024"})"),
              403, 50013);
}

TEST_CASE("Get and Delete Channel, positions; a deleted category's channels lose their parent") {
  Emulator e;
  RecordingGatewayPeer peer;
  e.connect(peer);
  CHECK(str(e.ok(e.bot("GET", "/channels/" + e.general))["name"]) == "general");
  check_error(e.bot("GET", "/channels/424242"), 404, 10003);
  const auto category = str(e.ok(e.bot("POST", "/guilds/" + e.guild_id + "/channels",
                                       R"({"name":"Racing","type":4,"permission_overwrites":[{"id":")" +
                                           e.alice + R"(","type":1,"deny":"1024"}]})"))["id"]);
  // Moving #general under the category with lock_permissions takes the category's overwrites.
  CHECK(e.bot("PATCH", "/guilds/" + e.guild_id + "/channels",
              R"([{"id":")" + e.general + R"(","position":3,"parent_id":")" + category +
                  R"(","lock_permissions":true}])")
            .status == 204);
  const auto moved = e.ok(e.bot("GET", "/channels/" + e.general));
  CHECK(moved["position"].GetInt() == 3);
  CHECK(str(moved["parent_id"]) == category);
  CHECK(str(moved["permission_overwrites"][0]["id"]) == e.alice);
  check_field_error(e.bot("PATCH", "/guilds/" + e.guild_id + "/channels",
                          R"([{"id":")" + e.general + R"(","parent_id":")" + e.general + R"("}])"),
                    "0");

  const auto deleted = e.ok(e.bot("DELETE", "/channels/" + category));
  CHECK(str(deleted["id"]) == category);
  CHECK(peer.dispatches("CHANNEL_DELETE").size() == 1);
  CHECK(e.ok(e.bot("GET", "/channels/" + e.general))["parent_id"].IsNull());
  check_error(e.bot("GET", "/channels/" + category), 404, 10003);

  // A channel the bot cannot view: 50001, as if it were not there to it.
  const auto hidden = e.channel(R"({"name":"staff","type":0,"permission_overwrites":[{"id":")" + e.guild_id +
                                R"(","type":0,"deny":"1024"}]})");
  check_error(e.bot("GET", "/channels/" + hidden), 403, 50001);
  const auto entries = e.audit_entries();
  CHECK(entries["audit_log_entries"][0]["action_type"].GetInt() == 12);
}

TEST_CASE("slowmode: a member waits rate_limit_per_user seconds, crossed by one millisecond") {
  Emulator e;
  e.ok(e.bot("PATCH", "/channels/" + e.general, R"({"rate_limit_per_user":10})"));
  CHECK(e.member_says(e.alice, e.general, "first").status == 200);
  REQUIRE(e.clock.advance(9999));
  const auto refused = e.member_says(e.alice, e.general, "too soon");
  check_error(refused, 429, 20016);
  CHECK(parse(refused.body)["retry_after"].GetDouble() == doctest::Approx(0.001));
  CHECK(refused.header("Retry-After") == "1");
  REQUIRE(e.clock.advance(1));
  CHECK(e.member_says(e.alice, e.general, "second").status == 200);
  // A refused message does not move the window; another member has their own.
  REQUIRE(e.clock.advance(5000));
  check_error(e.member_says(e.alice, e.general, "third"), 429, 20016);
  const auto bob = e.user("bob");
  e.member(bob);
  CHECK(e.member_says(bob, e.general, "hi").status == 200);
  // Bots are exempt.
  for (int i = 0; i < 3; ++i)
    CHECK(e.bot("POST", "/channels/" + e.general + "/messages", R"({"content":"bot"})").status == 200);
  // A channel created through the API with slowmode has it from the start.
  const auto slow = str(e.ok(e.bot("POST", "/guilds/" + e.guild_id + "/channels",
                                   R"({"name":"slow","rate_limit_per_user":30})"))["id"]);
  CHECK(e.member_says(e.alice, slow, "one").status == 200);
  check_error(e.member_says(e.alice, slow, "two"), 429, 20016);
  // The admin stand-in meets the channel's rules: a non-member cannot post.
  const auto stranger = e.user("stranger");
  check_error(e.member_says(stranger, e.general, "hello"), 403, 50001);
}

TEST_CASE("slowmode: BYPASS_SLOWMODE after the split, MANAGE_MESSAGES only before it") {
  for (const auto start : {kBenchStart, kBeforeSplit}) {
    CAPTURE(start);
    Emulator e(kManageChannels | kManageRoles | kViewChannel | kSendMessages, start);
    e.ok(e.bot("PATCH", "/channels/" + e.general, R"({"rate_limit_per_user":60})"));
    const auto bypass = e.role("Bypass", kBypassSlowmode);
    const auto mods = e.role("Mods", kManageMessages);
    const auto carol = e.user("carol");
    const auto dave = e.user("dave");
    e.member(carol, bypass);
    e.member(dave, mods);
    CHECK(e.member_says(carol, e.general, "one").status == 200);
    CHECK(e.member_says(carol, e.general, "two").status == 200);
    CHECK(e.member_says(dave, e.general, "one").status == 200);
    const auto second = e.member_says(dave, e.general, "two");
    CHECK(second.status == (start == kBeforeSplit ? 200 : 429));
  }
}

TEST_CASE("channels: slowmode and nsfw survive a restart") {
  Emulator first;
  StateMirror mirror(first.service.changes());
  first.ok(first.bot("PATCH", "/channels/" + first.general, R"({"rate_limit_per_user":30,"nsfw":true})"));
  mirror.check_complete();
  Emulator restarted{Emulator::Empty{}};
  check_round_trip(mirror.documents(), restarted.service.changes());
  restarted.bot_token = first.bot_token;
  const auto channel = restarted.ok(restarted.bot("GET", "/channels/" + first.general));
  CHECK(channel["rate_limit_per_user"].GetInt() == 30);
  CHECK(channel["nsfw"].GetBool());
}

}  // namespace channel_routes_test
