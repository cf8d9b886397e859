// A game's bot posting in its community server against the emulator, end to end: BackendClient's
// CreateMessage (a button, then a file uploaded as multipart), GetMessages with a page anchor, GetMessage,
// EditMessage (an attachment's description and spoiler), a reply, ForwardMessage with its snapshot, the
// platform's refusals as ClientResults (ATTACH_FILES missing: 50013; a forward of a message the application
// cannot read: 160014), and DeleteMessage. Each call ends once, inside RunCallbacks.
#include "bot_backend.hpp"

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

struct Bot : itest::BotBackend {
  using BotBackend::BotBackend;
  Outcome<ChannelMessage> Post(uint64_t channel, const MessagePayload& message) {
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
  const auto posted = racing.Post(general, announcement);
  REQUIRE_MESSAGE(posted.result.Successful(), posted.result.Error());
  CHECK(posted.value.channelId == general);
  CHECK(posted.value.content == "Final at 20:00");
  REQUIRE(posted.value.components.size() == 1);

  // A file needs ATTACH_FILES, which the guild's @everyone lacks: 403 50013 as a ClientResult.
  MessagePayload photo = MessagePayload::Text("The grid");
  photo.files.push_back(FileUpload{"grid.png", std::string(2048, 'x'), {}, false, "image/png"});
  const auto refused = racing.Post(general, photo);
  CHECK_FALSE(refused.result.Successful());
  CHECK(refused.result.Status() == 403);
  CHECK(refused.result.ErrorCode() == 50013);
  EmulatorAdmin::ChannelSpec allow;
  allow.permissionOverwrites =
      std::vector<EmulatorAdmin::ChannelOverwrite>{{racing.app.botUserId, 1, kAttachFiles, 0}};
  e.admin->UpdateChannel(guild, general, allow);
  const auto uploaded = racing.Post(general, photo);
  REQUIRE_MESSAGE(uploaded.result.Successful(), uploaded.result.Error());
  REQUIRE(uploaded.value.attachments.size() == 1);
  CHECK(uploaded.value.attachments[0].filename == "grid.png");

  // Read back: the newest page, and the page before the photo.
  const auto listed = racing.Wait<std::vector<ChannelMessage>>(
      [&](auto done) { racing.backend->GetMessages(general, MessageQuery{}, done); });
  REQUIRE_MESSAGE(listed.result.Successful(), listed.result.Error());
  REQUIRE(listed.value.size() == 2);
  CHECK(listed.value[0].id == uploaded.value.id);  // newest first
  MessageQuery older;
  older.before = uploaded.value.id;
  const auto listedBefore = racing.Wait<std::vector<ChannelMessage>>(
      [&](auto done) { racing.backend->GetMessages(general, older, done); });
  REQUIRE(listedBefore.value.size() == 1);
  CHECK(listedBefore.value[0].id == posted.value.id);
  const auto got = racing.Wait<ChannelMessage>(
      [&](auto done) { racing.backend->GetMessage(general, posted.value.id, done); });
  CHECK(got.value.content == "Final at 20:00");

  // The photo's alt text and spoiler, edited.
  MessagePayload changes;
  changes.content = "The grid, lap 1";
  changes.keptAttachments =
      std::vector<KeptAttachment>{{uploaded.value.attachments[0].id, "Cars on the grid", true}};
  const auto edited = racing.Wait<ChannelMessage>(
      [&](auto done) { racing.backend->EditMessage(general, uploaded.value.id, changes, done); });
  REQUIRE_MESSAGE(edited.result.Successful(), edited.result.Error());
  CHECK(edited.value.content == "The grid, lap 1");
  REQUIRE(edited.value.attachments.size() == 1);
  CHECK(edited.value.attachments[0].description == "Cars on the grid");
  CHECK(edited.value.editedTimestamp.has_value());

  // Another bot replies, and the club bot forwards the announcement to the archive.
  MessagePayload reply = MessagePayload::Text("Count me in");
  reply.messageReference = MessageReference{};
  reply.messageReference->messageId = posted.value.id;
  const auto replied = helper.Post(general, reply);
  REQUIRE_MESSAGE(replied.result.Successful(), replied.result.Error());
  CHECK(replied.value.type == 19);
  const auto forwarded = racing.Wait<ChannelMessage>(
      [&](auto done) { racing.backend->ForwardMessage(archive, general, posted.value.id, done); });
  REQUIRE_MESSAGE(forwarded.result.Successful(), forwarded.result.Error());
  REQUIRE(forwarded.value.messageReference.has_value());
  CHECK(forwarded.value.messageReference->type == MessageReferenceType::Forward);
  REQUIRE(forwarded.value.messageSnapshots.size() == 1);
  CHECK(forwarded.value.messageSnapshots[0].content == "Final at 20:00");

  // Without the MESSAGE_CONTENT intent, the club bot cannot forward the helper's reply: 160014.
  e.admin->Request("POST", "/apps/" + std::to_string(racing.app.id) + "/intents",
                   R"({"message_content":false})");
  const auto unreadable = racing.Wait<ChannelMessage>(
      [&](auto done) { racing.backend->ForwardMessage(archive, general, replied.value.id, done); });
  CHECK_FALSE(unreadable.result.Successful());
  CHECK(unreadable.result.ErrorCode() == 160014);

  const auto deleted =
      racing.WaitResult([&](auto done) { racing.backend->DeleteMessage(general, posted.value.id, done); });
  CHECK_MESSAGE(deleted.Successful(), deleted.Error());
  const auto gone = racing.Wait<ChannelMessage>(
      [&](auto done) { racing.backend->GetMessage(general, posted.value.id, done); });
  CHECK(gone.result.Status() == 404);
  CHECK(gone.result.ErrorCode() == 10008);
}

}  // namespace channel_messages_test
