// A game's bot setting up its community server's AutoMod and soundboard against the emulator, end to end
// through BackendClient: a KEYWORD rule created, read, listed and changed, which then blocks what another bot
// posts through CreateMessage (the platform's 400 with code 200000, an HTTPError in the ClientResult) while a
// clean message goes through; the rule deleted, after which the message passes; the guild's sounds uploaded,
// listed, renamed and deleted, the platform's defaults listed; the audit entries with each call's reason; the
// platform's refusals (50013 without the permission) and the SDK's own checks (nothing sent); and the
// application's own emoji uploaded, listed, renamed and deleted (an image of 256 KiB and a byte kept in the
// process, a name taken refused by the platform); the bot's Gateway session hearing the rule trip
// (AUTO_MODERATION_ACTION_EXECUTION read by SetAutoModActionCallback, with the content only under the
// MESSAGE_CONTENT intent) and its other events through SetEventCallback, all inside RunCallbacks.
#include "bot_backend.hpp"

#include <platformpp/platformpp.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace guild_automod_test {

namespace {

using namespace platformpp;
using namespace platformpp::backend;
using platformpp::testkit::EmulatorAdmin;

using Bot = itest::BotBackend;

constexpr uint64_t kManageGuild = uint64_t{1} << 5;
constexpr uint64_t kViewAuditLog = uint64_t{1} << 7;
constexpr uint64_t kManageGuildExpressions = uint64_t{1} << 30;
constexpr uint64_t kCreateGuildExpressions = uint64_t{1} << 43;
constexpr int64_t kGuildsIntent = 1 << 0;
constexpr int64_t kMessageContentIntent = 1 << 15;
constexpr int64_t kAutoModerationExecutionIntent = 1 << 21;
// The platform's code for a message AutoMod blocked.
constexpr int32_t kBlockedByAutoMod = 200000;

const AuditLogEntry* Find(const AuditLog& log, AuditLogEvent type) {
  for (const auto& entry : log.entries)
    if (entry.actionType == type) return &entry;
  return nullptr;
}

}  // namespace

TEST_CASE("a bot's AutoMod KEYWORD rule blocks another bot's message; rules listed, changed, deleted") {
  auto& e = itest::Shared();
  Bot warden("AutoMod Warden Bot");
  Bot poster("AutoMod Poster Bot");
  const auto owner = e.admin->CreateUser("automod_owner", "Owner");
  const auto guild = e.admin->CreateGuild("AutoMod Club", owner.id);
  EmulatorAdmin::ChannelSpec spec;
  spec.name = "general";
  const auto channel = e.admin->CreateChannel(guild, spec);
  e.admin->AddGuildMember(guild, poster.app.botUserId);

  AutoModRuleChanges rule;
  rule.name = "no spoilers";
  rule.eventType = AutoModEventType::MessageSend;
  rule.triggerType = AutoModTriggerType::Keyword;
  rule.triggerMetadata = AutoModTriggerMetadata{};
  rule.triggerMetadata->keywordFilter = {"spoiler*"};
  rule.triggerMetadata->allowList = {"spoilers ahead"};
  AutoModAction block;
  block.customMessage = "No spoilers, please.";
  rule.actions = std::vector<AutoModAction>{block};
  rule.enabled = true;

  // Without MANAGE_GUILD the platform refuses.
  e.admin->AddGuildMember(guild, warden.app.botUserId);
  auto refused =
      warden.Wait<AutoModRule>([&](auto done) { warden.backend->CreateAutoModRule(guild, rule, done); });
  CHECK(refused.result.Status() == 403);
  CHECK(refused.result.ErrorCode() == 50013);
  const auto moderator = e.admin->CreateRole(guild, "AutoMod Admin", kManageGuild | kViewAuditLog);
  e.admin->AddGuildMember(guild, warden.app.botUserId, {moderator});

  auto created = warden.Wait<AutoModRule>(
      [&](auto done) { warden.backend->CreateAutoModRule(guild, rule, done, "the finale airs tonight"); });
  REQUIRE_MESSAGE(created.result.Successful(), created.result.Error());
  const uint64_t ruleId = created.value.id;
  CHECK(ruleId != 0);
  CHECK(created.value.guildId == guild);
  CHECK(created.value.creatorId == warden.app.botUserId);
  CHECK(created.value.triggerType == AutoModTriggerType::Keyword);
  CHECK(created.value.triggerMetadata.keywordFilter == std::vector<std::string>{"spoiler*"});
  REQUIRE(created.value.actions.size() == 1);
  CHECK(created.value.actions[0].customMessage == "No spoilers, please.");
  CHECK(created.value.enabled);

  auto got =
      warden.Wait<AutoModRule>([&](auto done) { warden.backend->GetAutoModRule(guild, ruleId, done); });
  REQUIRE(got.result.Successful());
  CHECK(got.value.name == "no spoilers");
  auto listed = warden.Wait<std::vector<AutoModRule>>(
      [&](auto done) { warden.backend->ListAutoModRules(guild, done); });
  REQUIRE(listed.result.Successful());
  REQUIRE(listed.value.size() == 1);
  CHECK(listed.value[0].id == ruleId);

  // The other bot's message with the keyword is blocked; the allow-listed phrase and a clean one are posted.
  auto post = [&](const std::string& text) {
    return poster.Wait<ChannelMessage>(
        [&](auto done) { poster.backend->CreateMessage(channel, MessagePayload::Text(text), done); });
  };
  auto blocked = post("SPOILERS: the butler did it");
  CHECK(blocked.result.Type() == ErrorType::HTTPError);
  CHECK(blocked.result.Status() == 400);
  CHECK(blocked.result.ErrorCode() == kBlockedByAutoMod);
  CHECK(blocked.value.id == 0);
  CHECK(post("spoilers ahead, skip if you must").result.Successful());
  CHECK(post("what a finale").result.Successful());

  // A timeout action added (MODERATE_MEMBERS missing: refused), then the rule renamed.
  AutoModRuleChanges change;
  change.triggerType = AutoModTriggerType::Keyword;  // checks only; never sent on modify
  AutoModAction timeout;
  timeout.type = AutoModActionType::Timeout;
  timeout.durationSeconds = 60;
  change.actions = std::vector<AutoModAction>{block, timeout};
  auto noModerate = warden.Wait<AutoModRule>(
      [&](auto done) { warden.backend->ModifyAutoModRule(guild, ruleId, change, done); });
  CHECK(noModerate.result.ErrorCode() == 50013);
  AutoModRuleChanges rename;
  rename.name = "no spoilers (season 2)";
  auto renamed = warden.Wait<AutoModRule>(
      [&](auto done) { warden.backend->ModifyAutoModRule(guild, ruleId, rename, done, "new season"); });
  REQUIRE_MESSAGE(renamed.result.Successful(), renamed.result.Error());
  CHECK(renamed.value.name == "no spoilers (season 2)");
  CHECK(renamed.value.actions.size() == 1);

  // The SDK's own checks: a timeout past 4 weeks never leaves the process.
  timeout.durationSeconds = automod_limits::MaxTimeoutSeconds + 1;
  change.actions = std::vector<AutoModAction>{timeout};
  auto tooLong = warden.Wait<AutoModRule>(
      [&](auto done) { warden.backend->ModifyAutoModRule(guild, ruleId, change, done); });
  CHECK(tooLong.result.Type() == ErrorType::ValidationError);

  CHECK(warden
            .WaitResult(
                [&](auto done) { warden.backend->DeleteAutoModRule(guild, ruleId, done, "season over"); })
            .Successful());
  auto gone =
      warden.Wait<AutoModRule>([&](auto done) { warden.backend->GetAutoModRule(guild, ruleId, done); });
  CHECK(gone.result.Status() == 404);
  CHECK(gone.result.ErrorCode() == 10066);
  CHECK(post("SPOILERS: now it is fine").result.Successful());

  // The audit log: created, updated, deleted, each with its reason; the blocked message by the poster.
  AuditLogQuery query;
  auto log = warden.Wait<AuditLog>([&](auto done) { warden.backend->GetAuditLog(guild, query, done); });
  REQUIRE_MESSAGE(log.result.Successful(), log.result.Error());
  const auto* createdEntry = Find(log.value, AuditLogEvent::AutoModerationRuleCreate);
  REQUIRE(createdEntry);
  CHECK(createdEntry->reason == std::optional<std::string>("the finale airs tonight"));
  const auto* updatedEntry = Find(log.value, AuditLogEvent::AutoModerationRuleUpdate);
  REQUIRE(updatedEntry);
  CHECK(updatedEntry->reason == std::optional<std::string>("new season"));
  const auto* deletedEntry = Find(log.value, AuditLogEvent::AutoModerationRuleDelete);
  REQUIRE(deletedEntry);
  CHECK(deletedEntry->reason == std::optional<std::string>("season over"));
  const auto* blockedEntry = Find(log.value, AuditLogEvent::AutoModerationBlockMessage);
  REQUIRE(blockedEntry);
  CHECK(blockedEntry->userId == poster.app.botUserId);
}

TEST_CASE("a bot uploads, lists, renames and deletes its guild's soundboard sounds; the defaults listed") {
  auto& e = itest::Shared();
  Bot dj("Soundboard DJ Bot");
  const auto owner = e.admin->CreateUser("soundboard_owner", "Owner");
  const auto guild = e.admin->CreateGuild("Soundboard Club", owner.id);
  e.admin->AddGuildMember(guild, dj.app.botUserId);

  auto defaults = dj.Wait<std::vector<SoundboardSound>>(
      [&](auto done) { dj.backend->ListDefaultSoundboardSounds(done); });
  REQUIRE_MESSAGE(defaults.result.Successful(), defaults.result.Error());
  REQUIRE_FALSE(defaults.value.empty());
  CHECK(defaults.value[0].guildId == 0);
  CHECK_FALSE(defaults.value[0].name.empty());

  SoundChanges sound;
  sound.name = "airhorn";
  sound.volume = 0.5;
  sound.emojiName = "📯";
  sound.sound = std::string("OggS") + std::string(1000, '\0');
  sound.soundMimeType = "audio/ogg";
  // Without the expression permissions the platform refuses.
  auto refused = dj.Wait<SoundboardSound>(
      [&](auto done) { dj.backend->CreateGuildSoundboardSound(guild, sound, done); });
  CHECK(refused.result.ErrorCode() == 50013);
  const auto expressions = e.admin->CreateRole(
      guild, "Sound Crew", kCreateGuildExpressions | kManageGuildExpressions | kViewAuditLog);
  e.admin->AddGuildMember(guild, dj.app.botUserId, {expressions});

  auto created = dj.Wait<SoundboardSound>(
      [&](auto done) { dj.backend->CreateGuildSoundboardSound(guild, sound, done, "match start"); });
  REQUIRE_MESSAGE(created.result.Successful(), created.result.Error());
  const uint64_t soundId = created.value.soundId;
  CHECK(soundId != 0);
  CHECK(created.value.name == "airhorn");
  CHECK(created.value.volume == doctest::Approx(0.5));
  CHECK(created.value.emojiName == "📯");
  CHECK(created.value.guildId == guild);
  REQUIRE(created.value.user);
  CHECK(created.value.user->id == dj.app.botUserId);

  // A file one byte past 512 KiB never leaves the process.
  SoundChanges big = sound;
  big.sound.assign(soundboard_limits::MaxSoundBytes + 1, 'x');
  auto tooBig =
      dj.Wait<SoundboardSound>([&](auto done) { dj.backend->CreateGuildSoundboardSound(guild, big, done); });
  CHECK(tooBig.result.Type() == ErrorType::ValidationError);

  SoundChanges rename;
  rename.name = "air horn";
  rename.emojiName = "";
  auto renamed = dj.Wait<SoundboardSound>([&](auto done) {
    dj.backend->ModifyGuildSoundboardSound(guild, soundId, rename, done, "clearer name");
  });
  REQUIRE_MESSAGE(renamed.result.Successful(), renamed.result.Error());
  CHECK(renamed.value.name == "air horn");
  CHECK(renamed.value.emojiName.empty());
  auto got =
      dj.Wait<SoundboardSound>([&](auto done) { dj.backend->GetGuildSoundboardSound(guild, soundId, done); });
  REQUIRE(got.result.Successful());
  CHECK(got.value.name == "air horn");
  auto listed = dj.Wait<std::vector<SoundboardSound>>(
      [&](auto done) { dj.backend->ListGuildSoundboardSounds(guild, done); });
  REQUIRE(listed.result.Successful());
  REQUIRE(listed.value.size() == 1);
  CHECK(listed.value[0].soundId == soundId);

  CHECK(dj.WaitResult([&](auto done) {
            dj.backend->DeleteGuildSoundboardSound(guild, soundId, done, "retired");
          }).Successful());
  auto gone =
      dj.Wait<SoundboardSound>([&](auto done) { dj.backend->GetGuildSoundboardSound(guild, soundId, done); });
  CHECK(gone.result.ErrorCode() == 10097);
  auto empty = dj.Wait<std::vector<SoundboardSound>>(
      [&](auto done) { dj.backend->ListGuildSoundboardSounds(guild, done); });
  REQUIRE(empty.result.Successful());
  CHECK(empty.value.empty());

  // Sending needs the bot in the voice channel (op 4, which BackendClient does not speak): refused with
  // 50013.
  EmulatorAdmin::ChannelSpec voice;
  voice.name = "voice";
  voice.type = 2;
  const auto voiceChannel = e.admin->CreateChannel(guild, voice);
  auto notConnected = dj.WaitResult([&](auto done) {
    dj.backend->SendSoundboardSound(voiceChannel, defaults.value[0].soundId, std::nullopt, done);
  });
  CHECK(notConnected.Status() == 403);
  CHECK(notConnected.ErrorCode() == 50013);

  AuditLogQuery query;
  auto log = dj.Wait<AuditLog>([&](auto done) { dj.backend->GetAuditLog(guild, query, done); });
  REQUIRE_MESSAGE(log.result.Successful(), log.result.Error());
  const auto* createdEntry = Find(log.value, AuditLogEvent::SoundboardSoundCreate);
  REQUIRE(createdEntry);
  CHECK(createdEntry->reason == std::optional<std::string>("match start"));
  const auto* updatedEntry = Find(log.value, AuditLogEvent::SoundboardSoundUpdate);
  REQUIRE(updatedEntry);
  CHECK(updatedEntry->reason == std::optional<std::string>("clearer name"));
  const auto* deletedEntry = Find(log.value, AuditLogEvent::SoundboardSoundDelete);
  REQUIRE(deletedEntry);
  CHECK(deletedEntry->reason == std::optional<std::string>("retired"));
}

TEST_CASE("a bot uploads, lists, renames and deletes its application's emoji") {
  Bot artist("Emoji Artist Bot");
  Bot other("Emoji Other Bot");
  EmojiChanges emoji;
  emoji.name = "gg_wp";
  emoji.image = std::string("GIF89a") + std::string(64, '\0');
  emoji.imageMimeType = "image/gif";
  auto created = artist.Wait<Emoji>([&](auto done) { artist.backend->CreateApplicationEmoji(emoji, done); });
  REQUIRE_MESSAGE(created.result.Successful(), created.result.Error());
  const uint64_t emojiId = created.value.id;
  CHECK(emojiId != 0);
  CHECK(created.value.name == "gg_wp");
  CHECK(created.value.animated);  // a GIF
  REQUIRE(created.value.user);
  CHECK(created.value.user->id == artist.app.botUserId);

  // The platform's rules: a name taken (50035); the SDK's: a byte past 256 KiB, a name with a '-'.
  emoji.imageMimeType = "image/png";
  auto taken = artist.Wait<Emoji>([&](auto done) { artist.backend->CreateApplicationEmoji(emoji, done); });
  CHECK(taken.result.Status() == 400);
  CHECK(taken.result.ErrorCode() == 50035);
  EmojiChanges big = emoji;
  big.name = "big_one";
  big.image.assign(emoji_limits::MaxImageBytes + 1, 'x');
  auto tooBig = artist.Wait<Emoji>([&](auto done) { artist.backend->CreateApplicationEmoji(big, done); });
  CHECK(tooBig.result.Type() == ErrorType::ValidationError);
  big.image.assign(emoji_limits::MaxImageBytes, 'x');
  auto largest = artist.Wait<Emoji>([&](auto done) { artist.backend->CreateApplicationEmoji(big, done); });
  REQUIRE_MESSAGE(largest.result.Successful(), largest.result.Error());
  CHECK_FALSE(largest.value.animated);

  auto listed =
      artist.Wait<std::vector<Emoji>>([&](auto done) { artist.backend->ListApplicationEmojis(done); });
  REQUIRE(listed.result.Successful());
  REQUIRE(listed.value.size() == 2);
  CHECK(listed.value[0].id == emojiId);
  CHECK(listed.value[1].name == "big_one");
  // Another application sees only its own.
  auto others =
      other.Wait<std::vector<Emoji>>([&](auto done) { other.backend->ListApplicationEmojis(done); });
  REQUIRE(others.result.Successful());
  CHECK(others.value.empty());

  EmojiChanges rename;
  rename.name = "good_game";
  auto renamed =
      artist.Wait<Emoji>([&](auto done) { artist.backend->ModifyApplicationEmoji(emojiId, rename, done); });
  REQUIRE_MESSAGE(renamed.result.Successful(), renamed.result.Error());
  CHECK(renamed.value.name == "good_game");
  auto got = artist.Wait<Emoji>([&](auto done) { artist.backend->GetApplicationEmoji(emojiId, done); });
  REQUIRE(got.result.Successful());
  CHECK(got.value.name == "good_game");
  rename.name = "good-game";
  auto badName =
      artist.Wait<Emoji>([&](auto done) { artist.backend->ModifyApplicationEmoji(emojiId, rename, done); });
  CHECK(badName.result.Type() == ErrorType::ValidationError);

  CHECK(artist.WaitResult([&](auto done) { artist.backend->DeleteApplicationEmoji(emojiId, done); })
            .Successful());
  auto gone = artist.Wait<Emoji>([&](auto done) { artist.backend->GetApplicationEmoji(emojiId, done); });
  CHECK(gone.result.Status() == 404);
  CHECK(gone.result.ErrorCode() == 10014);
}

namespace {

// A bot's Gateway session with `intents`, recording what its callbacks get and on which thread.
struct BotSession {
  std::shared_ptr<BackendClient> backend;
  std::unique_ptr<InteractionsGateway> gateway;
  std::vector<AutoModActionExecution> executions;
  std::vector<std::string> events;
  std::thread::id runner = std::this_thread::get_id();
  bool outsideRunCallbacks = false;
  bool running = false;

  BotSession(const EmulatorAdmin::App& app, int64_t intents) {
    auto& e = itest::Shared();
    BackendOptions options;
    options.apiBase = e.process->Connection().apiBase;
    options.caFile = e.process->Connection().caFile;
    options.botToken = app.botToken;
    options.applicationId = app.id;
    backend = std::make_shared<BackendClient>(options);
    InteractionsGatewayOptions gatewayOptions;
    gatewayOptions.backend = backend;
    gatewayOptions.intents = intents;
    gateway = std::make_unique<InteractionsGateway>(gatewayOptions);
    gateway->SetAutoModActionCallback([this](const AutoModActionExecution& execution) {
      outsideRunCallbacks |= !running || std::this_thread::get_id() != runner;
      executions.push_back(execution);
    });
    gateway->SetEventCallback([this](const std::string& name, const std::string& /*dataJson*/) {
      outsideRunCallbacks |= !running || std::this_thread::get_id() != runner;
      events.push_back(name);
    });
    REQUIRE(gateway->Connect().Successful());
  }
  ~BotSession() { gateway->Disconnect(); }
  BotSession(const BotSession&) = delete;
  BotSession& operator=(const BotSession&) = delete;

  // Pumps until `done` or 10 s.
  template <typename Done>
  bool PumpUntil(Done done) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!done() && std::chrono::steady_clock::now() < deadline) {
      running = true;
      gateway->WaitForCallbacks(5);
      backend->RunCallbacks();
      running = false;
    }
    return done();
  }
  void PumpFor(std::chrono::milliseconds span) {
    const auto until = std::chrono::steady_clock::now() + span;
    PumpUntil([&] { return std::chrono::steady_clock::now() >= until; });
  }
  size_t Count(const std::string& name) const { return std::count(events.begin(), events.end(), name); }
};

}  // namespace

TEST_CASE("a bot's Gateway session hears its AutoMod rule trip, typed and as a raw event") {
  auto& e = itest::Shared();
  Bot warden("AutoMod Listener Bot");
  Bot poster("AutoMod Tripper Bot");
  const auto owner = e.admin->CreateUser("automod_listener_owner", "Owner");
  const auto guild = e.admin->CreateGuild("AutoMod Watch", owner.id);
  EmulatorAdmin::ChannelSpec spec;
  spec.name = "general";
  const auto channel = e.admin->CreateChannel(guild, spec);
  spec.name = "mod-alerts";
  const auto alerts = e.admin->CreateChannel(guild, spec);
  const auto moderator = e.admin->CreateRole(guild, "Listener Admin", kManageGuild);
  e.admin->AddGuildMember(guild, warden.app.botUserId, {moderator});
  e.admin->AddGuildMember(guild, poster.app.botUserId);

  BotSession plain(warden.app, kGuildsIntent | kAutoModerationExecutionIntent);
  BotSession reader(warden.app, kGuildsIntent | kAutoModerationExecutionIntent | kMessageContentIntent);
  BotSession deaf(warden.app, kGuildsIntent);  // without the intent: no executions
  for (auto* session : {&plain, &reader, &deaf})
    REQUIRE(session->PumpUntil([&] { return session->gateway->Status() == ClientStatus::Ready; }));

  AutoModRuleChanges rule;
  rule.name = "no cheats talk";
  rule.eventType = AutoModEventType::MessageSend;
  rule.triggerType = AutoModTriggerType::Keyword;
  rule.triggerMetadata = AutoModTriggerMetadata{};
  rule.triggerMetadata->keywordFilter = {"wallhack"};
  AutoModAction block;
  AutoModAction alert;
  alert.type = AutoModActionType::SendAlertMessage;
  alert.channelId = alerts;
  rule.actions = std::vector<AutoModAction>{block, alert};
  rule.enabled = true;
  auto created =
      warden.Wait<AutoModRule>([&](auto done) { warden.backend->CreateAutoModRule(guild, rule, done); });
  REQUIRE_MESSAGE(created.result.Successful(), created.result.Error());

  auto blocked = poster.Wait<ChannelMessage>([&](auto done) {
    poster.backend->CreateMessage(channel, MessagePayload::Text("selling a wallhack, DM me"), done);
  });
  CHECK(blocked.result.ErrorCode() == kBlockedByAutoMod);

  for (auto* session : {&plain, &reader})
    REQUIRE(session->PumpUntil([&] { return session->executions.size() == 2; }));
  for (auto* session : {&plain, &reader}) {
    const bool withContent = session == &reader;
    CAPTURE(withContent);
    const auto& first = session->executions[0];
    CHECK(first.guildId == guild);
    CHECK(first.ruleId == created.value.id);
    CHECK(first.ruleTriggerType == AutoModTriggerType::Keyword);
    CHECK(first.userId == poster.app.botUserId);
    CHECK(first.channelId == std::optional<uint64_t>(channel));
    CHECK_FALSE(first.messageId.has_value());  // blocked: never posted
    CHECK(first.matchedKeyword == std::optional<std::string>("wallhack"));
    CHECK(first.content == (withContent ? "selling a wallhack, DM me" : ""));
    CHECK(first.matchedContent == (withContent ? "wallhack" : ""));
    CHECK(first.rawJson.find("\"rule_id\"") != std::string::npos);
    std::vector<AutoModActionType> types{session->executions[0].action.type,
                                         session->executions[1].action.type};
    std::sort(types.begin(), types.end());
    CHECK(types == std::vector<AutoModActionType>{AutoModActionType::BlockMessage,
                                                  AutoModActionType::SendAlertMessage});
    for (const auto& execution : session->executions) {
      if (execution.action.type != AutoModActionType::SendAlertMessage) continue;
      CHECK(execution.action.channelId == alerts);
      CHECK(execution.alertSystemMessageId.has_value());
    }
    // The raw events: READY first, the guild, both executions; never the interactions' own event.
    REQUIRE_FALSE(session->events.empty());
    CHECK(session->events.front() == "READY");
    CHECK(session->Count("GUILD_CREATE") >= 1);
    CHECK(session->Count("AUTO_MODERATION_ACTION_EXECUTION") == 2);
    CHECK_FALSE(session->outsideRunCallbacks);
  }
  // The session without the intent heard nothing of it (given the time the others took, and more).
  deaf.PumpFor(std::chrono::milliseconds(300));
  CHECK(deaf.executions.empty());
  CHECK(deaf.Count("AUTO_MODERATION_ACTION_EXECUTION") == 0);
  CHECK_FALSE(deaf.outsideRunCallbacks);

  // A callback replaced by an empty one drops what comes; a replaced one gets what is still queued.
  plain.gateway->SetAutoModActionCallback(nullptr);
  plain.executions.clear();
  CHECK(poster
            .Wait<ChannelMessage>([&](auto done) {
              poster.backend->CreateMessage(channel, MessagePayload::Text("wallhack again"), done);
            })
            .result.ErrorCode() == kBlockedByAutoMod);
  REQUIRE(plain.PumpUntil([&] { return plain.Count("AUTO_MODERATION_ACTION_EXECUTION") == 4; }));
  CHECK(plain.executions.empty());
}

}  // namespace guild_automod_test
