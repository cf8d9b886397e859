// Permission computation (permissions.hpp): base permissions, the owner and ADMINISTRATOR, and each channel
// overwrite rule, in the platform's order: @everyone, the member's roles combined, the member.
#include <doctest/doctest.h>

#include <string>

#include "guild/permissions.hpp"

namespace permissions_test {

using namespace platformpp::emulator;

namespace {

constexpr std::uint64_t kView = permission::kViewChannel;
constexpr std::uint64_t kSend = std::uint64_t{1} << 11;
constexpr std::uint64_t kManage = std::uint64_t{1} << 13;

// A guild "100" owned by "1", with roles "200" (red) and "300" (blue), members "2" (red), "3" (red and
// blue) and "4" (no roles); @everyone may view and send.
GuildRole role(std::string id, std::string name, std::uint64_t permissions, int position = 0) {
  GuildRole made;
  made.id = std::move(id);
  made.name = std::move(name);
  made.permissions = permissions;
  made.position = position;
  return made;
}

Guild make_guild() {
  Guild guild;
  guild.id = "100";
  guild.name = "Test";
  guild.owner_id = "1";
  guild.roles = {role("100", "@everyone", kView | kSend), role("200", "red", kManage, 1),
                 role("300", "blue", 0, 2)};
  guild.members["1"] = {"1", {}};
  guild.members["2"] = {"2", {"200"}};
  guild.members["3"] = {"3", {"200", "300"}};
  guild.members["4"] = {"4", {}};
  return guild;
}

GuildChannel channel_with(std::vector<PermissionOverwrite> overwrites) {
  GuildChannel channel;
  channel.id = "500";
  channel.guild_id = "100";
  channel.name = "general";
  channel.permission_overwrites = std::move(overwrites);
  return channel;
}

}  // namespace

TEST_CASE("permissions: base permissions are @everyone's plus the member's roles") {
  const auto guild = make_guild();
  CHECK(base_permissions(guild, "4") == (kView | kSend));
  CHECK(base_permissions(guild, "2") == (kView | kSend | kManage));
}

TEST_CASE("permissions: a non-member has none, in the guild and in every channel") {
  const auto guild = make_guild();
  CHECK(base_permissions(guild, "9") == 0);
  const auto channel = channel_with({{"9", overwrite_type::kMember, kView, 0}});
  CHECK(channel_permissions(guild, channel, "9") == 0);
  CHECK_FALSE(can_view_channel(guild, channel, "9"));
}

TEST_CASE("permissions: a member's unknown role adds nothing") {
  auto guild = make_guild();
  guild.members["4"].roles = {"999"};
  CHECK(base_permissions(guild, "4") == (kView | kSend));
}

TEST_CASE("permissions: the owner has every permission, whatever the overwrites") {
  auto guild = make_guild();
  guild.roles[0].permissions = 0;
  CHECK(base_permissions(guild, "1") == permission::kAll);
  const auto channel =
      channel_with({{"100", overwrite_type::kRole, 0, kView}, {"1", overwrite_type::kMember, 0, kView}});
  CHECK(channel_permissions(guild, channel, "1") == permission::kAll);
  CHECK(can_view_channel(guild, channel, "1"));
}

TEST_CASE("permissions: ADMINISTRATOR from a role gives everything and ignores overwrites") {
  auto guild = make_guild();
  guild.roles[2].permissions = permission::kAdministrator;  // blue
  CHECK(base_permissions(guild, "3") == permission::kAll);
  CHECK(base_permissions(guild, "2") == (kView | kSend | kManage));  // red only: not an administrator
  const auto channel =
      channel_with({{"100", overwrite_type::kRole, 0, kView}, {"3", overwrite_type::kMember, 0, kView}});
  CHECK(can_view_channel(guild, channel, "3"));
  CHECK_FALSE(can_view_channel(guild, channel, "2"));
}

TEST_CASE("permissions: ADMINISTRATOR on @everyone makes every member an administrator") {
  auto guild = make_guild();
  guild.roles[0].permissions = permission::kAdministrator;
  CHECK(base_permissions(guild, "4") == permission::kAll);
}

TEST_CASE("permissions: kAll covers bits 0 to 52 and nothing above") {
  CHECK((permission::kAll & (std::uint64_t{1} << 52)) != 0);  // BYPASS_SLOWMODE
  CHECK((permission::kAll & (std::uint64_t{1} << 53)) == 0);
}

TEST_CASE("permissions: no overwrites: the channel has the base permissions") {
  const auto guild = make_guild();
  CHECK(channel_permissions(guild, channel_with({}), "2") == (kView | kSend | kManage));
}

TEST_CASE("permissions: the @everyone overwrite denies and allows for everyone") {
  const auto guild = make_guild();
  const auto hidden = channel_with({{"100", overwrite_type::kRole, 0, kView}});
  CHECK_FALSE(can_view_channel(guild, hidden, "4"));
  CHECK(channel_permissions(guild, hidden, "4") == kSend);
  const auto granted = channel_with({{"100", overwrite_type::kRole, kManage, 0}});
  CHECK(channel_permissions(guild, granted, "4") == (kView | kSend | kManage));
}

TEST_CASE("permissions: a role overwrite beats the @everyone overwrite") {
  const auto guild = make_guild();
  const auto channel =
      channel_with({{"100", overwrite_type::kRole, 0, kView}, {"200", overwrite_type::kRole, kView, 0}});
  CHECK(can_view_channel(guild, channel, "2"));        // red
  CHECK_FALSE(can_view_channel(guild, channel, "4"));  // no role
  // And a role's deny beats @everyone's allow.
  const auto denied =
      channel_with({{"100", overwrite_type::kRole, kView, 0}, {"200", overwrite_type::kRole, 0, kView}});
  CHECK_FALSE(can_view_channel(guild, denied, "2"));
  CHECK(can_view_channel(guild, denied, "4"));
}

TEST_CASE("permissions: role overwrites combine: one role's allow beats another's deny") {
  const auto guild = make_guild();
  // Member 3 has red and blue; whichever order the overwrites come in, the allow wins (applied one by one,
  // a later deny would win instead).
  const auto allow_first =
      channel_with({{"200", overwrite_type::kRole, kView, 0}, {"300", overwrite_type::kRole, 0, kView}});
  CHECK(can_view_channel(guild, allow_first, "3"));
  const auto deny_first =
      channel_with({{"200", overwrite_type::kRole, 0, kView}, {"300", overwrite_type::kRole, kView, 0}});
  CHECK(can_view_channel(guild, deny_first, "3"));
  CHECK_FALSE(can_view_channel(guild, deny_first, "2"));  // red only
  // Permissions neither overwrite names are kept.
  CHECK(channel_permissions(guild, allow_first, "3") == (kView | kSend | kManage));
}

TEST_CASE("permissions: overwrites of roles the member lacks do not apply") {
  const auto guild = make_guild();
  const auto channel = channel_with({{"300", overwrite_type::kRole, 0, kView}});  // blue
  CHECK(can_view_channel(guild, channel, "2"));                                   // red only
  CHECK_FALSE(can_view_channel(guild, channel, "3"));
}

TEST_CASE("permissions: the member overwrite comes last, wherever it is listed") {
  const auto guild = make_guild();
  const auto deny_member = channel_with({{"2", overwrite_type::kMember, 0, kView},
                                         {"100", overwrite_type::kRole, kView, 0},
                                         {"200", overwrite_type::kRole, kView, 0}});
  CHECK_FALSE(can_view_channel(guild, deny_member, "2"));
  CHECK(can_view_channel(guild, deny_member, "3"));  // the member overwrite is member 2's only
  const auto allow_member = channel_with({{"2", overwrite_type::kMember, kView, 0},
                                          {"100", overwrite_type::kRole, 0, kView},
                                          {"200", overwrite_type::kRole, 0, kView}});
  CHECK(can_view_channel(guild, allow_member, "2"));
  CHECK_FALSE(can_view_channel(guild, allow_member, "4"));
}

TEST_CASE("permissions: overwrites match by type as well as id") {
  auto guild = make_guild();
  // A role whose id equals member 4's user id: a role overwrite must not hit the member and vice versa.
  guild.roles.push_back(role("4", "four", 0));
  const auto role_typed = channel_with({{"4", overwrite_type::kRole, 0, kView}});
  CHECK(can_view_channel(guild, role_typed, "4"));
  const auto member_typed_everyone = channel_with({{"100", overwrite_type::kMember, 0, kView}});
  CHECK(can_view_channel(guild, member_typed_everyone, "4"));
}

TEST_CASE("permissions: overwrites are per channel: a hidden category does not hide its channels") {
  auto guild = make_guild();
  GuildChannel category = channel_with({{"100", overwrite_type::kRole, 0, kView}});
  category.id = "600";
  category.type = 4;
  GuildChannel child = channel_with({});
  child.parent_id = "600";
  CHECK_FALSE(can_view_channel(guild, category, "4"));
  CHECK(can_view_channel(guild, child, "4"));
  // And a visible category does not show a hidden channel.
  GuildChannel open_category = channel_with({});
  open_category.type = 4;
  GuildChannel hidden_child = channel_with({{"100", overwrite_type::kRole, 0, kView}});
  hidden_child.parent_id = open_category.id;
  CHECK(can_view_channel(guild, open_category, "4"));
  CHECK_FALSE(can_view_channel(guild, hidden_child, "4"));
}

}  // namespace permissions_test
