// Guild invites without sockets: Create Channel Invite (max_age 0..604800, max_uses 0..100, unique, role_ids
// with MANAGE_ROLES under the hierarchy, target_users_file with MANAGE_GUILD), Get Channel Invites (role
// partials of exactly the seed's fields), Get, Delete and Accept Invite (uses, expiry, roles given,
// GUILD_MEMBER_ADD), the target users (CSV out, a new file in) and their job on the fake clock (1 s per 1000
// rows, at least 1 s), INVITE_CREATE/INVITE_DELETE, audit entries 40, 41 and 42, and a restart that keeps it
// all (a format-1 lobby invite document still loads).
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "core/fake_clock.hpp"
#include "guild/target_users_csv.hpp"
#include "recording_gateway_peer.hpp"
#include "service_bench.hpp"
#include "state_mirror.hpp"
#include "test_support.hpp"

namespace invite_routes_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;
using namespace platformpp::emulator::permission;

namespace {

// GUILDS, GUILD_MEMBERS and GUILD_INVITES.
constexpr std::uint64_t kIntents = (1U << 0) | (1U << 1) | (1U << 6);
const std::string kBoundary = "inv1te";

std::string multipart(const std::string& payload, const std::string& csv) {
  std::string body;
  if (!payload.empty()) {
    body += "--" + kBoundary +
            "\r\nContent-Disposition: form-data; name=\"payload_json\"\r\nContent-Type: "
            "application/json\r\n\r\n" +
            payload + "\r\n";
  }
  body += "--" + kBoundary +
          "\r\nContent-Disposition: form-data; name=\"target_users_file\"; filename=\"users.csv\"\r\n"
          "Content-Type: text/csv\r\n\r\n" +
          csv + "\r\n--" + kBoundary + "--\r\n";
  return body;
}

// Owner Olivia; Alice, Bob and Carol, who are not members yet; roles High (above the bot's), Staff (the
// bot's: invites, channels, roles, guild), Banner (below Staff, with BAN_MEMBERS the bot lacks), VIP (below
// Staff); a helper bot with only CREATE_INSTANT_INVITE, an auditor bot with only VIEW_AUDIT_LOG; #general.
struct Emulator : ServiceBench {
  std::string olivia, alice, bob, carol, app_id, bot_id, bot_token, helper_token, auditor_token;
  std::string high, staff, banner, vip, general;
  RecordingGatewayPeer bot_peer;

  // `seed`: false for an emulator about to load another's documents (a restart).
  explicit Emulator(bool seed = true) {
    if (!seed) return;
    olivia = user("olivia");
    alice = user("alice");
    bob = user("bob");
    carol = user("carol");
    const auto game = app("Game");
    app_id = game.id;
    bot_id = game.bot_id;
    bot_token = game.bot_token;
    guild(olivia);
    // The admin's roles go on top: the last made is the highest.
    vip = role("VIP", 0);
    banner = role("Banner", kBanMembers);
    staff =
        role("Staff", kCreateInstantInvite | kManageChannels | kManageRoles | kManageGuild | kViewAuditLog);
    high = role("High", 0);
    member(bot_id, staff);
    const auto helper = app_json("Helper");
    helper_token = str(helper["bot_token"]);
    member(str(helper["bot_user_id"]), role("Invites", kCreateInstantInvite));
    const auto auditor = app_json("Auditor");
    auditor_token = str(auditor["bot_token"]);
    member(str(auditor["bot_user_id"]), role("Audit", kViewAuditLog));
    general = channel(R"({"name":"general"})");
  }
  // A request of a bot (`token`), JSON or (with `csv`) multipart with a target-users file.
  HttpResponse as_bot(const std::string& token, std::string method, const std::string& path,
                      std::string body = {}, const std::optional<std::string>& csv = std::nullopt) {
    HeaderList headers;
    if (csv) {
      headers.emplace_back("Content-Type", "multipart/form-data; boundary=" + kBoundary);
      body = multipart(body, *csv);
    } else {
      headers.emplace_back("Content-Type", "application/json");
    }
    return as("Bot " + token, std::move(method), path, std::move(body), std::move(headers));
  }
  HttpResponse bot(std::string method, const std::string& path, std::string body = {},
                   const std::optional<std::string>& csv = std::nullopt) {
    return as_bot(bot_token, std::move(method), path, std::move(body), csv);
  }
  std::string bearer(const std::string& user_id) { return "Bearer " + token(user_id, app_id); }
  HttpResponse accept(const std::string& user_id, const std::string& code) {
    return raw("POST", "/api/v10/invites/" + code, "{}",
               {{"Authorization", bearer(user_id)}, {"Content-Type", "application/json"}});
  }
  // A new invite to #general; its code.
  std::string invite(const std::string& body = "{}", const std::optional<std::string>& csv = std::nullopt) {
    const auto response = bot("POST", "/channels/" + general + "/invites", body, csv);
    REQUIRE_MESSAGE(response.status == 200, response.body);
    return str(parse(response.body)["code"]);
  }
  void connect_bot() {
    identify(bot_peer, bot_token, kIntents);
    REQUIRE(bot_peer.dispatches("READY").size() == 1);
  }
  std::set<int> audit_actions() {
    const auto log = parse(bot("GET", "/guilds/" + guild_id + "/audit-logs").body);
    std::set<int> actions;
    for (const auto& entry : log["audit_log_entries"].GetArray())
      actions.insert(entry["action_type"].GetInt());
    return actions;
  }
  // The ids and tokens of `first`, whose documents this one loaded.
  void same_world_as(const Emulator& first) {
    olivia = first.olivia;
    alice = first.alice;
    bob = first.bob;
    carol = first.carol;
    app_id = first.app_id;
    bot_id = first.bot_id;
    bot_token = first.bot_token;
    guild_id = first.guild_id;
    vip = first.vip;
    general = first.general;
  }
  bool member_of_guild(const std::string& user_id) {
    return bot("GET", "/guilds/" + guild_id + "/members/" + user_id).status == 200;
  }
};

void check_error(const HttpResponse& response, int status, int code) {
  CHECK_MESSAGE(response.status == status, response.body);
  CHECK_MESSAGE(parse(response.body)["code"].GetInt() == code, response.body);
}

// `n` distinct user ids, one a line, after the header.
std::string csv_of(std::size_t n) {
  std::string csv = "user_id\n";
  for (std::size_t i = 0; i < n; ++i)
    csv += std::to_string(100000000000000000ULL + i) + "\n";
  return csv;
}

}  // namespace

TEST_CASE("Create Channel Invite: defaults, max_age 0..604800, max_uses 0..100, unique, the permission") {
  Emulator e;
  e.connect_bot();
  const auto path = "/channels/" + e.general + "/invites";
  const auto created = parse(e.bot("POST", path, "{}").body);
  CHECK(created["type"].GetInt() == 0);
  CHECK(created["max_age"].GetInt() == 86400);
  CHECK(created["max_uses"].GetInt() == 0);
  CHECK(created["uses"].GetInt() == 0);
  CHECK_FALSE(created["temporary"].GetBool());
  CHECK(str(created["expires_at"]) == format_rfc3339_ms(kBenchStart + 86400LL * 1000));
  CHECK(str(created["inviter"]["id"]) == e.bot_id);
  CHECK(str(created["guild"]["id"]) == e.guild_id);
  CHECK(str(created["channel"]["id"]) == e.general);
  CHECK_FALSE(created.HasMember("roles"));
  const auto code = str(created["code"]);
  // Not unique: the same settings give the same invite back (no second event); unique: a new one.
  CHECK(str(parse(e.bot("POST", path, "{}").body)["code"]) == code);
  CHECK(e.bot_peer.dispatches("INVITE_CREATE").size() == 1);
  CHECK(str(parse(e.bot("POST", path, R"({"unique":true})").body)["code"]) != code);
  const auto events = e.bot_peer.dispatches("INVITE_CREATE");
  REQUIRE(events.size() == 2);
  CHECK(str(events[1]["d"]["guild_id"]) == e.guild_id);
  CHECK(str(events[1]["d"]["channel_id"]) == e.general);
  CHECK(events[1]["d"]["uses"].GetInt() == 0);

  const auto never = parse(e.bot("POST", path, R"({"max_age":0,"max_uses":100})").body);
  CHECK(never["expires_at"].IsNull());
  CHECK(never["max_uses"].GetInt() == 100);
  CHECK(parse(e.bot("POST", path, R"({"max_age":604800})").body)["max_age"].GetInt() == 604800);
  check_error(e.bot("POST", path, R"({"max_age":604801})"), 400, 50035);
  check_error(e.bot("POST", path, R"({"max_age":-1})"), 400, 50035);
  check_error(e.bot("POST", path, R"({"max_uses":101})"), 400, 50035);
  check_error(e.bot("POST", path, R"({"max_uses":-1})"), 400, 50035);
  check_error(e.bot("POST", path, R"({"target_type":1,"target_user_id":")" + e.alice + "\"}"), 400, 50035);
  check_error(e.bot("POST", path, R"({"target_type":2,"target_application_id":")" + e.app_id + "\"}"), 400,
              50035);

  // CREATE_INSTANT_INVITE: the auditor bot lacks it; a user's token and a stranger's channel are refused.
  check_error(e.as_bot(e.auditor_token, "POST", path, "{}"), 403, 50013);
  check_error(e.bot("POST", "/channels/424242/invites", "{}"), 404, 10003);
  const auto stranger = e.app_json("Stranger");
  check_error(e.as_bot(str(stranger["bot_token"]), "POST", path, "{}"), 403, 50001);
  CHECK(e.audit_actions().count(40) == 1);
}

TEST_CASE(
    "role_ids: MANAGE_ROLES, below the caller's highest, no permission it lacks; partials in the list") {
  Emulator e;
  const auto path = "/channels/" + e.general + "/invites";
  const auto with_vip = parse(e.bot("POST", path, R"({"role_ids":[")" + e.vip + R"("]})").body);
  REQUIRE(with_vip["roles"].Size() == 1);
  check_error(e.bot("POST", path, R"({"role_ids":[")" + e.high + R"("]})"), 403, 50013);    // above
  check_error(e.bot("POST", path, R"({"role_ids":[")" + e.staff + R"("]})"), 403, 50013);   // its own highest
  check_error(e.bot("POST", path, R"({"role_ids":[")" + e.banner + R"("]})"), 403, 50013);  // BAN_MEMBERS
  check_error(e.bot("POST", path, R"({"role_ids":["424242"]})"), 404, 10011);
  check_error(e.bot("POST", path, R"({"role_ids":"x"})"), 400, 50035);
  // The helper may invite but not give roles (no MANAGE_ROLES).
  CHECK(e.as_bot(e.helper_token, "POST", path, "{}").status == 200);
  check_error(e.as_bot(e.helper_token, "POST", path, R"({"role_ids":[")" + e.vip + R"("]})"), 403, 50013);

  // Get Channel Invites: MANAGE_CHANNELS; the invite metadata and role partials of exactly seven fields.
  check_error(e.as_bot(e.helper_token, "GET", path), 403, 50013);
  const auto list = parse(e.bot("GET", path).body);
  REQUIRE(list.Size() == 2);
  // Made in the same millisecond: listed by code then. The one with the role:
  const bool vip_first = str(list[0]["code"]) == str(with_vip["code"]);
  const auto& listed = list[vip_first ? 0 : 1];
  REQUIRE(str(listed["code"]) == str(with_vip["code"]));
  CHECK(listed["uses"].GetInt() == 0);
  CHECK(listed.HasMember("created_at"));
  const auto& partial = listed["roles"][0];
  std::set<std::string> keys;
  for (const auto& member : partial.GetObject())
    keys.insert(member.name.GetString());
  CHECK(keys == std::set<std::string>{"id", "name", "position", "color", "colors", "icon", "unicode_emoji"});
  CHECK(str(partial["id"]) == e.vip);
  CHECK(str(partial["name"]) == "VIP");
}

TEST_CASE(
    "Get, Accept and Delete Invite: counts, uses, expiry, roles given, GUILD_MEMBER_ADD, INVITE_DELETE") {
  Emulator e;
  e.connect_bot();
  const auto once = e.invite(R"({"max_uses":1,"role_ids":[")" + e.vip + R"("]})");
  const auto got = parse(e.raw("GET", "/api/v10/invites/" + once + "?with_counts=true").body);
  CHECK(got["approximate_member_count"].GetInt() == 4);    // Olivia and the three bots
  CHECK(got["approximate_presence_count"].GetInt() == 1);  // the connected bot
  CHECK_FALSE(got.HasMember("uses"));
  check_error(e.raw("GET", "/api/v10/invites/nope"), 404, 10006);

  // Accepting: a user's token only; one use, then it is gone.
  check_error(e.raw("POST", "/api/v10/invites/" + once, "{}", {{"Authorization", "Bot " + e.bot_token}}), 403,
              50001);
  const auto accepted = e.accept(e.alice, once);
  REQUIRE_MESSAGE(accepted.status == 200, accepted.body);
  CHECK(str(parse(accepted.body)["guild"]["id"]) == e.guild_id);
  const auto joined = parse(e.bot("GET", "/guilds/" + e.guild_id + "/members/" + e.alice).body);
  REQUIRE(joined["roles"].Size() == 1);
  CHECK(str(joined["roles"][0]) == e.vip);
  const auto add = e.bot_peer.only("GUILD_MEMBER_ADD");
  CHECK(str(add["d"]["guild_id"]) == e.guild_id);
  CHECK(str(add["d"]["user"]["id"]) == e.alice);
  check_error(e.accept(e.bob, once), 404, 10006);  // used up

  // max_age 60: valid at 59.999 s, gone at 60 s.
  const auto minute = e.invite(R"({"max_age":60,"unique":true})");
  const auto other = e.invite(R"({"max_age":60,"unique":true})");
  REQUIRE(e.clock.advance(59999));
  CHECK(e.accept(e.bob, minute).status == 200);
  REQUIRE(e.clock.advance(1));
  check_error(e.accept(e.carol, other), 404, 10006);
  CHECK_FALSE(e.member_of_guild(e.carol));

  // Delete: MANAGE_CHANNELS on the channel or MANAGE_GUILD; the invite object back, INVITE_DELETE, entry 42.
  const auto doomed = e.invite(R"({"unique":true})");
  check_error(e.as_bot(e.helper_token, "DELETE", "/invites/" + doomed), 403, 50013);
  const auto deleted = e.bot("DELETE", "/invites/" + doomed);
  REQUIRE_MESSAGE(deleted.status == 200, deleted.body);
  CHECK(str(parse(deleted.body)["code"]) == doomed);
  CHECK(str(e.bot_peer.only("INVITE_DELETE")["d"]["code"]) == doomed);
  check_error(e.raw("GET", "/api/v10/invites/" + doomed), 404, 10006);
  check_error(e.bot("DELETE", "/invites/" + doomed), 404, 10006);
  CHECK(e.audit_actions().count(42) == 1);
}

TEST_CASE("target users: MANAGE_GUILD, the job pending then done on the fake clock, only its users accept") {
  Emulator e;
  const auto path = "/channels/" + e.general + "/invites";
  // The helper may invite but not target (no MANAGE_GUILD).
  check_error(e.as_bot(e.helper_token, "POST", path, "{}", "user_id\n" + e.alice + "\n"), 403, 50013);
  // Invalid ids are refused at once, each line named.
  const auto refused = e.bot("POST", path, "{}", "user_id\n" + e.alice + "\nalice\n0123\n");
  check_error(refused, 400, 50035);
  const auto refusal = parse(refused.body);
  const auto issues = refusal["errors"]["target_users_file"]["_errors"].GetArray();
  REQUIRE(issues.Size() == 2);
  CHECK(str(issues[0]["message"]) == "Line 3: invalid user ID format");
  CHECK(str(issues[1]["message"]) == "Line 4: invalid user ID - must be a valid Discord snowflake");

  const auto code =
      e.invite(R"({"role_ids":[")" + e.vip + R"("]})", "user_id\r\n" + e.alice + "\r\n" + e.alice + "\r\n");
  const auto status = [&] {
    return parse(e.bot("GET", "/invites/" + code + "/target-users/job-status").body);
  };
  const auto pending = status();
  CHECK(pending["status"].GetInt() == 1);
  CHECK(pending["total_users"].GetInt() == 1);  // duplicates are ignored
  CHECK(pending["completed_at"].IsNull());
  CHECK(pending["error_message"].IsNull());
  // While the first file is processed nobody may accept, and nobody else sees it.
  check_error(e.accept(e.alice, code), 404, 10006);
  check_error(e.raw("GET", "/api/v10/invites/" + code, {}, {{"Authorization", e.bearer(e.bob)}}), 404, 10006);
  REQUIRE(e.clock.advance(999));
  CHECK(status()["status"].GetInt() == 1);
  REQUIRE(e.clock.advance(1));
  const auto done = status();
  CHECK(done["status"].GetInt() == 2);
  CHECK(done["processed_users"].GetInt() == 1);
  CHECK(str(done["completed_at"]) == format_rfc3339_ms(kBenchStart + 1000));

  // Get Target Users: CSV with the header exactly `user_id`; the auditor (VIEW_AUDIT_LOG) may read it.
  const auto csv = e.bot("GET", "/invites/" + code + "/target-users");
  REQUIRE(csv.status == 200);
  CHECK(csv.header("Content-Type") == std::optional<std::string_view>("text/csv"));
  CHECK(csv.body == "user_id\n" + e.alice + "\n");
  CHECK(e.as_bot(e.auditor_token, "GET", "/invites/" + code + "/target-users").status == 200);
  check_error(e.as_bot(e.helper_token, "GET", "/invites/" + code + "/target-users"), 403, 50013);
  check_error(e.as_bot(e.auditor_token, "PUT", "/invites/" + code + "/target-users", "", "user_id\n" + e.bob),
              403, 50013);

  check_error(e.accept(e.bob, code), 404, 10006);
  REQUIRE(e.accept(e.alice, code).status == 200);
  CHECK(str(parse(e.bot("GET", "/guilds/" + e.guild_id + "/members/" + e.alice).body)["roles"][0]) == e.vip);

  // Update Target Users: Bob instead, once the new file is processed (the old list until then).
  CHECK(e.bot("PUT", "/invites/" + code + "/target-users", "", "user_id\n" + e.bob + "\n").status == 204);
  check_error(e.bot("PUT", "/invites/" + code + "/target-users", "{}"), 400, 50035);  // no file
  check_error(e.accept(e.bob, code), 404, 10006);
  REQUIRE(e.clock.advance(1000));
  CHECK(e.accept(e.bob, code).status == 200);
  CHECK(e.audit_actions().count(41) == 1);

  // No target users, no job: the platform's 10129 and 10124.
  const auto open = e.invite(R"({"unique":true})");
  check_error(e.bot("GET", "/invites/" + open + "/target-users"), 404, 10129);
  check_error(e.bot("GET", "/invites/" + open + "/target-users/job-status"), 404, 10124);
}

TEST_CASE("target users: 1 s per 1000 rows, at least 1 s; more than 100000 users fail the job") {
  Emulator e;
  const auto thousand = e.invite("{}", csv_of(1000));
  const auto thousand_and_one = e.invite(R"({"unique":true})", csv_of(1001));
  const auto status = [&](const std::string& code) {
    return parse(e.bot("GET", "/invites/" + code + "/target-users/job-status").body);
  };
  REQUIRE(e.clock.advance(999));
  CHECK(status(thousand)["processed_users"].GetInt() == 999);  // an even pace
  REQUIRE(e.clock.advance(1));
  CHECK(status(thousand)["status"].GetInt() == 2);
  CHECK(status(thousand_and_one)["status"].GetInt() == 1);
  REQUIRE(e.clock.advance(999));
  CHECK(status(thousand_and_one)["status"].GetInt() == 1);
  REQUIRE(e.clock.advance(1));
  CHECK(status(thousand_and_one)["status"].GetInt() == 2);

  const auto most = e.invite(R"({"unique":true})", csv_of(kTargetUsersMax));
  const auto too_many = e.invite(R"({"unique":true})", csv_of(kTargetUsersMax + 1));
  REQUIRE(e.clock.advance(101000));
  CHECK(status(most)["status"].GetInt() == 2);
  const auto failed = status(too_many);
  CHECK(failed["status"].GetInt() == 3);
  CHECK(failed["completed_at"].IsNull());
  CHECK(str(failed["error_message"]) == "Too many users: at most 100000");
  // A failed first file leaves the invite to nobody.
  check_error(e.accept(e.alice, too_many), 404, 10006);
}

TEST_CASE("the target-users CSV parser: header optional, quotes, CRLF, BOM, duplicates, failures") {
  const auto plain = parse_target_users_csv("1\n2\n2\n");
  CHECK(plain.user_ids == std::vector<std::string>{"1", "2"});
  CHECK(plain.rows == 3);
  const auto headed = parse_target_users_csv("\xEF\xBB\xBFid\r\n\"5\"\r\n  6 \r\n\r\n");
  CHECK(headed.user_ids == std::vector<std::string>{"5", "6"});
  CHECK(parse_target_users_csv("user_id\n18446744073709551615\n").user_ids.size() == 1);
  CHECK(parse_target_users_csv("user_id\n18446744073709551616\n").invalid_lines.size() == 1);
  CHECK(parse_target_users_csv("1\n2\n3\n", 3).failure == std::nullopt);
  CHECK(parse_target_users_csv("1\n2\n3\n4\n", 3).failure == "Too many users: at most 3");
  CHECK(parse_target_users_csv("user_id\n").failure == "The file has no user IDs");
  CHECK(parse_target_users_csv(std::string("1\n\0\n", 4)).failure == "Failed to parse CSV file");
  CHECK(parse_target_users_csv("1\n\xC3\n").failure == "Failed to parse CSV file");
  CHECK(target_users_csv({"7", "8"}) == "user_id\n7\n8\n");
}

TEST_CASE("invites survive a restart: uses, roles, target users, a job still pending; format 1 still loads") {
  Emulator first;
  StateMirror mirror(first.service.changes());
  const auto used = first.invite(R"({"max_uses":2,"role_ids":[")" + first.vip + R"("]})");
  REQUIRE(first.accept(first.alice, used).status == 200);
  const auto targeted = first.invite(R"({"unique":true})", "user_id\n" + first.bob + "\n");
  mirror.check_complete();
  CHECK(mirror.count("guild_invite") == 2);

  Emulator restarted(false);
  check_round_trip(mirror.documents(), restarted.service.changes());
  restarted.same_world_as(first);
  const auto kept = parse(restarted.bot("GET", "/channels/" + first.general + "/invites").body);
  REQUIRE(kept.Size() == 2);
  CHECK(parse(restarted.raw("GET", "/api/v10/invites/" + used).body)["roles"].Size() == 1);
  // The job goes on where it stood: Bob may accept once its second is over.
  StateMirror after(restarted.service.changes());
  check_error(restarted.accept(first.bob, targeted), 404, 10006);
  REQUIRE(restarted.clock.advance(1000));
  restarted.service.gateway_tick();  // the tick ends the job
  after.check_complete();
  REQUIRE(restarted.accept(first.bob, targeted).status == 200);
  // One use left of the first; the second use ends it.
  REQUIRE(restarted.accept(first.carol, used).status == 200);
  check_error(restarted.accept(first.olivia, used), 404, 10006);
  after.check_complete();

  // A lobby's invite as format 1 kept it: for its one user, single use, an hour from when it was made.
  Emulator old;
  old.service.changes().load({DocumentChange{
      "guild_invite", "oldcode",
      R"({"v":1,"guild_id":")" + old.guild_id + R"(","channel_id":")" + old.general + R"(","user_id":")" +
          old.bob + R"(","expires_ms":)" + std::to_string(kBenchStart + 1000) + "}"}});
  check_error(old.accept(old.alice, "oldcode"), 404, 10006);
  REQUIRE(old.accept(old.bob, "oldcode").status == 200);
  check_error(old.accept(old.bob, "oldcode"), 404, 10006);
}

}  // namespace invite_routes_test
