// A game's bot running its community server's channels against the emulator, end to end through
// BackendClient: a channel created with slowmode and overwrites, modified, moved, its overwrites edited and
// removed, deleted; a voice channel's status set and cleared (501 characters kept in the process); an invite
// for a list of target users uploaded as CSV, its job polled as the fake clock advances, the users read back
// and one of them accepting; and message search, with the not-yet-indexed answer while the guild's index is
// switched off. The platform's refusals reach the callbacks as ClientResults; the audit log keeps the
// reasons.
#include "api/api_session.hpp"
#include "bot_backend.hpp"

#include <platformpp/platformpp.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace guild_channels_test {

namespace {

using namespace platformpp;
using namespace platformpp::backend;
using namespace std::chrono_literals;

using Bot = itest::BotBackend;

constexpr uint64_t kCreateInstantInvite = uint64_t{1} << 0;
constexpr uint64_t kManageChannels = uint64_t{1} << 4;
constexpr uint64_t kManageGuild = uint64_t{1} << 5;
constexpr uint64_t kViewAuditLog = uint64_t{1} << 7;
constexpr uint64_t kViewChannel = uint64_t{1} << 10;
constexpr uint64_t kSendMessages = uint64_t{1} << 11;
constexpr uint64_t kReadMessageHistory = uint64_t{1} << 16;
constexpr uint64_t kConnect = uint64_t{1} << 20;
constexpr uint64_t kManageRoles = uint64_t{1} << 28;
constexpr uint64_t kSetVoiceChannelStatus = uint64_t{1} << 48;

// Accepts `code` as `userId` with the user's own OAuth2 token (POST /invites/{code}): the platform's client
// does this, so the test speaks HTTP through an API session that presents the Bearer token.
ClientResult Accept(uint64_t userId, const std::string& code) {
  auto& e = itest::Shared();
  const std::string token = e.admin->MintToken(userId, e.app.id, "openid sdk.social_layer").accessToken;
  api::ApiSession session(e.Options(), "Bearer " + token, token);
  int ends = 0;
  ClientResult out;
  session.Perform(
      [&](ClientResult result) {
        ++ends;
        out = std::move(result);
      },
      api::ApiRequest("POST", "/invites/" + code, std::string("{}")));
  for (int i = 0; i < 4000 && ends == 0; ++i) {
    session.RunCallbacks();
    std::this_thread::sleep_for(2ms);
  }
  REQUIRE(ends == 1);
  session.FinishShutdown();
  return out;
}

const AuditLogEntry* Find(const AuditLog& log, AuditLogEvent type, uint64_t targetId) {
  for (const auto& entry : log.entries)
    if (entry.actionType == type && entry.targetId == targetId) return &entry;
  return nullptr;
}

}  // namespace

TEST_CASE(
    "a bot manages its guild's channels, a voice status, targeted invites and search through BackendClient") {
  auto& e = itest::Shared();
  Bot bot("Channel Club Bot");
  const auto owner = e.admin->CreateUser("channel_club_owner", "Owner");
  const auto racer = e.admin->CreateUser("channel_club_racer", "Racer");
  const auto guest = e.admin->CreateUser("channel_club_guest", "Guest");
  const auto guild = e.admin->CreateGuild("Channel Club", owner.id);
  e.admin->AddGuildMember(guild, racer.id);
  e.admin->AddGuildMember(guild, guest.id);

  // Without MANAGE_CHANNELS the platform refuses, as an HTTPError 403 (50013).
  e.admin->AddGuildMember(guild, bot.app.botUserId,
                          {e.admin->CreateRole(guild, "Viewer", kViewChannel | kSendMessages)});
  ChannelChanges lounge;
  lounge.name = "race-lounge";
  lounge.rateLimitPerUser = 30;
  auto refused = bot.Wait<Channel>([&](auto done) { bot.backend->CreateGuildChannel(guild, lounge, done); });
  CHECK(refused.result.Status() == 403);
  CHECK(refused.result.ErrorCode() == 50013);
  CHECK(refused.value.id == 0);

  const auto manager = e.admin->CreateRole(
      guild, "Channel Manager",
      kCreateInstantInvite | kManageChannels | kManageGuild | kViewAuditLog | kViewChannel | kSendMessages |
          kReadMessageHistory | kConnect | kManageRoles | kSetVoiceChannelStatus);
  e.admin->AddGuildMember(guild, bot.app.botUserId, {manager});

  // A channel with slowmode and overwrites: @everyone may not post, the racer may.
  lounge.topic = "lap times only";
  lounge.permissionOverwrites = std::vector<PermissionOverwrite>{
      {guild, OverwriteType::Role, 0, kSendMessages}, {racer.id, OverwriteType::Member, kSendMessages, 0}};
  auto created =
      bot.Wait<Channel>([&](auto done) { bot.backend->CreateGuildChannel(guild, lounge, done, "season 3"); });
  REQUIRE_MESSAGE(created.result.Successful(), created.result.Error());
  const uint64_t loungeId = created.value.id;
  CHECK(created.value.guildId == guild);
  CHECK(created.value.name == "race-lounge");
  CHECK(created.value.topic == "lap times only");
  CHECK(created.value.rateLimitPerUser == 30);
  CHECK(created.value.permissionOverwrites.size() == 2);

  // Modify: slowmode off, the topic cleared; read back.
  ChannelChanges calm;
  calm.rateLimitPerUser = 0;
  calm.topic = "";
  auto modified =
      bot.Wait<Channel>([&](auto done) { bot.backend->ModifyChannel(loungeId, calm, done, "calm"); });
  REQUIRE_MESSAGE(modified.result.Successful(), modified.result.Error());
  CHECK(modified.value.rateLimitPerUser == 0);
  CHECK(modified.value.topic.empty());
  // Slowmode past 6 hours never leaves the process.
  calm.rateLimitPerUser = 21601;
  auto tooSlow = bot.Wait<Channel>([&](auto done) { bot.backend->ModifyChannel(loungeId, calm, done); });
  CHECK(tooSlow.result.Type() == ErrorType::ValidationError);

  // Overwrites: the guest gets one, the racer's goes; positions move.
  auto edited = bot.WaitResult([&](auto done) {
    bot.backend->EditChannelPermissions(loungeId,
                                        PermissionOverwrite{guest.id, OverwriteType::Member, 0, kViewChannel},
                                        done, "keep guests out");
  });
  CHECK_MESSAGE(edited.Successful(), edited.Error());
  auto removed = bot.WaitResult(
      [&](auto done) { bot.backend->DeleteChannelPermission(loungeId, racer.id, done, "season over"); });
  CHECK_MESSAGE(removed.Successful(), removed.Error());
  auto moved = bot.WaitResult([&](auto done) {
    bot.backend->ModifyGuildChannelPositions(guild, {{loungeId, 3, std::nullopt, std::nullopt}}, done);
  });
  CHECK_MESSAGE(moved.Successful(), moved.Error());
  auto read = bot.Wait<Channel>([&](auto done) { bot.backend->GetChannel(loungeId, done); });
  REQUIRE_MESSAGE(read.result.Successful(), read.result.Error());
  CHECK(read.value.position == 3);
  REQUIRE(read.value.permissionOverwrites.size() == 2);
  CHECK(
      std::any_of(read.value.permissionOverwrites.begin(), read.value.permissionOverwrites.end(),
                  [&](const PermissionOverwrite& o) { return o.id == guest.id && o.deny == kViewChannel; }));

  // Voice: a status set and cleared; 501 characters kept in the process; the bot is not connected.
  ChannelChanges pit;
  pit.name = "pit-radio";
  pit.type = channel_types::Voice;
  auto voice = bot.Wait<Channel>([&](auto done) { bot.backend->CreateGuildChannel(guild, pit, done); });
  REQUIRE_MESSAGE(voice.result.Successful(), voice.result.Error());
  CHECK(voice.value.type == channel_types::Voice);
  auto set = bot.WaitResult([&](auto done) {
    bot.backend->SetVoiceChannelStatus(voice.value.id, std::string(500, 's'), done, "race night");
  });
  CHECK_MESSAGE(set.Successful(), set.Error());
  auto tooLong = bot.WaitResult(
      [&](auto done) { bot.backend->SetVoiceChannelStatus(voice.value.id, std::string(501, 's'), done); });
  CHECK(tooLong.Type() == ErrorType::ValidationError);
  auto cleared =
      bot.WaitResult([&](auto done) { bot.backend->SetVoiceChannelStatus(voice.value.id, "", done); });
  CHECK_MESSAGE(cleared.Successful(), cleared.Error());
  auto notConnected =
      bot.Wait<VoiceState>([&](auto done) { bot.backend->GetCurrentUserVoiceState(guild, done); });
  CHECK(notConnected.result.Status() == 404);
  CHECK(notConnected.result.ErrorCode() == 10065);
  auto racerVoice =
      bot.Wait<VoiceState>([&](auto done) { bot.backend->GetUserVoiceState(guild, racer.id, done); });
  CHECK(racerVoice.result.ErrorCode() == 10065);

  // An invite for the racer only: the CSV uploaded with it, its job processing, then done on the fake clock.
  InviteArgs args;
  args.maxAge = 3600;
  args.maxUses = 5;
  args.targetUserIds = {racer.id};
  auto invite =
      bot.Wait<Invite>([&](auto done) { bot.backend->CreateChannelInvite(loungeId, args, done, "tryouts"); });
  REQUIRE_MESSAGE(invite.result.Successful(), invite.result.Error());
  const std::string code = invite.value.code;
  CHECK(invite.value.channelId == loungeId);
  CHECK(invite.value.maxAge == 3600);
  CHECK(invite.value.maxUses == 5);
  CHECK_FALSE(invite.value.createdAt.empty());
  auto pending = bot.Wait<InviteTargetUsersJob>(
      [&](auto done) { bot.backend->GetInviteTargetUsersJobStatus(code, done); });
  REQUIRE_MESSAGE(pending.result.Successful(), pending.result.Error());
  CHECK(pending.value.status == InviteTargetUsersJobState::Processing);
  CHECK(pending.value.totalUsers == 1);
  e.admin->AdvanceClock(2s);
  auto done = bot.Wait<InviteTargetUsersJob>(
      [&](auto callback) { bot.backend->GetInviteTargetUsersJobStatus(code, callback); });
  REQUIRE_MESSAGE(done.result.Successful(), done.result.Error());
  CHECK(done.value.status == InviteTargetUsersJobState::Completed);
  CHECK(done.value.processedUsers == 1);
  CHECK_FALSE(done.value.completedAt.empty());
  auto targets =
      bot.Wait<std::vector<uint64_t>>([&](auto cb) { bot.backend->GetInviteTargetUsers(code, cb); });
  REQUIRE_MESSAGE(targets.result.Successful(), targets.result.Error());
  CHECK(targets.value == std::vector<uint64_t>{racer.id});
  // The guest is not a target: the invite is not there for them; the racer accepts.
  CHECK(Accept(guest.id, code).ErrorCode() == 10006);
  auto accepted = Accept(racer.id, code);
  CHECK_MESSAGE(accepted.Successful(), accepted.Error());
  auto listed = bot.Wait<std::vector<Invite>>([&](auto cb) { bot.backend->GetChannelInvites(loungeId, cb); });
  REQUIRE_MESSAGE(listed.result.Successful(), listed.result.Error());
  REQUIRE(listed.value.size() == 1);
  CHECK(listed.value[0].uses == 1);
  // A new list of targets replaces it (a new job); then the invite goes.
  auto updated = bot.WaitResult([&](auto cb) {
    bot.backend->UpdateInviteTargetUsers(code, {racer.id, guest.id}, cb);
  });
  CHECK_MESSAGE(updated.Successful(), updated.Error());
  auto deleted = bot.Wait<Invite>([&](auto cb) { bot.backend->DeleteInvite(code, cb, "tryouts over"); });
  REQUIRE_MESSAGE(deleted.result.Successful(), deleted.result.Error());
  CHECK(deleted.value.code == code);
  auto gone = bot.Wait<Invite>([&](auto cb) { bot.backend->GetInvite(code, false, cb); });
  CHECK(gone.result.ErrorCode() == 10006);

  // Search: a message found; while the index is switched off, `indexing` with the wait.
  // (In a channel of its own: the lounge's @everyone overwrite denies the bot SEND_MESSAGES too.)
  ChannelChanges results;
  results.name = "results";
  auto resultsChannel =
      bot.Wait<Channel>([&](auto cb) { bot.backend->CreateGuildChannel(guild, results, cb); });
  REQUIRE_MESSAGE(resultsChannel.result.Successful(), resultsChannel.result.Error());
  const uint64_t resultsId = resultsChannel.value.id;
  MessagePayload lap;
  lap.content = "fastest lap of the season";
  auto sent = bot.Wait<ChannelMessage>([&](auto cb) { bot.backend->CreateMessage(resultsId, lap, cb); });
  REQUIRE_MESSAGE(sent.result.Successful(), sent.result.Error());
  MessageSearchQuery query;
  query.content = "fastest lap";
  query.channelIds = {resultsId};
  auto found =
      bot.Wait<MessageSearchResult>([&](auto cb) { bot.backend->SearchGuildMessages(guild, query, cb); });
  REQUIRE_MESSAGE(found.result.Successful(), found.result.Error());
  CHECK_FALSE(found.value.indexing);
  CHECK(found.value.totalResults == 1);
  REQUIRE(found.value.messages.size() == 1);
  CHECK(found.value.messages[0].id == sent.value.id);
  const std::string index = "/guilds/" + std::to_string(guild) + "/search-index";
  REQUIRE(e.admin->Request("PUT", index, R"({"indexed":false,"documents_indexed":7})").status / 100 == 2);
  auto indexing =
      bot.Wait<MessageSearchResult>([&](auto cb) { bot.backend->SearchGuildMessages(guild, query, cb); });
  REQUIRE_MESSAGE(indexing.result.Successful(), indexing.result.Error());
  CHECK(indexing.value.indexing);
  CHECK(indexing.value.retryAfterSeconds > 0);
  CHECK(indexing.value.documentsIndexed == 7);
  CHECK(indexing.value.messages.empty());
  REQUIRE(e.admin->Request("PUT", index, R"({"indexed":true})").status / 100 == 2);
  query.limit = 26;
  auto badLimit =
      bot.Wait<MessageSearchResult>([&](auto cb) { bot.backend->SearchGuildMessages(guild, query, cb); });
  CHECK(badLimit.result.Type() == ErrorType::ValidationError);

  // Delete the channel; then the audit log keeps the reasons.
  auto gonePit =
      bot.Wait<Channel>([&](auto cb) { bot.backend->DeleteChannel(voice.value.id, cb, "no races"); });
  REQUIRE_MESSAGE(gonePit.result.Successful(), gonePit.result.Error());
  CHECK(gonePit.value.id == voice.value.id);
  auto log = bot.Wait<AuditLog>([&](auto cb) { bot.backend->GetAuditLog(guild, AuditLogQuery{}, cb); });
  REQUIRE_MESSAGE(log.result.Successful(), log.result.Error());
  const auto* create = Find(log.value, AuditLogEvent::ChannelCreate, loungeId);
  REQUIRE(create);
  CHECK(create->reason == "season 3");
  const auto* overwrite = Find(log.value, AuditLogEvent::ChannelOverwriteCreate, loungeId);
  REQUIRE(overwrite);
  CHECK(overwrite->reason == "keep guests out");
  // The status entry names its channel in its options (VOICE_CHANNEL_STATUS_UPDATE).
  const auto status =
      std::find_if(log.value.entries.begin(), log.value.entries.end(), [&](const auto& entry) {
        auto channel = entry.options.find("channel_id");
        return entry.actionType == AuditLogEvent::VoiceChannelStatusUpdate &&
               channel != entry.options.end() && channel->second == std::to_string(voice.value.id);
      });
  REQUIRE(status != log.value.entries.end());
  CHECK(status->reason == "race night");
  const auto* deleteEntry = Find(log.value, AuditLogEvent::ChannelDelete, voice.value.id);
  REQUIRE(deleteEntry);
  CHECK(deleteEntry->reason == "no races");
}

}  // namespace guild_channels_test
