// platformpp-friends: two players of one game, scripted, on one running platformpp-emulator. They connect,
// become friends through a friend request, one shows what she is playing (rich presence with a party and a
// join secret) and invites the other, who sees her in the "playing this game" group of his friends list,
// accepts the invite and gets the join secret a game would use to put him in her match. Headless; exits
// non-zero on failure.
//
//   platformpp-emulator --scenario samples/friends/friends.scenario.json --connection-file emu.json
//   platformpp-friends --connection-file emu.json
#include <platformpp/platformpp.hpp>
#include <platformpp/testkit/emulator.hpp>

#include <chrono>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <utility>

namespace {

using Clock = std::chrono::steady_clock;

struct Player {
  std::string name;
  uint64_t id = 0;
  platformpp::Client client;
};

// Both games' loops in miniature: each frame, each client runs its callbacks, until `done` or 15 s.
template <class Done>
bool Frames(Player& a, Player& b, Done done) {
  auto deadline = Clock::now() + std::chrono::seconds(15);
  while (!done()) {
    if (Clock::now() > deadline) return false;
    a.client.RunCallbacks();
    b.client.RunCallbacks();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

// [guide:friends-list]
const char* GroupName(platformpp::RelationshipGroupType group) {
  switch (group) {
    case platformpp::RelationshipGroupType::OnlinePlayingGame:
      return "Playing this game";
    case platformpp::RelationshipGroupType::OnlineElsewhere:
      return "Online";
    case platformpp::RelationshipGroupType::Offline:
      return "Offline";
  }
  return "?";
}

// The friends list as a game would draw it: the three groups, each sorted as the desktop client sorts.
void PrintFriendsList(Player& player) {
  std::cout << "  " << player.name << "'s friends list:\n";
  for (auto group :
       {platformpp::RelationshipGroupType::OnlinePlayingGame,
        platformpp::RelationshipGroupType::OnlineElsewhere, platformpp::RelationshipGroupType::Offline}) {
    auto friends = player.client.GetRelationshipsByGroup(group);
    std::cout << "    " << GroupName(group) << " (" << friends.size() << ")\n";
    for (const auto& relationship : friends) {
      auto user = relationship.User();
      std::cout << "      " << (user ? user->DisplayName() : std::to_string(relationship.Id()));
      if (user && user->GameActivity() && user->GameActivity()->State()) {
        std::cout << " - " << *user->GameActivity()->State();
      }
      std::cout << "\n";
    }
  }
}
// [guide-end]

bool Check(bool ok, const char* what) {
  std::cout << (ok ? "ok: " : "FAILED: ") << what << "\n";
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  std::string connectionFile;
  if (argc == 3 && std::strcmp(argv[1], "--connection-file") == 0) connectionFile = argv[2];
  if (connectionFile.empty()) {
    std::cerr << "usage: platformpp-friends --connection-file PATH\n";
    return 2;
  }

  try {
    auto emulator = platformpp::testkit::ConnectionInfo::Load(connectionFile);
    platformpp::testkit::EmulatorAdmin admin(emulator);
    if (!admin.HasScenarioName("game")) {
      std::cerr
          << "platformpp-friends: start the emulator with --scenario samples/friends/friends.scenario.json\n";
      return 2;
    }
    auto app = admin.ScenarioApp("game");
    auto ada = admin.ScenarioUser("ada");
    auto bo = admin.ScenarioUser("bo");
    const std::string scopes = platformpp::Client::GetDefaultCommunicationScopes();
    auto options = emulator.ClientOptionsFor();
    options.ipcEnabled = false;  // each player talks to the platform directly
    Player a{"Ada", ada.id, platformpp::Client(options)};
    Player b{"Bo", bo.id, platformpp::Client(options)};
    bool ok = true;

    // 1. Log in (tokens minted by the emulator stand in for each player's Authorize) and connect.
    // [guide:connect]
    for (auto* player : {&a, &b}) {
      player->client.SetApplicationId(app.id);
      auto token = admin.MintToken(player->id, app.id, scopes);
      player->client.UpdateToken(platformpp::AuthorizationTokenType::Bearer, token.accessToken, nullptr);
      player->client.Connect();
    }
    // [guide-end]
    ok &= Check(Frames(a, b,
                       [&] {
                         return a.client.GetStatus() == platformpp::Client::Status::Ready &&
                                b.client.GetStatus() == platformpp::Client::Status::Ready;
                       }),
                "both players connected (Ready)");

    // 2. Ada sends Bo a friend request by username; Bo's game accepts it when it arrives.
    // [guide:friend-request]
    bool friends = false;
    b.client.SetRelationshipCreatedCallback([&](uint64_t userId, bool isDiscord) {
      auto relationship = b.client.GetRelationshipHandle(userId);
      if (relationship.DiscordRelationshipType() == platformpp::RelationshipType::PendingIncoming) {
        std::cout << "  Bo got a friend request from " << userId << (isDiscord ? " (platform)" : " (game)")
                  << "; accepting\n";
        b.client.AcceptDiscordFriendRequest(userId, [](const platformpp::ClientResult&) {});
      } else if (relationship.DiscordRelationshipType() == platformpp::RelationshipType::Friend) {
        friends = true;
      }
    });
    std::optional<platformpp::ClientResult> requested;
    a.client.SendDiscordFriendRequest("bo",
                                      [&](const platformpp::ClientResult& result) { requested = result; });
    // [guide-end]
    // Ada's answer and Bo's event come in either order: wait for both.
    ok &= Check(Frames(a, b, [&] { return friends && requested; }) && requested->Successful(),
                "Ada and Bo are friends");

    // 3. Ada shows what she is doing, with a joinable party, and invites Bo.
    // Bo listens first: an update that came before the callback was set would not be told to it.
    // [guide:presence-arrives]
    bool seen = false;
    b.client.SetUserUpdatedCallback([&](uint64_t userId) {
      auto user = b.client.GetUser(userId);
      seen = seen || (userId == a.id && user && user->GameActivity());
    });
    // [guide-end]
    // [guide:rich-presence]
    platformpp::Activity activity;
    activity.SetType(platformpp::ActivityTypes::Playing);
    activity.SetState("In the arena");
    activity.SetDetails("Round 1 of 5");
    platformpp::ActivityParty party;
    party.SetId("arena-42");
    party.SetCurrentSize(1);
    party.SetMaxSize(4);
    activity.SetParty(party);
    platformpp::ActivitySecrets secrets;
    secrets.SetJoin("join-arena-42");
    activity.SetSecrets(secrets);
    std::optional<platformpp::ClientResult> shown;
    a.client.UpdateRichPresence(activity, [&](const platformpp::ClientResult& result) { shown = result; });
    // [guide-end]
    ok &= Check(Frames(a, b, [&] { return shown && seen; }) && shown->Successful(),
                "Bo sees Ada's rich presence");
    PrintFriendsList(b);
    auto playing = b.client.GetRelationshipsByGroup(platformpp::RelationshipGroupType::OnlinePlayingGame);
    ok &= Check(playing.size() == 1 && playing[0].Id() == a.id, "Ada is in Bo's \"playing this game\" group");

    // [guide:invite]
    std::optional<platformpp::ActivityInvite> invite;
    b.client.SetActivityInviteCreatedCallback(
        [&](const platformpp::ActivityInvite& received) { invite = received; });
    std::optional<platformpp::ClientResult> invited;
    a.client.SendActivityInvite(b.id, "Join me!",
                                [&](const platformpp::ClientResult& result) { invited = result; });
    // [guide-end]
    ok &= Check(Frames(a, b, [&] { return invited && invite; }) && invited->Successful(),
                "Bo received Ada's invite");

    // 4. Bo accepts: the join secret is what his game uses to join Ada's match.
    // [guide:accept-invite]
    std::string joinSecret;
    std::optional<platformpp::ClientResult> accepted;
    if (invite) {
      b.client.AcceptActivityInvite(*invite, [&](const platformpp::ClientResult& result, std::string secret) {
        accepted = result;
        joinSecret = std::move(secret);
      });
    }
    // [guide-end]
    ok &= Check(Frames(a, b, [&] { return accepted.has_value(); }) && accepted->Successful() &&
                    joinSecret == "join-arena-42",
                "Bo accepted and got the join secret");

    a.client.Disconnect();
    b.client.Disconnect();
    std::cout << (ok ? "platformpp-friends: all steps passed\n" : "platformpp-friends: FAILED\n");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "platformpp-friends: " << e.what() << "\n";
    return 1;
  }
}
