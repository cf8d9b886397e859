// BackendClient's pin and audit log routes against the HTTP stand-in: the paginated pins query, Pin/Unpin
// with the reason header, the audit log query with its filters, each limit crossed by one; the reason's
// rules (1 to 512 characters, UTF-8, percent-encoded) on every mutating guild call including the role
// calls and DeleteMessage; extra headers never replacing the session's Authorization; and
// ParseChannelPinsPage / ParseAuditLog on the docs' shapes and on junk.
#include "backend_stand_in.hpp"

#include <platformpp/backend.hpp>
#include <platformpp/channel_pins.hpp>
#include <platformpp/guild_audit_log.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace guild_pins_audit_routes_test {

using namespace platformpp;
using namespace platformpp::backend;
using platformpp::testing::BackendOnStandIn;
using platformpp::testing::HeaderOf;

namespace {

const std::string kApi = "https://api.test/api/v10";

const char* const kMessage =
    R"({"id":"900","channel_id":"500","author":{"id":"7","username":"nelly"},"content":"gg",)"
    R"("timestamp":"2026-01-01T00:00:00.000+00:00","type":0,"pinned":true})";

// The shape of the docs' audit log entry (developers/resources/audit-log.mdx), with a reason and options.
const char* const kAuditLog = R"({
  "audit_log_entries": [
    {"id": "1200", "user_id": "7", "target_id": "8", "action_type": 25,
     "changes": [{"key": "$add", "new_value": [{"id": "41", "name": "Racers"}]}],
     "reason": "won the cup"},
    {"id": "1100", "user_id": "7", "target_id": "900", "action_type": 74,
     "options": {"channel_id": "500", "message_id": "900", "count": 2},
     "changes": [{"key": "nick", "old_value": "a", "new_value": null}, {"new_value": 1}]},
    {"id": "1000", "user_id": null, "target_id": null, "action_type": 999}
  ],
  "users": [{"id": "7", "username": "bot", "bot": true}, {"no": "id"}],
  "integrations": [], "threads": [], "webhooks": []
})";

using Paths = std::vector<std::string>;

std::vector<std::string> PathsOf(const ClientResult& result) {
  std::vector<std::string> paths;
  for (const auto& error : result.FieldErrors())
    paths.push_back(error.path);
  return paths;
}

}  // namespace

TEST_CASE("ParseChannelPinsPage: items with pinned_at and message, has_more; junk refused whole") {
  auto page = ParseChannelPinsPage(std::string(R"({"items":[{"pinned_at":"2026-01-02T00:00:00.000+00:00",)") +
                                   R"("message":)" + kMessage + R"(}],"has_more":true})");
  REQUIRE(page);
  REQUIRE(page->items.size() == 1);
  CHECK(page->items[0].pinnedAt == "2026-01-02T00:00:00.000+00:00");
  CHECK(page->items[0].message.id == 900);
  CHECK(page->items[0].message.content == "gg");
  CHECK(page->hasMore);
  auto empty = ParseChannelPinsPage(R"({"items":[]})");
  REQUIRE(empty);
  CHECK_FALSE(empty->hasMore);
  for (const char* junk : {"", "[]", "{}", R"({"items":{}})", R"({"items":[{"pinned_at":"x"}]})",
                           R"({"items":[{"message":{"id":"1"}}]})", R"({"items":[1]})", "\xff"}) {
    CAPTURE(junk);
    CHECK_FALSE(ParseChannelPinsPage(junk));
  }
  CHECK_FALSE(ParseChannelPinsPage(std::string(100000, '{')));
}

TEST_CASE("ParseAuditLog: entries, changes as JSON text, options as text, reason, users") {
  auto log = ParseAuditLog(kAuditLog);
  REQUIRE(log);
  REQUIRE(log->entries.size() == 3);
  const auto& roles = log->entries[0];
  CHECK(roles.id == 1200);
  CHECK(roles.userId == 7U);
  CHECK(roles.targetId == 8U);
  CHECK(roles.actionType == AuditLogEvent::MemberRoleUpdate);
  REQUIRE(roles.changes.size() == 1);
  CHECK(roles.changes[0].key == "$add");
  CHECK_FALSE(roles.changes[0].oldValue);
  CHECK(roles.changes[0].newValue == R"([{"id":"41","name":"Racers"}])");
  CHECK(roles.reason == "won the cup");
  const auto& pin = log->entries[1];
  CHECK(pin.actionType == AuditLogEvent::MessagePin);
  CHECK(pin.options.at("channel_id") == "500");
  CHECK(pin.options.at("count") == "2");  // a number kept as its JSON text
  REQUIRE(pin.changes.size() == 1);       // the change without a key skipped
  CHECK(pin.changes[0].oldValue == "\"a\"");
  CHECK(pin.changes[0].newValue == "null");
  CHECK_FALSE(pin.reason);
  CHECK_FALSE(log->entries[2].userId);
  CHECK(static_cast<int32_t>(log->entries[2].actionType) == 999);  // unknown kept
  REQUIRE(log->users.size() == 1);
  CHECK(log->users[0].bot);
  CHECK(log->rawJson.find("webhooks") != std::string::npos);
  for (const char* junk : {"", "[]", "{}", R"({"audit_log_entries":{}})",
                           R"({"audit_log_entries":[{"x":1}]})", R"({"audit_log_entries":[7]})", "\xff"}) {
    CAPTURE(junk);
    CHECK_FALSE(ParseAuditLog(junk));
  }
}

TEST_CASE("AuditLogEvent: the platform's numbers, the seed's voice channel status events") {
  CHECK(static_cast<int32_t>(AuditLogEvent::GuildUpdate) == 1);
  CHECK(static_cast<int32_t>(AuditLogEvent::MemberKick) == 20);
  CHECK(static_cast<int32_t>(AuditLogEvent::MemberPrune) == 21);
  CHECK(static_cast<int32_t>(AuditLogEvent::MemberUpdate) == 24);
  CHECK(static_cast<int32_t>(AuditLogEvent::RoleCreate) == 30);
  CHECK(static_cast<int32_t>(AuditLogEvent::MessageDelete) == 72);
  CHECK(static_cast<int32_t>(AuditLogEvent::MessageUnpin) == 75);
  CHECK(static_cast<int32_t>(AuditLogEvent::AutoModerationQuarantineUser) == 146);
  CHECK(static_cast<int32_t>(AuditLogEvent::VoiceChannelStatusUpdate) == 192);
  CHECK(static_cast<int32_t>(AuditLogEvent::VoiceChannelStatusDelete) == 193);
}

TEST_CASE("GetChannelPins, PinMessage, UnpinMessage: routes, query, reason; limit 1..50 crossed by one") {
  std::vector<ClientResult> ends;  // before the client: calls still pending end when it goes
  ChannelPinsPage page;
  BackendOnStandIn f;
  auto keepPage = [&](ClientResult r, ChannelPinsPage p) {
    ends.push_back(std::move(r));
    page = std::move(p);
  };
  auto keep = [&](ClientResult r) { ends.push_back(std::move(r)); };
  f.backend.GetChannelPins(500, PinsQuery{}, keepPage);
  PinsQuery older;
  older.before = "2026-01-02T00:00:00.000+00:00";
  older.limit = 1;
  f.backend.GetChannelPins(500, older, keepPage);
  f.backend.PinMessage(500, 900, keep, "rules of the club");
  f.backend.UnpinMessage(500, 900, keep);
  REQUIRE(f.standIn.requests.size() == 4);
  CHECK(f.standIn.requests[0].method == "GET");
  CHECK(f.standIn.requests[0].url == kApi + "/channels/500/messages/pins?limit=50");
  CHECK(f.standIn.requests[1].url ==
        kApi + "/channels/500/messages/pins?before=2026-01-02T00%3A00%3A00.000%2B00%3A00&limit=1");
  CHECK(f.standIn.requests[2].method == "PUT");
  CHECK(f.standIn.requests[2].url == kApi + "/channels/500/messages/pins/900");
  CHECK(HeaderOf(f.standIn.requests[2], "X-Audit-Log-Reason") == "rules%20of%20the%20club");
  CHECK(f.standIn.requests[3].method == "DELETE");
  CHECK(f.standIn.requests[3].url == kApi + "/channels/500/messages/pins/900");
  CHECK(HeaderOf(f.standIn.requests[3], "X-Audit-Log-Reason").empty());
  for (const auto& request : f.standIn.requests)
    CHECK(HeaderOf(request, "Authorization") == "Bot bot-secret");
  f.standIn.Answer(0, 200,
                   std::string(R"({"items":[{"pinned_at":"2026-01-02T00:00:00.000+00:00","message":)") +
                       kMessage + R"(}],"has_more":false})");
  f.standIn.Answer(1, 200, R"({"items":[{"pinned_at":"2026-01-02T00:00:00.000+00:00"}],"has_more":false})");
  f.standIn.Answer(2, 400, R"x({"code":30003,"message":"Maximum number of pins reached (250)"})x");
  f.standIn.Answer(3, 204, "", "");
  f.backend.RunCallbacks();
  REQUIRE(ends.size() == 4);
  CHECK(ends[0].Successful());
  CHECK(ends[1].Type() == ErrorType::HTTPError);  // an item without its message: malformed
  CHECK(page.items.empty());
  CHECK(ends[2].Status() == 400);
  CHECK(ends[2].ErrorCode() == 30003);
  CHECK(ends[3].Successful());
  ends.clear();
  for (int32_t limit : {1, 50, 0, 51}) {
    PinsQuery query;
    query.limit = limit;
    f.backend.GetChannelPins(500, query, keepPage);
  }
  PinsQuery badTime;
  badTime.before = "yesterday";
  f.backend.GetChannelPins(500, badTime, keepPage);
  f.backend.PinMessage(500, 0, keep);
  f.backend.RunCallbacks();
  CHECK(f.standIn.requests.size() == 6);  // limits 1 and 50 sent
  REQUIRE(ends.size() == 4);
  CHECK(PathsOf(ends[0]) == Paths{"limit"});
  CHECK(PathsOf(ends[1]) == Paths{"limit"});
  CHECK(PathsOf(ends[2]) == Paths{"before"});
  CHECK(PathsOf(ends[3]) == Paths{"messageId"});
}

TEST_CASE("GetAuditLog: filters in the query, limit 1..100 crossed by one, the answer read") {
  std::vector<ClientResult> ends;  // before the client: calls still pending end when it goes
  AuditLog log;
  BackendOnStandIn f;
  auto keep = [&](ClientResult r, AuditLog l) {
    ends.push_back(std::move(r));
    log = std::move(l);
  };
  f.backend.GetAuditLog(3003, AuditLogQuery{}, keep);
  AuditLogQuery query;
  query.userId = 7;
  query.actionType = AuditLogEvent::MemberRoleUpdate;
  query.before = 1300;
  query.after = 900;
  query.limit = 100;
  f.backend.GetAuditLog(3003, query, keep);
  REQUIRE(f.standIn.requests.size() == 2);
  CHECK(f.standIn.requests[0].method == "GET");
  CHECK(f.standIn.requests[0].url == kApi + "/guilds/3003/audit-logs?limit=50");
  CHECK(f.standIn.requests[1].url ==
        kApi + "/guilds/3003/audit-logs?user_id=7&action_type=25&before=1300&after=900&limit=100");
  f.standIn.Answer(0, 200, kAuditLog);
  f.standIn.Answer(1, 403, R"({"code":50013,"message":"Missing Permissions"})");
  f.backend.RunCallbacks();
  REQUIRE(ends.size() == 2);
  CHECK(ends[0].Successful());
  CHECK(ends[1].ErrorCode() == 50013);
  CHECK(log.entries.empty());  // the failure's default
  ends.clear();
  for (int32_t limit : {1, 0, 101}) {
    AuditLogQuery q;
    q.limit = limit;
    f.backend.GetAuditLog(3003, q, keep);
  }
  AuditLogQuery zero;
  zero.userId = 0;
  f.backend.GetAuditLog(0, zero, keep);
  f.backend.RunCallbacks();
  CHECK(f.standIn.requests.size() == 3);
  REQUIRE(ends.size() == 3);
  CHECK(PathsOf(ends[0]) == Paths{"limit"});
  CHECK(PathsOf(ends[1]) == Paths{"limit"});
  CHECK(PathsOf(ends[2]) == Paths{"guildId", "user_id"});
}

TEST_CASE("X-Audit-Log-Reason: 512 characters sent percent-encoded, 513 or bad UTF-8 kept in the process") {
  std::string wide;
  for (int i = 0; i < 512; ++i)
    wide += "\xC3\xA9";  // 512 characters, 1024 bytes
  CHECK(CheckAuditLogReason(std::string(512, 'r')).empty());
  CHECK(CheckAuditLogReason(wide).empty());
  CHECK(CheckAuditLogReason(std::string(513, 'r')).size() == 1);
  CHECK(CheckAuditLogReason(wide + "e").size() == 1);
  CHECK(CheckAuditLogReason("").size() == 1);  // the calls send no header instead
  CHECK(CheckAuditLogReason("\xC3").size() == 1);

  std::vector<ClientResult> ends;  // before the client: calls still pending end when it goes
  BackendOnStandIn f;
  auto keep = [&](ClientResult r) { ends.push_back(std::move(r)); };
  auto keepRole = [&](ClientResult r, const Role&) { ends.push_back(std::move(r)); };
  // Every mutating guild call takes it; each of these is refused before sending with a 513-character reason.
  const std::string tooLong(513, 'r');
  RoleChanges changes;
  changes.hoist = true;
  f.backend.CreateRole(3003, changes, keepRole, tooLong);
  f.backend.ModifyRole(3003, 41, changes, keepRole, tooLong);
  f.backend.ModifyRolePositions(
      3003, {{41, 1}}, [&](ClientResult r, const std::vector<Role>&) { ends.push_back(std::move(r)); },
      tooLong);
  f.backend.DeleteRole(3003, 41, keep, tooLong);
  f.backend.DeleteMessage(500, 900, keep, tooLong);
  f.backend.ModifyMember(
      3003, 7, MemberChanges{}, [&](ClientResult r, const GuildMember&) { ends.push_back(std::move(r)); },
      tooLong);
  f.backend.ModifyCurrentMember(
      3003, CurrentMemberChanges{}, [&](ClientResult r, const GuildMember&) { ends.push_back(std::move(r)); },
      tooLong);
  f.backend.AddMemberRole(3003, 7, 41, keep, tooLong);
  f.backend.RemoveMemberRole(3003, 7, 41, keep, tooLong);
  f.backend.RemoveMember(3003, 7, keep, tooLong);
  f.backend.BeginPrune(
      3003, PruneArgs{}, [&](ClientResult r, int64_t) { ends.push_back(std::move(r)); }, tooLong);
  f.backend.PinMessage(500, 900, keep, tooLong);
  f.backend.UnpinMessage(500, 900, keep, "\xff");
  f.backend.RunCallbacks();
  CHECK(f.standIn.requests.empty());
  REQUIRE(ends.size() == 13);
  for (const auto& end : ends) {
    CHECK(end.Type() == ErrorType::ValidationError);
    CHECK(PathsOf(end) == Paths{"reason"});
  }
  // At the limit: sent, every byte outside the unreserved set escaped (UTF-8 as %XX, '+' as %2B).
  f.backend.DeleteRole(3003, 41, keep, wide);
  f.backend.DeleteMessage(500, 900, keep, "a+b/c\xC3\xA9\r\nX-Injected: 1");
  f.backend.ModifyRolePositions(
      3003, {{41, 1}}, [&](ClientResult r, const std::vector<Role>&) { ends.push_back(std::move(r)); },
      "order");
  REQUIRE(f.standIn.requests.size() == 3);
  std::string encoded;
  for (int i = 0; i < 512; ++i)
    encoded += "%C3%A9";
  CHECK(HeaderOf(f.standIn.requests[0], "X-Audit-Log-Reason") == encoded);
  CHECK(f.standIn.requests[1].url == kApi + "/channels/500/messages/900");
  CHECK(HeaderOf(f.standIn.requests[1], "X-Audit-Log-Reason") == "a%2Bb%2Fc%C3%A9%0D%0AX-Injected%3A%201");
  CHECK(HeaderOf(f.standIn.requests[1], "X-Injected").empty());
  CHECK(HeaderOf(f.standIn.requests[2], "X-Audit-Log-Reason") == "order");
  // The session's Authorization stays the only one.
  for (const auto& request : f.standIn.requests) {
    int authorizations = 0;
    for (const auto& header : request.headers)
      authorizations += header.first == "Authorization" ? 1 : 0;
    CHECK(authorizations == 1);
  }
}

}  // namespace guild_pins_audit_routes_test
