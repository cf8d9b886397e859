// A game's bot posting in its community server against the emulator, end to end: BackendClient's
// CreateMessage (a button, then a file uploaded as multipart), GetMessages with a page anchor, GetMessage,
// EditMessage (an attachment's description and spoiler), a reply, ForwardMessage with its snapshot, the
// platform's refusals as ClientResults (ATTACH_FILES missing: 50013; a forward of a message the application
// cannot read: 160014), and DeleteMessage. Each call ends once, inside RunCallbacks.
#include "emulator_fixture.hpp"

#include <platformpp/platformpp.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace channel_messages_test {

namespace {

using namespace platformpp;
using namespace platformpp::backend;
using platformpp::testkit::EmulatorAdmin;

constexpr uint64_t kAttachFiles = uint64_t{1} << 15;

struct Bot {
  EmulatorAdmin::App app;
  std::unique_ptr<BackendClient> backend;

  explicit Bot(const std::string& name) {
    auto& e = itest::Shared();
    app = e.admin->CreateApp(name);
    BackendOptions options;
    options.apiBase = e.process->Connection().apiBase;
    options.caFile = e.process->Connection().caFile;
    options.botToken = app.botToken;
    options.applicationId = app.id;
    backend = std::make_unique<BackendClient>(options);
  }

  // Runs `start(callback)` and pumps until its one result.
  template <typename Value, typename Start>
  std::pair<ClientResult, Value> Wait(Start start) {
    int ends = 0;
    std::pair<ClientResult, Value> out;
    start([&](ClientResult result, Value value) {
      ++ends;
      out = {std::move(result), std::move(value)};
    });
    for (int i = 0; i < 4000 && ends == 0; ++i) {
      backend->RunCallbacks();
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    REQUIRE(ends == 1);
    return out;
  }
  std::pair<ClientResult, ChannelMessage> Post(uint64_t channel, const MessagePayload& message) {
    return Wait<ChannelMessage>([&](auto done) { backend->CreateMessage(channel, message, done); });
  }
};

}  // namespace

TEST_CASE("a bot's messages in a guild channel through BackendClient, against the emulator") {
  auto& e = itest::Shared();
  Bot racing("Racing Club Bot");
  Bot helper("Helper Bot");
  const auto owner = e.admin->CreateUser("club_owner", "Owner");
  const auto guild = e.admin->CreateGuild("Racing Club", owner.id);
  e.admin->AddGuildMember(guild, racing.app.botUserId);
  e.admin->AddGuildMember(guild, helper.app.botUserId);
  EmulatorAdmin::ChannelSpec spec;
  spec.name = "general";
  const auto general = e.admin->CreateChannel(guild, spec);
  spec.name = "archive";
  const auto archive = e.admin->CreateChannel(guild, spec);

  // A message with a button.
  MessagePayload announcement = MessagePayload::Text("Final at 20:00");
  announcement.components = {
      Component::ActionRow({Component::Button(ButtonStyle::Primary, "I'm racing", "final_join")})};
  const auto [posted, message] = racing.Post(general, announcement);
  REQUIRE_MESSAGE(posted.Successful(), posted.Error());
  CHECK(message.channelId == general);
  CHECK(message.content == "Final at 20:00");
  REQUIRE(message.components.size() == 1);

  // A file needs ATTACH_FILES, which the guild's @everyone lacks: 403 50013 as a ClientResult.
  MessagePayload photo = MessagePayload::Text("The grid");
  photo.files.push_back(FileUpload{"grid.png", std::string(2048, 'x'), {}, false, "image/png"});
  const auto [refused, nothing] = racing.Post(general, photo);
  CHECK_FALSE(refused.Successful());
  CHECK(refused.Status() == 403);
  CHECK(refused.ErrorCode() == 50013);
  EmulatorAdmin::ChannelSpec allow;
  allow.permissionOverwrites =
      std::vector<EmulatorAdmin::ChannelOverwrite>{{racing.app.botUserId, 1, kAttachFiles, 0}};
  e.admin->UpdateChannel(guild, general, allow);
  const auto [uploaded, withFile] = racing.Post(general, photo);
  REQUIRE_MESSAGE(uploaded.Successful(), uploaded.Error());
  REQUIRE(withFile.attachments.size() == 1);
  CHECK(withFile.attachments[0].filename == "grid.png");

  // Read back: the newest page, and the page before the photo.
  const auto [listed, page] = racing.Wait<std::vector<ChannelMessage>>(
      [&](auto done) { racing.backend->GetMessages(general, MessageQuery{}, done); });
  REQUIRE_MESSAGE(listed.Successful(), listed.Error());
  REQUIRE(page.size() == 2);
  CHECK(page[0].id == withFile.id);  // newest first
  MessageQuery older;
  older.before = withFile.id;
  const auto [listedBefore, before] = racing.Wait<std::vector<ChannelMessage>>(
      [&](auto done) { racing.backend->GetMessages(general, older, done); });
  REQUIRE(before.size() == 1);
  CHECK(before[0].id == message.id);
  const auto [got, one] =
      racing.Wait<ChannelMessage>([&](auto done) { racing.backend->GetMessage(general, message.id, done); });
  CHECK(one.content == "Final at 20:00");

  // The photo's alt text and spoiler, edited.
  MessagePayload changes;
  changes.content = "The grid, lap 1";
  changes.keptAttachments =
      std::vector<KeptAttachment>{{withFile.attachments[0].id, "Cars on the grid", true}};
  const auto [edited, after] = racing.Wait<ChannelMessage>(
      [&](auto done) { racing.backend->EditMessage(general, withFile.id, changes, done); });
  REQUIRE_MESSAGE(edited.Successful(), edited.Error());
  CHECK(after.content == "The grid, lap 1");
  REQUIRE(after.attachments.size() == 1);
  CHECK(after.attachments[0].description == "Cars on the grid");
  CHECK(after.editedTimestamp.has_value());

  // Another bot replies, and the club bot forwards the announcement to the archive.
  MessagePayload reply = MessagePayload::Text("Count me in");
  reply.messageReference = MessageReference{};
  reply.messageReference->messageId = message.id;
  const auto [replied, answer] = helper.Post(general, reply);
  REQUIRE_MESSAGE(replied.Successful(), replied.Error());
  CHECK(answer.type == 19);
  const auto [forwarded, forward] = racing.Wait<ChannelMessage>(
      [&](auto done) { racing.backend->ForwardMessage(archive, general, message.id, done); });
  REQUIRE_MESSAGE(forwarded.Successful(), forwarded.Error());
  REQUIRE(forward.messageReference.has_value());
  CHECK(forward.messageReference->type == MessageReferenceType::Forward);
  REQUIRE(forward.messageSnapshots.size() == 1);
  CHECK(forward.messageSnapshots[0].content == "Final at 20:00");

  // Without the MESSAGE_CONTENT intent, the club bot cannot forward the helper's reply: 160014.
  e.admin->Request("POST", "/apps/" + std::to_string(racing.app.id) + "/intents",
                   R"({"message_content":false})");
  const auto [unreadable, none] = racing.Wait<ChannelMessage>(
      [&](auto done) { racing.backend->ForwardMessage(archive, general, answer.id, done); });
  CHECK_FALSE(unreadable.Successful());
  CHECK(unreadable.ErrorCode() == 160014);

  const auto [deleted, unused] = racing.Wait<int>([&](auto done) {
    racing.backend->DeleteMessage(general, message.id,
                                  [done](ClientResult result) { done(std::move(result), 0); });
  });
  CHECK_MESSAGE(deleted.Successful(), deleted.Error());
  const auto [gone, missing] =
      racing.Wait<ChannelMessage>([&](auto done) { racing.backend->GetMessage(general, message.id, done); });
  CHECK(gone.Status() == 404);
  CHECK(gone.ErrorCode() == 10008);
}

}  // namespace channel_messages_test
