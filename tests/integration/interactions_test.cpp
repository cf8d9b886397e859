// A game's backend answering interactions against the emulator, end to end: BackendClient registers the
// commands, InteractionsEndpoint passes the emulator's URL check (a forged signature refused, the signed PING
// answered) and answers a command with a components v2 message, its button with a modal (Labels around a Text
// Input and a File Upload), and the modal's submit; a follow-up carries interaction_metadata; an answer late
// past 2.5 s is deferred by the endpoint and then edits the original response. The admin API plays the user.
#include "emulator_fixture.hpp"

#include <platformpp/platformpp.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace interactions_test {

namespace {

using namespace platformpp;
using namespace platformpp::backend;
using platformpp::testkit::EmulatorAdmin;
using namespace std::chrono_literals;

// A game server: its BackendClient and its interactions endpoint, pumped by a thread of their own (the
// admin calls below block until the application answered).
struct GameServer {
  EmulatorAdmin::App app;
  std::shared_ptr<BackendClient> backend;
  std::unique_ptr<InteractionsEndpoint> endpoint;
  std::unique_ptr<InteractionsGateway> gateway;  // instead of the endpoint: interactions over the Gateway
  std::atomic<bool> stop{false};
  std::thread pump;
  std::mutex mutex;
  std::function<void(const Interaction&, InteractionResponder)> handler;

  explicit GameServer(const std::string& name, bool viaGateway = false) {
    auto& e = itest::Shared();
    app = e.admin->CreateApp(name);
    BackendOptions options;
    options.apiBase = e.process->Connection().apiBase;
    options.caFile = e.process->Connection().caFile;
    options.botToken = app.botToken;
    options.applicationId = app.id;
    backend = std::make_shared<BackendClient>(options);
    auto deliver = [this](const Interaction& interaction, InteractionResponder responder) {
      std::function<void(const Interaction&, InteractionResponder)> current;
      {
        std::lock_guard lock(mutex);
        current = handler;
      }
      if (current) current(interaction, std::move(responder));
    };
    if (viaGateway) {
      InteractionsGatewayOptions gatewayOptions;
      gatewayOptions.backend = backend;
      gateway = std::make_unique<InteractionsGateway>(gatewayOptions);
      gateway->SetInteractionCallback(deliver);
      REQUIRE(gateway->Connect().Successful());
    } else {
      InteractionsEndpointOptions endpointOptions;
      endpointOptions.publicKeyHex = app.verifyKey;
      endpointOptions.path = "/interactions";
      endpointOptions.backend = backend;
      endpoint = std::make_unique<InteractionsEndpoint>(endpointOptions);
      endpoint->SetInteractionCallback(deliver);
      REQUIRE(endpoint->Start().Successful());
    }
    pump = std::thread([this] {
      while (!stop) {
        if (endpoint) endpoint->WaitForCallbacks(5);
        if (gateway) gateway->WaitForCallbacks(5);
        backend->RunCallbacks();
      }
    });
  }
  ~GameServer() {
    stop = true;
    pump.join();
    if (endpoint) endpoint->Stop();
    if (gateway) gateway->Disconnect();
  }
  void Handle(std::function<void(const Interaction&, InteractionResponder)> next) {
    std::lock_guard lock(mutex);
    handler = std::move(next);
  }
  std::string Url() const { return "http://127.0.0.1:" + std::to_string(endpoint->Port()) + "/interactions"; }

  // A BackendClient call from the test's thread, waiting for its end (the pump thread runs the callbacks).
  template <class T, class Start>
  std::pair<ClientResult, T> Call(Start start) {
    auto out = std::make_shared<std::optional<std::pair<ClientResult, T>>>();
    auto done = std::make_shared<std::atomic<bool>>(false);
    start([out, done](ClientResult result, T value) {
      *out = std::make_pair(std::move(result), std::move(value));
      *done = true;
    });
    const auto deadline = std::chrono::steady_clock::now() + 20s;
    while (!*done && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(5ms);
    REQUIRE(*done);
    return std::move(**out);
  }
};

struct World {
  uint64_t player = 0;
  uint64_t guild = 0;
  uint64_t channel = 0;
};

World MakeWorld(GameServer& server, const std::string& player) {
  auto& e = itest::Shared();
  World world;
  world.player = e.admin->CreateUser(player).id;
  world.guild = e.admin->CreateGuild("Racing League", world.player);
  EmulatorAdmin::ChannelSpec general;
  general.name = "general";
  world.channel = e.admin->CreateChannel(world.guild, general);
  e.admin->AddGuildMember(world.guild, server.app.botUserId);
  ApplicationCommand stats;
  stats.name = "stats";
  stats.description = "Your race statistics";
  ApplicationCommandOption season;
  season.type = ApplicationCommandOptionType::Integer;
  season.name = "season";
  season.description = "Which season";
  season.minValue = 1;
  season.maxValue = 9;
  stats.options = {season};
  const auto created = server.Call<ApplicationCommand>(
      [&](auto cb) { server.backend->CreateCommand(world.guild, stats, cb); });
  REQUIRE_MESSAGE(created.first.Successful(), created.first.Error());
  return world;
}

platformpp::json::Document Parse(const std::string& text) {
  platformpp::json::Document document;
  REQUIRE(platformpp::json::Parse(text, document));
  return document;
}

}  // namespace

TEST_CASE("InteractionsEndpoint answers a command, a button and a modal the emulator sends it") {
  auto& e = itest::Shared();
  GameServer server("Endpoint Racing");
  const auto world = MakeWorld(server, "endpoint_player");
  e.admin->SetInteractionsEndpoint(server.app.id, server.Url());

  server.Handle([](const Interaction& interaction, InteractionResponder responder) {
    if (const auto* command = interaction.Command()) {
      const auto* season = command->Find("season");
      MessagePayload stats;
      stats.flags = message_flags::IsComponentsV2;
      stats.components = {Component::Container(
          {Component::TextDisplay("## Season " + std::to_string(season ? *season->integerValue : 1)),
           Component::ActionRow({Component::Button(ButtonStyle::Danger, "Report", "report")})},
          0x2b8a3e)};
      responder.Respond(InteractionResponse::Message(std::move(stats)));
    } else if (const auto* click = interaction.ComponentData(); click && click->customId == "report") {
      responder.Respond(InteractionResponse::Modal(
          "report_modal", "Report a problem",
          {Component::Label("What happened?", Component::TextInput("what", TextInputStyle::Paragraph)),
           Component::Label("Screenshot", Component::FileUpload("shot"))}));
    } else if (const auto* modal = interaction.Modal()) {
      const auto* what = modal->Find("what");
      const auto* shot = modal->Find("shot");
      const bool file = shot != nullptr && shot->attachmentIds.size() == 1 &&
                        modal->resolved.attachments.count(shot->attachmentIds[0]) == 1;
      MessagePayload thanks = MessagePayload::Text("Thanks: " + (what ? what->value.value_or("") : "") +
                                                   (file ? " (with a screenshot)" : ""));
      thanks.flags = message_flags::Ephemeral;
      responder.Respond(InteractionResponse::Message(std::move(thanks)));
    }
  });

  EmulatorAdmin::CommandInvocation invocation;
  invocation.userId = world.player;
  invocation.channelId = world.channel;
  invocation.name = "stats";
  invocation.optionsJson = R"([{"name":"season","value":3}])";
  const auto command = e.admin->InvokeCommand(server.app.id, invocation);
  REQUIRE_MESSAGE(command.responseType == 4, command.error);
  const auto response = Parse(command.responseJson);
  CHECK(response["data"]["flags"].GetInt() == (1 << 15));
  CHECK(std::string(response["data"]["components"][0]["components"][0]["content"].GetString()) ==
        "## Season 3");
  REQUIRE(command.messageId != 0);

  const auto click =
      e.admin->UseComponent(server.app.id, world.player, world.channel, command.messageId, "report");
  REQUIRE_MESSAGE(click.responseType == 9, click.error);

  // A required field left empty never reaches the application: the platform's client would not send it.
  CHECK_THROWS(e.admin->SubmitModal(server.app.id, click.interactionId, R"({"what":""})",
                                    R"({"shot":[{"filename":"crash.png","size":2048}]})"));
  const auto submit =
      e.admin->SubmitModal(server.app.id, click.interactionId, R"({"what":"my car flipped"})",
                           R"({"shot":[{"filename":"crash.png","size":2048,"content_type":"image/png"}]})");
  REQUIRE_MESSAGE(submit.responseType == 4, submit.error);
  const auto thanks = Parse(submit.responseJson);
  CHECK(std::string(thanks["data"]["content"].GetString()) == "Thanks: my car flipped (with a screenshot)");
  CHECK(thanks["data"]["flags"].GetInt() == 64);

  // A follow-up through BackendClient: the message carries interaction_metadata with the user object.
  const auto sent = server.Call<ChannelMessage>([&](auto cb) {
    server.backend->CreateFollowup(submit.token, MessagePayload::Text("A moderator will look."), cb);
  });
  REQUIRE_MESSAGE(sent.first.Successful(), sent.first.Error());
  const ChannelMessage& followUp = sent.second;
  CHECK(followUp.content == "A moderator will look.");
  REQUIRE(followUp.interactionMetadata);
  CHECK(followUp.interactionMetadata->user.id == world.player);
  CHECK(followUp.interactionMetadata->type == 5);
  CHECK(followUp.interactionMetadata->originalResponseMessageId == submit.messageId);
}

TEST_CASE("an answer later than 2.5 s is deferred by the endpoint, then edits the original response") {
  auto& e = itest::Shared();
  GameServer server("Late Racing");
  const auto world = MakeWorld(server, "late_player");
  e.admin->SetInteractionsEndpoint(server.app.id, server.Url());
  std::mutex mutex;
  std::optional<InteractionResponder> held;
  server.Handle([&](const Interaction&, InteractionResponder responder) {
    std::lock_guard lock(mutex);
    held = std::move(responder);  // the game computes the answer first
  });
  EmulatorAdmin::CommandInvocation invocation;
  invocation.userId = world.player;
  invocation.channelId = world.channel;
  invocation.name = "stats";
  const auto started = std::chrono::steady_clock::now();
  const auto deferred = e.admin->InvokeCommand(server.app.id, invocation);
  CHECK(std::chrono::steady_clock::now() - started >= 2400ms);
  REQUIRE_MESSAGE(deferred.responseType == 5, deferred.error);

  auto done = std::make_shared<std::atomic<int>>(0);
  {
    std::lock_guard lock(mutex);
    REQUIRE(held);
    CHECK(held->Deferred());
    held->Respond(InteractionResponse::Message(MessagePayload::Text("Season 1: 4 wins")),
                  [done](const ClientResult& r) { *done = r.Successful() ? 1 : 2; });
  }
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  while (*done == 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(5ms);
  REQUIRE(*done == 1);
  const auto read =
      server.Call<ChannelMessage>([&](auto cb) { server.backend->GetOriginalResponse(deferred.token, cb); });
  REQUIRE_MESSAGE(read.first.Successful(), read.first.Error());
  const ChannelMessage& original = read.second;
  CHECK(original.content == "Season 1: 4 wins");
  CHECK((original.flags & message_flags::Loading) == 0);
}

TEST_CASE("InteractionsGateway answers interactions that come as INTERACTION_CREATE on the bot's session") {
  auto& e = itest::Shared();
  GameServer server("Gateway Racing", true);
  const auto world = MakeWorld(server, "gateway_player");
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  while (server.gateway->Status() != ClientStatus::Ready && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(10ms);
  REQUIRE(server.gateway->Status() == ClientStatus::Ready);
  std::atomic<int> answered{0};
  server.Handle([&](const Interaction& interaction, InteractionResponder responder) {
    const auto* command = interaction.Command();
    MessagePayload reply = MessagePayload::Text("From the Gateway, " + interaction.Invoker()->username);
    responder.Respond(InteractionResponse::Message(std::move(reply)),
                      [&](const ClientResult& result) { answered = result.Successful() ? 1 : 2; });
    CHECK((command != nullptr && command->name == "stats"));
  });
  EmulatorAdmin::CommandInvocation invocation;
  invocation.userId = world.player;
  invocation.channelId = world.channel;
  invocation.name = "stats";
  const auto outcome = e.admin->InvokeCommand(server.app.id, invocation);
  REQUIRE_MESSAGE(outcome.responseType == 4, outcome.error);
  CHECK(std::string(Parse(outcome.responseJson)["data"]["content"].GetString()) ==
        "From the Gateway, gateway_player");
  const auto answeredBy = std::chrono::steady_clock::now() + 10s;
  while (answered == 0 && std::chrono::steady_clock::now() < answeredBy)
    std::this_thread::sleep_for(5ms);
  CHECK(answered == 1);

  // Unanswered for 2.5 s: the session defers by itself through the callback route.
  server.Handle([](const Interaction&, const InteractionResponder&) {});
  const auto deferred = e.admin->InvokeCommand(server.app.id, invocation);
  CHECK_MESSAGE(deferred.responseType == 5, deferred.error);
}

}  // namespace interactions_test
