// BackendClient's AutoMod routes against the HTTP stand-in: /guilds/{guild}/auto-moderation/rules... with the
// bot's Authorization, the bodies on the wire (the trigger type sent on create only, the trigger's own
// metadata fields), X-Audit-Log-Reason on the mutating calls, every limit of CheckAutoModRuleChanges crossed
// by one, the fit of event type, trigger and action types, error answers mapped into ClientResult; and
// ParseAutoModRule on the docs' rule and on junk.
#include "backend_stand_in.hpp"

#include <platformpp/backend.hpp>
#include <platformpp/guild_automod.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace guild_automod_routes_test {

using namespace platformpp;
using namespace platformpp::backend;
using platformpp::testing::HeaderOf;

namespace {

const std::string kRules = "https://api.test/api/v10/guilds/3003/auto-moderation/rules";

// The platform's example rule (developers/resources/auto-moderation.mdx, "Example Auto Moderation Rule").
const char* const kDocsRule = R"({
  "id": "969707018069872670",
  "guild_id": "613425648685547541",
  "name": "Keyword Filter 1",
  "creator_id": "423457898095789043",
  "trigger_type": 1,
  "event_type": 1,
  "actions": [
    {"type": 1, "metadata": {"custom_message": "Please keep financial discussions limited to the #finance channel"}},
    {"type": 2, "metadata": {"channel_id": "123456789123456789"}},
    {"type": 3, "metadata": {"duration_seconds": 60}}
  ],
  "trigger_metadata": {"keyword_filter": ["cat*", "*dog", "*ana*", "i like c++"],
                       "regex_patterns": ["(b|c)at", "^(?:[0-9]{1,3}\\.){3}[0-9]{1,3}$"],
                       "allow_list": ["conversation", "*talk"]},
  "enabled": true,
  "exempt_roles": ["323456789123456789", "423456789123456789"],
  "exempt_channels": ["523456789123456789"]
})";

using Paths = std::vector<std::string>;

// What the calls answered: a base before the client, so that calls still pending when the client goes
// (ended by its shutdown) find them alive.
struct Answers {
  std::vector<ClientResult> results;
  std::vector<AutoModRule> rules;
};

struct Fixture : Answers, platformpp::testing::BackendOnStandIn {
  BackendClient::AutoModRuleCallback KeepRule() {
    return [this](ClientResult r, AutoModRule rule) {
      results.push_back(std::move(r));
      rules.push_back(std::move(rule));
    };
  }
  // Runs `call`; true when it was sent, else REQUIREs one ValidationError.
  template <class Call>
  bool Sent(Call call) {
    return platformpp::testing::SentOrRefused(standIn, backend, results, call);
  }
  Paths BrokenPaths() const { return platformpp::testing::BrokenPathsOf(results); }
};

// A KEYWORD rule that may be created.
AutoModRuleChanges KeywordRule() {
  AutoModRuleChanges changes;
  changes.name = "no spoilers";
  changes.eventType = AutoModEventType::MessageSend;
  changes.triggerType = AutoModTriggerType::Keyword;
  changes.triggerMetadata = AutoModTriggerMetadata{};
  changes.triggerMetadata->keywordFilter = {"spoiler*"};
  AutoModAction block;
  block.customMessage = "No spoilers, please.";
  changes.actions = std::vector<AutoModAction>{block};
  return changes;
}

}  // namespace

TEST_CASE("ParseAutoModRule: the docs' rule, every field") {
  auto rule = ParseAutoModRule(kDocsRule);
  REQUIRE(rule);
  CHECK(rule->id == 969707018069872670ULL);
  CHECK(rule->guildId == 613425648685547541ULL);
  CHECK(rule->name == "Keyword Filter 1");
  CHECK(rule->creatorId == 423457898095789043ULL);
  CHECK(rule->triggerType == AutoModTriggerType::Keyword);
  CHECK(rule->eventType == AutoModEventType::MessageSend);
  REQUIRE(rule->actions.size() == 3);
  CHECK(rule->actions[0].type == AutoModActionType::BlockMessage);
  CHECK(rule->actions[0].customMessage ==
        "Please keep financial discussions limited to the #finance channel");
  CHECK(rule->actions[1].type == AutoModActionType::SendAlertMessage);
  CHECK(rule->actions[1].channelId == 123456789123456789ULL);
  CHECK(rule->actions[2].type == AutoModActionType::Timeout);
  CHECK(rule->actions[2].durationSeconds == 60);
  CHECK(rule->triggerMetadata.keywordFilter.size() == 4);
  CHECK(rule->triggerMetadata.regexPatterns.size() == 2);
  CHECK(rule->triggerMetadata.allowList == std::vector<std::string>{"conversation", "*talk"});
  CHECK(rule->enabled);
  CHECK(rule->exemptRoles == std::vector<uint64_t>{323456789123456789ULL, 423456789123456789ULL});
  CHECK(rule->exemptChannels == std::vector<uint64_t>{523456789123456789ULL});
  auto preset = ParseAutoModRule(
      R"({"id":"1","trigger_type":4,"event_type":1,"trigger_metadata":{"presets":[1,3],"allow_list":[]},)"
      R"("actions":[],"enabled":false,"future":true})");
  REQUIRE(preset);
  CHECK(preset->triggerMetadata.presets ==
        std::vector<AutoModKeywordPreset>{AutoModKeywordPreset::Profanity, AutoModKeywordPreset::Slurs});
  CHECK(preset->rawJson.find("future") != std::string::npos);
  auto mentions = ParseAutoModRule(
      R"({"trigger_type":5,"trigger_metadata":{"mention_total_limit":5,"mention_raid_protection_enabled":true}})");
  REQUIRE(mentions);
  CHECK(mentions->triggerMetadata.mentionTotalLimit == 5);
  CHECK(mentions->triggerMetadata.mentionRaidProtectionEnabled == true);
}

TEST_CASE("ParseAutoModRule: junk gives nullopt, never a crash; wrong types keep defaults") {
  for (const char* junk : {"", "null", "[]", "42", "\"rule\"", "{", "\xff\xfe"}) {
    CAPTURE(junk);
    CHECK_FALSE(ParseAutoModRule(junk));
  }
  CHECK_FALSE(ParseAutoModRule(std::string(100000, '[')));
  auto odd = ParseAutoModRule(
      R"({"id":"x","name":5,"actions":[{"type":"1"},7,{"type":3,"metadata":"m"}],"trigger_metadata":[],)"
      R"("exempt_roles":["1","y",2],"enabled":"yes"})");
  REQUIRE(odd);
  CHECK(odd->id == 0);
  CHECK(odd->name.empty());
  REQUIRE(odd->actions.size() == 1);  // the unreadable actions skipped, not the rule
  CHECK(odd->actions[0].type == AutoModActionType::Timeout);
  CHECK(odd->triggerMetadata.keywordFilter.empty());
  CHECK(odd->exemptRoles == std::vector<uint64_t>{1, 2});
  CHECK_FALSE(odd->enabled);
}

TEST_CASE("ParseAutoModActionExecution: the docs' event; the guild, rule and user required; junk") {
  auto execution = ParseAutoModActionExecution(
      R"({"guild_id":"1","action":{"type":2,"metadata":{"channel_id":"9"}},"rule_id":"2",)"
      R"("rule_trigger_type":1,"user_id":"3","channel_id":"4","message_id":"5","alert_system_message_id":"6",)"
      R"("content":"buy gold","matched_keyword":"gold","matched_content":"gold"})");
  REQUIRE(execution);
  CHECK(execution->guildId == 1);
  CHECK(execution->action.type == AutoModActionType::SendAlertMessage);
  CHECK(execution->action.channelId == 9);
  CHECK(execution->ruleId == 2);
  CHECK(execution->ruleTriggerType == AutoModTriggerType::Keyword);
  CHECK(execution->userId == 3);
  CHECK(execution->channelId == std::optional<uint64_t>(4));
  CHECK(execution->messageId == std::optional<uint64_t>(5));
  CHECK(execution->alertSystemMessageId == std::optional<uint64_t>(6));
  CHECK(execution->content == "buy gold");
  CHECK(execution->matchedKeyword == std::optional<std::string>("gold"));
  CHECK(execution->matchedContent == "gold");
  CHECK(execution->rawJson.find("\"alert_system_message_id\"") != std::string::npos);

  // A profile's execution: no channel, no message, a null keyword.
  auto profile = ParseAutoModActionExecution(
      R"({"guild_id":"1","action":{"type":4},"rule_id":"2","rule_trigger_type":6,"user_id":"3",)"
      R"("content":"","matched_keyword":null,"matched_content":null})");
  REQUIRE(profile);
  CHECK(profile->action.type == AutoModActionType::BlockMemberInteraction);
  CHECK_FALSE(profile->channelId);
  CHECK_FALSE(profile->messageId);
  CHECK_FALSE(profile->matchedKeyword);

  for (const char* junk : {"", "null", "[]", "{", R"({"rule_id":"2","user_id":"3"})",
                           R"({"guild_id":"1","user_id":"3"})", R"({"guild_id":"1","rule_id":"2"})"}) {
    CAPTURE(junk);
    CHECK_FALSE(ParseAutoModActionExecution(junk));
  }
  CHECK_FALSE(ParseAutoModActionExecution(std::string(100000, '[')));
  auto odd = ParseAutoModActionExecution(
      R"({"guild_id":"1","rule_id":"2","user_id":"3","action":"x","content":7,"channel_id":"c"})");
  REQUIRE(odd);
  CHECK(odd->action.type == AutoModActionType::BlockMessage);
  CHECK(odd->content.empty());
  CHECK_FALSE(odd->channelId);
}

TEST_CASE("AutoMod routes: GET, POST, PATCH, DELETE as the bot; bodies, reason header, answers read") {
  std::vector<AutoModRule> listed;
  Fixture f;
  f.backend.ListAutoModRules(3003, [&](ClientResult r, std::vector<AutoModRule> rules) {
    f.results.push_back(std::move(r));
    listed = std::move(rules);
  });
  f.backend.GetAutoModRule(3003, 969707018069872670ULL, f.KeepRule());
  AutoModRuleChanges create = KeywordRule();
  create.triggerMetadata->allowList = {"spoiler alert"};
  create.enabled = true;
  create.exemptRoles = std::vector<uint64_t>{41};
  create.exemptChannels = std::vector<uint64_t>{};
  f.backend.CreateAutoModRule(3003, create, f.KeepRule(), "keep the finale a surprise");
  AutoModRuleChanges modify;
  modify.enabled = false;
  modify.triggerType = AutoModTriggerType::Keyword;  // for the checks; never sent on modify
  modify.triggerMetadata = AutoModTriggerMetadata{};
  AutoModAction timeout;
  timeout.type = AutoModActionType::Timeout;
  timeout.durationSeconds = 60;
  AutoModAction alert;
  alert.type = AutoModActionType::SendAlertMessage;
  alert.channelId = 500;
  modify.actions = std::vector<AutoModAction>{timeout, alert};
  f.backend.ModifyAutoModRule(3003, 77, modify, f.KeepRule());
  f.backend.DeleteAutoModRule(
      3003, 77, [&](ClientResult r) { f.results.push_back(std::move(r)); }, "done");
  REQUIRE(f.standIn.requests.size() == 5);
  const auto& r = f.standIn.requests;
  CHECK(r[0].method == "GET");
  CHECK(r[0].url == kRules);
  CHECK(r[1].url == kRules + "/969707018069872670");
  CHECK(r[2].method == "POST");
  CHECK(r[2].url == kRules);
  CHECK(r[2].contentType == "application/json");
  CHECK(
      r[2].body ==
      R"({"name":"no spoilers","event_type":1,"trigger_type":1,"trigger_metadata":{"keyword_filter":["spoiler*"],)"
      R"("regex_patterns":[],"allow_list":["spoiler alert"]},"actions":[{"type":1,"metadata":{"custom_message":)"
      R"("No spoilers, please."}}],"enabled":true,"exempt_roles":["41"],"exempt_channels":[]})");
  CHECK(HeaderOf(r[2], "X-Audit-Log-Reason") == "keep%20the%20finale%20a%20surprise");
  CHECK(r[3].method == "PATCH");
  CHECK(r[3].url == kRules + "/77");
  CHECK(
      r[3].body ==
      R"({"trigger_metadata":{"keyword_filter":[],"regex_patterns":[],"allow_list":[]},"actions":[{"type":3,)"
      R"("metadata":{"duration_seconds":60}},{"type":2,"metadata":{"channel_id":"500"}}],"enabled":false})");
  CHECK(HeaderOf(r[3], "X-Audit-Log-Reason").empty());
  CHECK(r[4].method == "DELETE");
  CHECK(r[4].url == kRules + "/77");
  CHECK(HeaderOf(r[4], "X-Audit-Log-Reason") == "done");
  for (const auto& request : r)
    CHECK(HeaderOf(request, "Authorization") == "Bot bot-secret");
  f.standIn.Answer(0, 200, std::string("[") + kDocsRule + "]");
  f.standIn.Answer(1, 200, kDocsRule);
  f.standIn.Answer(2, 403, R"({"code":50013,"message":"Missing Permissions"})");
  f.standIn.Answer(3, 404, R"({"code":10066,"message":"Unknown Auto Moderation Rule"})");
  f.standIn.Answer(4, 204, "", "");
  CHECK(f.results.empty());  // callbacks run only inside RunCallbacks
  f.backend.RunCallbacks();
  REQUIRE(f.results.size() == 5);
  CHECK(f.results[0].Successful());
  REQUIRE(listed.size() == 1);
  CHECK(listed[0].name == "Keyword Filter 1");
  CHECK(f.results[1].Successful());
  CHECK(f.rules[0].id == 969707018069872670ULL);
  CHECK(f.results[2].Status() == 403);
  CHECK(f.results[2].ErrorCode() == 50013);
  CHECK(f.rules[1].id == 0);  // a default rule on failure
  CHECK(f.results[3].ErrorCode() == 10066);
  CHECK(f.results[4].Successful());
}

TEST_CASE("AutoMod: the trigger's own metadata fields; without a trigger type only what is set") {
  Fixture f;
  AutoModRuleChanges preset;
  preset.name = "presets";
  preset.eventType = AutoModEventType::MessageSend;
  preset.triggerType = AutoModTriggerType::KeywordPreset;
  preset.triggerMetadata = AutoModTriggerMetadata{};
  preset.triggerMetadata->presets = {AutoModKeywordPreset::Profanity, AutoModKeywordPreset::SexualContent};
  preset.triggerMetadata->keywordFilter = {"not sent"};
  preset.actions = std::vector<AutoModAction>{AutoModAction{}};
  f.backend.CreateAutoModRule(3003, preset, f.KeepRule());
  AutoModRuleChanges mentions;
  mentions.name = "mentions";
  mentions.eventType = AutoModEventType::MessageSend;
  mentions.triggerType = AutoModTriggerType::MentionSpam;
  mentions.triggerMetadata = AutoModTriggerMetadata{};
  mentions.triggerMetadata->mentionTotalLimit = 50;
  mentions.triggerMetadata->mentionRaidProtectionEnabled = true;
  mentions.actions = std::vector<AutoModAction>{AutoModAction{}};
  f.backend.CreateAutoModRule(3003, mentions, f.KeepRule());
  AutoModRuleChanges loose;
  loose.triggerMetadata = AutoModTriggerMetadata{};
  loose.triggerMetadata->allowList = {"ok"};
  f.backend.ModifyAutoModRule(3003, 77, loose, f.KeepRule());
  REQUIRE(f.standIn.requests.size() == 3);
  CHECK(
      f.standIn.requests[0].body ==
      R"({"name":"presets","event_type":1,"trigger_type":4,"trigger_metadata":{"presets":[1,2],"allow_list":[]},)"
      R"("actions":[{"type":1,"metadata":{}}]})");
  CHECK(f.standIn.requests[1].body ==
        R"({"name":"mentions","event_type":1,"trigger_type":5,"trigger_metadata":{"mention_total_limit":50,)"
        R"("mention_raid_protection_enabled":true},"actions":[{"type":1,"metadata":{}}]})");
  CHECK(f.standIn.requests[2].body == R"({"trigger_metadata":{"allow_list":["ok"]}})");
}

TEST_CASE("AutoModRuleChanges: create needs name, event type, trigger type and actions; ids not 0") {
  Fixture f;
  CHECK_FALSE(f.Sent([&] { f.backend.CreateAutoModRule(3003, AutoModRuleChanges{}, f.KeepRule()); }));
  CHECK(f.BrokenPaths() == Paths{"name", "event_type", "trigger_type", "actions"});
  CHECK(f.Sent([&] { f.backend.ModifyAutoModRule(3003, 77, AutoModRuleChanges{}, f.KeepRule()); }));
  CHECK_FALSE(f.Sent([&] { f.backend.GetAutoModRule(0, 0, f.KeepRule()); }));
  CHECK(f.BrokenPaths() == Paths{"guildId", "ruleId"});
  AutoModRuleChanges empty = KeywordRule();
  empty.actions = std::vector<AutoModAction>{};
  CHECK_FALSE(f.Sent([&] { f.backend.CreateAutoModRule(3003, empty, f.KeepRule()); }));
  CHECK(f.BrokenPaths() == Paths{"actions"});
  AutoModRuleChanges odd = KeywordRule();
  odd.triggerType = static_cast<AutoModTriggerType>(2);
  odd.eventType = static_cast<AutoModEventType>(3);
  CHECK_FALSE(f.Sent([&] { f.backend.CreateAutoModRule(3003, odd, f.KeepRule()); }));
  CHECK(f.BrokenPaths() == Paths{"trigger_type", "event_type"});
}

TEST_CASE("AutoModRuleChanges: every list and text limit crossed by one") {
  auto broken = [](const AutoModRuleChanges& changes) {
    Paths paths;
    for (const auto& error : CheckAutoModRuleChanges(changes, true))
      paths.push_back(error.path);
    return paths;
  };
  CHECK(broken(KeywordRule()).empty());
  auto with = [](auto edit) {
    AutoModRuleChanges changes = KeywordRule();
    edit(changes);
    return changes;
  };
  // name 1..100
  CHECK(broken(with([](auto& c) { c.name = std::string(100, 'n'); })).empty());
  CHECK(broken(with([](auto& c) { c.name = std::string(101, 'n'); })) == Paths{"name"});
  CHECK(broken(with([](auto& c) { c.name = ""; })) == Paths{"name"});
  // keyword_filter: 1000 entries of 1..60
  CHECK(broken(with([](auto& c) {
          c.triggerMetadata->keywordFilter.assign(1000, std::string(60, 'k'));
        })).empty());
  CHECK(broken(with([](auto& c) { c.triggerMetadata->keywordFilter.assign(1001, "k"); })) ==
        Paths{"trigger_metadata.keyword_filter"});
  CHECK(broken(with([](auto& c) {
          c.triggerMetadata->keywordFilter = {"k", std::string(61, 'k')};
        })) == Paths{"trigger_metadata.keyword_filter.1"});
  CHECK(broken(with([](auto& c) { c.triggerMetadata->keywordFilter = {""}; })) ==
        Paths{"trigger_metadata.keyword_filter.0"});
  // regex_patterns: 10 of 1..260
  CHECK(broken(with([](auto& c) {
          c.triggerMetadata->regexPatterns.assign(10, std::string(260, 'r'));
        })).empty());
  CHECK(broken(with([](auto& c) { c.triggerMetadata->regexPatterns.assign(11, "r"); })) ==
        Paths{"trigger_metadata.regex_patterns"});
  CHECK(broken(with([](auto& c) { c.triggerMetadata->regexPatterns = {std::string(261, 'r')}; })) ==
        Paths{"trigger_metadata.regex_patterns.0"});
  // allow_list: 100 for KEYWORD, 1000 for KEYWORD_PRESET, entries of 1..60
  CHECK(
      broken(with([](auto& c) { c.triggerMetadata->allowList.assign(100, std::string(60, 'a')); })).empty());
  CHECK(broken(with([](auto& c) { c.triggerMetadata->allowList.assign(101, "a"); })) ==
        Paths{"trigger_metadata.allow_list"});
  CHECK(broken(with([](auto& c) { c.triggerMetadata->allowList = {std::string(61, 'a')}; })) ==
        Paths{"trigger_metadata.allow_list.0"});
  auto preset = [](std::size_t allow) {
    AutoModRuleChanges c = KeywordRule();
    c.triggerType = AutoModTriggerType::KeywordPreset;
    c.triggerMetadata = AutoModTriggerMetadata{};
    c.triggerMetadata->allowList.assign(allow, "a");
    c.triggerMetadata->presets = {AutoModKeywordPreset::Slurs};
    return c;
  };
  CHECK(broken(preset(1000)).empty());
  CHECK(broken(preset(1001)) == Paths{"trigger_metadata.allow_list"});
  CHECK(broken(with([](auto& c) { c.triggerMetadata->presets = {static_cast<AutoModKeywordPreset>(4)}; })) ==
        Paths{"trigger_metadata.presets.0"});
  // mention_total_limit 0..50
  CHECK(broken(with([](auto& c) { c.triggerMetadata->mentionTotalLimit = 50; })).empty());
  CHECK(broken(with([](auto& c) { c.triggerMetadata->mentionTotalLimit = 51; })) ==
        Paths{"trigger_metadata.mention_total_limit"});
  // exempt roles 20, channels 50, no 0 ids
  CHECK(broken(with([](auto& c) { c.exemptRoles = std::vector<uint64_t>(20, 41); })).empty());
  CHECK(broken(with([](auto& c) { c.exemptRoles = std::vector<uint64_t>(21, 41); })) ==
        Paths{"exempt_roles"});
  CHECK(broken(with([](auto& c) { c.exemptChannels = std::vector<uint64_t>(50, 500); })).empty());
  CHECK(broken(with([](auto& c) { c.exemptChannels = std::vector<uint64_t>(51, 500); })) ==
        Paths{"exempt_channels"});
  CHECK(broken(with([](auto& c) {
          c.exemptChannels = std::vector<uint64_t>{500, 0};
        })) == Paths{"exempt_channels.1"});
  // custom message 150
  CHECK(broken(with([](auto& c) { (*c.actions)[0].customMessage = std::string(150, 'm'); })).empty());
  CHECK(broken(with([](auto& c) { (*c.actions)[0].customMessage = std::string(151, 'm'); })) ==
        Paths{"actions.0.metadata.custom_message"});
  // timeout 0..2419200 s
  auto timeout = [&](int64_t seconds) {
    return with([&](auto& c) {
      AutoModAction action;
      action.type = AutoModActionType::Timeout;
      action.durationSeconds = seconds;
      c.actions->push_back(action);
    });
  };
  CHECK(broken(timeout(2419200)).empty());
  CHECK(broken(timeout(0)).empty());
  CHECK(broken(timeout(2419201)) == Paths{"actions.1.metadata.duration_seconds"});
  CHECK(broken(timeout(-1)) == Paths{"actions.1.metadata.duration_seconds"});
  // an alert needs its channel; an unknown action type
  CHECK(broken(with([](auto& c) { (*c.actions)[0].type = AutoModActionType::SendAlertMessage; })) ==
        Paths{"actions.0.metadata.channel_id"});
  CHECK(broken(with([](auto& c) { (*c.actions)[0].type = static_cast<AutoModActionType>(5); })) ==
        Paths{"actions.0.type"});
}

TEST_CASE("AutoModRuleChanges: event type, trigger and action types must fit") {
  auto broken = [](const AutoModRuleChanges& changes, bool creating = true) {
    Paths paths;
    for (const auto& error : CheckAutoModRuleChanges(changes, creating))
      paths.push_back(error.path);
    return paths;
  };
  auto rule = [](AutoModTriggerType trigger, AutoModEventType event, AutoModActionType action) {
    AutoModRuleChanges c;
    c.name = "r";
    c.triggerType = trigger;
    c.eventType = event;
    AutoModAction a;
    a.type = action;
    a.channelId = 500;
    c.actions = std::vector<AutoModAction>{a};
    return c;
  };
  using T = AutoModTriggerType;
  using E = AutoModEventType;
  using A = AutoModActionType;
  // MEMBER_PROFILE goes with MEMBER_UPDATE, the others with MESSAGE_SEND.
  CHECK(broken(rule(T::MemberProfile, E::MemberUpdate, A::BlockMemberInteraction)).empty());
  CHECK(broken(rule(T::MemberProfile, E::MessageSend, A::BlockMemberInteraction)) == Paths{"event_type"});
  CHECK(broken(rule(T::Keyword, E::MemberUpdate, A::BlockMessage)) == Paths{"event_type"});
  CHECK(broken(rule(T::Spam, E::MessageSend, A::SendAlertMessage)).empty());
  // TIMEOUT: KEYWORD and MENTION_SPAM only.
  CHECK(broken(rule(T::Keyword, E::MessageSend, A::Timeout)).empty());
  CHECK(broken(rule(T::MentionSpam, E::MessageSend, A::Timeout)).empty());
  CHECK(broken(rule(T::Spam, E::MessageSend, A::Timeout)) == Paths{"actions.0.type"});
  CHECK(broken(rule(T::KeywordPreset, E::MessageSend, A::Timeout)) == Paths{"actions.0.type"});
  // BLOCK_MEMBER_INTERACTION only on MEMBER_PROFILE; BLOCK_MESSAGE not there.
  CHECK(broken(rule(T::Keyword, E::MessageSend, A::BlockMemberInteraction)) == Paths{"actions.0.type"});
  CHECK(broken(rule(T::MemberProfile, E::MemberUpdate, A::BlockMessage)) == Paths{"actions.0.type"});
  // Modify without a trigger type: nothing it depends on can be judged, so it goes to the platform.
  AutoModRuleChanges modify = rule(T::Spam, E::MemberUpdate, A::Timeout);
  modify.triggerType.reset();
  CHECK(broken(modify, false).empty());
  modify.triggerType = T::Spam;
  CHECK(broken(modify, false) == Paths{"event_type", "actions.0.type"});
}

}  // namespace guild_automod_routes_test
