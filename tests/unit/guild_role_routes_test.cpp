// BackendClient's guild role routes against the HTTP stand-in: /guilds/{guild}/roles with the bot's
// Authorization and the bodies on the wire, the checks that keep a bad change in the process (each limit
// crossed by one), error answers mapped into ClientResult, each call ending exactly once inside
// RunCallbacks; and ParseRole on the docs' example role and on junk.
#include "backend_stand_in.hpp"

#include <platformpp/backend.hpp>
#include <platformpp/guild_roles.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace guild_role_routes_test {

using namespace platformpp;
using namespace platformpp::backend;
using platformpp::testing::BackendOnStandIn;
using platformpp::testing::HeaderOf;

namespace {

const std::string kBase = "https://api.test/api/v10/guilds/3003/roles";

// The platform's example role (developers/topics/permissions.mdx, "Example Role").
const char* const kDocsRole = R"({
  "id": "41771983423143936",
  "name": "WE DEM BOYZZ!!!!!!",
  "color": 3447003,
  "colors": {
    "primary_color": 3447003,
    "secondary_color": null,
    "tertiary_color": null
  },
  "hoist": true,
  "icon": "cf3ced8600b777c9486c6d8d84fb4327",
  "unicode_emoji": null,
  "position": 1,
  "permissions": "66321471",
  "managed": false,
  "mentionable": false,
  "flags": 0
})";

// What the calls answered: a base before the client, so that it outlives the client's shutdown (which may
// end pending calls).
struct Answers {
  std::vector<ClientResult> results;
  std::vector<Role> roles;
};

struct Fixture : Answers, BackendOnStandIn {
  BackendClient::RoleCallback KeepRole() {
    return [this](ClientResult r, Role role) {
      results.push_back(std::move(r));
      roles.push_back(std::move(role));
    };
  }
  // Sends `changes` with ModifyRole; true when it was sent (the check let it through).
  bool Sent(const RoleChanges& changes) {
    const std::size_t before = standIn.requests.size();
    results.clear();
    backend.ModifyRole(3003, 5005, changes, KeepRole());
    backend.RunCallbacks();
    if (standIn.requests.size() > before) return true;
    REQUIRE(results.size() == 1);
    CHECK(results[0].Type() == ErrorType::ValidationError);
    return false;
  }
  // The paths of the rules the last refused call broke.
  std::vector<std::string> BrokenPaths() const {
    std::vector<std::string> paths;
    if (!results.empty())
      for (const auto& error : results.back().FieldErrors())
        paths.push_back(error.path);
    return paths;
  }
};

using Paths = std::vector<std::string>;

}  // namespace

TEST_CASE("ParseRole: the docs' example role, every field read") {
  auto role = ParseRole(kDocsRole);
  REQUIRE(role);
  CHECK(role->id == 41771983423143936ULL);
  CHECK(role->name == "WE DEM BOYZZ!!!!!!");
  CHECK(role->color == 3447003);
  CHECK(role->colors.primary == 3447003);
  CHECK_FALSE(role->colors.secondary);
  CHECK_FALSE(role->colors.tertiary);
  CHECK(role->hoist);
  CHECK(role->icon == "cf3ced8600b777c9486c6d8d84fb4327");
  CHECK_FALSE(role->unicodeEmoji);
  CHECK(role->position == 1);
  CHECK(role->permissions == 66321471);
  CHECK_FALSE(role->managed);
  CHECK_FALSE(role->mentionable);
  CHECK(role->flags == 0);
  CHECK_FALSE(role->botId);
  CHECK(role->rawJson.find("\"WE DEM BOYZZ!!!!!!\"") != std::string::npos);
}

TEST_CASE("ParseRole: lenient shapes (numeric permissions, a bot's tags, gradients, unknown fields)") {
  auto role = ParseRole(R"({"id":"9","name":"bot","permissions":268435456,"position":3,"color":255,)"
                        R"("colors":{"primary_color":255,"secondary_color":65280,"tertiary_color":16711680},)"
                        R"("managed":true,"tags":{"bot_id":"2002"},"flags":1,"future_field":{"a":[1]}})");
  REQUIRE(role);
  CHECK(role->permissions == role_permissions::ManageRoles);
  CHECK(role->colors.secondary == 65280U);
  CHECK(role->colors.tertiary == 16711680U);
  CHECK(role->managed);
  CHECK(role->botId == 2002U);
  CHECK(role->flags == 1);
  CHECK(role->rawJson.find("future_field") != std::string::npos);
  // No `colors`: the deprecated `color` stands for the primary one; wrong types keep their defaults.
  auto old = ParseRole(R"({"id":9,"color":42,"name":7,"hoist":"yes","permissions":"12x","position":"1"})");
  REQUIRE(old);
  CHECK(old->colors.primary == 42);
  CHECK(old->name.empty());
  CHECK_FALSE(old->hoist);
  CHECK(old->permissions == 0);
  CHECK(old->position == 0);
}

TEST_CASE("ParseRole: junk gives nullopt, never a crash") {
  for (const char* junk :
       {"", "null", "[]", "42", "\"role\"", "{", R"({"name":"no id"})", R"({"id":"abc"})", R"({"id":"-1"})",
        R"({"id":"99999999999999999999"})", "{\"id\":\"1\"", "\xff\xfe"}) {
    CAPTURE(junk);
    CHECK_FALSE(ParseRole(junk));
  }
  std::string deep(100000, '[');
  CHECK_FALSE(ParseRole(deep));
}

TEST_CASE("GetRoles, GetRole, GetRoleMemberCounts: GET as the bot, answers read, ends once") {
  Fixture f;
  int ends = 0;
  std::vector<Role> listed;
  std::map<uint64_t, uint64_t> counts;
  f.backend.GetRoles(3003, [&](const ClientResult& r, std::vector<Role> roles) {
    ++ends;
    CHECK(r.Successful());
    listed = std::move(roles);
  });
  f.backend.GetRole(3003, 41771983423143936ULL, f.KeepRole());
  f.backend.GetRoleMemberCounts(3003, [&](const ClientResult& r, std::map<uint64_t, uint64_t> c) {
    ++ends;
    CHECK(r.Successful());
    counts = std::move(c);
  });
  REQUIRE(f.standIn.requests.size() == 3);
  CHECK(f.standIn.requests[0].method == "GET");
  CHECK(f.standIn.requests[0].url == kBase);
  CHECK(f.standIn.requests[1].url == kBase + "/41771983423143936");
  CHECK(f.standIn.requests[2].url == kBase + "/member-counts");
  for (const auto& request : f.standIn.requests) {
    CHECK(HeaderOf(request, "Authorization") == "Bot bot-secret");
    CHECK(request.body.empty());
  }
  f.standIn.Answer(0, 200,
                   std::string("[") + R"({"id":"3003","name":"@everyone","position":0},)" + kDocsRole + "]");
  f.standIn.Answer(1, 200, kDocsRole);
  f.standIn.Answer(2, 200, R"({"41771983423143936":7,"5005":0})");
  CHECK(ends == 0);  // callbacks run only inside RunCallbacks
  f.backend.RunCallbacks();
  CHECK(ends == 2);
  REQUIRE(listed.size() == 2);
  CHECK(listed[0].name == "@everyone");
  CHECK(listed[1].id == 41771983423143936ULL);
  REQUIRE(f.roles.size() == 1);
  CHECK(f.results[0].Successful());
  CHECK(f.roles[0].hoist);
  CHECK(counts == std::map<uint64_t, uint64_t>{{41771983423143936ULL, 7}, {5005, 0}});
  f.backend.RunCallbacks();
  CHECK(ends == 2);
  CHECK(f.results.size() == 1);
}

TEST_CASE("malformed answers: HTTPError, not a half-read list or count") {
  Fixture f;
  std::vector<ClientResult> ends;
  f.backend.GetRoles(3003, [&](const ClientResult& r, const std::vector<Role>&) { ends.push_back(r); });
  f.backend.GetRoleMemberCounts(
      3003, [&](const ClientResult& r, const std::map<uint64_t, uint64_t>&) { ends.push_back(r); });
  f.backend.GetRole(3003, 1, [&](const ClientResult& r, const Role&) { ends.push_back(r); });
  f.standIn.Answer(0, 200, R"([{"id":"1"},{"name":"no id"}])");
  f.standIn.Answer(1, 200, R"({"1":"seven"})");
  f.standIn.Answer(2, 200, "[]");
  f.backend.RunCallbacks();
  REQUIRE(ends.size() == 3);
  for (const auto& r : ends) {
    CHECK(r.Type() == ErrorType::HTTPError);
    CHECK(r.Error().find("malformed response") != std::string::npos);
  }
}

TEST_CASE("CreateRole and ModifyRole: the set fields only, on the wire") {
  Fixture f;
  f.backend.CreateRole(3003, RoleChanges{}, f.KeepRole());
  RoleChanges changes;
  changes.name = "Racers";
  changes.permissions = (uint64_t{1} << 10) | (uint64_t{1} << 11);
  changes.colors = RoleColors{0xFFFFFF, 0x00FF00, std::nullopt};
  changes.hoist = true;
  changes.mentionable = false;
  changes.unicodeEmoji = "";                           // removes it
  changes.iconDataUri = "data:image/png;base64,iVBO";  // starts as the platform wants
  f.backend.ModifyRole(3003, 5005, changes, f.KeepRole());
  RoleChanges primaryOnly;
  primaryOnly.colors = RoleColors{0x3498DB, std::nullopt, std::nullopt};
  primaryOnly.iconDataUri = "";
  f.backend.CreateRole(3003, primaryOnly, f.KeepRole());
  REQUIRE(f.standIn.requests.size() == 3);
  CHECK(f.standIn.requests[0].method == "POST");
  CHECK(f.standIn.requests[0].url == kBase);
  CHECK(HeaderOf(f.standIn.requests[0], "Authorization") == "Bot bot-secret");
  CHECK(f.standIn.requests[0].contentType == "application/json");
  CHECK(f.standIn.requests[0].body == "{}");
  CHECK(f.standIn.requests[1].method == "PATCH");
  CHECK(f.standIn.requests[1].url == kBase + "/5005");
  CHECK(HeaderOf(f.standIn.requests[1], "Authorization") == "Bot bot-secret");
  CHECK(f.standIn.requests[1].body ==
        R"({"name":"Racers","permissions":"3072","colors":{"primary_color":16777215,"secondary_color":65280,)"
        R"("tertiary_color":null},"hoist":true,"mentionable":false,"unicode_emoji":null,)"
        R"("icon":"data:image/png;base64,iVBO"})");
  CHECK(f.standIn.requests[2].body ==
        R"({"colors":{"primary_color":3447003,"secondary_color":null,"tertiary_color":null},"icon":null})");
  f.standIn.Answer(0, 200, R"({"id":"5006","name":"new role","permissions":"0","position":1})");
  f.standIn.Answer(1, 200, kDocsRole);
  f.standIn.Answer(2, 200, kDocsRole);
  f.backend.RunCallbacks();
  REQUIRE(f.roles.size() == 3);
  CHECK(f.roles[0].id == 5006);
  CHECK(f.roles[0].name == "new role");
  CHECK(f.roles[1].name == "WE DEM BOYZZ!!!!!!");
}

TEST_CASE("RoleChanges: each rule crossed by one, nothing sent when broken") {
  Fixture f;
  RoleChanges name;
  name.name = std::string(100, 'r');
  CHECK(f.Sent(name));
  name.name = std::string(101, 'r');
  CHECK_FALSE(f.Sent(name));
  CHECK(f.BrokenPaths() == Paths{"name"});
  name.name = "";
  CHECK_FALSE(f.Sent(name));
  CHECK(f.BrokenPaths() == Paths{"name"});
  std::string wide;
  for (int i = 0; i < 100; ++i)
    wide += "\xC3\xA9";  // é: 100 characters, 200 bytes
  name.name = wide;
  CHECK(f.Sent(name));
  RoleChanges color;
  color.colors = RoleColors{0xFFFFFF, std::nullopt, std::nullopt};
  CHECK(f.Sent(color));
  color.colors = RoleColors{0x1000000, std::nullopt, std::nullopt};
  CHECK_FALSE(f.Sent(color));
  CHECK(f.BrokenPaths() == Paths{"colors.primary_color"});
  color.colors = RoleColors{0, 0xFFFFFF, 0xFFFFFF};
  CHECK(f.Sent(color));
  color.colors = RoleColors{0, 0x1000000, 0x1000000};
  CHECK_FALSE(f.Sent(color));
  CHECK(f.BrokenPaths() == Paths{"colors.secondary_color", "colors.tertiary_color"});
  color.colors = RoleColors{0, std::nullopt, 0x00FF00};  // tertiary without secondary
  CHECK_FALSE(f.Sent(color));
  CHECK(f.BrokenPaths() == Paths{"colors.secondary_color"});
  RoleChanges icon;
  icon.iconDataUri = "https://cdn.example/icon.png";
  CHECK_FALSE(f.Sent(icon));
  CHECK(f.BrokenPaths() == Paths{"icon"});
  CHECK(CheckRoleChanges(RoleChanges{}).empty());
  // The create takes the same checks.
  f.results.clear();
  name.name = std::string(101, 'r');
  f.backend.CreateRole(3003, name, f.KeepRole());
  f.backend.RunCallbacks();
  CHECK(f.BrokenPaths() == Paths{"name"});
  CHECK(f.standIn.requests.size() == 4);  // 100 chars, 100 two-byte chars, 0xFFFFFF, the gradient
}

TEST_CASE("ModifyRolePositions: a JSON array of {id, position}; ids and positions checked") {
  Fixture f;
  std::vector<ClientResult> ends;
  std::vector<Role> answered;
  auto keep = [&](const ClientResult& r, std::vector<Role> roles) {
    ends.push_back(r);
    answered = std::move(roles);
  };
  f.backend.ModifyRolePositions(3003, {{5005, 2}, {5006, 1}}, keep);
  REQUIRE(f.standIn.requests.size() == 1);
  CHECK(f.standIn.requests[0].method == "PATCH");
  CHECK(f.standIn.requests[0].url == kBase);
  CHECK(HeaderOf(f.standIn.requests[0], "Authorization") == "Bot bot-secret");
  CHECK(f.standIn.requests[0].body == R"([{"id":"5005","position":2},{"id":"5006","position":1}])");
  f.standIn.Answer(0, 200,
                   R"([{"id":"3003","position":0},{"id":"5006","position":1},{"id":"5005","position":2}])");
  f.backend.RunCallbacks();
  REQUIRE(ends.size() == 1);
  CHECK(ends[0].Successful());
  REQUIRE(answered.size() == 3);
  CHECK(answered[2].id == 5005);
  f.backend.ModifyRolePositions(3003, {{0, 1}, {5005, 0}}, keep);
  f.backend.ModifyRolePositions(3003, {}, keep);
  f.backend.RunCallbacks();
  REQUIRE(ends.size() == 3);
  CHECK(ends[1].Type() == ErrorType::ValidationError);
  std::vector<std::string> paths;
  for (const auto& error : ends[1].FieldErrors())
    paths.push_back(error.path);
  CHECK(paths == Paths{"0.id", "1.position"});
  CHECK(ends[2].Type() == ErrorType::ValidationError);
  CHECK(f.standIn.requests.size() == 1);
}

TEST_CASE("DeleteRole: 204; errors mapped (403 50013, 404 10011); zero ids refused") {
  Fixture f;
  std::vector<ClientResult> ends;
  auto keep = [&](const ClientResult& r) { ends.push_back(r); };
  f.backend.DeleteRole(3003, 5005, keep);
  f.backend.DeleteRole(3003, 5006, keep);
  f.backend.DeleteRole(3003, 5007, keep);
  REQUIRE(f.standIn.requests.size() == 3);
  CHECK(f.standIn.requests[0].method == "DELETE");
  CHECK(f.standIn.requests[0].url == kBase + "/5005");
  CHECK(HeaderOf(f.standIn.requests[0], "Authorization") == "Bot bot-secret");
  f.standIn.Answer(0, 204, "", "");
  f.standIn.Answer(1, 403, R"({"code":50013,"message":"Missing Permissions"})");
  f.standIn.Answer(2, 404, R"({"code":10011,"message":"Unknown Role"})");
  f.backend.DeleteRole(0, 0, keep);
  f.backend.RunCallbacks();
  REQUIRE(ends.size() == 4);
  CHECK(ends[0].Successful());
  CHECK(ends[1].Type() == ErrorType::HTTPError);
  CHECK(ends[1].Status() == 403);
  CHECK(ends[1].ErrorCode() == 50013);
  CHECK(ends[2].Status() == 404);
  CHECK(ends[2].ErrorCode() == 10011);
  CHECK(ends[3].Type() == ErrorType::ValidationError);
  std::vector<std::string> paths;
  for (const auto& error : ends[3].FieldErrors())
    paths.push_back(error.path);
  CHECK(paths == Paths{"guildId", "roleId"});
  CHECK(f.standIn.requests.size() == 3);
  // A refused modify maps the same way into the role's callback.
  RoleChanges changes;
  changes.hoist = true;
  f.backend.ModifyRole(3003, 5005, changes, f.KeepRole());
  f.standIn.Answer(3, 403, R"({"code":50013,"message":"Missing Permissions"})");
  f.backend.RunCallbacks();
  REQUIRE(f.results.size() == 1);
  CHECK(f.results[0].ErrorCode() == 50013);
  CHECK(f.roles[0].id == 0);
}

}  // namespace guild_role_routes_test
