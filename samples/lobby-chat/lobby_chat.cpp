// platformpp-lobby-chat: a game's match lobby with chat, scripted, on one running platformpp-emulator. The
// game's server (platformpp::backend with the bot token) opens a lobby for a match and puts two players in
// it with their character names; both players' games connect, see each other in the lobby and chat. One
// message first meets a failing connection, then a lost answer: it still arrives exactly once, and the
// sender's next message after it. The server attaches moderation data to a message, which the players
// see; an edit of a DM clears it. Headless; exits non-zero on failure.
//
//   platformpp-emulator --scenario samples/lobby-chat/lobby-chat.scenario.json --connection-file emu.json
//   platformpp-lobby-chat --connection-file emu.json
#include <platformpp/platformpp.hpp>
#include <platformpp/testkit/emulator.hpp>

#include <chrono>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Player {
  std::string name;
  uint64_t id = 0;
  platformpp::Client client;
  std::vector<std::string> chat;  // lobby messages as this player's chat window shows them
};

// The server's and both games' loops in miniature, until `done` or 15 s.
template <class Done>
bool Frames(platformpp::backend::BackendClient& server, Player& a, Player& b, Done done) {
  auto deadline = Clock::now() + std::chrono::seconds(15);
  while (!done()) {
    if (Clock::now() > deadline) return false;
    server.RunCallbacks();
    a.client.RunCallbacks();
    b.client.RunCallbacks();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

bool Check(bool ok, const char* what) {
  std::cout << (ok ? "ok: " : "FAILED: ") << what << "\n";
  return ok;
}

// [guide:show-message]
// Adds the chat line of a new lobby message to the player's window.
void ShowMessage(Player& player, uint64_t messageId) {
  auto message = player.client.GetMessageHandle(messageId);
  if (!message || !message->LobbyId()) return;
  auto author = message->Author();
  std::string who = author ? author->DisplayName() : std::to_string(message->AuthorId());
  if (auto character = message->AdditionalName()) who += " (" + *character + ")";
  player.chat.push_back(who + ": " + message->Content());
  std::cout << "  [" << player.name << "'s chat] " << player.chat.back() << "\n";
}
// [guide-end]

}  // namespace

int main(int argc, char** argv) {
  std::string connectionFile;
  if (argc == 3 && std::strcmp(argv[1], "--connection-file") == 0) connectionFile = argv[2];
  if (connectionFile.empty()) {
    std::cerr << "usage: platformpp-lobby-chat --connection-file PATH\n";
    return 2;
  }

  try {
    auto emulator = platformpp::testkit::ConnectionInfo::Load(connectionFile);
    platformpp::testkit::EmulatorAdmin admin(emulator);
    if (!admin.HasScenarioName("game")) {
      std::cerr << "platformpp-lobby-chat: start the emulator with --scenario "
                   "samples/lobby-chat/lobby-chat.scenario.json\n";
      return 2;
    }
    auto app = admin.ScenarioApp("game");
    auto ada = admin.ScenarioUser("ada");  // friends with Bo (the scenario)
    auto bo = admin.ScenarioUser("bo");
    const std::string scopes = platformpp::Client::GetDefaultCommunicationScopes();
    auto options = emulator.ClientOptionsFor();
    options.ipcEnabled = false;
    Player a{"Ada", ada.id, platformpp::Client(options), {}};
    Player b{"Bo", bo.id, platformpp::Client(options), {}};

    // [guide:backend-client]
    platformpp::backend::BackendOptions serverOptions;
    serverOptions.apiBase = options.apiBase;
    serverOptions.caFile = options.caFile;
    serverOptions.botToken = app.botToken;
    platformpp::backend::BackendClient server(serverOptions);
    // [guide-end]
    bool ok = true;

    // 1. Both players log in (tokens minted by the emulator stand in for Authorize) and connect.
    for (auto* player : {&a, &b}) {
      player->client.SetApplicationId(app.id);
      auto token = admin.MintToken(player->id, app.id, scopes);
      player->client.UpdateToken(platformpp::AuthorizationTokenType::Bearer, token.accessToken, nullptr);
      player->client.Connect();
      // [guide:message-callback]
      player->client.SetMessageCreatedCallback([player](uint64_t id) { ShowMessage(*player, id); });
      // [guide-end]
    }
    ok &= Check(Frames(server, a, b,
                       [&] {
                         return a.client.GetStatus() == platformpp::Client::Status::Ready &&
                                b.client.GetStatus() == platformpp::Client::Status::Ready;
                       }),
                "both players connected (Ready)");

    // 2. The server opens the match lobby with both players and their character names.
    // [guide:server-lobby]
    platformpp::backend::LobbyArgs lobbyArgs;
    lobbyArgs.metadata = platformpp::Metadata{{"map", "harbor"}, {"mode", "duel"}};
    lobbyArgs.members.push_back({a.id, std::nullopt, std::nullopt, std::string("Captain Ada"), false});
    lobbyArgs.members.push_back({b.id, std::nullopt, std::nullopt, std::string("Bosun Bo"), false});
    std::optional<platformpp::backend::Lobby> lobby;
    server.CreateLobby(
        lobbyArgs, [&](const platformpp::ClientResult& result, const platformpp::backend::Lobby& created) {
          if (result.Successful())
            lobby = created;
          else
            std::cerr << "  CreateLobby: " << result.ToString() << "\n";
        });
    // [guide-end]
    ok &= Check(Frames(server, a, b,
                       [&] {
                         return lobby && a.client.GetLobbyHandle(lobby->id) &&
                                b.client.GetLobbyHandle(lobby->id);
                       }),
                "the server opened a lobby and both players see it");
    if (!lobby) return 1;
    auto seen = a.client.GetLobbyHandle(lobby->id);
    ok &= Check(seen && seen->LobbyMembers().size() == 2 && seen->Metadata()["map"] == "harbor",
                "Ada sees both members and the map");

    // 3. They chat. Bo's first line meets a failing connection (the request is lost), then a lost answer (the
    //    platform has it, Bo's game does not know): it is sent again with the same nonce and arrives once,
    //    before his next line.
    std::vector<std::string> lines = {"Ahoy!", "Ready when you are.", "Raise the anchor!"};
    int sent = 0;
    // [guide:send]
    a.client.SendLobbyMessage(lobby->id, lines[0], [&](const platformpp::ClientResult& result, uint64_t) {
      sent += result.Successful();
    });
    // [guide-end]
    ok &= Check(Frames(server, a, b, [&] { return sent == 1 && b.chat.size() == 1; }), "Bo reads Ada's line");
    // [guide:send-through-failures]
    admin.AddFault({.route = "POST /lobbies/*/messages", .drop = true, .count = 1});
    admin.AddFault({.route = "POST /lobbies/*/messages", .dropAfter = true, .count = 1});
    b.client.SendLobbyMessage(lobby->id, lines[1], [&](const platformpp::ClientResult& result, uint64_t) {
      sent += result.Successful();
    });
    b.client.SendLobbyMessage(lobby->id, lines[2], [&](const platformpp::ClientResult& result, uint64_t) {
      sent += result.Successful();
    });
    // [guide-end]
    ok &= Check(Frames(server, a, b, [&] { return sent == 3 && a.chat.size() == 3; }),
                "every line arrived despite the failures");
    ok &= Check(a.chat == b.chat, "both chat windows show the same lines in the same order");
    ok &= Check(a.chat.size() == 3 && a.chat[0].find("(Captain Ada)") != std::string::npos,
                "character names come with the messages");

    // 4. A DM between the two friends; the server flags it for moderation; Ada edits it, which clears that.
    // [guide:dm]
    std::optional<uint64_t> dmId;
    a.client.SendUserMessage(b.id, "gg", [&](const platformpp::ClientResult& result, uint64_t id) {
      if (result.Successful()) dmId = id;
    });
    // [guide-end]
    ok &= Check(Frames(server, a, b, [&] { return dmId && b.client.GetMessageHandle(*dmId); }),
                "Bo got Ada's DM");
    // [guide:message-updated]
    bool flagged = false, cleared = false;
    b.client.SetMessageUpdatedCallback([&](uint64_t id) {
      auto message = b.client.GetMessageHandle(id);
      if (!message) return;
      if (!message->ModerationMetadata().empty())
        flagged = true;
      else if (flagged && message->Content() == "good game!")
        cleared = true;
    });
    // [guide-end]
    if (dmId) {
      server.SetUserMessageModerationMetadata(a.id, b.id, *dmId, {{"verdict", "ok"}}, [](auto) {});
      ok &= Check(Frames(server, a, b, [&] { return flagged; }), "Bo sees the server's moderation data");
      a.client.EditUserMessage(b.id, *dmId, "good game!", [](auto) {});
      ok &= Check(Frames(server, a, b, [&] { return cleared; }), "the edit cleared the moderation data");
    }

    a.client.Disconnect();
    b.client.Disconnect();
    std::cout << (ok ? "platformpp-lobby-chat: all steps passed\n" : "platformpp-lobby-chat: FAILED\n");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "platformpp-lobby-chat: " << e.what() << "\n";
    return 1;
  }
}
