// A bot's channel message routes of the emulator fed any bytes: the first input byte picks the route (Create
// Message as JSON or multipart/form-data with a fixed boundary, Edit Message, Get Channel Messages with the
// rest as its query string) and the rest is the body. A socket-free emulator holds a guild with two channels,
// the bot (allowed to attach files) and a message of another bot to reply to and forward ("@c" and "@m" in
// the input stand for their ids). Nothing may crash, throw or answer a status outside 2xx/4xx; a message
// created is deleted again so that memory stays flat.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>

#include "core/json.hpp"
#include "service/emulator_service.hpp"

namespace {

using namespace platformpp::emulator;

struct World {
  std::int64_t real_now = 1795000000000;
  FakeClock clock{[this] { return real_now; }, true, real_now};
  EmulatorService service{
      clock, ServiceEndpoints{"wss://127.0.0.1:1234", "https://127.0.0.1:1234/api/v10", "127.0.0.1:1234"},
      RateLimitSettings{1000000000, 1000000, 0}};
  std::string token, channel, message;

  HttpResponse handle(std::string method, std::string target, std::string body,
                      const std::string& bot_token = {},
                      const std::string& content_type = "application/json") {
    HttpRequest request;
    request.method = std::move(method);
    request.target = std::move(target);
    request.body = std::move(body);
    request.client_address = "127.0.0.1";
    request.headers.emplace_back("Content-Type", content_type);
    if (!bot_token.empty()) request.headers.emplace_back("Authorization", "Bot " + bot_token);
    return service.handle(request).response;
  }
  static std::string member(const HttpResponse& response, const char* name) {
    rapidjson::Document d;
    d.Parse(response.body.data(), response.body.size());
    if (!d.IsObject() || !d.HasMember(name) || !d[name].IsString()) {
      std::fprintf(stderr, "set-up answer without %s: %s\n", name, response.body.c_str());
      __builtin_trap();
    }
    return d[name].GetString();
  }
  World() {
    const auto app = handle("POST", "/_emulator/apps", R"({"name":"Fuzz"})");
    const auto other = handle("POST", "/_emulator/apps", R"({"name":"Other"})");
    token = member(app, "bot_token");
    const auto bot = member(app, "bot_user_id");
    const auto owner = member(handle("POST", "/_emulator/users", R"({"username":"owner"})"), "id");
    const auto guild = member(
        handle("POST", "/_emulator/guilds", R"({"name":"Guild","owner_id":")" + owner + R"("})"), "id");
    // The bot may attach files here: an overwrite of its own.
    channel = member(handle("POST", "/_emulator/guilds/" + guild + "/channels",
                            R"({"name":"general","type":0,"permission_overwrites":[{"id":")" + bot +
                                R"(","type":1,"allow":"32768","deny":"0"}]})"),
                     "id");
    handle("POST", "/_emulator/guilds/" + guild + "/channels", R"({"name":"archive","type":0})");
    for (const auto& user : {bot, member(other, "bot_user_id")})
      handle("POST", "/_emulator/guilds/" + guild + "/members", R"({"user_id":")" + user + R"("})");
    message = member(handle("POST", "/api/v10/channels/" + channel + "/messages", R"({"content":"GG"})",
                            member(other, "bot_token")),
                     "id");
  }
};

World& world() {
  static World w;
  return w;
}

void check_status(const HttpResponse& response) {
  if (response.status < 200 || response.status >= 500) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  auto& w = world();
  std::string rest(reinterpret_cast<const char*>(data + 1), size - 1);
  // "@c" and "@m" stand for the channel's and the other bot's message's ids, so that replies and forwards
  // of real messages are reachable.
  for (const auto& [mark, id] : {std::pair<std::string, std::string>{"@c", w.channel}, {"@m", w.message}}) {
    for (auto at = rest.find(mark); at != std::string::npos; at = rest.find(mark, at + id.size()))
      rest.replace(at, mark.size(), id);
  }
  const auto messages = "/api/v10/channels/" + w.channel + "/messages";
  HttpResponse created;
  switch (data[0] % 4) {
    case 0:
      created = w.handle("POST", messages, rest, w.token);
      break;
    case 1:
      created = w.handle("POST", messages, rest, w.token, "multipart/form-data; boundary=b");
      break;
    case 2: {
      // An edit of a message of the bot's own, made for this input.
      const auto own = w.handle("POST", messages, R"({"content":"x"})", w.token);
      check_status(w.handle("PATCH", messages + "/" + World::member(own, "id"), rest, w.token));
      check_status(w.handle("DELETE", messages + "/" + World::member(own, "id"), {}, w.token));
      return 0;
    }
    default:
      check_status(w.handle("GET", messages + "?" + rest, {}, w.token));
      return 0;
  }
  check_status(created);
  if (created.status == 200) {
    rapidjson::Document d;
    d.Parse(created.body.data(), created.body.size());
    // An enforce_nonce answer is the earlier message; deleting it again is a 404, which is fine.
    if (d.IsObject() && d.HasMember("id") && d["id"].IsString() && d["id"].GetString() != w.message) {
      check_status(w.handle("DELETE", messages + "/" + d["id"].GetString(), {}, w.token));
    }
  }
  return 0;
}
