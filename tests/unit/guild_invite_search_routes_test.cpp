// BackendClient's invite and message search routes against the HTTP stand-in: invites created as JSON or as
// multipart with the target users' CSV file, the target users read back from a CSV answer, the job status
// typed; Search Guild Messages' query string, its limits crossed by one, results and the 202 not-yet-indexed
// answer surfaced as `indexing`; and the parsers on the docs' objects and on junk.
#include "backend_stand_in.hpp"

#include <platformpp/backend.hpp>
#include <platformpp/guild_invites.hpp>
#include <platformpp/message_search.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace guild_invite_search_routes_test {

using namespace platformpp;
using namespace platformpp::backend;
using platformpp::testing::HeaderOf;

namespace {

const std::string kApi = "https://api.test/api/v10";
const std::string kBoundary = "platformpp-invite-target-users-0f3c9a1e";

// The platform's example invite with metadata (developers/resources/invite.mdx), with a role.
const char* const kDocsInvite = R"({
  "type": 0, "code": "0vCdhLbwjZZTWZLD",
  "guild": {"id": "165176875973476352", "name": "CS:GO Fraggers Only", "splash": null, "icon": null},
  "channel": {"id": "165176875973476352", "name": "illuminati", "type": 0},
  "inviter": {"id": "115590097100865541", "username": "speed", "avatar": "deadbeef", "discriminator": "7653"},
  "target_type": 1, "expires_at": "2016-03-31T19:15:39.954000+00:00",
  "roles": [{"id": "41", "name": "Racers", "position": 2, "color": 255}],
  "uses": 0, "max_uses": 0, "max_age": 0, "temporary": false, "created_at": "2016-03-31T19:15:39.954000+00:00"
})";

using Paths = std::vector<std::string>;

// The answers first: they outlive the client, whose destruction ends what is still pending into them.
struct Answers {
  std::vector<ClientResult> results;
  std::vector<Invite> invites;
};

struct Fixture : Answers, platformpp::testing::BackendOnStandIn {
  BackendClient::GuildInviteCallback KeepInvite() {
    return [this](ClientResult r, Invite invite) {
      results.push_back(std::move(r));
      invites.push_back(std::move(invite));
    };
  }
  BackendClient::ResultCallback Keep() {
    return [this](ClientResult r) { results.push_back(std::move(r)); };
  }
  template <class Call>
  bool Sent(Call call) {
    return platformpp::testing::SentOrRefused(standIn, backend, results, call);
  }
  std::vector<std::string> BrokenPaths() const { return platformpp::testing::BrokenPathsOf(results); }
};

}  // namespace

TEST_CASE("ParseInvite, ParseInviteTargetUsersJob, ParseInviteTargetUsersCsv: the docs' shapes and junk") {
  auto invite = ParseInvite(kDocsInvite);
  REQUIRE(invite);
  CHECK(invite->code == "0vCdhLbwjZZTWZLD");
  CHECK(invite->guildId == 165176875973476352ULL);
  CHECK(invite->guildName == "CS:GO Fraggers Only");
  CHECK(invite->channelName == "illuminati");
  REQUIRE(invite->inviter);
  CHECK(invite->inviter->username == "speed");
  CHECK(invite->targetType == 1);
  CHECK(invite->expiresAt == "2016-03-31T19:15:39.954000+00:00");
  REQUIRE(invite->roles.size() == 1);
  CHECK(invite->roles[0].id == 41);
  CHECK(invite->roles[0].color == 255);
  CHECK(invite->createdAt == "2016-03-31T19:15:39.954000+00:00");
  for (const char* junk : {"", "null", "[]", "{}", R"({"code":""})", R"({"code":5})", "{"}) {
    CAPTURE(junk);
    CHECK_FALSE(ParseInvite(junk));
  }
  auto job = ParseInviteTargetUsersJob(R"({"status":2,"total_users":3,"processed_users":3,)"
                                       R"("created_at":"2026-01-01T00:00:00.000Z","completed_at":)"
                                       R"("2026-01-01T00:00:01.000Z","error_message":null})");
  REQUIRE(job);
  CHECK(job->status == InviteTargetUsersJobState::Completed);
  CHECK(job->totalUsers == 3);
  CHECK(job->completedAt == "2026-01-01T00:00:01.000Z");
  CHECK(job->errorMessage.empty());
  auto unknown = ParseInviteTargetUsersJob(R"({"status":9})");
  REQUIRE(unknown);
  CHECK(unknown->status == InviteTargetUsersJobState::Unspecified);
  CHECK_FALSE(ParseInviteTargetUsersJob(R"({"status":"2"})"));
  CHECK_FALSE(ParseInviteTargetUsersJob("[]"));
  CHECK(ParseInviteTargetUsersCsv("user_id\n7\n8\n") == std::vector<uint64_t>{7, 8});
  CHECK(ParseInviteTargetUsersCsv("\xEF\xBB\xBFuser_id\r\n 7 \r\n\r\n\"8\"") == std::vector<uint64_t>{7, 8});
  CHECK(ParseInviteTargetUsersCsv("7\n8") == std::vector<uint64_t>{7, 8});  // no header
  CHECK(ParseInviteTargetUsersCsv("user_id\n") == std::vector<uint64_t>{});
  CHECK_FALSE(ParseInviteTargetUsersCsv("user_id\n7\nabc\n"));
  CHECK_FALSE(ParseInviteTargetUsersCsv("user_id\n0\n"));
  CHECK_FALSE(ParseInviteTargetUsersCsv("12x\n7\n"));
}

TEST_CASE("CreateChannelInvite: JSON without target users, multipart CSV with them; the reason; the answer") {
  Fixture f;
  InviteArgs plain;
  plain.maxAge = 3600;
  plain.maxUses = 5;
  plain.roleIds = {41};
  f.backend.CreateChannelInvite(157, plain, f.KeepInvite(), "tryouts");
  InviteArgs targeted;
  targeted.unique = true;
  targeted.targetUserIds = {7, 8};
  f.backend.CreateChannelInvite(157, targeted, f.KeepInvite());
  REQUIRE(f.standIn.requests.size() == 2);
  const auto& r = f.standIn.requests;
  CHECK(r[0].method == "POST");
  CHECK(r[0].url == kApi + "/channels/157/invites");
  CHECK(r[0].contentType == "application/json");
  CHECK(r[0].body == R"({"max_age":3600,"max_uses":5,"temporary":false,"unique":false,"role_ids":["41"]})");
  CHECK(HeaderOf(r[0], "X-Audit-Log-Reason") == "tryouts");
  CHECK(r[1].contentType == "multipart/form-data; boundary=" + kBoundary);
  CHECK(r[1].body ==
        "--" + kBoundary +
            "\r\nContent-Disposition: form-data; name=\"payload_json\"\r\nContent-Type: "
            "application/json\r\n\r\n"
            R"({"max_age":86400,"max_uses":0,"temporary":false,"unique":true})"
            "\r\n--" +
            kBoundary +
            "\r\nContent-Disposition: form-data; name=\"target_users_file\"; "
            "filename=\"target_users.csv\"\r\nContent-Type: text/csv\r\n\r\nuser_id\n7\n8\n\r\n--" +
            kBoundary + "--\r\n");
  f.standIn.Answer(0, 200, kDocsInvite);
  f.standIn.Answer(1, 403, R"({"code":50013,"message":"Missing Permissions"})");
  f.backend.RunCallbacks();
  REQUIRE(f.results.size() == 2);
  CHECK(f.results[0].Successful());
  CHECK(f.invites[0].code == "0vCdhLbwjZZTWZLD");
  CHECK(f.results[1].ErrorCode() == 50013);
  CHECK(f.invites[1].code.empty());
}

TEST_CASE("InviteArgs: max_age 0..604800, max_uses 0..100, 250 roles, ids not 0: each crossed by one") {
  Fixture f;
  auto create = [&](const InviteArgs& args) {
    return f.Sent([&] { f.backend.CreateChannelInvite(157, args, f.KeepInvite()); });
  };
  InviteArgs args;
  args.maxAge = 604800;
  CHECK(create(args));
  args.maxAge = 0;
  CHECK(create(args));
  args.maxAge = 604801;
  CHECK_FALSE(create(args));
  CHECK(f.BrokenPaths() == Paths{"max_age"});
  args.maxAge = -1;
  CHECK_FALSE(create(args));
  args = InviteArgs{};
  args.maxUses = 100;
  CHECK(create(args));
  args.maxUses = 101;
  CHECK_FALSE(create(args));
  CHECK(f.BrokenPaths() == Paths{"max_uses"});
  args.maxUses = -1;
  CHECK_FALSE(create(args));
  args = InviteArgs{};
  args.roleIds = std::vector<uint64_t>(250, 41);
  CHECK(create(args));
  args.roleIds.push_back(41);
  CHECK_FALSE(create(args));
  CHECK(f.BrokenPaths() == Paths{"role_ids"});
  args = InviteArgs{};
  args.roleIds = {41, 0};
  args.targetUserIds = {0};
  CHECK_FALSE(create(args));
  CHECK(f.BrokenPaths() == Paths{"role_ids.1", "target_users_file.0"});
  CHECK_FALSE(f.Sent([&] { f.backend.CreateChannelInvite(0, InviteArgs{}, f.KeepInvite()); }));
  CHECK(f.BrokenPaths() == Paths{"channelId"});
}

TEST_CASE("Invite code routes: get with counts, delete, target users as CSV both ways, the job status") {
  std::vector<uint64_t> ids;
  InviteTargetUsersJob job;
  Fixture f;  // after what its pending calls end into
  f.backend.GetInvite("0vCdhLbwjZZTWZLD", true, f.KeepInvite());
  f.backend.GetInvite("abc", false, f.KeepInvite());
  f.backend.DeleteInvite("abc", f.KeepInvite(), "expired event");
  f.backend.GetInviteTargetUsers("abc", [&](ClientResult r, std::vector<uint64_t> users) {
    f.results.push_back(std::move(r));
    ids = std::move(users);
  });
  f.backend.UpdateInviteTargetUsers("abc", {9, 10}, f.Keep(), "new roster");
  f.backend.GetInviteTargetUsersJobStatus("abc", [&](ClientResult r, InviteTargetUsersJob status) {
    f.results.push_back(std::move(r));
    job = std::move(status);
  });
  f.backend.GetChannelInvites(157, [&](ClientResult r, std::vector<Invite> invites) {
    f.results.push_back(std::move(r));
    f.invites.insert(f.invites.end(), invites.begin(), invites.end());
  });
  REQUIRE(f.standIn.requests.size() == 7);
  const auto& r = f.standIn.requests;
  CHECK(r[0].url == kApi + "/invites/0vCdhLbwjZZTWZLD?with_counts=true");
  CHECK(r[1].url == kApi + "/invites/abc");
  CHECK(r[2].method == "DELETE");
  CHECK(HeaderOf(r[2], "X-Audit-Log-Reason") == "expired%20event");
  CHECK(r[3].method == "GET");
  CHECK(r[3].url == kApi + "/invites/abc/target-users");
  CHECK(r[4].method == "PUT");
  CHECK(r[4].url == kApi + "/invites/abc/target-users");
  CHECK(r[4].contentType == "multipart/form-data; boundary=" + kBoundary);
  CHECK(r[4].body ==
        "--" + kBoundary +
            "\r\nContent-Disposition: form-data; name=\"target_users_file\"; "
            "filename=\"target_users.csv\"\r\nContent-Type: text/csv\r\n\r\nuser_id\n9\n10\n\r\n--" +
            kBoundary + "--\r\n");
  CHECK(HeaderOf(r[4], "X-Audit-Log-Reason") == "new%20roster");
  CHECK(r[5].url == kApi + "/invites/abc/target-users/job-status");
  CHECK(r[6].url == kApi + "/channels/157/invites");
  f.standIn.Answer(0, 200, kDocsInvite);
  f.standIn.Answer(1, 404, R"({"code":10006,"message":"Unknown Invite"})");
  f.standIn.Answer(2, 200, kDocsInvite);
  f.standIn.Answer(3, 200, "user_id\r\n9\r\n10\r\n", "text/csv");
  f.standIn.Answer(4, 204, "");
  f.standIn.Answer(
      5, 200, R"({"status":1,"total_users":2,"processed_users":1,"created_at":"x","completed_at":null})");
  f.standIn.Answer(6, 200, std::string("[") + kDocsInvite + "]");
  f.backend.RunCallbacks();
  REQUIRE(f.results.size() == 7);
  CHECK(f.results[0].Successful());
  CHECK(f.results[1].ErrorCode() == 10006);
  CHECK(f.results[2].Successful());
  CHECK(f.results[3].Successful());
  CHECK(ids == std::vector<uint64_t>{9, 10});
  CHECK(f.results[4].Successful());
  CHECK(f.results[5].Successful());
  CHECK(job.status == InviteTargetUsersJobState::Processing);
  CHECK(job.processedUsers == 1);
  CHECK(f.results[6].Successful());
  CHECK(f.invites.back().code == "0vCdhLbwjZZTWZLD");
}

TEST_CASE(
    "Target users: errors and a CSV that is not one; empty lists, zero ids and bad codes kept in the "
    "process") {
  std::vector<ClientResult> ends;
  Fixture f;  // after what its pending calls end into
  auto keepIds = [&](ClientResult r, const std::vector<uint64_t>&) { ends.push_back(std::move(r)); };
  f.backend.GetInviteTargetUsers("abc", keepIds);
  f.backend.GetInviteTargetUsers("abc", keepIds);
  f.standIn.Answer(0, 404, R"({"code":10129,"message":"Unknown Invite Target Users"})");
  f.standIn.Answer(1, 200, "user_id\nnot-an-id\n", "text/csv");
  f.backend.RunCallbacks();
  REQUIRE(ends.size() == 2);
  CHECK(ends[0].ErrorCode() == 10129);
  CHECK(ends[1].Error().find("malformed response") != std::string::npos);
  CHECK_FALSE(f.Sent([&] { f.backend.UpdateInviteTargetUsers("abc", {}, f.Keep()); }));
  CHECK(f.BrokenPaths() == Paths{"target_users_file"});
  CHECK_FALSE(f.Sent([&] { f.backend.UpdateInviteTargetUsers("abc", {7, 0}, f.Keep()); }));
  CHECK(f.BrokenPaths() == Paths{"target_users_file.1"});
  for (const char* code : {"", "a/b", "a?b", "../x"}) {
    CAPTURE(code);
    CHECK_FALSE(f.Sent([&] { f.backend.GetInvite(code, false, f.KeepInvite()); }));
    CHECK(f.BrokenPaths() == Paths{"code"});
  }
  CHECK(f.Sent([&] { f.backend.GetInvite("Ab-9_z", false, f.KeepInvite()); }));
}

TEST_CASE("SearchGuildMessages: the query string, results, and the 202 not-yet-indexed answer") {
  std::vector<MessageSearchResult> found;
  Fixture f;  // after what its pending calls end into
  auto keep = [&](ClientResult r, MessageSearchResult result) {
    f.results.push_back(std::move(r));
    found.push_back(std::move(result));
  };
  MessageSearchQuery query;
  query.content = "fast lap";
  query.authorIds = {7, 8};
  query.authorTypes = {"-bot"};
  query.channelIds = {157};
  query.mentions = {9};
  query.mentionsRoleIds = {41};
  query.has = {"image", "-link"};
  query.pinned = true;
  query.mentionEveryone = false;
  query.includeNsfw = true;
  query.sortBy = SearchSortBy::Relevance;
  query.sortOrder = SearchSortOrder::Ascending;
  query.limit = 10;
  query.offset = 20;
  query.minId = 100;
  query.maxId = 200;
  f.backend.SearchGuildMessages(3003, query, keep);
  f.backend.SearchGuildMessages(3003, MessageSearchQuery{}, keep);
  f.backend.SearchGuildMessages(3003, MessageSearchQuery{}, keep);
  REQUIRE(f.standIn.requests.size() == 3);
  const auto& r = f.standIn.requests;
  CHECK(r[0].method == "GET");
  CHECK(r[0].url ==
        kApi +
            "/guilds/3003/messages/search?limit=10&offset=20&content=fast%20lap&author_id=7&author_id=8"
            "&author_type=-bot&channel_id=157&mentions=9&mentions_role_id=41&has=image&has=-link"
            "&pinned=true&mention_everyone=false&include_nsfw=true&min_id=100&max_id=200"
            "&sort_by=relevance&sort_order=asc");
  CHECK(r[1].url == kApi + "/guilds/3003/messages/search?limit=25&sort_by=timestamp&sort_order=desc");
  CHECK(HeaderOf(r[0], "Authorization") == "Bot bot-secret");
  f.standIn.Answer(0, 200,
                   R"({"total_results":2,"messages":[[{"id":"5","channel_id":"157","content":"fast lap",)"
                   R"("author":{"id":"7","username":"r"},"hit":true}]],"doing_deep_historical_index":false,)"
                   R"("threads":[],"members":[]})");
  f.standIn.Answer(1, 202,
                   R"({"message":"Index not yet available. Try again later","code":110000,)"
                   R"("documents_indexed":12,"retry_after":2})");
  f.standIn.Answer(2, 403, R"({"code":50001,"message":"Missing Access"})");
  f.backend.RunCallbacks();
  REQUIRE(f.results.size() == 3);
  CHECK(f.results[0].Successful());
  CHECK(found[0].totalResults == 2);
  REQUIRE(found[0].messages.size() == 1);
  CHECK(found[0].messages[0].content == "fast lap");
  CHECK_FALSE(found[0].indexing);
  CHECK(f.results[1].Successful());
  CHECK(found[1].indexing);
  CHECK(found[1].retryAfterSeconds == 2.0);
  CHECK(found[1].documentsIndexed == 12);
  CHECK(found[1].messages.empty());
  CHECK(f.results[2].ErrorCode() == 50001);
  CHECK_FALSE(ParseMessageSearchResult(R"({"total_results":1,"messages":[{"id":"5"}]})"));
  CHECK_FALSE(ParseMessageSearchResult(R"({"messages":[]})"));
  CHECK_FALSE(ParseMessageSearchResult("[]"));
}

TEST_CASE(
    "MessageSearchQuery: limit 1..25, offset 0..9975, content 1024, 500 channels, 100 values: each crossed") {
  Fixture f;
  auto search = [&](const MessageSearchQuery& query) {
    return f.Sent([&] {
      f.backend.SearchGuildMessages(3003, query, [&](ClientResult r, const MessageSearchResult&) {
        f.results.push_back(std::move(r));
      });
    });
  };
  MessageSearchQuery query;
  query.limit = 1;
  CHECK(search(query));
  query.limit = 25;
  CHECK(search(query));
  query.limit = 26;
  CHECK_FALSE(search(query));
  CHECK(f.BrokenPaths() == Paths{"limit"});
  query.limit = 0;
  CHECK_FALSE(search(query));
  query = MessageSearchQuery{};
  query.offset = 9975;
  CHECK(search(query));
  query.offset = 9976;
  CHECK_FALSE(search(query));
  CHECK(f.BrokenPaths() == Paths{"offset"});
  query.offset = -1;
  CHECK_FALSE(search(query));
  query = MessageSearchQuery{};
  query.content = std::string(1024, 'c');
  CHECK(search(query));
  query.content = std::string(1025, 'c');
  CHECK_FALSE(search(query));
  CHECK(f.BrokenPaths() == Paths{"content"});
  query = MessageSearchQuery{};
  query.channelIds = std::vector<uint64_t>(500, 157);
  CHECK(search(query));
  query.channelIds.push_back(157);
  CHECK_FALSE(search(query));
  CHECK(f.BrokenPaths() == Paths{"channel_id"});
  query = MessageSearchQuery{};
  query.authorIds = std::vector<uint64_t>(100, 7);
  CHECK(search(query));
  query.authorIds.push_back(7);
  CHECK_FALSE(search(query));
  CHECK(f.BrokenPaths() == Paths{"author_id"});
  query = MessageSearchQuery{};
  query.has = {"image", "gif"};
  CHECK_FALSE(search(query));
  CHECK(f.BrokenPaths() == Paths{"has.1"});
  query = MessageSearchQuery{};
  query.authorTypes = {"-webhook", "human"};
  query.mentions = {0};
  CHECK_FALSE(search(query));
  CHECK(f.BrokenPaths() == Paths{"mentions.0", "author_type.1"});
  CHECK(search(MessageSearchQuery{}));  // the default query is sent
  CHECK_FALSE(f.Sent([&] {
    f.backend.SearchGuildMessages(0, MessageSearchQuery{}, [&](ClientResult r, const MessageSearchResult&) {
      f.results.push_back(std::move(r));
    });
  }));
  CHECK(f.BrokenPaths() == Paths{"guildId"});
}

}  // namespace guild_invite_search_routes_test
