// A guild's audit log through the API without sockets: VIEW_AUDIT_LOG; the entries the role, member, prune,
// kick, pin and message routes leave, with their changes and options; X-Audit-Log-Reason (percent-decoded,
// 512 characters kept of 513, an undecodable one dropped); the filters, `limit` 1..100 crossed by one, the
// order with `before` and `after`; 45 days kept by the fake clock, crossed by one millisecond;
// GUILD_AUDIT_LOG_ENTRY_CREATE to bots with the GUILD_MODERATION intent only; the log kept across a restart.
#include <doctest/doctest.h>

#include <string>

#include "recording_gateway_peer.hpp"
#include "service_bench.hpp"
#include "state_mirror.hpp"
#include "test_support.hpp"

namespace audit_log_routes_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;
using namespace platformpp::emulator::permission;

namespace {

constexpr std::int64_t kDayMs = 24LL * 60 * 60 * 1000;
constexpr std::uint64_t kGuildsIntent = 1U << 0;
constexpr std::uint64_t kGuildModerationIntent = 1U << 2;

// Owner Olivia and member Alice; the bot with "Moderator" (position 2: MANAGE_ROLES, KICK_MEMBERS,
// MANAGE_GUILD, MANAGE_MESSAGES, PIN_MESSAGES and, unless told otherwise, VIEW_AUDIT_LOG) over "Racer" (1).
struct Emulator : ServiceBench {
  std::string olivia, alice, bot_id, bot_token, racer, moderator, general;

  // An emulator with nothing in it (to load a state into).
  struct Empty {};
  explicit Emulator(Empty /*unused*/) {}
  explicit Emulator(bool view_audit_log = true) {
    olivia = user("olivia");
    alice = user("alice");
    const auto app = app_json("Game");
    bot_id = str(app["bot_user_id"]);
    bot_token = str(app["bot_token"]);
    guild(olivia);
    racer = role("Racer", 0);
    const auto bits = kManageRoles | kKickMembers | kManageGuild | kManageMessages | kPinMessages |
                      (view_audit_log ? kViewAuditLog : 0);
    moderator = role("Moderator", bits);
    member(bot_id, moderator);
    member(alice);
    general = channel(R"({"name":"general","type":0})");
  }
  // As the bot, under /api/v10; `reason` goes in X-Audit-Log-Reason as given (already encoded).
  HttpResponse bot(std::string method, const std::string& path, std::string body = {},
                   const std::string& reason = {}) {
    HeaderList headers{{"Content-Type", "application/json"}};
    if (!reason.empty()) headers.emplace_back("X-Audit-Log-Reason", reason);
    return as("Bot " + bot_token, std::move(method), path, std::move(body), std::move(headers));
  }
  rapidjson::Document log(const std::string& query = {}) {
    return ok(bot("GET", "/guilds/" + guild_id + "/audit-logs" + query));
  }
  // Connects the bot with `intents`; returns after READY.
  void connect(RecordingGatewayPeer& peer, std::uint64_t intents) {
    identify(peer, bot_token, intents);
    REQUIRE(peer.dispatches("READY").size() == 1);
  }
};

void check_error(const HttpResponse& response, int status, int code) {
  CHECK_MESSAGE(response.status == status, response.body);
  CHECK_MESSAGE(parse(response.body)["code"].GetInt() == code, response.body);
}

// The change with `key` of an entry (REQUIREs it).
const rapidjson::Value& change(const rapidjson::Value& entry, const char* key) {
  REQUIRE(entry.HasMember("changes"));
  for (const auto& item : entry["changes"].GetArray()) {
    if (str(item["key"]) == key) return item;
  }
  FAIL("no change " << key);
  return entry;
}

}  // namespace

TEST_CASE("audit log: VIEW_AUDIT_LOG is required; an empty log has every list") {
  Emulator without(false);
  check_error(without.bot("GET", "/guilds/" + without.guild_id + "/audit-logs"), 403, 50013);
  Emulator e;
  const auto log = e.log();
  CHECK(log["audit_log_entries"].Size() == 0);
  for (const char* list : {"users", "application_commands", "auto_moderation_rules", "guild_scheduled_events",
                           "integrations", "threads", "webhooks"}) {
    CHECK(log[list].IsArray());
  }
  check_error(e.bot("GET", "/guilds/999/audit-logs"), 404, 10004);
}

TEST_CASE("audit log: roles leave 30, 31 and 32 with their changes and the request's reason") {
  Emulator e;
  const auto role = e.ok(e.bot("POST", "/guilds/" + e.guild_id + "/roles", R"({"name":"Crew","hoist":true})",
                               "New%20crew%20%E2%9C%93"));
  const auto role_id = str(role["id"]);
  e.ok(e.bot("PATCH", "/guilds/" + e.guild_id + "/roles/" + role_id, R"({"name":"Pit crew"})"));
  // A change that changes nothing leaves no entry.
  e.ok(e.bot("PATCH", "/guilds/" + e.guild_id + "/roles/" + role_id, R"({"name":"Pit crew"})"));
  e.ok(e.bot("DELETE", "/guilds/" + e.guild_id + "/roles/" + role_id));

  const auto log = e.log();
  const auto& entries = log["audit_log_entries"];
  REQUIRE(entries.Size() == 3);
  // Newest first.
  CHECK(entries[0]["action_type"].GetInt() == 32);
  CHECK(entries[1]["action_type"].GetInt() == 31);
  CHECK(entries[2]["action_type"].GetInt() == 30);
  for (const auto& entry : entries.GetArray()) {
    CHECK(str(entry["target_id"]) == role_id);
    CHECK(str(entry["user_id"]) == e.bot_id);
  }
  CHECK(str(entries[2]["reason"]) == "New crew \xE2\x9C\x93");
  CHECK_FALSE(entries[1].HasMember("reason"));
  const auto& created_name = change(entries[2], "name");
  CHECK_FALSE(created_name.HasMember("old_value"));
  CHECK(str(created_name["new_value"]) == "Crew");
  CHECK(change(entries[2], "hoist")["new_value"].GetBool());
  CHECK(change(entries[2], "permissions")["new_value"].IsString());
  const auto& renamed = change(entries[1], "name");
  CHECK(str(renamed["old_value"]) == "Crew");
  CHECK(str(renamed["new_value"]) == "Pit crew");
  CHECK(entries[1]["changes"].Size() == 1);
  CHECK(str(change(entries[0], "name")["old_value"]) == "Pit crew");
  CHECK_FALSE(change(entries[0], "name").HasMember("new_value"));
  // The user who acted comes along.
  REQUIRE(log["users"].Size() == 1);
  CHECK(str(log["users"][0]["id"]) == e.bot_id);
}

TEST_CASE("audit log: X-Audit-Log-Reason keeps 512 characters of 513 and drops an undecodable one") {
  Emulator e;
  const std::string five_twelve(512, 'r');
  e.ok(e.bot("PATCH", "/guilds/" + e.guild_id + "/roles/" + e.racer, R"({"name":"A"})", five_twelve));
  e.ok(e.bot("PATCH", "/guilds/" + e.guild_id + "/roles/" + e.racer, R"({"name":"B"})", five_twelve + "s"));
  e.ok(e.bot("PATCH", "/guilds/" + e.guild_id + "/roles/" + e.racer, R"({"name":"C"})", "bad%zzescape"));
  e.ok(e.bot("PATCH", "/guilds/" + e.guild_id + "/roles/" + e.racer, R"({"name":"D"})", "%FF%FE"));
  const auto entries = e.log();
  const auto& list = entries["audit_log_entries"];
  REQUIRE(list.Size() == 4);
  CHECK_FALSE(list[0].HasMember("reason"));  // not UTF-8
  CHECK_FALSE(list[1].HasMember("reason"));  // a malformed escape
  CHECK(str(list[2]["reason"]) == five_twelve);
  CHECK(str(list[3]["reason"]) == five_twelve);
}

TEST_CASE("audit log: a member's update, role changes, kick and prune") {
  Emulator e;
  const auto members = "/guilds/" + e.guild_id + "/members/";
  e.ok(e.bot("PUT", members + e.alice + "/roles/" + e.racer, {}, "promoted"));
  e.ok(e.bot("PATCH", members + e.alice, R"({"roles":[]})"));
  e.ok(e.bot("PATCH", members + "@me", R"({"bio":"I keep the log"})"));
  e.ok(e.bot("DELETE", members + e.alice, {}, "spam"));
  const auto carol = e.user("carol");
  e.member(carol);
  REQUIRE(e.clock.advance(2 * kDayMs));
  CHECK(e.ok(e.bot("POST", "/guilds/" + e.guild_id + "/prune", R"({"days":1})"))["pruned"].GetInt() == 1);

  const auto log = e.log();
  const auto& entries = log["audit_log_entries"];
  REQUIRE(entries.Size() == 5);
  const auto& prune = entries[0];
  CHECK(prune["action_type"].GetInt() == 21);
  CHECK(str(prune["options"]["delete_member_days"]) == "1");
  CHECK(str(prune["options"]["members_removed"]) == "1");
  const auto& kick = entries[1];
  CHECK(kick["action_type"].GetInt() == 20);
  CHECK(str(kick["target_id"]) == e.alice);
  CHECK(str(kick["reason"]) == "spam");
  const auto& bio = entries[2];
  CHECK(bio["action_type"].GetInt() == 24);
  CHECK(str(bio["target_id"]) == e.bot_id);
  CHECK(str(change(bio, "bio")["new_value"]) == "I keep the log");
  const auto& removed = entries[3];
  CHECK(removed["action_type"].GetInt() == 25);
  CHECK(str(change(removed, "$remove")["new_value"][0]["id"]) == e.racer);
  CHECK(str(change(removed, "$remove")["new_value"][0]["name"]) == "Racer");
  const auto& added = entries[4];
  CHECK(added["action_type"].GetInt() == 25);
  CHECK(str(change(added, "$add")["new_value"][0]["id"]) == e.racer);
  CHECK(str(added["reason"]) == "promoted");
  // Alice (a target) is among the users, though she has left.
  bool saw_alice = false;
  for (const auto& user : log["users"].GetArray())
    saw_alice = saw_alice || str(user["id"]) == e.alice;
  CHECK(saw_alice);
}

TEST_CASE("audit log: pins and deleting another's message; not deleting one's own") {
  Emulator e;
  const auto app = e.app_json("Other");
  e.member(str(app["bot_user_id"]));
  const HeaderList other{{"Authorization", "Bot " + str(app["bot_token"])},
                         {"Content-Type", "application/json"}};
  const auto theirs = parse(
      e.raw("POST", "/api/v10/channels/" + e.general + "/messages", R"({"content":"hello"})", other).body);
  const auto message_id = str(theirs["id"]);
  e.ok(e.bot("PUT", "/channels/" + e.general + "/messages/pins/" + message_id));
  e.ok(e.bot("DELETE", "/channels/" + e.general + "/messages/pins/" + message_id));
  const auto own = e.ok(e.bot("POST", "/channels/" + e.general + "/messages", R"({"content":"mine"})"));
  e.ok(e.bot("DELETE", "/channels/" + e.general + "/messages/" + str(own["id"])));
  e.ok(e.bot("DELETE", "/channels/" + e.general + "/messages/" + message_id));

  const auto log = e.log();
  const auto& entries = log["audit_log_entries"];
  REQUIRE(entries.Size() == 3);
  CHECK(entries[0]["action_type"].GetInt() == 72);
  CHECK(str(entries[0]["target_id"]) == str(app["bot_user_id"]));
  CHECK(str(entries[0]["options"]["channel_id"]) == e.general);
  CHECK(str(entries[0]["options"]["count"]) == "1");
  CHECK(entries[1]["action_type"].GetInt() == 75);
  CHECK(entries[2]["action_type"].GetInt() == 74);
  CHECK(str(entries[2]["options"]["message_id"]) == message_id);
  CHECK(str(entries[2]["options"]["channel_id"]) == e.general);
}

TEST_CASE("audit log: filters, limit 1..100 crossed by one, before and after") {
  Emulator e;
  for (int i = 0; i < 5; ++i) {
    e.ok(e.bot("PATCH", "/guilds/" + e.guild_id + "/roles/" + e.racer,
               R"({"name":"Racer )" + std::to_string(i) + R"("})"));
  }
  e.ok(e.bot("PUT", "/guilds/" + e.guild_id + "/members/" + e.alice + "/roles/" + e.racer));
  const auto all = e.log();
  const auto& entries = all["audit_log_entries"];
  REQUIRE(entries.Size() == 6);
  const auto id = [&](int i) { return str(entries[i]["id"]); };

  CHECK(e.log("?action_type=31")["audit_log_entries"].Size() == 5);
  CHECK(e.log("?action_type=25")["audit_log_entries"].Size() == 1);
  CHECK(e.log("?user_id=" + e.bot_id)["audit_log_entries"].Size() == 6);
  CHECK(e.log("?user_id=" + e.olivia)["audit_log_entries"].Size() == 0);

  // limit: 1 and 100 answered, 0 and 101 refused; 2 gives the newest two.
  CHECK(e.log("?limit=1")["audit_log_entries"].Size() == 1);
  CHECK(e.log("?limit=100")["audit_log_entries"].Size() == 6);
  check_error(e.bot("GET", "/guilds/" + e.guild_id + "/audit-logs?limit=0"), 400, 50035);
  check_error(e.bot("GET", "/guilds/" + e.guild_id + "/audit-logs?limit=101"), 400, 50035);
  check_error(e.bot("GET", "/guilds/" + e.guild_id + "/audit-logs?before=abc"), 400, 50035);

  // before: older than the anchor, newest first; after: newer than it, oldest first; after=0: the oldest.
  const auto before = e.log("?limit=2&before=" + id(1));
  REQUIRE(before["audit_log_entries"].Size() == 2);
  CHECK(str(before["audit_log_entries"][0]["id"]) == id(2));
  CHECK(str(before["audit_log_entries"][1]["id"]) == id(3));
  const auto after = e.log("?limit=2&after=" + id(4));
  REQUIRE(after["audit_log_entries"].Size() == 2);
  CHECK(str(after["audit_log_entries"][0]["id"]) == id(3));
  CHECK(str(after["audit_log_entries"][1]["id"]) == id(2));
  const auto oldest = e.log("?limit=1&after=0");
  CHECK(str(oldest["audit_log_entries"][0]["id"]) == id(5));
}

TEST_CASE("audit log: entries are kept 45 days, crossed by one millisecond") {
  Emulator e;
  e.ok(e.bot("PATCH", "/guilds/" + e.guild_id + "/roles/" + e.racer, R"({"name":"Old"})"));
  REQUIRE(e.clock.advance(45 * kDayMs - 1));
  CHECK(e.log()["audit_log_entries"].Size() == 1);
  REQUIRE(e.clock.advance(1));
  CHECK(e.log()["audit_log_entries"].Size() == 0);
  // A new entry forgets the expired ones for good.
  e.ok(e.bot("PATCH", "/guilds/" + e.guild_id + "/roles/" + e.racer, R"({"name":"New"})"));
  CHECK(e.log()["audit_log_entries"].Size() == 1);
}

TEST_CASE("audit log: GUILD_AUDIT_LOG_ENTRY_CREATE to bots with GUILD_MODERATION and VIEW_AUDIT_LOG") {
  Emulator e;
  RecordingGatewayPeer moderated;
  RecordingGatewayPeer unmoderated;
  e.connect(moderated, kGuildsIntent | kGuildModerationIntent);
  e.connect(unmoderated, kGuildsIntent);
  e.ok(e.bot("PATCH", "/guilds/" + e.guild_id + "/roles/" + e.racer, R"({"name":"Seen"})", "why"));
  const auto created = moderated.dispatches("GUILD_AUDIT_LOG_ENTRY_CREATE");
  REQUIRE(created.size() == 1);
  CHECK(str(created[0]["d"]["guild_id"]) == e.guild_id);
  CHECK(created[0]["d"]["action_type"].GetInt() == 31);
  CHECK(str(created[0]["d"]["reason"]) == "why");
  CHECK(unmoderated.dispatches("GUILD_AUDIT_LOG_ENTRY_CREATE").empty());

  // Without VIEW_AUDIT_LOG the intent is not enough.
  Emulator blind(false);
  RecordingGatewayPeer peer;
  blind.connect(peer, kGuildsIntent | kGuildModerationIntent);
  blind.ok(blind.bot("PATCH", "/guilds/" + blind.guild_id + "/roles/" + blind.racer, R"({"name":"Unseen"})"));
  CHECK(peer.dispatches("GUILD_AUDIT_LOG_ENTRY_CREATE").empty());
}

TEST_CASE("audit log: kept across a restart") {
  Emulator first;
  StateMirror mirror(first.service.changes());
  first.ok(first.bot("PATCH", "/guilds/" + first.guild_id + "/roles/" + first.racer, R"({"name":"Kept"})",
                     "for%20the%20record"));
  first.ok(first.bot("POST", "/guilds/" + first.guild_id + "/prune", R"({"days":7})"));
  mirror.check_complete();
  CHECK(mirror.count("guild_audit_log") == 1);
  const auto before = first.log();

  Emulator restarted{Emulator::Empty{}};
  check_round_trip(mirror.documents(), restarted.service.changes());
  // The restarted emulator serves the same guild: the bot token and ids are the first one's.
  restarted.bot_token = first.bot_token;
  restarted.guild_id = first.guild_id;
  const auto after = restarted.log();
  CHECK(json_text(after["audit_log_entries"]) == json_text(before["audit_log_entries"]));
  CHECK(str(after["audit_log_entries"][1]["reason"]) == "for the record");
}

}  // namespace audit_log_routes_test
