// platformpp-backend-bot: a game's backend that gives players a slash command, a button and a form, on one
// running platformpp-emulator. The backend registers /stats for its community server (a deploy script's bulk
// overwrite), serves its interactions endpoint (the platform signs every request; the endpoint checks it),
// and answers:
//   /stats [season]   -> a components v2 card: the player's results in a Container, a Report button;
//   the Report button -> a modal: a Label around a Text Input, and a Label around a File Upload;
//   the modal         -> an ephemeral thank-you; once the report is filed, a follow-up for the moderators.
// The player's clicks are played by the emulator's admin API (what the platform's client would send).
// Headless; exits non-zero on failure.
//
//   platformpp-emulator --scenario samples/backend-bot/backend-bot.scenario.json --connection-file emu.json
//   platformpp-backend-bot --connection-file emu.json
#include <platformpp/platformpp.hpp>
#include <platformpp/testkit/emulator.hpp>

#include <atomic>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace platformpp;
using namespace platformpp::backend;
using Admin = platformpp::testkit::EmulatorAdmin;

bool Check(bool ok, const std::string& what) {
  std::cout << (ok ? "ok: " : "FAILED: ") << what << "\n";
  return ok;
}

// The game's own data: wins per season of each player (its database, in miniature).
struct RaceResults {
  std::map<uint64_t, std::map<int64_t, int>> wins;
  [[nodiscard]] int Wins(uint64_t player, int64_t season) const {
    const auto found = wins.find(player);
    if (found == wins.end()) return 0;
    const auto in_season = found->second.find(season);
    return in_season == found->second.end() ? 0 : in_season->second;
  }
};

// Reports received, filed by the backend after the player was answered (its own work, in miniature).
struct Report {
  std::string interactionToken;  // the follow-up goes through it (15 minutes)
  std::string what;
};
struct ReportInbox {
  std::mutex mutex;
  std::vector<Report> reports;
};

// [guide:backend-bot-commands]
std::vector<ApplicationCommand> Commands() {
  ApplicationCommandOption season;
  season.type = ApplicationCommandOptionType::Integer;
  season.name = "season";
  season.description = "Which season (the current one if left out)";
  season.minValue = 1;
  season.maxValue = 9;
  ApplicationCommand stats;
  stats.name = "stats";
  stats.description = "Your race results";
  stats.options = {season};
  return {stats};
}
// [guide-end]

// [guide:backend-bot-answers]
// The answers, by interaction. Runs inside the endpoint's RunCallbacks or WaitForCallbacks.
void Answer(const RaceResults& results, ReportInbox& inbox, const Interaction& interaction,
            InteractionResponder responder) {
  const User* player = interaction.Invoker();
  if (const auto* command = interaction.Command(); command && command->name == "stats") {
    const auto* option = command->Find("season");
    const int64_t season = option && option->integerValue ? *option->integerValue : 3;
    MessagePayload card;
    card.flags = message_flags::IsComponentsV2;
    card.components = {Component::Container(
        {Component::TextDisplay("## Season " + std::to_string(season) + "\n" +
                                (player ? player->username : "?") + ": " +
                                std::to_string(results.Wins(player ? player->id : 0, season)) + " wins"),
         Component::Separator(),
         Component::ActionRow({Component::Button(ButtonStyle::Danger, "Report a problem", "report")})},
        0x2b8a3e)};
    responder.Respond(InteractionResponse::Message(std::move(card)));
  } else if (const auto* click = interaction.ComponentData(); click && click->customId == "report") {
    responder.Respond(InteractionResponse::Modal(
        "report_form", "Report a problem",
        {Component::Label("What happened?", Component::TextInput("what", TextInputStyle::Paragraph)),
         Component::Label("Screenshot", Component::FileUpload("shot"), "One image of the problem")}));
  } else if (const auto* form = interaction.Modal(); form && form->customId == "report_form") {
    const auto* what = form->Find("what");
    const auto* shot = form->Find("shot");
    std::string file;
    if (shot != nullptr && !shot->attachmentIds.empty()) {
      const auto attachment = form->resolved.attachments.find(shot->attachmentIds.front());
      if (attachment != form->resolved.attachments.end()) file = attachment->second.filename;
    }
    MessagePayload thanks = MessagePayload::Text("Thanks, we got your report" +
                                                 (file.empty() ? std::string() : " and " + file) + ".");
    thanks.flags = message_flags::Ephemeral;
    responder.Respond(InteractionResponse::Message(std::move(thanks)));
    // Filed later: a follow-up needs the platform to have this response first, and an answer in the HTTP
    // reply reaches it after this callback returns.
    std::lock_guard lock(inbox.mutex);
    inbox.reports.push_back({interaction.token, what ? what->value.value_or("") : ""});
  }
}

// The moderators hear of a filed report in the channel, through the interaction's token.
void FileReport(BackendClient& backend, const Report& report, std::atomic<int>& filed) {
  backend.CreateFollowup(report.interactionToken, MessagePayload::Text("New report: " + report.what),
                         [&filed](const ClientResult& result, const ChannelMessage&) {
                           if (!result.Successful()) std::cerr << "follow-up: " << result.Error() << "\n";
                           filed = result.Successful() ? 1 : 2;
                         });
}
// [guide-end]

}  // namespace

// [guide:backend-bot-channel-messages]
// The final's announcement in the club's channel, with a button; then a forward of it to the archive.
void AnnounceFinal(BackendClient& backend, uint64_t channel, uint64_t archive, std::atomic<int>& done) {
  MessagePayload announcement = MessagePayload::Text("The season 3 final starts at 20:00.");
  announcement.components = {
      Component::ActionRow({Component::Button(ButtonStyle::Primary, "I'm racing", "final_join")})};
  announcement.nonce = "final-s3";  // a retry within minutes is not posted twice
  announcement.enforceNonce = true;
  backend.CreateMessage(channel, announcement,
                        [&backend, archive, &done](const ClientResult& result, const ChannelMessage& posted) {
                          if (!result.Successful()) {
                            std::cerr << "announcement: " << result.Error() << "\n";
                            done = 2;
                            return;
                          }
                          // A forward carries a snapshot: later edits of the announcement do not change it.
                          backend.ForwardMessage(
                              archive, posted.channelId, posted.id,
                              [&done](const ClientResult& forwarded, const ChannelMessage&) {
                                done = forwarded.Successful() ? 1 : 2;
                              });
                        });
}
// [guide-end]

int main(int argc, char** argv) {
  std::string connectionFile;
  if (argc == 3 && std::strcmp(argv[1], "--connection-file") == 0) connectionFile = argv[2];
  if (connectionFile.empty()) {
    std::cerr << "usage: platformpp-backend-bot --connection-file PATH\n";
    return 2;
  }
  try {
    auto emulator = platformpp::testkit::ConnectionInfo::Load(connectionFile);
    Admin admin(emulator);
    // The platform's side of the set-up, from the scenario: the application, a community server with its
    // bot, a player.
    if (!admin.HasScenarioName("game")) {
      std::cerr << "platformpp-backend-bot: start the emulator with --scenario "
                   "samples/backend-bot/backend-bot.scenario.json\n";
      return 2;
    }
    const auto app = admin.ScenarioApp("game");
    const auto player = admin.ScenarioUser("player");
    const auto guild = admin.ScenarioId("guild");
    const auto channel = admin.ScenarioId("general");
    const auto archive = admin.ScenarioId("archive");
    RaceResults results;
    ReportInbox inbox;
    results.wins[player.id][3] = 12;
    bool ok = true;

    // [guide:backend-bot-endpoint]
    BackendOptions backendOptions;
    backendOptions.apiBase = emulator.apiBase;
    backendOptions.caFile = emulator.caFile;
    backendOptions.botToken = app.botToken;
    backendOptions.applicationId = app.id;
    auto backend = std::make_shared<BackendClient>(backendOptions);

    InteractionsEndpointOptions endpointOptions;
    endpointOptions.publicKeyHex = app.verifyKey;  // the developer portal's public key
    endpointOptions.path = "/interactions";
    endpointOptions.backend = backend;  // late answers and follow-ups go through it
    InteractionsEndpoint endpoint(endpointOptions);
    endpoint.SetInteractionCallback([&](const Interaction& interaction, InteractionResponder responder) {
      std::cout << "  [backend] interaction " << static_cast<int>(interaction.type) << "\n";
      Answer(results, inbox, interaction, std::move(responder));
    });
    if (!Check(endpoint.Start().Successful(), "the interactions endpoint listens")) return 1;
    // The server's loop: a thread of its own that pumps the endpoint and the BackendClient.
    std::atomic<bool> stop{false};
    std::thread serverLoop([&] {
      while (!stop) {
        endpoint.WaitForCallbacks(5);
        backend->RunCallbacks();
      }
    });
    // [guide-end]

    // The deploy script: the guild's commands, in one bulk overwrite.
    std::atomic<int> deployed{0};
    backend->BulkOverwriteCommands(
        guild, Commands(), [&](const ClientResult& result, const std::vector<ApplicationCommand>& list) {
          deployed = result.Successful() && list.size() == 1 ? 1 : 2;
        });
    for (int i = 0; i < 2000 && deployed == 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ok &= Check(deployed == 1, "/stats is registered in the club's server");

    // The developer portal's "interactions endpoint URL": the platform checks it (a forged request must be
    // refused, the signed PING answered) before sending interactions there instead of the bot's Gateway.
    // It throws when the URL is refused.
    admin.SetInteractionsEndpoint(app.id,
                                  "http://127.0.0.1:" + std::to_string(endpoint.Port()) + "/interactions");
    ok &= Check(true, "the platform verified the interactions endpoint URL");

    // Rosa types /stats season:3 ...
    Admin::CommandInvocation stats;
    stats.userId = player.id;
    stats.channelId = channel;
    stats.name = "stats";
    stats.optionsJson = R"([{"name":"season","value":3}])";
    const auto card = admin.InvokeCommand(app.id, stats);
    ok &= Check(card.responseType == 4 && card.responseJson.find("12 wins") != std::string::npos,
                "/stats answers with a components v2 card: 12 wins");
    // ... clicks Report ...
    const auto form = admin.UseComponent(app.id, player.id, channel, card.messageId, "report");
    ok &= Check(form.responseType == 9, "the Report button opens the form");
    // ... and sends the form with a screenshot.
    const auto sent =
        admin.SubmitModal(app.id, form.interactionId, R"({"what":"I fell through the track"})",
                          R"({"shot":[{"filename":"track.png","size":48213,"content_type":"image/png"}]})");
    ok &= Check(sent.responseType == 4 && sent.responseJson.find("track.png") != std::string::npos &&
                    sent.responseJson.find("\"flags\":64") != std::string::npos,
                "the form is answered, for Rosa's eyes only");
    // The backend files the report: the follow-up goes to the channel through the BackendClient.
    Report report;
    {
      std::lock_guard lock(inbox.mutex);
      if (!inbox.reports.empty()) report = inbox.reports.front();
    }
    std::atomic<int> filed{0};
    if (!report.interactionToken.empty()) FileReport(*backend, report, filed);
    for (int i = 0; i < 2000 && filed == 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const auto view = admin.Request("GET", "/applications/" + std::to_string(app.id) + "/interactions/" +
                                               std::to_string(sent.interactionId));
    const bool followed =
        filed == 1 && view.status == 200 && view.body.find("\"followup_ids\":[\"") != std::string::npos;
    ok &= Check(followed, "the moderators get a follow-up in the channel");

    // The club's channel gets the final's announcement with a button, and the archive a forward of it.
    std::atomic<int> announced{0};
    AnnounceFinal(*backend, channel, archive, announced);
    for (int i = 0; i < 2000 && announced == 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ok &= Check(announced == 1, "the final is announced in #general and forwarded to #archive");

    stop = true;
    serverLoop.join();
    endpoint.Stop();
    std::cout << (ok ? "backend-bot: all steps passed\n" : "backend-bot: FAILED\n");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "backend-bot: " << e.what() << "\n";
    return 1;
  }
}
