// A socket-free emulator for the fuzz targets that drive the whole service (HTTP, Gateway, voice gateway,
// IPC, state file): a frozen fake clock, a fixed steady clock (heartbeat and resume deadlines never pass on
// their own), a webhook transport that answers every POST with an interaction PONG, and the seeding that lets
// fuzzed input reach deep routes: two users (alice, bob), an application with its bot, access tokens, a guild
// owned by alice with bob and the bot as members, a role, a text channel, a voice channel, a message of the
// bot and a lobby of the bot with alice and bob. A target builds a fresh world for every input so that no
// input depends on what an earlier one left behind (a reproducer replays alone).
#pragma once

#include <rapidjson/document.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/json.hpp"
#include "service/emulator_service.hpp"
#include "webhook/webhook_transport.hpp"

namespace platformpp_fuzz {

using namespace platformpp::emulator;

// 2026-11-18, after the E2EE date: calls need DAVE unless the voice settings say otherwise.
inline constexpr std::int64_t kWorldStart = 1795000000000;

inline std::int64_t fixed_steady_now() {
  return 5000000;
}

// Answers later, as the network does: the target calls deliver() after the request that posted.
class PongTransport final : public WebhookTransport {
 public:
  void post(WebhookPost, std::function<void(WebhookPostResult)> done) override {
    pending_.push_back(std::move(done));
  }
  void deliver() {
    auto pending = std::move(pending_);
    pending_.clear();
    for (auto& done : pending)
      done(WebhookPostResult{200, {}, R"({"type":1})", "application/json"});
  }

 private:
  std::vector<std::function<void(WebhookPostResult)>> pending_;
};

// A set-up step failed: the world is not what the targets assume, every input would be wasted.
[[noreturn]] inline void setup_failed(std::string_view what, std::string_view answer) {
  std::fprintf(stderr, "fuzz world set-up failed: %.*s: %.*s\n", static_cast<int>(what.size()), what.data(),
               static_cast<int>(answer.size()), answer.data());
  __builtin_trap();
}

struct World {
  std::int64_t real_now = kWorldStart;
  FakeClock clock{[this] { return real_now; }, true, kWorldStart};
  EmulatorService service{
      clock, ServiceEndpoints{"wss://127.0.0.1:1234", "https://127.0.0.1:1234/api/v10", "127.0.0.1:1234"},
      RateLimitSettings{1000000000, 1000000, 0}};
  PongTransport transport;
  // The ids and secrets, by the names the route patterns give their parameters ({guild_id}...).
  std::map<std::string, std::string, std::less<>> ids;
  std::string bot_token, alice_token, bob_token, client_secret;

  World() {
    set_steady_time_source(&fixed_steady_now);
    service.set_webhook_transport(&transport);
    service.set_voice_udp_port(50000);
    const auto app = json(call("POST", "/_emulator/apps", R"({"name":"Game"})"));
    ids["app_id"] = ids["application_id"] = ids["client_id"] = member(app, "id");
    ids["bot_id"] = member(app, "bot_user_id");
    bot_token = member(app, "bot_token");
    client_secret = member(app, "client_secret");
    ids["alice_id"] = ids["user_id_1"] =
        member(json(call("POST", "/_emulator/users", R"({"username":"alice"})")), "id");
    ids["user_id"] = ids["bob_id"] = ids["user_id_2"] =
        member(json(call("POST", "/_emulator/users", R"({"username":"bob"})")), "id");
    alice_token = mint_token(ids["alice_id"]);
    bob_token = mint_token(ids["bob_id"]);
    ids["guild_id"] = member(json(call("POST", "/_emulator/guilds",
                                       R"({"name":"Guild","owner_id":")" + ids["alice_id"] + R"("})")),
                             "id");
    const auto guild = "/_emulator/guilds/" + ids["guild_id"];
    ids["role_id"] =
        member(json(call("POST", guild + "/roles", R"({"name":"mods","permissions":"8"})")), "id");
    ids["overwrite_id"] = ids["role_id"];
    for (const auto* user : {"bob_id", "bot_id"})
      call("POST", guild + "/members",
           R"({"user_id":")" + ids[user] + R"(","roles":[")" + ids["role_id"] + "\"]}");
    ids["channel_id"] =
        member(json(call("POST", guild + "/channels", R"({"name":"general","type":0})")), "id");
    ids["voice_channel_id"] =
        member(json(call("POST", guild + "/channels", R"({"name":"Voice","type":2})")), "id");
    ids["message_id"] = member(json(api("POST", "/channels/" + ids["channel_id"] + "/messages",
                                        R"({"content":"GG"})", "Bot " + bot_token)),
                               "id");
    ids["lobby_id"] = member(
        json(api("POST", "/lobbies",
                 R"({"members":[{"id":")" + ids["alice_id"] + R"("},{"id":")" + ids["bob_id"] + R"("}]})",
                 "Bot " + bot_token)),
        "id");
  }
  ~World() { set_steady_time_source(nullptr); }
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  HttpResponse request(std::string method, std::string target, std::string body, HeaderList headers) {
    HttpRequest request;
    request.method = std::move(method);
    request.target = std::move(target);
    request.body = std::move(body);
    request.headers = std::move(headers);
    request.client_address = "127.0.0.1";
    return service.handle(request).response;
  }
  HttpResponse api(std::string method, const std::string& path, std::string body, const std::string& auth) {
    return request(std::move(method), "/api/v10" + path, std::move(body),
                   {{"Authorization", auth}, {"Content-Type", "application/json"}});
  }
  // An admin call that must succeed.
  HttpResponse call(std::string method, const std::string& target, std::string body) {
    auto response =
        request(std::move(method), target, std::move(body), {{"Content-Type", "application/json"}});
    if (response.status >= 300) setup_failed(target, response.body);
    return response;
  }
  static rapidjson::Document json(const HttpResponse& response) {
    rapidjson::Document document;
    if (!parse_json(response.body, document) || !document.IsObject()) setup_failed("not JSON", response.body);
    return document;
  }
  static std::string member(const rapidjson::Document& document, const char* name) {
    const auto found = document.FindMember(name);
    if (found == document.MemberEnd() || !found->value.IsString()) setup_failed(name, "missing");
    return {found->value.GetString(), found->value.GetStringLength()};
  }
  std::string mint_token(const std::string& user_id) {
    return member(json(call("POST", "/_emulator/tokens",
                            R"({"user_id":")" + user_id + R"(","app_id":")" + ids["app_id"] +
                                R"(","scopes":"openid sdk.social_layer identify guilds connections"})")),
                  "access_token");
  }

  // `text` with every "{name}" of a known id replaced by it, and {bot_token}, {alice_token}, {bob_token} and
  // {client_secret} by those: fuzzed paths and bodies name real objects.
  std::string expand(std::string_view text) const {
    std::string out;
    out.reserve(text.size());
    for (std::size_t at = 0; at < text.size();) {
      const auto open = text.find('{', at);
      const auto close = open == std::string_view::npos ? open : text.find('}', open);
      if (close == std::string_view::npos) {
        out.append(text.substr(at));
        break;
      }
      out.append(text.substr(at, open - at));
      const auto name = text.substr(open + 1, close - open - 1);
      if (const auto* value = secret_or_id(name)) {
        out.append(*value);
        at = close + 1;
      } else {
        out.push_back('{');
        at = open + 1;
      }
    }
    return out;
  }

 private:
  [[nodiscard]] const std::string* secret_or_id(std::string_view name) const {
    if (name == "bot_token") return &bot_token;
    if (name == "alice_token") return &alice_token;
    if (name == "bob_token") return &bob_token;
    if (name == "client_secret") return &client_secret;
    const auto found = ids.find(name);
    return found == ids.end() ? nullptr : &found->second;
  }
};

// A response's invariants, whatever the request: a status the emulator documents (2xx to 4xx; 503 only for
// the routes that need the network side), JSON where it says JSON, no body on 204.
inline bool response_is_sound(const HttpResponse& response, bool fault_planned) {
  if (response.deferred) return true;
  if (response.status < 200 || response.status > 599) return false;
  if (response.status >= 500 && !fault_planned && response.status != 503) return false;
  if (response.status == 204 && !response.body.empty()) return false;
  const auto type = response.header("Content-Type");
  if (type && type->starts_with("application/json") && !response.body.empty()) {
    rapidjson::Document document;
    if (!parse_json(response.body, document)) return false;
  }
  return true;
}

}  // namespace platformpp_fuzz
