// Helpers shared by the emulator's unit tests.
#pragma once

#include <doctest/doctest.h>
#include <rapidjson/document.h>

#include <string>
#include <string_view>

#include "core/http_message.hpp"
#include "core/json.hpp"

namespace platformpp::emulator::test {

inline HttpRequest make_request(std::string method, std::string target, std::string body = {},
                                HeaderList headers = {}) {
  HttpRequest request;
  request.method = std::move(method);
  request.target = std::move(target);
  request.body = std::move(body);
  request.headers = std::move(headers);
  if (!request.body.empty() && !request.header("Content-Type")) {
    request.headers.emplace_back("Content-Type", "application/json");
  }
  request.client_address = "127.0.0.1";
  return request;
}

inline rapidjson::Document parse(std::string_view text) {
  rapidjson::Document document;
  REQUIRE_MESSAGE(parse_json(text, document), "not JSON: " << text);
  return document;
}

inline std::string str(const rapidjson::Value& value) {
  REQUIRE(value.IsString());
  return std::string(value.GetString(), value.GetStringLength());
}

}  // namespace platformpp::emulator::test
