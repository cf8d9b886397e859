// AutoMod without sockets: the rule routes (MANAGE_GUILD; TIMEOUT also MODERATE_MEMBERS; 6 KEYWORD rules and
// 1 MEMBER_PROFILE rule per guild, crossed by one; the list and string limits crossed by one); keyword
// matching with the platform's wildcard strategies, allow_list and regex_patterns; BLOCK_MESSAGE on a
// member's message, a bot's edit and an interaction's deferred response edited (400 200000);
// SEND_ALERT_MESSAGE and TIMEOUT; exemptions; MEMBER_PROFILE with BLOCK_MEMBER_INTERACTION quarantining a
// member (no messages, no interactions) and lifting it; the events and audit entries; rules kept across a
// restart.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "guild/automod.hpp"
#include "guild/guild_state.hpp"
#include "recording_gateway_peer.hpp"
#include "service_bench.hpp"
#include "state_mirror.hpp"
#include "test_support.hpp"

namespace automod_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;
using namespace platformpp::emulator::permission;

namespace {

constexpr std::uint64_t kGuildsIntent = 1U << 0;
constexpr std::uint64_t kMessageContentIntent = 1U << 15;
constexpr std::uint64_t kAutoModConfigurationIntent = 1U << 20;
constexpr std::uint64_t kAutoModExecutionIntent = 1U << 21;

// Owner Olivia, member Alice; the moderator bot "Mod" (MANAGE_GUILD, MODERATE_MEMBERS, MANAGE_NICKNAMES, or
// `bits`) and the poster bot "Poster" (no MANAGE_GUILD, so AutoMod reads its messages); #general and #alerts.
struct Emulator : ServiceBench {
  std::string olivia, alice, mod_id, mod_token, poster_id, poster_token, poster_app, general, alerts;

  struct Empty {};
  explicit Emulator(Empty /*unused*/) {}
  explicit Emulator(std::uint64_t bits = kManageGuild | kModerateMembers | kManageNicknames | kViewAuditLog |
                                         kViewChannel | kSendMessages) {
    olivia = user("olivia");
    alice = user("alice");
    guild(olivia);
    const auto mod = app_json("Mod");
    mod_id = str(mod["bot_user_id"]);
    mod_token = str(mod["bot_token"]);
    const auto poster = app_json("Poster");
    poster_id = str(poster["bot_user_id"]);
    poster_token = str(poster["bot_token"]);
    poster_app = str(poster["id"]);
    member(mod_id, role("Mod", bits));
    member(poster_id, role("Poster", kViewChannel | kSendMessages));
    member(alice);
    general = channel(R"({"name":"general"})");
    alerts = channel(R"({"name":"alerts"})");
  }
  HttpResponse mod(std::string method, const std::string& path, std::string body = {}) {
    return as_json("Bot " + mod_token, std::move(method), path, std::move(body));
  }
  HttpResponse poster(std::string method, const std::string& path, std::string body = {}) {
    return as_json("Bot " + poster_token, std::move(method), path, std::move(body));
  }
  std::string rules() { return "/guilds/" + guild_id + "/auto-moderation/rules"; }
  // A KEYWORD rule on `keywords` (JSON array text) with `actions` (JSON array text), enabled.
  std::string keyword_rule(const std::string& keywords, const std::string& actions,
                           const std::string& extra_metadata = {}) {
    return str(ok(mod(
        "POST", rules(),
        R"({"name":"Words","event_type":1,"trigger_type":1,"enabled":true,"trigger_metadata":{"keyword_filter":)" +
            keywords + extra_metadata + R"(},"actions":)" + actions + "}"))["id"]);
  }
  HttpResponse member_says(const std::string& user_id, const std::string& text) {
    return raw("POST", "/_emulator/channels/" + general + "/messages?author_id=" + user_id,
               R"({"content":")" + text + R"("})");
  }
  HttpResponse poster_says(const std::string& text) {
    return poster("POST", "/channels/" + general + "/messages", R"({"content":")" + text + R"("})");
  }
  void connect(RecordingGatewayPeer& peer, std::uint64_t intents, const std::string& token = {}) {
    identify(peer, token.empty() ? mod_token : token, intents);
    REQUIRE(peer.dispatches("READY").size() == 1);
  }
  // The poster application's /tip command, invoked by `user_id` in #general: the refusal, or the
  // INTERACTION_CREATE its bot got (the bot must be connected to `peer`).
  HttpResponse invoke_tip(const std::string& user_id) {
    return raw("POST", "/_emulator/applications/" + poster_app + "/interactions/commands",
               R"({"user_id":")" + user_id + R"(","channel_id":")" + general + R"(","name":"tip"})");
  }
  void create_tip_command() {
    ok(poster("POST", "/applications/" + poster_app + "/commands",
              R"({"name":"tip","description":"A tip","type":1})"));
  }
  rapidjson::Document audit_entries() { return ok(mod("GET", "/guilds/" + guild_id + "/audit-logs")); }
};

void check_error(const HttpResponse& response, int status, int code) {
  CHECK_MESSAGE(response.status == status, response.body);
  CHECK_MESSAGE(parse(response.body)["code"].GetInt() == code, response.body);
}

bool blocked(const HttpResponse& response) {
  if (response.status != 400) return false;
  return parse(response.body)["code"].GetInt() == 200000;
}

AutoModRule keyword_rule(std::vector<std::string> keywords, std::vector<std::string> allow = {}) {
  AutoModRule rule;
  rule.trigger_type = automod::kKeyword;
  rule.keyword_filter = std::move(keywords);
  rule.allow_list = std::move(allow);
  return rule;
}

std::string quoted_list(std::size_t count, const std::string& item) {
  std::string list = "[";
  for (std::size_t i = 0; i < count; ++i)
    list += (i == 0 ? "\"" : ",\"") + item + std::to_string(i) + "\"";
  return list + "]";
}

}  // namespace

TEST_CASE("automod matching: whole word, prefix, suffix, anywhere, case, allow_list, regex") {
  const auto whole = keyword_rule({"cat"});
  CHECK(automod_match(whole, "a CAT sat"));
  CHECK(automod_match(whole, "cat!"));
  CHECK_FALSE(automod_match(whole, "catch"));
  CHECK_FALSE(automod_match(whole, "wildcat"));
  const auto prefix = keyword_rule({"cat*"});
  CHECK(automod_match(prefix, "Catapult")->content == "Catapult");
  CHECK_FALSE(automod_match(prefix, "wildcat"));
  const auto suffix = keyword_rule({"*cat"});
  CHECK(automod_match(suffix, "a wildcat")->content == "wildcat");
  CHECK_FALSE(automod_match(suffix, "catch"));
  const auto anywhere = keyword_rule({"*tra*"});
  CHECK(automod_match(anywhere, "outrage")->keyword == "*tra*");
  const auto phrase = keyword_rule({"the mat"});
  CHECK(automod_match(phrase, "on the mat now"));
  CHECK_FALSE(automod_match(phrase, "the matrix"));
  // allow_list covers what matched: no match; elsewhere in the text the keyword still trips.
  const auto allowed = keyword_rule({"cat*"}, {"catalog"});
  CHECK_FALSE(automod_match(allowed, "see the catalog"));
  CHECK(automod_match(allowed, "see the catalog, catch it")->content == "catch");
  AutoModRule regex;
  regex.trigger_type = automod::kKeyword;
  regex.regex_patterns = {"(b|c)at"};
  CHECK(automod_match(regex, "a BAT")->content == "BAT");
  CHECK_FALSE(automod_match(regex, "a rat"));
  // SPAM and preset rules are not evaluated by the emulator.
  AutoModRule spam;
  spam.trigger_type = automod::kSpam;
  spam.keyword_filter = {"cat"};
  CHECK_FALSE(automod_match(spam, "cat"));
}

TEST_CASE("automod rules: MANAGE_GUILD, the rule object, events, entries 140-142, 6 KEYWORD rules") {
  Emulator without(kViewChannel);
  check_error(without.mod("GET", without.rules()), 403, 50013);

  Emulator e;
  RecordingGatewayPeer configured;
  RecordingGatewayPeer unconfigured;
  e.connect(configured, kGuildsIntent | kAutoModConfigurationIntent);
  e.connect(unconfigured, kGuildsIntent);
  const auto id = e.keyword_rule(R"(["cat*"])", R"([{"type":1,"metadata":{"custom_message":"No cats"}}])");
  const auto rule = e.ok(e.mod("GET", e.rules() + "/" + id));
  CHECK(str(rule["creator_id"]) == e.mod_id);
  CHECK(str(rule["guild_id"]) == e.guild_id);
  CHECK(str(rule["trigger_metadata"]["keyword_filter"][0]) == "cat*");
  CHECK(str(rule["actions"][0]["metadata"]["custom_message"]) == "No cats");
  CHECK(configured.dispatches("AUTO_MODERATION_RULE_CREATE").size() == 1);
  CHECK(unconfigured.dispatches("AUTO_MODERATION_RULE_CREATE").empty());
  e.ok(e.mod("PATCH", e.rules() + "/" + id, R"({"name":"Cats","enabled":false})"));
  CHECK(configured.dispatches("AUTO_MODERATION_RULE_UPDATE").size() == 1);
  check_error(e.mod("PATCH", e.rules() + "/" + id, R"({"trigger_type":6})"), 400, 50035);
  CHECK(e.ok(e.mod("GET", e.rules())).Size() == 1);

  // Five more KEYWORD rules make six; the seventh is refused.
  for (int i = 0; i < 5; ++i)
    e.keyword_rule(R"(["dog)" + std::to_string(i) + R"("])", R"([{"type":1}])");
  check_error(
      e.mod(
          "POST", e.rules(),
          R"({"name":"7","event_type":1,"trigger_type":1,"actions":[{"type":1}],"trigger_metadata":{"keyword_filter":["x"]}})"),
      400, 50035);
  e.ok(e.mod("DELETE", e.rules() + "/" + id));
  CHECK(configured.dispatches("AUTO_MODERATION_RULE_DELETE").size() == 1);
  check_error(e.mod("GET", e.rules() + "/" + id), 404, 10066);
  const auto entries = e.audit_entries();
  const auto& list = entries["audit_log_entries"];
  CHECK(list[0]["action_type"].GetInt() == 142);
  CHECK(list[list.Size() - 1]["action_type"].GetInt() == 140);
  bool saw_update = false;
  for (const auto& entry : list.GetArray())
    saw_update = saw_update || entry["action_type"].GetInt() == 141;
  CHECK(saw_update);
}

TEST_CASE("automod rules: the limits crossed by one and the fit of event, trigger and action") {
  Emulator e;
  const auto create = [&](const std::string& metadata, const std::string& actions = R"([{"type":1}])",
                          int trigger = 1, int event = 1) {
    return e.mod("POST", e.rules(),
                 R"({"name":"r","event_type":)" + std::to_string(event) + R"(,"trigger_type":)" +
                     std::to_string(trigger) + R"(,"trigger_metadata":)" + metadata + R"(,"actions":)" +
                     actions + "}");
  };
  // Keywords: 60 characters, not 61; 1000 of them, not 1001.
  CHECK(create(R"({"keyword_filter":[")" + std::string(60, 'k') + R"("]})").status == 200);
  check_error(create(R"({"keyword_filter":[")" + std::string(61, 'k') + R"("]})"), 400, 50035);
  check_error(create(R"({"keyword_filter":)" + quoted_list(1001, "k") + "}"), 400, 50035);
  CHECK(create(R"({"keyword_filter":)" + quoted_list(1000, "k") + "}").status == 200);
  // regex_patterns: 10, not 11; 260 characters, not 261; a pattern that does not compile.
  check_error(create(R"({"regex_patterns":)" + quoted_list(11, "r") + "}"), 400, 50035);
  CHECK(create(R"({"regex_patterns":)" + quoted_list(10, "r") + "}").status == 200);
  check_error(create(R"({"regex_patterns":[")" + std::string(261, 'r') + R"("]})"), 400, 50035);
  CHECK(create(R"({"regex_patterns":[")" + std::string(260, 'r') + R"("]})").status == 200);
  check_error(create(R"({"regex_patterns":["(unclosed"]})"), 400, 50035);
  // allow_list: 100 for KEYWORD, not 101.
  check_error(create(R"({"allow_list":)" + quoted_list(101, "a") + "}"), 400, 50035);
  // custom_message 150, not 151; a timeout of 4 weeks, not a second more.
  check_error(
      create(R"({})", R"([{"type":1,"metadata":{"custom_message":")" + std::string(151, 'm') + R"("}}])"),
      400, 50035);
  check_error(create(R"({})", R"([{"type":3,"metadata":{"duration_seconds":2419201}}])"), 400, 50035);
  // An alert needs a channel of the guild; BLOCK_MEMBER_INTERACTION is for MEMBER_PROFILE only.
  check_error(create(R"({})", R"([{"type":2,"metadata":{"channel_id":"424242"}}])"), 400, 50035);
  check_error(create(R"({})", R"([{"type":4}])"), 400, 50035);
  // MEMBER_PROFILE goes with MEMBER_UPDATE (2); one such rule per guild.
  check_error(create(R"({"keyword_filter":["x"]})", R"([{"type":4}])", 6, 1), 400, 50035);
  CHECK(create(R"({"keyword_filter":["x"]})", R"([{"type":4}])", 6, 2).status == 200);
  check_error(create(R"({"keyword_filter":["y"]})", R"([{"type":4}])", 6, 2), 400, 50035);
  // exempt_roles: 20, not 21.
  std::string roles = "[";
  for (int i = 0; i < 21; ++i)
    roles += (i == 0 ? "\"" : ",\"") + e.guild_id + "\"";
  roles += "]";
  check_error(e.mod("POST", e.rules(),
                    R"({"name":"r","event_type":1,"trigger_type":4,"actions":[{"type":1}],"exempt_roles":)" +
                        roles + "}"),
              400, 50035);
  // TIMEOUT needs MODERATE_MEMBERS.
  Emulator no_moderate(kManageGuild | kViewChannel);
  check_error(
      no_moderate.mod(
          "POST", no_moderate.rules(),
          R"({"name":"t","event_type":1,"trigger_type":1,"trigger_metadata":{"keyword_filter":["x"]},"actions":[{"type":3,"metadata":{"duration_seconds":60}}]})"),
      403, 50013);
}

TEST_CASE("automod: BLOCK_MESSAGE refuses members' and bots' messages and edits; exemptions") {
  Emulator e;
  RecordingGatewayPeer executions;
  e.connect(executions, kGuildsIntent | kAutoModExecutionIntent | kMessageContentIntent);
  e.keyword_rule(R"(["cheat*"])", R"([{"type":1}])");
  CHECK(blocked(e.member_says(e.alice, "free cheats here")));
  CHECK(e.member_says(e.alice, "fair play").status == 200);
  CHECK(blocked(e.poster_says("cheating is fun")));
  const auto kept = e.ok(e.poster_says("all good"));
  CHECK(blocked(e.poster("PATCH", "/channels/" + e.general + "/messages/" + str(kept["id"]),
                         R"({"content":"now cheating"})")));
  // The blocked messages were never posted.
  const auto history = e.ok(e.poster("GET", "/channels/" + e.general + "/messages?limit=100"));
  for (const auto& message : history.GetArray())
    CHECK(str(message["content"]).find("cheat") == std::string::npos);
  const auto executed = executions.dispatches("AUTO_MODERATION_ACTION_EXECUTION");
  REQUIRE(executed.size() == 3);
  CHECK(str(executed[0]["d"]["user_id"]) == e.alice);
  CHECK(str(executed[0]["d"]["matched_keyword"]) == "cheat*");
  CHECK(str(executed[0]["d"]["matched_content"]) == "cheats");
  CHECK(str(executed[0]["d"]["content"]) == "free cheats here");
  CHECK_FALSE(executed[0]["d"].HasMember("message_id"));
  CHECK(e.audit_entries()["audit_log_entries"][0]["action_type"].GetInt() == 143);

  // The moderator bot (MANAGE_GUILD) is exempt; so is an exempt role and an exempt channel.
  CHECK(e.mod("POST", "/channels/" + e.general + "/messages", R"({"content":"cheat codes"})").status == 200);
  Emulator exempt;
  const auto trusted = exempt.role("Trusted", 0);
  const auto bob = exempt.user("bob");
  exempt.member(bob, trusted);
  exempt.ok(exempt.mod(
      "POST", exempt.rules(),
      R"({"name":"w","event_type":1,"trigger_type":1,"enabled":true,"trigger_metadata":{"keyword_filter":["cheat*"]},"actions":[{"type":1}],"exempt_roles":[")" +
          trusted + R"("],"exempt_channels":[")" + exempt.alerts + R"("]})"));
  CHECK(exempt.member_says(bob, "cheats").status == 200);
  CHECK(blocked(exempt.member_says(exempt.alice, "cheats")));
  CHECK(exempt
            .raw("POST", "/_emulator/channels/" + exempt.alerts + "/messages?author_id=" + exempt.alice,
                 R"({"content":"cheats"})")
            .status == 200);
  // A disabled rule does nothing.
  Emulator disabled;
  disabled.ok(disabled.mod(
      "POST", disabled.rules(),
      R"({"name":"w","event_type":1,"trigger_type":1,"trigger_metadata":{"keyword_filter":["cheat*"]},"actions":[{"type":1}]})"));
  CHECK(disabled.member_says(disabled.alice, "cheats").status == 200);
}

TEST_CASE("automod: SEND_ALERT_MESSAGE posts to the alert channel, TIMEOUT times the member out") {
  Emulator e;
  RecordingGatewayPeer executions;
  e.connect(executions, kGuildsIntent | kAutoModExecutionIntent);  // without MESSAGE_CONTENT
  e.keyword_rule(R"(["spoiler"])", R"([{"type":2,"metadata":{"channel_id":")" + e.alerts +
                                       R"("}},{"type":3,"metadata":{"duration_seconds":60}}])");
  const auto said = e.member_says(e.alice, "big spoiler ahead");
  REQUIRE(said.status == 200);  // not blocked: the message stays
  const auto alerts = e.ok(e.mod("GET", "/channels/" + e.alerts + "/messages"));
  REQUIRE(alerts.Size() == 1);
  CHECK(alerts[0]["type"].GetInt() == 24);
  CHECK(str(alerts[0]["embeds"][0]["type"]) == "auto_moderation_message");
  const auto executed = executions.dispatches("AUTO_MODERATION_ACTION_EXECUTION");
  REQUIRE(executed.size() == 2);
  CHECK(str(executed[0]["d"]["alert_system_message_id"]) == str(alerts[0]["id"]));
  CHECK(str(executed[0]["d"]["content"]).empty());  // no MESSAGE_CONTENT intent
  CHECK(executed[1]["d"]["action"]["type"].GetInt() == 3);
  // Timed out for 60 s: no messages until then.
  const auto member = e.ok(e.mod("GET", "/guilds/" + e.guild_id + "/members/" + e.alice));
  CHECK(member["communication_disabled_until"].IsString());
  check_error(e.member_says(e.alice, "hello?"), 403, 50013);
  REQUIRE(e.clock.advance(60000));
  CHECK(e.member_says(e.alice, "hello").status == 200);
  const auto entries = e.audit_entries();
  bool flagged = false;
  bool timed_out = false;
  for (const auto& entry : entries["audit_log_entries"].GetArray()) {
    flagged = flagged || entry["action_type"].GetInt() == 144;
    if (entry["action_type"].GetInt() == 145) {
      timed_out = true;
      CHECK(str(entry["options"]["auto_moderation_rule_name"]) == "Words");
      CHECK(str(entry["options"]["auto_moderation_rule_trigger_type"]) == "1");
      CHECK(str(entry["user_id"]) == e.alice);
    }
  }
  CHECK(flagged);
  CHECK(timed_out);
}

TEST_CASE("automod: an interaction's deferred response edited with blocked content is a 400") {
  Emulator e;
  e.keyword_rule(R"(["cheat*"])", R"([{"type":1}])");
  RecordingGatewayPeer poster;
  e.connect(poster, kGuildsIntent, e.poster_token);
  e.create_tip_command();
  const auto invoked = e.invoke_tip(e.alice);
  REQUIRE_MESSAGE(invoked.deferred, invoked.body);
  const auto created = poster.dispatches("INTERACTION_CREATE");
  REQUIRE(created.size() == 1);
  const auto token = str(created[0]["d"]["token"]);
  const auto interaction_id = str(created[0]["d"]["id"]);
  CHECK(e.raw("POST", "/api/v10/interactions/" + interaction_id + "/" + token + "/callback", R"({"type":5})")
            .status == 204);
  const auto original = "/api/v10/webhooks/" + e.poster_app + "/" + token + "/messages/@original";
  CHECK(blocked(e.raw("PATCH", original, R"({"content":"try cheating"})")));
  CHECK(e.raw("PATCH", original, R"({"content":"practice"})").status == 200);
  // A follow-up is read too.
  CHECK(blocked(
      e.raw("POST", "/api/v10/webhooks/" + e.poster_app + "/" + token, R"({"content":"cheat sheet"})")));
}

TEST_CASE("automod: MEMBER_PROFILE quarantines a member (no messages, no interactions) and lifts it") {
  Emulator e;
  RecordingGatewayPeer executions;
  e.connect(executions, kGuildsIntent | kAutoModExecutionIntent | kMessageContentIntent);
  e.ok(e.mod(
      "POST", e.rules(),
      R"({"name":"Names","event_type":2,"trigger_type":6,"enabled":true,"trigger_metadata":{"keyword_filter":["*scam*"]},"actions":[{"type":4}]})"));
  // A member who joins with such a name is quarantined at once.
  const auto scammer = e.user("scammer_bob");
  const auto joined = e.ok(e.member(scammer));
  CHECK((joined["flags"].GetUint64() & (1U << 7)) != 0);
  check_error(e.member_says(scammer, "hi"), 403, 50013);
  const auto executed = executions.dispatches("AUTO_MODERATION_ACTION_EXECUTION");
  REQUIRE(executed.size() == 1);
  CHECK(executed[0]["d"]["rule_trigger_type"].GetInt() == 6);
  CHECK(executed[0]["d"]["action"]["type"].GetInt() == 4);
  CHECK(e.audit_entries()["audit_log_entries"][0]["action_type"].GetInt() == 146);
  // No interactions either.
  e.create_tip_command();
  check_error(e.invoke_tip(scammer), 403, 50013);
  // Alice takes a matching nickname: quarantined; a clean one lifts it.
  e.ok(e.mod("PATCH", "/guilds/" + e.guild_id + "/members/" + e.alice, R"({"nick":"ScamKing"})"));
  check_error(e.member_says(e.alice, "hi"), 403, 50013);
  const auto member =
      e.ok(e.mod("PATCH", "/guilds/" + e.guild_id + "/members/" + e.alice, R"({"nick":"Alice"})"));
  CHECK((member["flags"].GetUint64() & (1U << 7)) == 0);
  CHECK(e.member_says(e.alice, "hi").status == 200);
}

TEST_CASE("automod: rules survive a restart") {
  Emulator first;
  StateMirror mirror(first.service.changes());
  first.keyword_rule(R"(["cheat*"])", R"([{"type":1,"metadata":{"custom_message":"no"}}])",
                     R"(,"allow_list":["cheater"])");
  mirror.check_complete();
  CHECK(mirror.count("automod_rule") == 1);
  const auto before = json_text(first.ok(first.mod("GET", first.rules())));
  Emulator restarted{Emulator::Empty{}};
  check_round_trip(mirror.documents(), restarted.service.changes());
  restarted.mod_token = first.mod_token;
  restarted.guild_id = first.guild_id;
  CHECK(json_text(restarted.ok(restarted.mod("GET", restarted.rules()))) == before);
}

}  // namespace automod_test
