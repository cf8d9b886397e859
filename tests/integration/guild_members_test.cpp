// A game's bot moderating its community server against the emulator, end to end through BackendClient: a
// member's nick, roles and timeout (ModifyMember), a role given and taken, the member list, the bot's own
// guild profile, a kick, the prune count and a prune; pins paginated, pinned and unpinned; and the audit log
// those actions leave, each entry with the reason the call gave (X-Audit-Log-Reason). The platform's refusals
// (50013 without the permission, 10007 for a member gone) reach the callbacks as ClientResults; the SDK's own
// checks (a timeout past 28 days) keep a bad change in the process. Each call ends once, inside RunCallbacks.
#include "bot_backend.hpp"

#include <platformpp/platformpp.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace guild_members_test {

namespace {

using namespace platformpp;
using namespace platformpp::backend;
using platformpp::testkit::EmulatorAdmin;
using namespace std::chrono_literals;

using Bot = itest::BotBackend;

constexpr uint64_t kKickMembers = uint64_t{1} << 1;
constexpr uint64_t kManageGuild = uint64_t{1} << 5;
constexpr uint64_t kViewAuditLog = uint64_t{1} << 7;
constexpr uint64_t kChangeNickname = uint64_t{1} << 26;
constexpr uint64_t kManageNicknames = uint64_t{1} << 27;
constexpr uint64_t kManageRoles = uint64_t{1} << 28;
constexpr uint64_t kModerateMembers = uint64_t{1} << 40;
constexpr uint64_t kPinMessages = uint64_t{1} << 51;
constexpr uint64_t kHourMs = 60ULL * 60 * 1000;
constexpr uint64_t kDayMs = 24 * kHourMs;

// The bot reads the emulator's fake clock, which other tests move: its 28-day check counts from there.
void EmulatorClock(BackendOptions& options) {
  auto* admin = itest::Shared().admin.get();
  options.clock = [admin] {
    return std::chrono::system_clock::time_point(std::chrono::milliseconds(admin->ClockMs()));
  };
}

uint64_t NowMs() {
  return static_cast<uint64_t>(itest::Shared().admin->ClockMs());
}

std::vector<const AuditLogEntry*> Entries(const AuditLog& log, AuditLogEvent type) {
  std::vector<const AuditLogEntry*> found;
  for (const auto& entry : log.entries)
    if (entry.actionType == type) found.push_back(&entry);
  return found;
}

}  // namespace

TEST_CASE(
    "a bot moderates its guild's members and pins through BackendClient; the audit log keeps the reasons") {
  auto& e = itest::Shared();
  Bot club("Member Club Bot", EmulatorClock);
  Bot stranger("Member Club Stranger");
  const auto owner = e.admin->CreateUser("member_club_owner", "Owner");
  const auto guild = e.admin->CreateGuild("Member Club", owner.id);
  const auto racer = e.admin->CreateUser("member_club_racer", "Racer");
  const auto idler = e.admin->CreateUser("member_club_idler", "Idler");
  const auto rookie = e.admin->CreateUser("member_club_rookie", "Rookie");
  e.admin->AddGuildMember(guild, racer.id);
  e.admin->AddGuildMember(guild, idler.id);
  e.admin->AddGuildMember(guild, rookie.id);
  // The stranger bot has a role without permissions: no prune removes it.
  e.admin->AddGuildMember(guild, stranger.app.botUserId, {e.admin->CreateRole(guild, "Guest", 0)});

  // Without MANAGE_NICKNAMES the platform refuses, as an HTTPError 403 (50013).
  e.admin->AddGuildMember(guild, club.app.botUserId);
  MemberChanges rename;
  rename.nick = "Speedy";
  auto refused =
      club.Wait<GuildMember>([&](auto done) { club.backend->ModifyMember(guild, racer.id, rename, done); });
  CHECK(refused.result.Status() == 403);
  CHECK(refused.result.ErrorCode() == 50013);
  CHECK_FALSE(refused.value.user);

  const auto moderator =
      e.admin->CreateRole(guild, "Moderator",
                          kKickMembers | kManageGuild | kViewAuditLog | kChangeNickname | kManageNicknames |
                              kManageRoles | kModerateMembers | kPinMessages);
  e.admin->AddGuildMember(guild, club.app.botUserId, {moderator});

  // A role for the season, with a reason.
  RoleChanges racersRole;
  racersRole.name = "Racers";
  auto racers = club.Wait<Role>(
      [&](auto done) { club.backend->CreateRole(guild, racersRole, done, "season 3 starts"); });
  REQUIRE_MESSAGE(racers.result.Successful(), racers.result.Error());
  const uint64_t racersId = racers.value.id;

  // The racer's nick and roles in one change.
  rename.roles = std::vector<uint64_t>{racersId};
  auto renamed = club.Wait<GuildMember>([&](auto done) {
    club.backend->ModifyMember(guild, racer.id, rename, done, "promoted: won the qualifier");
  });
  REQUIRE_MESSAGE(renamed.result.Successful(), renamed.result.Error());
  REQUIRE(renamed.value.user);
  CHECK(renamed.value.user->id == racer.id);
  CHECK(renamed.value.nick == "Speedy");
  CHECK(renamed.value.roles == std::vector<uint64_t>{racersId});
  CHECK_FALSE(renamed.value.joinedAt.empty());

  // A timeout of an hour; 28 days and a millisecond is kept in the process; 0 ends it.
  MemberChanges timeout;
  timeout.timeoutUntilMs = NowMs() + kHourMs;
  auto timedOut = club.Wait<GuildMember>(
      [&](auto done) { club.backend->ModifyMember(guild, rookie.id, timeout, done, "spam in #general"); });
  REQUIRE_MESSAGE(timedOut.result.Successful(), timedOut.result.Error());
  CHECK_FALSE(timedOut.value.communicationDisabledUntil.empty());
  timeout.timeoutUntilMs = NowMs() + 28 * kDayMs + kHourMs;
  auto tooLong =
      club.Wait<GuildMember>([&](auto done) { club.backend->ModifyMember(guild, rookie.id, timeout, done); });
  CHECK(tooLong.result.Type() == ErrorType::ValidationError);
  timeout.timeoutUntilMs = 0;
  auto ended =
      club.Wait<GuildMember>([&](auto done) { club.backend->ModifyMember(guild, rookie.id, timeout, done); });
  REQUIRE(ended.result.Successful());
  CHECK(ended.value.communicationDisabledUntil.empty());

  // A role given and taken; the member read back.
  CHECK(club.WaitResult(
                [&](auto done) { club.backend->AddMemberRole(guild, rookie.id, racersId, done, "trial"); })
            .Successful());
  auto rookieNow =
      club.Wait<GuildMember>([&](auto done) { club.backend->GetMember(guild, rookie.id, done); });
  REQUIRE(rookieNow.result.Successful());
  CHECK(rookieNow.value.roles == std::vector<uint64_t>{racersId});
  CHECK(club.WaitResult([&](auto done) { club.backend->RemoveMemberRole(guild, rookie.id, racersId, done); })
            .Successful());
  // Not the bot's own role: it is not below the bot's highest.
  auto own =
      club.WaitResult([&](auto done) { club.backend->AddMemberRole(guild, rookie.id, moderator, done); });
  CHECK(own.Status() == 403);
  CHECK(own.ErrorCode() == 50013);

  // The member list, by user id: everyone, then one page of one.
  auto all = club.Wait<std::vector<GuildMember>>(
      [&](auto done) { club.backend->ListMembers(guild, 1000, 0, done); });
  REQUIRE(all.result.Successful());
  CHECK(all.value.size() == 6);  // the owner, three players, two bots
  auto first =
      club.Wait<std::vector<GuildMember>>([&](auto done) { club.backend->ListMembers(guild, 1, 0, done); });
  REQUIRE(first.result.Successful());
  CHECK(first.value.size() == 1);

  // The bot's own guild profile.
  CurrentMemberChanges profile;
  profile.nick = "Club Steward";
  profile.bio = std::string(190, 'b');
  auto self =
      club.Wait<GuildMember>([&](auto done) { club.backend->ModifyCurrentMember(guild, profile, done); });
  REQUIRE_MESSAGE(self.result.Successful(), self.result.Error());
  CHECK(self.value.nick == "Club Steward");
  CHECK(self.value.bio == profile.bio);

  // Prune: two days on, the idler (no roles, no session) counts; the racer only with Racers included.
  e.admin->AdvanceClock(48h);
  PruneArgs prune;
  prune.days = 1;
  auto count = club.Wait<int64_t>([&](auto done) { club.backend->GetPruneCount(guild, prune, done); });
  REQUIRE(count.result.Successful());
  const int64_t withoutRoles = count.value;
  CHECK(withoutRoles == 2);  // the idler and the rookie (never the owner or the bot asking)
  prune.includeRoles = {racersId};
  auto withRacers = club.Wait<int64_t>([&](auto done) { club.backend->GetPruneCount(guild, prune, done); });
  REQUIRE(withRacers.result.Successful());
  CHECK(withRacers.value == withoutRoles + 1);
  auto strangerCount =
      stranger.Wait<int64_t>([&](auto done) { stranger.backend->GetPruneCount(guild, prune, done); });
  CHECK(strangerCount.result.ErrorCode() == 50013);
  prune.includeRoles.clear();
  auto pruned = club.Wait<int64_t>(
      [&](auto done) { club.backend->BeginPrune(guild, prune, done, "inactive for a day"); });
  REQUIRE(pruned.result.Successful());
  CHECK(pruned.value == withoutRoles);
  auto gone = club.Wait<GuildMember>([&](auto done) { club.backend->GetMember(guild, idler.id, done); });
  CHECK(gone.result.Status() == 404);
  CHECK(gone.result.ErrorCode() == 10007);

  // A kick.
  CHECK(
      club.WaitResult([&](auto done) { club.backend->RemoveMember(guild, racer.id, done, "left the team"); })
          .Successful());
  auto kicked = club.Wait<GuildMember>([&](auto done) { club.backend->GetMember(guild, racer.id, done); });
  CHECK(kicked.result.ErrorCode() == 10007);

  // Pins: three messages pinned a second apart, read in pages of two, one unpinned.
  EmulatorAdmin::ChannelSpec spec;
  spec.name = "announcements";
  const auto channel = e.admin->CreateChannel(guild, spec);
  std::vector<uint64_t> messages;
  for (const char* text : {"Rules", "Calendar", "Results"}) {
    auto posted = club.Wait<ChannelMessage>(
        [&](auto done) { club.backend->CreateMessage(channel, MessagePayload::Text(text), done); });
    REQUIRE_MESSAGE(posted.result.Successful(), posted.result.Error());
    messages.push_back(posted.value.id);
    CHECK(club.WaitResult([&](auto done) {
                club.backend->PinMessage(channel, posted.value.id, done, std::string("keep: ") + text);
              })
              .Successful());
    e.admin->AdvanceClock(1s);
  }
  // Without PIN_MESSAGES: 403 50013.
  auto strangerPin =
      stranger.WaitResult([&](auto done) { stranger.backend->PinMessage(channel, messages[0], done); });
  CHECK(strangerPin.Status() == 403);
  CHECK(strangerPin.ErrorCode() == 50013);
  PinsQuery query;
  query.limit = 2;
  auto page =
      club.Wait<ChannelPinsPage>([&](auto done) { club.backend->GetChannelPins(channel, query, done); });
  REQUIRE(page.result.Successful());
  REQUIRE(page.value.items.size() == 2);
  CHECK(page.value.hasMore);
  CHECK(page.value.items[0].message.id == messages[2]);  // newest pin first
  CHECK(page.value.items[1].message.id == messages[1]);
  query.before = page.value.items[1].pinnedAt;
  auto next =
      club.Wait<ChannelPinsPage>([&](auto done) { club.backend->GetChannelPins(channel, query, done); });
  REQUIRE(next.result.Successful());
  REQUIRE(next.value.items.size() == 1);
  CHECK_FALSE(next.value.hasMore);
  CHECK(next.value.items[0].message.id == messages[0]);
  CHECK(
      club.WaitResult([&](auto done) { club.backend->UnpinMessage(channel, messages[1], done, "outdated"); })
          .Successful());
  auto after = club.Wait<ChannelPinsPage>(
      [&](auto done) { club.backend->GetChannelPins(channel, PinsQuery{}, done); });
  REQUIRE(after.result.Successful());
  CHECK(after.value.items.size() == 2);

  // The audit log: every action above, by the bot, with its reason.
  AuditLogQuery byBot;
  byBot.userId = club.app.botUserId;
  byBot.limit = 100;
  auto log = club.Wait<AuditLog>([&](auto done) { club.backend->GetAuditLog(guild, byBot, done); });
  REQUIRE_MESSAGE(log.result.Successful(), log.result.Error());
  CHECK(std::is_sorted(log.value.entries.begin(), log.value.entries.end(),
                       [](const AuditLogEntry& a, const AuditLogEntry& b) { return a.id > b.id; }));
  auto created = Entries(log.value, AuditLogEvent::RoleCreate);
  REQUIRE(created.size() == 1);
  CHECK(created[0]->targetId == racersId);
  CHECK(created[0]->reason == "season 3 starts");
  bool nickEntry = false;
  for (const auto* entry : Entries(log.value, AuditLogEvent::MemberUpdate)) {
    if (entry->targetId != racer.id) continue;
    nickEntry = true;
    CHECK(entry->reason == "promoted: won the qualifier");
    REQUIRE_FALSE(entry->changes.empty());
    CHECK(entry->changes[0].key == "nick");
    CHECK(entry->changes[0].newValue == "\"Speedy\"");
  }
  CHECK(nickEntry);
  bool timeoutEntry = false;
  for (const auto* entry : Entries(log.value, AuditLogEvent::MemberUpdate))
    timeoutEntry = timeoutEntry || (entry->targetId == rookie.id && entry->reason == "spam in #general");
  CHECK(timeoutEntry);
  auto roleUpdates = Entries(log.value, AuditLogEvent::MemberRoleUpdate);
  CHECK(roleUpdates.size() >= 3);  // the racer's roles, the rookie's trial and its end
  bool trial = false;
  for (const auto* entry : roleUpdates)
    trial = trial || (entry->targetId == rookie.id && entry->reason == "trial" && !entry->changes.empty() &&
                      entry->changes[0].key == "$add");
  CHECK(trial);
  auto kicks = Entries(log.value, AuditLogEvent::MemberKick);
  REQUIRE(kicks.size() == 1);
  CHECK(kicks[0]->targetId == racer.id);
  CHECK(kicks[0]->reason == "left the team");
  auto prunes = Entries(log.value, AuditLogEvent::MemberPrune);
  REQUIRE(prunes.size() == 1);
  CHECK(prunes[0]->reason == "inactive for a day");
  CHECK(prunes[0]->options.at("delete_member_days") == "1");
  CHECK(prunes[0]->options.at("members_removed") == std::to_string(withoutRoles));
  auto unpins = Entries(log.value, AuditLogEvent::MessageUnpin);
  REQUIRE(unpins.size() == 1);
  CHECK(unpins[0]->reason == "outdated");
  CHECK(unpins[0]->options.at("message_id") == std::to_string(messages[1]));
  // Only the pins, by action type.
  AuditLogQuery pins;
  pins.actionType = AuditLogEvent::MessagePin;
  auto pinLog = club.Wait<AuditLog>([&](auto done) { club.backend->GetAuditLog(guild, pins, done); });
  REQUIRE(pinLog.result.Successful());
  REQUIRE(pinLog.value.entries.size() == 3);
  CHECK(pinLog.value.entries[0].reason == "keep: Results");
  CHECK(pinLog.value.entries[2].reason == "keep: Rules");
  CHECK(pinLog.value.entries[0].options.at("channel_id") == std::to_string(channel));
  // Without VIEW_AUDIT_LOG: 403 50013.
  auto strangerLog =
      stranger.Wait<AuditLog>([&](auto done) { stranger.backend->GetAuditLog(guild, pins, done); });
  CHECK(strangerLog.result.Status() == 403);
  CHECK(strangerLog.result.ErrorCode() == 50013);
}

}  // namespace guild_members_test
