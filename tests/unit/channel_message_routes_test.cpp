// BackendClient's channel message routes against the HTTP stand-in: /channels/{channel}/messages with the
// bot's Authorization, JSON or multipart bodies, replies and forwards, the checks that keep a bad message or
// query in the process (each limit crossed by one), error answers mapped into ClientResult, and each call
// ending exactly once inside RunCallbacks.
#include "backend_stand_in.hpp"

#include <platformpp/backend.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace channel_message_routes_test {

using namespace platformpp;
using namespace platformpp::backend;
using platformpp::testing::BackendOnStandIn;
using platformpp::testing::HeaderOf;

namespace {

const std::string kBase = "https://api.test/api/v10/channels/4004/messages";

// What the calls answered: a base before the client, so that it outlives the client's shutdown (which may
// end pending calls).
struct Answers {
  std::vector<ClientResult> results;
  std::vector<ChannelMessage> messages;
};

struct Fixture : Answers, BackendOnStandIn {
  BackendClient::MessageCallback KeepMessage() {
    return [this](ClientResult r, ChannelMessage m) {
      results.push_back(std::move(r));
      messages.push_back(std::move(m));
    };
  }
  BackendClient::ResultCallback Keep() {
    return [this](ClientResult r) { results.push_back(std::move(r)); };
  }
  // Sends `payload` with CreateMessage; true when it was sent (the check let it through).
  bool Sent(const MessagePayload& payload) {
    const std::size_t before = standIn.requests.size();
    results.clear();
    backend.CreateMessage(4004, payload, KeepMessage());
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

const char* const kMessage = R"({"id":"77","channel_id":"4004","content":"hi","type":0,"flags":0,
  "author":{"id":"2002","username":"bot","bot":true},"timestamp":"2025-01-01T00:00:00.000000+00:00"})";

using Paths = std::vector<std::string>;

}  // namespace

TEST_CASE("CreateMessage: POST /channels/{channel}/messages as the bot, JSON, ends once in RunCallbacks") {
  Fixture f;
  int ends = 0;
  ChannelMessage sent;
  MessagePayload message = MessagePayload::Text("race at 8");
  message.components = {Component::ActionRow({Component::Button(ButtonStyle::Primary, "Join", "join")})};
  message.nonce = "race-8";
  message.enforceNonce = true;
  f.backend.CreateMessage(4004, message, [&](const ClientResult& r, ChannelMessage m) {
    ++ends;
    CHECK(r.Successful());
    sent = std::move(m);
  });
  REQUIRE(f.standIn.requests.size() == 1);
  const auto& request = f.standIn.requests[0];
  CHECK(request.method == "POST");
  CHECK(request.url == kBase);
  CHECK(HeaderOf(request, "Authorization") == "Bot bot-secret");
  CHECK(request.contentType == "application/json");
  CHECK(
      request.body ==
      R"({"content":"race at 8","components":[{"type":1,"components":[{"type":2,"custom_id":"join","style":1,)"
      R"("label":"Join"}]}],"nonce":"race-8","enforce_nonce":true})");
  f.standIn.Answer(0, 200, kMessage);
  CHECK(ends == 0);  // callbacks run only inside RunCallbacks
  f.backend.RunCallbacks();
  CHECK(ends == 1);
  CHECK(sent.id == 77);
  CHECK(sent.author.bot);
  f.backend.RunCallbacks();
  CHECK(ends == 1);
}

TEST_CASE("CreateMessage with files: multipart/form-data, payload_json then files[n]") {
  Fixture f;
  MessagePayload message = MessagePayload::Text("the results");
  message.files.push_back(FileUpload{"results.csv", "a,b\n1,2\n", "", false, "text/csv"});
  f.backend.CreateMessage(4004, message, f.KeepMessage());
  REQUIRE(f.standIn.requests.size() == 1);
  const auto& request = f.standIn.requests[0];
  CHECK(request.method == "POST");
  CHECK(HeaderOf(request, "Authorization") == "Bot bot-secret");
  REQUIRE(request.contentType.rfind("multipart/form-data; boundary=", 0) == 0);
  CHECK(request.body.find("name=\"payload_json\"") != std::string::npos);
  CHECK(request.body.find(R"({"content":"the results","attachments":[{"id":0,"filename":"results.csv"}]})") !=
        std::string::npos);
  CHECK(request.body.find("name=\"files[0]\"; filename=\"results.csv\"") != std::string::npos);
  CHECK(request.body.find("a,b\n1,2\n") != std::string::npos);
}

TEST_CASE("CreateMessage: each rule crossed by one, nothing sent when broken") {
  Fixture f;
  CHECK(f.Sent(MessagePayload::Text(std::string(2000, 'a'))));
  CHECK_FALSE(f.Sent(MessagePayload::Text(std::string(2001, 'a'))));
  CHECK(f.BrokenPaths() == Paths{"content"});

  MessagePayload nonce = MessagePayload::Text("x");
  nonce.nonce = std::string(25, 'n');
  CHECK(f.Sent(nonce));
  nonce.nonce = std::string(26, 'n');
  CHECK_FALSE(f.Sent(nonce));
  CHECK(f.BrokenPaths() == Paths{"nonce"});
  MessagePayload enforced = MessagePayload::Text("x");
  enforced.enforceNonce = true;  // nothing to enforce
  CHECK_FALSE(f.Sent(enforced));
  CHECK(f.BrokenPaths() == Paths{"enforce_nonce"});

  MessagePayload ephemeral = MessagePayload::Text("x");
  ephemeral.flags = message_flags::Ephemeral;  // interaction responses only
  CHECK_FALSE(f.Sent(ephemeral));
  CHECK(f.BrokenPaths() == Paths{"flags"});
  MessagePayload settable = MessagePayload::Text("x");
  settable.flags = message_flags::SuppressEmbeds | message_flags::SuppressNotifications;
  CHECK(f.Sent(settable));

  MessagePayload v2 = MessagePayload::Text("legacy text");
  v2.flags = message_flags::IsComponentsV2;
  v2.components = {Component::TextDisplay("the card")};
  CHECK_FALSE(f.Sent(v2));
  CHECK(f.BrokenPaths() == Paths{"content"});
  v2.content.reset();
  CHECK(f.Sent(v2));

  MessagePayload embeds;
  embeds.embeds = std::vector<Embed>(10);
  for (auto& embed : *embeds.embeds)
    embed.title = "t";
  CHECK(f.Sent(embeds));
  embeds.embeds->push_back(Embed{});
  CHECK_FALSE(f.Sent(embeds));
  CHECK(f.BrokenPaths() == Paths{"embeds"});

  MessagePayload badButton;
  badButton.components = {Component::ActionRow({Component::Button(ButtonStyle::Primary, "Join", "")})};
  CHECK_FALSE(f.Sent(badButton));  // CheckComponents: a custom id is required
  CHECK_FALSE(f.Sent(MessagePayload{}));
  CHECK(f.BrokenPaths() == Paths{""});

  MessagePayload noChannel = MessagePayload::Text("x");
  f.results.clear();
  f.backend.CreateMessage(0, noChannel, f.KeepMessage());
  f.backend.RunCallbacks();
  REQUIRE(f.results.size() == 1);
  CHECK(f.results[0].Type() == ErrorType::ValidationError);
  CHECK(f.BrokenPaths() == Paths{"channelId"});
  CHECK(f.standIn.requests.size() == 5);  // 2000, 25, the settable flags, the v2 card, 10 embeds
}

TEST_CASE("replies and forwards: the message_reference on the wire, and the forward's checks") {
  Fixture f;
  MessagePayload reply = MessagePayload::Text("gg");
  reply.messageReference =
      MessageReference{MessageReferenceType::Default, 90, std::nullopt, std::nullopt, false};
  f.backend.CreateMessage(4004, reply, f.KeepMessage());
  f.backend.ForwardMessage(4004, 81, 80, f.KeepMessage());
  REQUIRE(f.standIn.requests.size() == 2);
  CHECK(f.standIn.requests[0].body ==
        R"({"content":"gg","message_reference":{"type":0,"message_id":"90","fail_if_not_exists":false}})");
  CHECK(f.standIn.requests[1].method == "POST");
  CHECK(f.standIn.requests[1].url == kBase);
  CHECK(HeaderOf(f.standIn.requests[1], "Authorization") == "Bot bot-secret");
  CHECK(f.standIn.requests[1].body ==
        R"({"message_reference":{"type":1,"message_id":"80","channel_id":"81"}})");

  f.results.clear();
  f.backend.ForwardMessage(4004, 0, 80, f.KeepMessage());  // no source channel
  f.backend.RunCallbacks();
  CHECK(f.BrokenPaths() == Paths{"message_reference.channel_id"});
  f.results.clear();
  f.backend.ForwardMessage(4004, 81, 0, f.KeepMessage());  // no message
  f.backend.RunCallbacks();
  CHECK(f.BrokenPaths() == Paths{"message_reference.message_id"});
  MessagePayload noChannel = MessagePayload::Forward(81, 80);
  noChannel.messageReference->channelId.reset();
  CHECK_FALSE(f.Sent(noChannel));
  CHECK(f.BrokenPaths() == Paths{"message_reference.channel_id"});
  MessagePayload withText = MessagePayload::Forward(81, 80);
  withText.content = "look";  // a forward shows only the snapshot
  CHECK_FALSE(f.Sent(withText));
  CHECK(f.BrokenPaths() == Paths{"content"});
  MessagePayload replyWithoutMessage = MessagePayload::Text("gg");
  replyWithoutMessage.messageReference = MessageReference{};
  CHECK_FALSE(f.Sent(replyWithoutMessage));
  CHECK(f.BrokenPaths() == Paths{"message_reference.message_id"});
  CHECK(f.standIn.requests.size() == 2);
}

TEST_CASE("GetMessage, EditMessage, DeleteMessage: paths, methods, 204, errors mapped") {
  Fixture f;
  f.backend.GetMessage(4004, 77, f.KeepMessage());
  MessagePayload edit = MessagePayload::Text("race at 9");
  edit.keptAttachments = std::vector<KeptAttachment>{KeptAttachment{55, std::nullopt, std::nullopt}};
  f.backend.EditMessage(4004, 77, edit, f.KeepMessage());
  f.backend.DeleteMessage(4004, 77, f.Keep());
  f.backend.DeleteMessage(4004, 78, f.Keep());
  REQUIRE(f.standIn.requests.size() == 4);
  CHECK(f.standIn.requests[0].method == "GET");
  CHECK(f.standIn.requests[0].url == kBase + "/77");
  CHECK(f.standIn.requests[1].method == "PATCH");
  CHECK(f.standIn.requests[1].url == kBase + "/77");
  CHECK(f.standIn.requests[1].body == R"({"content":"race at 9","attachments":[{"id":"55"}]})");
  CHECK(f.standIn.requests[2].method == "DELETE");
  CHECK(f.standIn.requests[2].url == kBase + "/77");
  for (const auto& request : f.standIn.requests)
    CHECK(HeaderOf(request, "Authorization") == "Bot bot-secret");

  f.standIn.Answer(0, 404, R"({"code":10008,"message":"Unknown Message"})");
  f.standIn.Answer(1, 200, kMessage);
  f.standIn.Answer(2, 204, "");
  f.standIn.Answer(3, 403, R"({"code":50013,"message":"Missing Permissions"})");
  f.backend.RunCallbacks();
  REQUIRE(f.results.size() == 4);
  CHECK(f.results[0].Type() == ErrorType::HTTPError);
  CHECK(f.results[0].Status() == 404);
  CHECK(f.results[0].ErrorCode() == 10008);
  CHECK(f.messages[0].id == 0);  // a default message on failure
  CHECK(f.results[1].Successful());
  CHECK(f.messages[1].id == 77);
  CHECK(f.results[2].Successful());
  CHECK(f.results[3].Type() == ErrorType::HTTPError);
  CHECK(f.results[3].Status() == 403);
  CHECK(f.results[3].ErrorCode() == 50013);

  // Refused before sending: ids of 0, and what only a new message may carry.
  f.results.clear();
  f.backend.GetMessage(4004, 0, f.KeepMessage());
  f.backend.DeleteMessage(0, 77, f.Keep());
  MessagePayload nonce = MessagePayload::Text("x");
  nonce.nonce = "n";
  f.backend.EditMessage(4004, 77, nonce, f.KeepMessage());
  f.backend.EditMessage(4004, 77, MessagePayload::Forward(81, 80), f.KeepMessage());
  f.backend.RunCallbacks();
  CHECK(f.standIn.requests.size() == 4);
  REQUIRE(f.results.size() == 4);
  CHECK(f.results[0].FieldErrors().at(0).path == "messageId");
  CHECK(f.results[1].FieldErrors().at(0).path == "channelId");
  CHECK(f.results[2].FieldErrors().at(0).path == "nonce");
  CHECK(f.results[3].FieldErrors().at(0).path == "message_reference");
}

TEST_CASE("GetMessages: limit 1 to 100 (default 50), at most one of before/after/around, a page read") {
  Fixture f;
  std::vector<ClientResult> results;
  std::vector<std::vector<ChannelMessage>> pages;
  const auto keep = [&](ClientResult r, std::vector<ChannelMessage> page) {
    results.push_back(std::move(r));
    pages.push_back(std::move(page));
  };
  f.backend.GetMessages(4004, MessageQuery{}, keep);
  MessageQuery before;
  before.before = 77;
  before.limit = 100;
  f.backend.GetMessages(4004, before, keep);
  MessageQuery around;
  around.around = 77;
  around.limit = 1;
  f.backend.GetMessages(4004, around, keep);
  REQUIRE(f.standIn.requests.size() == 3);
  CHECK(f.standIn.requests[0].method == "GET");
  CHECK(f.standIn.requests[0].url == kBase + "?limit=50");
  CHECK(HeaderOf(f.standIn.requests[0], "Authorization") == "Bot bot-secret");
  CHECK(f.standIn.requests[1].url == kBase + "?before=77&limit=100");
  CHECK(f.standIn.requests[2].url == kBase + "?around=77&limit=1");
  f.standIn.Answer(0, 200, std::string("[") + kMessage + "," + R"({"id":"76","content":"older"})" + "]");
  f.standIn.Answer(1, 200, "[]");
  f.standIn.Answer(2, 200, R"({"id":"77"})");  // not a list
  f.backend.RunCallbacks();
  REQUIRE(results.size() == 3);
  CHECK(results[0].Successful());
  REQUIRE(pages[0].size() == 2);
  CHECK(pages[0][0].id == 77);
  CHECK(pages[0][1].content == "older");
  CHECK(results[1].Successful());
  CHECK(pages[1].empty());
  CHECK(results[2].Type() == ErrorType::HTTPError);
  CHECK(results[2].Error().find("malformed response") != std::string::npos);

  results.clear();
  MessageQuery tooMany;
  tooMany.limit = 101;
  f.backend.GetMessages(4004, tooMany, keep);
  MessageQuery none;
  none.limit = 0;
  f.backend.GetMessages(4004, none, keep);
  MessageQuery two;
  two.before = 77;
  two.after = 70;
  f.backend.GetMessages(4004, two, keep);
  MessageQuery zeroAnchor;
  zeroAnchor.after = 0;
  f.backend.GetMessages(4004, zeroAnchor, keep);
  f.backend.RunCallbacks();
  CHECK(f.standIn.requests.size() == 3);
  REQUIRE(results.size() == 4);
  for (const auto& r : results)
    CHECK(r.Type() == ErrorType::ValidationError);
  CHECK(results[0].FieldErrors().at(0).path == "limit");
  CHECK(results[1].FieldErrors().at(0).path == "limit");
  CHECK(results[2].Error().find("at most one") != std::string::npos);
  CHECK(results[3].FieldErrors().at(0).path == "after");
}

TEST_CASE("ParseChannelMessage: a forward with its reference and snapshot, a nonce as a number") {
  const auto message = ParseChannelMessage(R"({
    "id": "100", "channel_id": "4004", "type": 0, "content": "", "flags": 16384, "nonce": 123456789,
    "author": {"id": "2002", "username": "bot", "bot": true},
    "message_reference": {"type": 1, "message_id": "80", "channel_id": "81", "guild_id": "82"},
    "message_snapshots": [{"message": {
      "type": 19, "content": "gg everyone", "timestamp": "2025-01-01T00:00:00.000000+00:00",
      "edited_timestamp": "2025-01-01T00:05:00.000000+00:00", "flags": 4,
      "embeds": [{"title": "Results"}], "attachments": [{"id": "9", "filename": "podium.png"}],
      "components": [{"type": 1, "components": [{"type": 2, "style": 5, "label": "Site", "url": "https://x.test"}]}],
      "mentions": [], "sticker_items": [{"id": "5", "name": "cup"}]}}],
    "future_field": {"kept": true}
  })");
  REQUIRE(message);
  CHECK(message->flags == message_flags::HasSnapshot);
  CHECK(message->nonce == std::string("123456789"));
  REQUIRE(message->messageReference);
  CHECK(message->messageReference->type == MessageReferenceType::Forward);
  CHECK(message->messageReference->messageId == 80u);
  CHECK(message->messageReference->channelId == 81u);
  CHECK(message->messageReference->guildId == 82u);
  CHECK(!message->messageReference->failIfNotExists);
  REQUIRE(message->messageSnapshots.size() == 1);
  const MessageSnapshot& snapshot = message->messageSnapshots[0];
  CHECK(snapshot.type == 19);
  CHECK(snapshot.content == "gg everyone");
  CHECK(snapshot.timestamp == "2025-01-01T00:00:00.000000+00:00");
  CHECK(snapshot.editedTimestamp == std::string("2025-01-01T00:05:00.000000+00:00"));
  CHECK(snapshot.flags == message_flags::SuppressEmbeds);
  REQUIRE(snapshot.embeds.size() == 1);
  CHECK(snapshot.embeds[0].title == std::string("Results"));
  REQUIRE(snapshot.attachments.size() == 1);
  CHECK(snapshot.attachments[0].filename == "podium.png");
  REQUIRE(snapshot.components.size() == 1);
  CHECK(snapshot.components[0].components.size() == 1);
  CHECK(snapshot.rawJson.find("sticker_items") != std::string::npos);  // fields not read are kept
  CHECK(message->rawJson.find("future_field") != std::string::npos);

  // Odd shapes: snapshots that are not objects are skipped, wrong types left at their defaults.
  const auto odd = ParseChannelMessage(R"({"id":"1","nonce":{"x":1},"message_reference":[],
    "message_snapshots":[1,{"message":[]},{"message":{"type":"19","content":7,"components":{}}}]})");
  REQUIRE(odd);
  CHECK(!odd->nonce);
  CHECK(!odd->messageReference);
  REQUIRE(odd->messageSnapshots.size() == 1);
  CHECK(odd->messageSnapshots[0].type == 0);
  CHECK(odd->messageSnapshots[0].content.empty());
  CHECK(odd->messageSnapshots[0].components.empty());
  const auto text = ParseChannelMessage(R"({"id":"2","nonce":"abc"})");
  REQUIRE(text);
  CHECK(text->nonce == std::string("abc"));
}

TEST_CASE("destroying the client ends a pending channel message call once, as ClientDestroyed") {
  int ends = 0;
  ClientResult result;
  {
    Fixture f;
    f.backend.CreateMessage(4004, MessagePayload::Text("x"), [&](ClientResult r, const ChannelMessage&) {
      ++ends;
      result = std::move(r);
    });
    REQUIRE(f.standIn.requests.size() == 1);
  }
  CHECK(ends == 1);
  CHECK(result.Type() == ErrorType::ClientDestroyed);
}

}  // namespace channel_message_routes_test
