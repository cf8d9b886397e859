// BackendClient's guild member and prune routes against the HTTP stand-in: /guilds/{guild}/members... with
// the bot's Authorization, the bodies and queries on the wire, X-Audit-Log-Reason where a reason is given,
// the checks that keep a bad change in the process (each limit crossed by one), error answers mapped into
// ClientResult, each call ending exactly once inside RunCallbacks; and ParseGuildMember on the docs' member
// and on junk.
#include "backend_stand_in.hpp"

#include <platformpp/backend.hpp>
#include <platformpp/guild_members.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace guild_member_routes_test {

using namespace platformpp;
using namespace platformpp::backend;
using platformpp::testing::HeaderOf;

namespace {

const std::string kBase = "https://api.test/api/v10/guilds/3003/members";
const std::string kPrune = "https://api.test/api/v10/guilds/3003/prune";
// The fixture's clock: 2026-01-01T00:00:00Z.
constexpr uint64_t kNowMs = 1767225600000ULL;
constexpr uint64_t kDayMs = 24ULL * 60 * 60 * 1000;

// The platform's example member (developers/resources/guild.mdx, "Example Guild Member"), with a user.
const char* const kDocsMember = R"({
  "user": {"id": "80351110224678912", "username": "Nelly", "global_name": null, "avatar": null},
  "nick": "NOT API SUPPORT",
  "avatar": null,
  "banner": null,
  "roles": [],
  "joined_at": "2015-04-26T06:26:56.936000+00:00",
  "deaf": false,
  "mute": false
})";

using Paths = std::vector<std::string>;

struct Answers {
  std::vector<ClientResult> results;
  std::vector<GuildMember> members;
};

struct Fixture : Answers, platformpp::testing::BackendOnStandIn {
  BackendClient::GuildMemberCallback KeepMember() {
    return [this](ClientResult r, GuildMember member) {
      results.push_back(std::move(r));
      members.push_back(std::move(member));
    };
  }
  BackendClient::ResultCallback Keep() {
    return [this](ClientResult r) { results.push_back(std::move(r)); };
  }
  // Runs `call`; true when it was sent (its checks let it through), else REQUIREs one ValidationError.
  template <class Call>
  bool Sent(Call call) {
    return platformpp::testing::SentOrRefused(standIn, backend, results, call);
  }
  std::vector<std::string> BrokenPaths() const { return platformpp::testing::BrokenPathsOf(results); }
};

// A BackendClient whose clock reads kNowMs.
struct ClockedFixture : Answers, platformpp::testing::ApiStandIn {};

}  // namespace

TEST_CASE("ParseGuildMember: the docs' member, and the member routes' fields") {
  auto member = ParseGuildMember(kDocsMember);
  REQUIRE(member);
  REQUIRE(member->user);
  CHECK(member->user->id == 80351110224678912ULL);
  CHECK(member->user->username == "Nelly");
  CHECK(member->nick == "NOT API SUPPORT");
  CHECK(member->roles.empty());
  CHECK(member->joinedAt == "2015-04-26T06:26:56.936000+00:00");
  CHECK(member->avatar.empty());
  CHECK(member->communicationDisabledUntil.empty());
  CHECK_FALSE(member->deaf);
  auto full = ParseGuildMember(
      R"({"user":{"id":"7","username":"bot","bot":true},"nick":null,"roles":["41","x",42],)"
      R"("joined_at":"2026-01-01T00:00:00.000+00:00","avatar":"a1","banner":"b2","bio":"hello",)"
      R"("communication_disabled_until":"2026-01-02T00:00:00.000+00:00","flags":4,"deaf":true,"mute":true,)"
      R"("pending":true,"premium_since":"2025-12-01T00:00:00.000+00:00","permissions":"8","future":1})");
  REQUIRE(full);
  CHECK(full->user->bot);
  CHECK(full->nick.empty());
  CHECK(full->roles == std::vector<uint64_t>{41, 42});  // an unreadable id skipped, not the member
  CHECK(full->avatar == "a1");
  CHECK(full->banner == "b2");
  CHECK(full->bio == "hello");
  CHECK(full->communicationDisabledUntil == "2026-01-02T00:00:00.000+00:00");
  CHECK(full->flags == member_flags::BypassesVerification);
  CHECK(full->deaf);
  CHECK(full->mute);
  CHECK(full->pending);
  CHECK(full->premiumSince == "2025-12-01T00:00:00.000+00:00");
  CHECK(full->permissions == 8U);
  CHECK(full->rawJson.find("future") != std::string::npos);
}

TEST_CASE("ParseGuildMember: junk gives nullopt, never a crash") {
  for (const char* junk : {"", "null", "[]", "42", "\"member\"", "{", "\xff\xfe"}) {
    CAPTURE(junk);
    CHECK_FALSE(ParseGuildMember(junk));
  }
  CHECK_FALSE(ParseGuildMember(std::string(100000, '[')));
  // Wrong types keep their defaults.
  auto odd = ParseGuildMember(R"({"user":"x","nick":5,"roles":"41","flags":-1,"deaf":"yes"})");
  REQUIRE(odd);
  CHECK_FALSE(odd->user);
  CHECK(odd->nick.empty());
  CHECK(odd->roles.empty());
  CHECK(odd->flags == 0);
  CHECK_FALSE(odd->deaf);
}

TEST_CASE("GetMember and ListMembers: GET as the bot, limit and after in the query, answers read") {
  std::vector<GuildMember> listed;
  int listEnds = 0;
  Fixture f;
  f.backend.GetMember(3003, 80351110224678912ULL, f.KeepMember());
  f.backend.ListMembers(3003, 1000, 41, [&](const ClientResult& r, std::vector<GuildMember> members) {
    ++listEnds;
    CHECK(r.Successful());
    listed = std::move(members);
  });
  f.backend.ListMembers(3003, 1, 0,
                        [&](const ClientResult&, const std::vector<GuildMember>&) { ++listEnds; });
  REQUIRE(f.standIn.requests.size() == 3);
  CHECK(f.standIn.requests[0].method == "GET");
  CHECK(f.standIn.requests[0].url == kBase + "/80351110224678912");
  CHECK(f.standIn.requests[1].url == kBase + "?limit=1000&after=41");
  CHECK(f.standIn.requests[2].url == kBase + "?limit=1");
  for (const auto& request : f.standIn.requests) {
    CHECK(HeaderOf(request, "Authorization") == "Bot bot-secret");
    CHECK(HeaderOf(request, "X-Audit-Log-Reason").empty());
    CHECK(request.body.empty());
  }
  f.standIn.Answer(0, 200, kDocsMember);
  f.standIn.Answer(1, 200, std::string("[") + kDocsMember + "," + kDocsMember + "]");
  f.standIn.Answer(2, 403, R"({"code":50001,"message":"Missing Access"})");
  CHECK(f.results.empty());  // callbacks run only inside RunCallbacks
  f.backend.RunCallbacks();
  REQUIRE(f.members.size() == 1);
  CHECK(f.results[0].Successful());
  CHECK(f.members[0].nick == "NOT API SUPPORT");
  CHECK(listEnds == 2);
  CHECK(listed.size() == 2);
  f.backend.RunCallbacks();
  CHECK(f.results.size() == 1);
}

TEST_CASE("ListMembers: limit 1..1000 crossed by one; ids not 0") {
  Fixture f;
  auto list = [&](int32_t limit) {
    return f.Sent([&] {
      f.backend.ListMembers(3003, limit, 0, [&](ClientResult r, const std::vector<GuildMember>&) {
        f.results.push_back(std::move(r));
      });
    });
  };
  CHECK(list(1));
  CHECK(list(1000));
  CHECK_FALSE(list(0));
  CHECK(f.BrokenPaths() == Paths{"limit"});
  CHECK_FALSE(list(1001));
  CHECK(f.BrokenPaths() == Paths{"limit"});
  CHECK_FALSE(f.Sent([&] { f.backend.GetMember(0, 0, f.KeepMember()); }));
  CHECK(f.BrokenPaths() == Paths{"guildId", "userId"});
}

TEST_CASE("ModifyMember: the set fields only on the wire; nick cleared with empty, timeout ended with 0") {
  Fixture f;
  MemberChanges changes;
  changes.nick = "Captain";
  changes.roles = std::vector<uint64_t>{41, 42};
  changes.flags = member_flags::BypassesVerification;
  f.backend.ModifyMember(3003, 7, changes, f.KeepMember(), "moderation: raid cleanup");
  MemberChanges clear;
  clear.nick = "";
  clear.timeoutUntilMs = 0;
  f.backend.ModifyMember(3003, 7, clear, f.KeepMember());
  f.backend.ModifyMember(3003, 7, MemberChanges{}, f.KeepMember());
  REQUIRE(f.standIn.requests.size() == 3);
  CHECK(f.standIn.requests[0].method == "PATCH");
  CHECK(f.standIn.requests[0].url == kBase + "/7");
  CHECK(f.standIn.requests[0].contentType == "application/json");
  CHECK(f.standIn.requests[0].body == R"({"nick":"Captain","roles":["41","42"],"flags":4})");
  CHECK(HeaderOf(f.standIn.requests[0], "X-Audit-Log-Reason") == "moderation%3A%20raid%20cleanup");
  CHECK(HeaderOf(f.standIn.requests[0], "Authorization") == "Bot bot-secret");
  CHECK(f.standIn.requests[1].body == R"({"nick":null,"communication_disabled_until":null})");
  CHECK(HeaderOf(f.standIn.requests[1], "X-Audit-Log-Reason").empty());
  CHECK(f.standIn.requests[2].body == "{}");
  f.standIn.Answer(0, 200, kDocsMember);
  f.standIn.Answer(1, 403, R"({"code":50013,"message":"Missing Permissions"})");
  f.standIn.Answer(2, 404, R"({"code":10007,"message":"Unknown Member"})");
  f.backend.RunCallbacks();
  REQUIRE(f.results.size() == 3);
  CHECK(f.results[0].Successful());
  CHECK(f.results[1].Status() == 403);
  CHECK(f.results[1].ErrorCode() == 50013);
  CHECK_FALSE(f.members[1].user);  // a default member on failure
  CHECK(f.results[2].ErrorCode() == 10007);
}

TEST_CASE("MemberChanges: nick 32 characters, timeout 28 days, role ids, flags: each crossed by one") {
  Fixture f;
  auto modify = [&](const MemberChanges& changes) {
    return f.Sent([&] { f.backend.ModifyMember(3003, 7, changes, f.KeepMember()); });
  };
  MemberChanges nick;
  nick.nick = std::string(32, 'n');
  CHECK(modify(nick));
  nick.nick = std::string(33, 'n');
  CHECK_FALSE(modify(nick));
  CHECK(f.BrokenPaths() == Paths{"nick"});
  std::string wide;
  for (int i = 0; i < 32; ++i)
    wide += "\xC3\xA9";  // 32 characters, 64 bytes
  nick.nick = wide;
  CHECK(modify(nick));
  nick.nick = "\xff";
  CHECK_FALSE(modify(nick));
  MemberChanges roles;
  roles.roles = std::vector<uint64_t>{41, 0};
  CHECK_FALSE(modify(roles));
  CHECK(f.BrokenPaths() == Paths{"roles.1"});
  // The timeout's 28 days, against a fixed now (CheckMemberChanges takes it).
  MemberChanges timeout;
  timeout.timeoutUntilMs = kNowMs + 28 * kDayMs;
  CHECK(CheckMemberChanges(timeout, kNowMs).empty());
  timeout.timeoutUntilMs = kNowMs + 28 * kDayMs + 1;
  auto errors = CheckMemberChanges(timeout, kNowMs);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].path == "communication_disabled_until");
  timeout.timeoutUntilMs = 0;
  CHECK(CheckMemberChanges(timeout, kNowMs).empty());
  MemberChanges flags;
  flags.flags = 2147483647;
  CHECK(CheckMemberChanges(flags, kNowMs).empty());
  flags.flags = 2147483648ULL;
  CHECK(CheckMemberChanges(flags, kNowMs).size() == 1);
}

TEST_CASE("ModifyMember: the timeout is checked against BackendOptions::clock") {
  ClockedFixture f;
  BackendOptions options;
  options.apiBase = "https://api.test/api/v10";
  options.botToken = "bot-secret";
  options.clock = [] { return std::chrono::system_clock::time_point(std::chrono::milliseconds(kNowMs)); };
  {
    BackendClient backend(options);
    BackendAccess::SessionOf(backend)->SetTransportForTesting(f.Transport());
    auto keep = [&](ClientResult r, const GuildMember&) { f.results.push_back(std::move(r)); };
    MemberChanges timeout;
    timeout.timeoutUntilMs = kNowMs + 28 * kDayMs;
    backend.ModifyMember(3003, 7, timeout, keep);
    timeout.timeoutUntilMs = kNowMs + 28 * kDayMs + 1;
    backend.ModifyMember(3003, 7, timeout, keep);
    backend.RunCallbacks();
    REQUIRE(f.requests.size() == 1);
    CHECK(f.requests[0].body == R"({"communication_disabled_until":"2026-01-29T00:00:00.000+00:00"})");
    REQUIRE(f.results.size() == 1);
    CHECK(f.results[0].Type() == ErrorType::ValidationError);
    CHECK(f.results[0].FieldErrors().at(0).path == "communication_disabled_until");
    f.ShutDown(*BackendAccess::SessionOf(backend));
  }
  CHECK(f.results.size() == 2);  // the sent one ended with the shutdown
}

TEST_CASE("ModifyCurrentMember: nick, avatar, banner, bio on /members/@me; bio 190 crossed by one") {
  Fixture f;
  CurrentMemberChanges profile;
  profile.nick = "Club Bot";
  profile.avatarDataUri = "data:image/png;base64,iVBO";
  profile.bannerDataUri = "";
  profile.bio = "Keeps the club tidy.";
  f.backend.ModifyCurrentMember(3003, profile, f.KeepMember());
  REQUIRE(f.standIn.requests.size() == 1);
  CHECK(f.standIn.requests[0].method == "PATCH");
  CHECK(f.standIn.requests[0].url == kBase + "/@me");
  CHECK(
      f.standIn.requests[0].body ==
      R"({"nick":"Club Bot","avatar":"data:image/png;base64,iVBO","banner":null,"bio":"Keeps the club tidy."})");
  auto modify = [&](const CurrentMemberChanges& changes) {
    return f.Sent([&] { f.backend.ModifyCurrentMember(3003, changes, f.KeepMember()); });
  };
  CurrentMemberChanges bio;
  bio.bio = std::string(190, 'b');
  CHECK(modify(bio));
  bio.bio = std::string(191, 'b');
  CHECK_FALSE(modify(bio));
  CHECK(f.BrokenPaths() == Paths{"bio"});
  CurrentMemberChanges nick;
  nick.nick = std::string(33, 'n');
  CHECK_FALSE(modify(nick));
  CHECK(f.BrokenPaths() == Paths{"nick"});
  CurrentMemberChanges images;
  images.avatarDataUri = "https://cdn.example/a.png";
  images.bannerDataUri = "banner.png";
  CHECK_FALSE(modify(images));
  CHECK(f.BrokenPaths() == Paths{"avatar", "banner"});
  CHECK(CheckCurrentMemberChanges(CurrentMemberChanges{}).empty());
}

TEST_CASE("AddMemberRole, RemoveMemberRole, RemoveMember: PUT/DELETE, 204, the reason header") {
  Fixture f;
  f.backend.AddMemberRole(3003, 7, 41, f.Keep(), "won the cup");
  f.backend.RemoveMemberRole(3003, 7, 41, f.Keep());
  f.backend.RemoveMember(3003, 7, f.Keep(), "griefing + spam");
  REQUIRE(f.standIn.requests.size() == 3);
  CHECK(f.standIn.requests[0].method == "PUT");
  CHECK(f.standIn.requests[0].url == kBase + "/7/roles/41");
  CHECK(HeaderOf(f.standIn.requests[0], "X-Audit-Log-Reason") == "won%20the%20cup");
  CHECK(f.standIn.requests[1].method == "DELETE");
  CHECK(f.standIn.requests[1].url == kBase + "/7/roles/41");
  CHECK(HeaderOf(f.standIn.requests[1], "X-Audit-Log-Reason").empty());
  CHECK(f.standIn.requests[2].method == "DELETE");
  CHECK(f.standIn.requests[2].url == kBase + "/7");
  CHECK(HeaderOf(f.standIn.requests[2], "X-Audit-Log-Reason") == "griefing%20%2B%20spam");
  for (const auto& request : f.standIn.requests)
    CHECK(request.body.empty());
  f.standIn.Answer(0, 204, "", "");
  f.standIn.Answer(1, 404, R"({"code":10011,"message":"Unknown Role"})");
  f.standIn.Answer(2, 403, R"({"code":50013,"message":"Missing Permissions"})");
  f.backend.RunCallbacks();
  REQUIRE(f.results.size() == 3);
  CHECK(f.results[0].Successful());
  CHECK(f.results[1].ErrorCode() == 10011);
  CHECK(f.results[2].ErrorCode() == 50013);
  CHECK_FALSE(f.Sent([&] { f.backend.AddMemberRole(3003, 7, 0, f.Keep()); }));
  CHECK(f.BrokenPaths() == Paths{"roleId"});
}

TEST_CASE("GetPruneCount and BeginPrune: days 1..30 crossed by one, include_roles, a null count") {
  std::vector<int64_t> counts;  // before the client: calls still pending end when it goes
  Fixture f;
  auto keep = [&](ClientResult r, int64_t pruned) {
    f.results.push_back(std::move(r));
    counts.push_back(pruned);
  };
  PruneArgs args;
  args.days = 30;
  args.includeRoles = {41, 42};
  f.backend.GetPruneCount(3003, args, keep);
  args.days = 1;
  args.computePruneCount = false;
  f.backend.BeginPrune(3003, args, keep, "inactive");
  f.backend.BeginPrune(3003, PruneArgs{}, keep);
  REQUIRE(f.standIn.requests.size() == 3);
  CHECK(f.standIn.requests[0].method == "GET");
  CHECK(f.standIn.requests[0].url == kPrune + "?days=30&include_roles=41%2C42");
  CHECK(f.standIn.requests[0].body.empty());
  CHECK(f.standIn.requests[1].method == "POST");
  CHECK(f.standIn.requests[1].url == kPrune);
  CHECK(f.standIn.requests[1].body ==
        R"({"days":1,"compute_prune_count":false,"include_roles":["41","42"]})");
  CHECK(HeaderOf(f.standIn.requests[1], "X-Audit-Log-Reason") == "inactive");
  CHECK(f.standIn.requests[2].body == R"({"days":7,"compute_prune_count":true})");
  f.standIn.Answer(0, 200, R"({"pruned":3})");
  f.standIn.Answer(1, 200, R"({"pruned":null})");
  f.standIn.Answer(2, 200, R"({"pruned":"three"})");
  f.backend.RunCallbacks();
  REQUIRE(counts.size() == 3);
  CHECK(counts[0] == 3);
  CHECK(counts[1] == -1);
  CHECK(f.results[2].Type() == ErrorType::HTTPError);  // malformed
  CHECK(counts[2] == 0);
  auto prune = [&](int32_t days, bool begin) {
    PruneArgs a;
    a.days = days;
    return f.Sent([&] {
      if (begin) {
        f.backend.BeginPrune(3003, a, keep);
      } else {
        f.backend.GetPruneCount(3003, a, keep);
      }
    });
  };
  for (bool begin : {false, true}) {
    CAPTURE(begin);
    CHECK(prune(1, begin));
    CHECK(prune(30, begin));
    CHECK_FALSE(prune(0, begin));
    CHECK(f.BrokenPaths() == Paths{"days"});
    CHECK_FALSE(prune(31, begin));
    CHECK(f.BrokenPaths() == Paths{"days"});
  }
}

}  // namespace guild_member_routes_test
