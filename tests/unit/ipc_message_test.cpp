// The JSON inside IPC frames: replies, events, READY, ERROR and CLOSE, and the commands the SDK builds.
#include "ipc/ipc_message.hpp"

#include "json/json.hpp"

#include <doctest/doctest.h>

#include <string>

namespace ipc_message_test {

using namespace platformpp;
using namespace platformpp::ipc;

TEST_CASE("ipc message: a command reply keeps cmd, nonce and data") {
  std::string error;
  auto message =
      ParseIpcMessage(R"({"cmd":"AUTHORIZE","evt":null,"nonce":"n-1","data":{"code":"abc"}})", &error);
  REQUIRE_MESSAGE(message, error);
  CHECK(message->cmd == "AUTHORIZE");
  CHECK_FALSE(message->evt);
  CHECK(message->nonce == "n-1");
  CHECK(message->dataJson == R"({"code":"abc"})");
  CHECK_FALSE(message->IsDispatch());
  CHECK_FALSE(message->IsError());
}

TEST_CASE("ipc message: events, ERROR replies and missing data") {
  auto event =
      ParseIpcMessage(R"({"cmd":"DISPATCH","evt":"ACTIVITY_JOIN","data":{"secret":"s"},"nonce":null})");
  REQUIRE(event);
  CHECK(event->IsDispatch());
  CHECK(event->evt == "ACTIVITY_JOIN");
  CHECK_FALSE(event->nonce);

  auto failed = ParseIpcMessage(
      R"({"cmd":"AUTHORIZE","evt":"ERROR","nonce":"7","data":{"code":5000,"message":"OAuth2"}})");
  REQUIRE(failed);
  CHECK(failed->IsError());
  auto info = ParseIpcError(failed->dataJson);
  REQUIRE(info);
  CHECK(info->code == 5000);
  CHECK(info->message == "OAuth2");

  auto bare = ParseIpcMessage(R"({"cmd":"SUBSCRIBE","nonce":"3"})");
  REQUIRE(bare);
  CHECK(bare->dataJson.empty());
  auto nullData = ParseIpcMessage(R"({"cmd":"SUBSCRIBE","data":null})");
  REQUIRE(nullData);
  CHECK(nullData->dataJson.empty());
}

TEST_CASE("ipc message: clear errors for bad JSON, non-objects, a missing cmd and wrong types") {
  auto error = [](std::string_view payload) {
    std::string text;
    CHECK_FALSE(ParseIpcMessage(payload, &text));
    return text;
  };
  CHECK(error("{not json").find("not JSON") != std::string::npos);
  CHECK(error("").find("not JSON") != std::string::npos);
  CHECK(error("{} trailing").find("not JSON") != std::string::npos);
  CHECK(error("[1,2]") == "message is not a JSON object");
  CHECK(error("\"DISPATCH\"") == "message is not a JSON object");
  CHECK(error(R"({"evt":"READY"})") == "message has no string \"cmd\"");
  CHECK(error(R"({"cmd":5})") == "message has no string \"cmd\"");
  CHECK(error(R"({"cmd":"X","nonce":12})") == "\"nonce\" is not a string");
  CHECK(error(R"({"cmd":"X","evt":{}})") == "\"evt\" is not a string");
  // Deep nesting is refused rather than re-serialised recursively.
  std::string deep = R"({"cmd":"X","data":)" + std::string(100, '[') + std::string(100, ']') + "}";
  CHECK(error(deep).find("deeper") != std::string::npos);
  CHECK(ParseIpcMessage(R"({"cmd":"X","data":)" + std::string(40, '[') + std::string(40, ']') + "}"));
  // The payload's content is never quoted back (it may hold a code).
  CHECK(error(R"({"cmd":"X","nonce":["secret-code-123"]})").find("secret") == std::string::npos);
}

TEST_CASE("ipc message: READY, CLOSE and ERROR payloads") {
  auto ready = ParseIpcReady(
      R"({"v":1,"config":{"cdn_host":"cdn.example","api_endpoint":"//api","environment":"production"},"user":{"id":"42","username":"p"}})");
  REQUIRE(ready);
  CHECK(ready->version == 1);
  json::Document user;
  REQUIRE(json::Parse(ready->userJson, user));
  CHECK(json::GetString(user, "id") == "42");
  CHECK(ready->configJson.find("cdn.example") != std::string::npos);
  std::string error;
  CHECK_FALSE(ParseIpcReady("", &error));
  CHECK_FALSE(ParseIpcReady("[]", &error));
  CHECK(error == "READY data is not a JSON object");

  auto close = ParseIpcClose(R"({"code":4000,"message":"Invalid Client ID"})");
  REQUIRE(close);
  CHECK(close->code == 4000);
  CHECK(close->message == "Invalid Client ID");
  auto codeOnly = ParseIpcClose(R"({"code":4002})");
  REQUIRE(codeOnly);
  CHECK(codeOnly->message.empty());
  CHECK_FALSE(ParseIpcClose(R"({"message":"no code"})", &error));
  CHECK(error == "CLOSE payload has no integer \"code\"");
  CHECK_FALSE(ParseIpcClose(R"({"code":"4000"})"));
  CHECK_FALSE(ParseIpcClose("garbage", &error));
  CHECK(error.find("CLOSE payload is not JSON") == 0);
  CHECK_FALSE(ParseIpcError(R"({"code":1.5})", &error));
  CHECK(error == "ERROR data has no integer \"code\"");
}

TEST_CASE("ipc message: commands and the handshake are built as well-formed JSON") {
  auto command = BuildIpcCommand("AUTHORIZE", R"({"client_id":"123","scopes":["identify"]})", "abc-1");
  REQUIRE(command);
  CHECK(*command ==
        R"({"cmd":"AUTHORIZE","args":{"client_id":"123","scopes":["identify"]},"nonce":"abc-1"})");

  auto subscribe = BuildIpcCommand("SUBSCRIBE", "", "abc-2", std::string_view("ACTIVITY_JOIN"));
  REQUIRE(subscribe);
  CHECK(*subscribe == R"({"cmd":"SUBSCRIBE","args":{},"evt":"ACTIVITY_JOIN","nonce":"abc-2"})");

  auto escaped = BuildIpcCommand("X\"Y", "{}", "n\n");
  REQUIRE(escaped);
  auto back = ParseIpcMessage(*escaped);
  REQUIRE(back);
  CHECK(back->cmd == "X\"Y");
  CHECK(back->nonce == "n\n");

  std::string error;
  CHECK_FALSE(BuildIpcCommand("X", "{\"a\":", "n", {}, &error));
  CHECK(error.find("args is not JSON") == 0);
  CHECK_FALSE(BuildIpcCommand("X", "[1]", "n", {}, &error));
  CHECK(error == "args is not a JSON object");

  CHECK(BuildIpcHandshake("1234567890") == R"({"v":1,"client_id":"1234567890"})");
  CHECK(BuildIpcHandshake("a\"b") == R"({"v":1,"client_id":"a\"b"})");
}

}  // namespace ipc_message_test
