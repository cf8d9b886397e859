// A game's bot managing its community server's roles against the emulator, end to end: BackendClient's
// CreateRole (the platform's defaults, then a named one), ModifyRole (colors, hoist), GetRoles and GetRole,
// ModifyRolePositions, GetRoleMemberCounts, DeleteRole; the platform's refusal of a bot without
// MANAGE_ROLES (50013) as a ClientResult, and a bad change kept in the process. Each call ends once, inside
// RunCallbacks.
#include "bot_backend.hpp"

#include <platformpp/platformpp.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace guild_roles_test {

namespace {

using namespace platformpp;
using namespace platformpp::backend;
using platformpp::testkit::EmulatorAdmin;

using Bot = itest::BotBackend;

int32_t PositionOf(const std::vector<Role>& roles, uint64_t id) {
  auto it = std::find_if(roles.begin(), roles.end(), [id](const Role& role) { return role.id == id; });
  REQUIRE(it != roles.end());
  return it->position;
}

}  // namespace

TEST_CASE("a bot manages its guild's roles through BackendClient, against the emulator") {
  auto& e = itest::Shared();
  Bot club("Role Club Bot");
  const auto owner = e.admin->CreateUser("role_club_owner", "Owner");
  const auto guild = e.admin->CreateGuild("Role Club", owner.id);
  const auto player = e.admin->CreateUser("role_club_player", "Player");

  // Without MANAGE_ROLES the platform refuses, and the refusal reaches the callback as an HTTPError.
  e.admin->AddGuildMember(guild, club.app.botUserId);
  RoleChanges racersChanges;
  racersChanges.name = "Racers";
  auto refused = club.Wait<Role>([&](auto done) { club.backend->CreateRole(guild, racersChanges, done); });
  CHECK(refused.result.Type() == ErrorType::HTTPError);
  CHECK(refused.result.Status() == 403);
  CHECK(refused.result.ErrorCode() == 50013);
  CHECK(refused.value.id == 0);

  const auto moderator = e.admin->CreateRole(guild, "Moderator", role_permissions::ManageRoles);
  e.admin->AddGuildMember(guild, club.app.botUserId, {moderator});

  // Created with the platform's defaults, just above @everyone.
  auto created = club.Wait<Role>([&](auto done) { club.backend->CreateRole(guild, RoleChanges{}, done); });
  REQUIRE(created.result.Successful());
  const Role fresh = created.value;
  CHECK(fresh.id != 0);
  CHECK(fresh.name == "new role");
  CHECK(fresh.colors.primary == 0);
  CHECK_FALSE(fresh.hoist);
  CHECK_FALSE(fresh.managed);
  CHECK(fresh.position == 1);

  auto racers = club.Wait<Role>([&](auto done) { club.backend->CreateRole(guild, racersChanges, done); });
  REQUIRE(racers.result.Successful());
  const uint64_t racersId = racers.value.id;
  CHECK(racers.value.name == "Racers");

  // Modified: a color (sent as `colors`; `color` mirrors it), hoisted, mentionable.
  RoleChanges look;
  look.colors = RoleColors{0x3498DB, std::nullopt, std::nullopt};
  look.hoist = true;
  look.mentionable = true;
  auto modified = club.Wait<Role>([&](auto done) { club.backend->ModifyRole(guild, racersId, look, done); });
  REQUIRE(modified.result.Successful());
  CHECK(modified.value.colors.primary == 0x3498DB);
  CHECK_FALSE(modified.value.colors.secondary);
  CHECK(modified.value.color == 0x3498DB);
  CHECK(modified.value.hoist);
  CHECK(modified.value.mentionable);
  CHECK(modified.value.name == "Racers");  // unset fields kept
  auto read = club.Wait<Role>([&](auto done) { club.backend->GetRole(guild, racersId, done); });
  REQUIRE(read.result.Successful());
  CHECK(read.value.colors.primary == 0x3498DB);
  CHECK(read.value.hoist);

  // A bad change never leaves the process.
  RoleChanges tooLong;
  tooLong.name = std::string(101, 'x');
  auto invalid =
      club.Wait<Role>([&](auto done) { club.backend->ModifyRole(guild, racersId, tooLong, done); });
  CHECK(invalid.result.Type() == ErrorType::ValidationError);

  // The list, sorted by position: @everyone, then the new roles below Moderator.
  auto listed = club.Wait<std::vector<Role>>([&](auto done) { club.backend->GetRoles(guild, done); });
  REQUIRE(listed.result.Successful());
  REQUIRE(listed.value.size() == 4);
  CHECK(listed.value[0].id == guild);
  CHECK(std::is_sorted(listed.value.begin(), listed.value.end(),
                       [](const Role& a, const Role& b) { return a.position < b.position; }));
  CHECK(PositionOf(listed.value, moderator) > PositionOf(listed.value, racersId));
  // Each new role goes just above @everyone: Racers, created last, is below "new role".
  CHECK(PositionOf(listed.value, fresh.id) > PositionOf(listed.value, racersId));

  // Reordered: Racers above "new role", both still below the bot's Moderator.
  const std::vector<std::pair<uint64_t, int32_t>> moves = {{racersId, 2}, {fresh.id, 1}};
  auto moved =
      club.Wait<std::vector<Role>>([&](auto done) { club.backend->ModifyRolePositions(guild, moves, done); });
  REQUIRE(moved.result.Successful());
  REQUIRE(moved.value.size() == 4);
  CHECK(PositionOf(moved.value, racersId) == 2);
  CHECK(PositionOf(moved.value, fresh.id) == 1);
  CHECK(PositionOf(moved.value, moderator) == 3);
  // Not to the bot's own place or above: the hierarchy.
  const std::vector<std::pair<uint64_t, int32_t>> tooHigh = {{racersId, 3}};
  auto above = club.Wait<std::vector<Role>>(
      [&](auto done) { club.backend->ModifyRolePositions(guild, tooHigh, done); });
  CHECK(above.result.Status() == 403);
  CHECK(above.result.ErrorCode() == 50013);

  // Member counts: the player has Racers, the bot Moderator; @everyone is left out.
  e.admin->AddGuildMember(guild, player.id, {racersId});
  auto counts = club.Wait<std::map<uint64_t, uint64_t>>(
      [&](auto done) { club.backend->GetRoleMemberCounts(guild, done); });
  REQUIRE(counts.result.Successful());
  CHECK(counts.value.count(guild) == 0);
  CHECK(counts.value[racersId] == 1);
  CHECK(counts.value[moderator] == 1);
  CHECK(counts.value[fresh.id] == 0);

  // Deleted: gone from the list; a second delete is Unknown Role.
  CHECK(club.WaitResult([&](auto done) { club.backend->DeleteRole(guild, fresh.id, done); }).Successful());
  auto again = club.WaitResult([&](auto done) { club.backend->DeleteRole(guild, fresh.id, done); });
  CHECK(again.Status() == 404);
  CHECK(again.ErrorCode() == 10011);
  auto after = club.Wait<std::vector<Role>>([&](auto done) { club.backend->GetRoles(guild, done); });
  REQUIRE(after.result.Successful());
  CHECK(after.value.size() == 3);
  // The bot cannot delete its own highest role.
  auto own = club.WaitResult([&](auto done) { club.backend->DeleteRole(guild, moderator, done); });
  CHECK(own.Status() == 403);
  CHECK(own.ErrorCode() == 50013);
}

}  // namespace guild_roles_test
