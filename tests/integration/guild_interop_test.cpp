// A guild managed end to end by the platform's most used JS library, unmodified, pinned from npm
// (tests/interop, installed by tools/install-deps), against the emulator: a discord.js bot
// (tests/interop/guild_bot.mjs) with its own managers creates and edits a role, gives it to a member and
// takes it back, creates a text channel with slowmode and an overwrite, sends a message and pins it, lists
// the pins, makes an invite for target users (discord.js uploads the CSV itself), sets the voice channel's
// status through its REST client and reads the audit log its calls left, each with a reason. The test checks
// what the library saw and, through the admin API's state export, what the emulator kept. Its own CTest test
// (interop_guild): Skipped, saying why, where node or the packages are missing; failed under CI=true.
#include "emulator_fixture.hpp"
#include "node_peer.hpp"

#include <chrono>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <utility>

namespace guild_interop_test {

namespace {

using node_peer::NodePeer;
using platformpp::testkit::EmulatorAdmin;
using namespace std::chrono_literals;

constexpr uint64_t kAdministrator = uint64_t{1} << 3;
constexpr uint64_t kSendMessages = uint64_t{1} << 11;

bool WaitFor(const std::function<bool()>& done, std::chrono::milliseconds timeout = 60s) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(10ms);
  }
  return true;
}

// The seeded guild: its owner, the bot with an administrator role, a member, two users the invite targets and
// a voice channel.
struct World {
  uint64_t owner = 0;
  uint64_t guild = 0;
  uint64_t botRole = 0;
  uint64_t member = 0;
  uint64_t target1 = 0;
  uint64_t target2 = 0;
  uint64_t voice = 0;
};

World MakeWorld(EmulatorAdmin& admin, const EmulatorAdmin::App& app) {
  World world;
  world.owner = admin.CreateUser("steward_owner").id;
  world.guild = admin.CreateGuild("Stewards", world.owner);
  world.botRole = admin.CreateRole(world.guild, "Race Bot", kAdministrator);
  admin.AddGuildMember(world.guild, app.botUserId, {world.botRole});
  world.member = admin.CreateUser("djs_driver").id;
  admin.AddGuildMember(world.guild, world.member);
  world.target1 = admin.CreateUser("finalist_one").id;
  world.target2 = admin.CreateUser("finalist_two").id;
  EmulatorAdmin::ChannelSpec voice;
  voice.name = "Race Radio";
  voice.type = 2;
  world.voice = admin.CreateChannel(world.guild, voice);
  return world;
}

// The documents the emulator keeps, from GET /_emulator/state/export: kind -> id -> body.
using Documents = std::map<std::string, std::map<std::string, platformpp::json::Document>>;

Documents ExportedDocuments(EmulatorAdmin& admin) {
  platformpp::json::Document snapshot;
  REQUIRE(platformpp::json::Parse(admin.ExportState(), snapshot));
  Documents documents;
  for (const auto& entry : snapshot["documents"].GetArray()) {
    auto& body = documents[entry["kind"].GetString()][entry["id"].GetString()];
    body.CopyFrom(entry["body"], body.GetAllocator());
  }
  return documents;
}

const rapidjson::Value* FindById(const rapidjson::Value& array, const std::string& id) {
  for (const auto& item : array.GetArray())
    if (item.HasMember("id") && item["id"].IsString() && id == item["id"].GetString()) return &item;
  return nullptr;
}

std::set<std::string> Strings(const rapidjson::Value& array) {
  std::set<std::string> out;
  for (const auto& item : array.GetArray())
    out.insert(item.GetString());
  return out;
}

// Freezes the shared emulator's fake clock for the test, so that only AdvanceClock moves it; it flows again
// when the test ends, pass or fail.
struct FrozenClock {
  explicit FrozenClock(EmulatorAdmin& admin) : admin_(admin) {
    REQUIRE(admin_.Request("POST", "/clock", R"({"frozen":true})").status == 200);
  }
  ~FrozenClock() { admin_.Request("POST", "/clock", R"({"frozen":false})"); }
  FrozenClock(const FrozenClock&) = delete;
  FrozenClock& operator=(const FrozenClock&) = delete;

 private:
  EmulatorAdmin& admin_;
};

}  // namespace

TEST_CASE("Guild interop: a discord.js bot manages a guild on the emulator end to end") {
  node_peer::RequireInterop({"discord.js"});
  MESSAGE("third-party library: discord.js " << node_peer::InstalledVersion("discord.js") << " on Node.js "
                                             << node_peer::NodeVersion());
  auto& e = itest::Shared();
  const auto app = e.admin->CreateApp("discord.js Stewards");
  const auto world = MakeWorld(*e.admin, app);
  const auto& connection = e.process->Connection();
  // The target users' job takes a second of the fake clock: frozen, the job is seen processing until the
  // test moves the clock on.
  FrozenClock frozen(*e.admin);
  const auto targets = std::to_string(world.target1) + "," + std::to_string(world.target2);
  NodePeer bot("guild_bot.mjs",
               {connection.apiBase, app.botToken, std::to_string(world.guild), std::to_string(world.member),
                std::to_string(world.voice), targets},
               {"NODE_EXTRA_CA_CERTS=" + connection.caFile});
  INFO("library: " << bot.Transcript());
  REQUIRE(WaitFor([&] { return bot.Last("invite").has_value() || bot.Last("error").has_value(); }));
  REQUIRE_FALSE(bot.Last("error"));
  CHECK((*bot.Last("invite"))["jobStatus"].GetInt() == 1);  // PROCESSING
  std::this_thread::sleep_for(300ms);                       // the bot asks again meanwhile: still processing
  e.admin->AdvanceClock(1s);                                // the job's second (2 rows; at least a second)
  REQUIRE(WaitFor([&] { return bot.Last("summary").has_value() || bot.Last("error").has_value(); }));
  REQUIRE_FALSE(bot.Last("error"));
  const auto summary = *bot.Last("summary");

  // What discord.js saw.
  const std::string role = summary["role"]["id"].GetString();
  CHECK(std::string(summary["role"]["name"].GetString()) == "Podium");
  CHECK(summary["role"]["color"].GetInt() == 0x2b8a3e);
  CHECK(summary["role"]["hoist"].GetBool());
  CHECK(Strings(summary["memberRolesAfterAdd"]).count(role) == 1);
  CHECK(Strings(summary["memberRolesAfterRemove"]).count(role) == 0);
  const std::string channel = summary["channel"]["id"].GetString();
  CHECK(summary["channel"]["type"].GetInt() == 0);
  CHECK(summary["channel"]["slowmode"].GetInt() == 30);
  CHECK(summary["channel"]["overwrites"].Size() == 2);
  const std::string message = summary["pins"]["message"].GetString();
  CHECK(Strings(summary["pins"]["listed"]) == std::set<std::string>{message});
  CHECK_FALSE(summary["pins"]["hasMore"].GetBool());
  const auto& invite = summary["invite"];
  const std::string code = invite["code"].GetString();
  CHECK(std::string(invite["channel"].GetString()) == channel);
  CHECK(invite["maxAge"].GetInt() == 3600);
  CHECK(invite["maxUses"].GetInt() == 10);
  CHECK(invite["firstJobStatus"].GetInt() == 1);
  CHECK(invite["jobStatus"].GetInt() == 2);  // COMPLETED
  CHECK(invite["jobTotal"].GetInt() == 2);
  CHECK(invite["jobProcessed"].GetInt() == 2);
  CHECK(invite["jobCompleted"].GetBool());
  CHECK(std::string(invite["targetUsersCsv"].GetString()) ==
        "user_id\n" + std::to_string(world.target1) + "\n" + std::to_string(world.target2) + "\n");
  CHECK(summary["voiceStatus"].GetBool());

  // The audit log as discord.js read it: each call's entry with the reason it passed.
  std::multiset<std::pair<int, std::string>> audit;  // (action type, reason), in no order
  const std::string botId = std::to_string(app.botUserId);
  for (const auto& entry : summary["audit"].GetArray()) {
    CHECK(std::string(entry["executor"].GetString()) == botId);
    audit.emplace(entry["action"].GetInt(), entry["reason"].IsString() ? entry["reason"].GetString() : "");
  }
  const std::multiset<std::pair<int, std::string>> expected{
      {30, "season 3 racers"},          // ROLE_CREATE
      {31, "renamed for the final"},    // ROLE_UPDATE
      {25, "qualified for the final"},  // MEMBER_ROLE_UPDATE
      {25, "missed the final"},
      {10, "a channel for the stewards"},  // CHANNEL_CREATE
      {74, "the schedule"},                // MESSAGE_PIN
      {40, "the finalists"},               // INVITE_CREATE
      {192, "race in progress"},           // VOICE_CHANNEL_STATUS_UPDATE
  };
  CHECK(audit == expected);
  CHECK(summary["auditMemberRoleUpdates"].GetInt() == 2);

  // What the emulator kept.
  const auto documents = ExportedDocuments(*e.admin);
  const auto& guild = documents.at("guild").at(std::to_string(world.guild));
  const auto* keptRole = FindById(guild["roles"], role);
  REQUIRE(keptRole != nullptr);
  CHECK(std::string((*keptRole)["name"].GetString()) == "Podium");
  CHECK((*keptRole)["color"].GetInt() == 0x2b8a3e);
  const auto* keptChannel = FindById(guild["channels"], channel);
  REQUIRE(keptChannel != nullptr);
  CHECK((*keptChannel)["rate_limit_per_user"].GetInt() == 30);
  const auto* everyone = FindById((*keptChannel)["permission_overwrites"], std::to_string(world.guild));
  REQUIRE(everyone != nullptr);
  CHECK(std::string((*everyone)["deny"].GetString()) == std::to_string(kSendMessages));  // bits as a string
  const auto* keptVoice = FindById(guild["channels"], std::to_string(world.voice));
  REQUIRE(keptVoice != nullptr);
  CHECK(std::string((*keptVoice)["voice_status"].GetString()) == "Final: lap 3 of 20");
  const auto& member =
      documents.at("guild_member").at(std::to_string(world.guild) + ":" + std::to_string(world.member));
  CHECK((!member.HasMember("roles") || Strings(member["roles"]).count(role) == 0));  // no roles: left out
  CHECK(documents.at("message").at(message).HasMember("pinned_at_ms"));
  const auto& keptInvite = documents.at("guild_invite").at(code);
  CHECK(std::string(keptInvite["channel_id"].GetString()) == channel);
  CHECK(Strings(keptInvite["target_user_ids"]) ==
        std::set<std::string>{std::to_string(world.target1), std::to_string(world.target2)});
  int kept = 0;
  for (const auto& entry :
       documents.at("guild_audit_log").at(std::to_string(world.guild))["entries"].GetArray())
    kept += entry["user_id"].IsString() && botId == entry["user_id"].GetString() ? 1 : 0;
  CHECK(kept == static_cast<int>(expected.size()));
}

}  // namespace guild_interop_test
