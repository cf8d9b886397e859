// BackendClient's interaction routes against the HTTP stand-in: the callback and webhook paths, no
// Authorization (the token authenticates), JSON or multipart bodies, the checks that keep a bad response in
// the process, and each call ending exactly once inside RunCallbacks.
#include "backend_stand_in.hpp"

#include <platformpp/backend.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace interaction_routes_test {

using namespace platformpp;
using namespace platformpp::backend;
using platformpp::testing::BackendOnStandIn;
using platformpp::testing::HeaderOf;

namespace {

constexpr const char* kToken = "aW50ZXJhY3Rpb24.dG9rZW4-x_y";

// Interaction routes need no bot token: the interaction's token authenticates.
struct Fixture : BackendOnStandIn {
  explicit Fixture(const std::string& botToken = "", uint64_t applicationId = 2002)
      : BackendOnStandIn(botToken, applicationId) {}
};

const char* const kMessage = R"({"id":"77","channel_id":"4004","content":"done","flags":0,
  "author":{"id":"2002","username":"bot","bot":true},"webhook_id":"2002","application_id":"2002",
  "interaction_metadata":{"id":"1001","type":2,"user":{"id":"5005","username":"player"}}})";

}  // namespace

TEST_CASE(
    "the callback: POST /interactions/{id}/{token}/callback, no Authorization, even without a bot token") {
  Fixture f;
  int ends = 0;
  ClientResult result;
  f.backend.CreateInteractionResponse(1001, kToken, InteractionResponse::Message(MessagePayload::Text("hi")),
                                      [&](ClientResult r) {
                                        ++ends;
                                        result = std::move(r);
                                      });
  REQUIRE(f.standIn.requests.size() == 1);
  const auto& request = f.standIn.requests[0];
  CHECK(request.method == "POST");
  CHECK(request.url == std::string("https://api.test/api/v10/interactions/1001/") + kToken + "/callback");
  CHECK(HeaderOf(request, "Authorization").empty());
  CHECK(request.contentType == "application/json");
  CHECK(request.body == R"({"type":4,"data":{"content":"hi"}})");
  f.backend.RunCallbacks();
  CHECK(ends == 0);  // not answered yet
  f.standIn.Answer(0, 204, "");
  CHECK(ends == 0);  // callbacks run only inside RunCallbacks
  f.backend.RunCallbacks();
  CHECK(ends == 1);
  CHECK(result.Successful());
  f.backend.RunCallbacks();
  CHECK(ends == 1);
}

TEST_CASE("a bad response, id or token never leaves the process") {
  Fixture f;
  std::vector<ClientResult> results;
  const auto keep = [&](ClientResult r) { results.push_back(std::move(r)); };
  f.backend.CreateInteractionResponse(
      1001, kToken, InteractionResponse::Message(MessagePayload::Text(std::string(2001, 'a'))), keep);
  f.backend.CreateInteractionResponse(0, kToken, InteractionResponse::Pong(), keep);
  f.backend.CreateInteractionResponse(1001, "", InteractionResponse::Pong(), keep);
  f.backend.CreateInteractionResponse(1001, "a/b", InteractionResponse::Pong(), keep);
  f.backend.CreateInteractionResponse(1001, "a b", InteractionResponse::Pong(), keep);
  f.backend.RunCallbacks();
  CHECK(f.standIn.requests.empty());
  REQUIRE(results.size() == 5);
  for (const auto& r : results)
    CHECK(r.Type() == ErrorType::ValidationError);
  CHECK(results[0].Error().find("data.content") != std::string::npos);
  CHECK(results[1].Error().find("interactionId") != std::string::npos);
  CHECK(results[3].Error().find("a/b") == std::string::npos);  // the token is never quoted
}

TEST_CASE(
    "@original: get, edit (multipart with files), delete on /webhooks/{app}/{token}/messages/@original") {
  Fixture f("bot-secret");
  std::vector<ChannelMessage> messages;
  std::vector<ClientResult> results;
  const auto keepMessage = [&](ClientResult r, ChannelMessage m) {
    results.push_back(std::move(r));
    messages.push_back(std::move(m));
  };
  const auto keep = [&](ClientResult r) { results.push_back(std::move(r)); };
  const std::string base = std::string("https://api.test/api/v10/webhooks/2002/") + kToken;

  f.backend.GetOriginalResponse(kToken, keepMessage);
  MessagePayload edit;
  edit.content = "done";
  edit.files.push_back(FileUpload{"chart.png", "PNG", "the chart", true, "image/png"});
  f.backend.EditOriginalResponse(kToken, edit, keepMessage);
  f.backend.DeleteOriginalResponse(kToken, keep);
  REQUIRE(f.standIn.requests.size() == 3);
  CHECK(f.standIn.requests[0].method == "GET");
  CHECK(f.standIn.requests[0].url == base + "/messages/@original");
  CHECK(f.standIn.requests[1].method == "PATCH");
  CHECK(f.standIn.requests[1].url == base + "/messages/@original");
  CHECK(f.standIn.requests[1].contentType.rfind("multipart/form-data; boundary=", 0) == 0);
  CHECK(
      f.standIn.requests[1].body.find(
          R"({"content":"done","attachments":[{"id":0,"filename":"SPOILER_chart.png","description":"the chart","is_spoiler":true}]})") !=
      std::string::npos);
  CHECK(f.standIn.requests[2].method == "DELETE");
  for (const auto& request : f.standIn.requests)
    CHECK(HeaderOf(request, "Authorization").empty());  // the bot token is not sent on webhook routes

  f.standIn.Answer(0, 200, kMessage);
  f.standIn.Answer(1, 200, "[]");  // not a message
  f.standIn.Answer(2, 204, "");
  f.backend.RunCallbacks();
  REQUIRE(results.size() == 3);
  CHECK(results[0].Successful());
  CHECK(messages[0].id == 77);
  REQUIRE(messages[0].interactionMetadata);
  CHECK(messages[0].interactionMetadata->user.id == 5005);
  CHECK(results[1].Type() == ErrorType::HTTPError);
  CHECK(results[1].Error().find("malformed response") != std::string::npos);
  CHECK(results[2].Successful());
}

TEST_CASE("follow-ups: create, get, edit, delete; ids and the application checked; errors end once") {
  Fixture f;
  std::vector<ClientResult> results;
  const auto keepMessage = [&](ClientResult r, const ChannelMessage&) { results.push_back(std::move(r)); };
  const auto keep = [&](ClientResult r) { results.push_back(std::move(r)); };
  const std::string base = std::string("https://api.test/api/v10/webhooks/2002/") + kToken;

  MessagePayload followup = MessagePayload::Text("more");
  followup.flags = message_flags::Ephemeral;
  f.backend.CreateFollowup(kToken, followup, keepMessage);
  f.backend.GetFollowup(kToken, 77, keepMessage);
  f.backend.EditFollowup(kToken, 77, MessagePayload::Text("edited"), keepMessage);
  f.backend.DeleteFollowup(kToken, 77, keep);
  REQUIRE(f.standIn.requests.size() == 4);
  CHECK(f.standIn.requests[0].method == "POST");
  CHECK(f.standIn.requests[0].url == base);
  CHECK(f.standIn.requests[0].body == R"({"content":"more","flags":64})");
  CHECK(f.standIn.requests[1].url == base + "/messages/77");
  CHECK(f.standIn.requests[2].method == "PATCH");
  CHECK(f.standIn.requests[3].method == "DELETE");
  f.standIn.Answer(0, 200, kMessage);
  f.standIn.Answer(1, 200, kMessage);
  f.standIn.Answer(2, 404, R"({"code":10008,"message":"Unknown Message"})");
  f.standIn.Answer(3, 204, "");
  f.backend.RunCallbacks();
  REQUIRE(results.size() == 4);
  CHECK(results[0].Successful());
  CHECK(results[1].Successful());
  CHECK(results[2].Type() == ErrorType::HTTPError);
  CHECK(results[2].ErrorCode() == 10008);
  CHECK(results[3].Successful());

  results.clear();
  f.backend.CreateFollowup(kToken, MessagePayload{}, keepMessage);  // empty
  f.backend.GetFollowup(kToken, 0, keepMessage);
  f.backend.EditFollowup("", 77, MessagePayload{}, keepMessage);
  f.backend.RunCallbacks();
  CHECK(f.standIn.requests.size() == 4);
  REQUIRE(results.size() == 3);
  for (const auto& r : results)
    CHECK(r.Type() == ErrorType::ValidationError);

  Fixture noApplication("", 0);
  ClientResult refused;
  noApplication.backend.CreateFollowup(
      kToken, MessagePayload::Text("x"),
      [&](ClientResult r, const ChannelMessage&) { refused = std::move(r); });
  noApplication.backend.RunCallbacks();
  CHECK(noApplication.standIn.requests.empty());
  CHECK(refused.Type() == ErrorType::ValidationError);
}

TEST_CASE("destroying the client ends a pending interaction call once, as ClientDestroyed") {
  int ends = 0;
  ClientResult result;
  {
    Fixture f;
    f.backend.CreateInteractionResponse(1001, kToken, InteractionResponse::Pong(), [&](ClientResult r) {
      ++ends;
      result = std::move(r);
    });
    REQUIRE(f.standIn.requests.size() == 1);
  }
  CHECK(ends == 1);
  CHECK(result.Type() == ErrorType::ClientDestroyed);
}

}  // namespace interaction_routes_test
