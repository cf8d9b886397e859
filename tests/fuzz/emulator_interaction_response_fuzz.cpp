// An application's answer to an interaction, as the emulator takes it, fed any bytes: the first input byte
// picks the route and the body's type (JSON or multipart/form-data with a fixed boundary), the rest is the
// body. Each input is a fresh command interaction of a socket-free emulator (a guild, its channel, the bot, a
// command); its initial response, then a follow-up and an edit of @original, go through the service as the
// network would hand them. Nothing may crash, throw or answer a status outside 2xx/4xx; an accepted response
// is answered once.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "core/json.hpp"
#include "service/emulator_service.hpp"

namespace {

using namespace platformpp::emulator;

// The bot's Gateway connection: keeps the last payload sent (the INTERACTION_CREATE).
struct BotPeer final : GatewayPeer {
  void enable_compression() override {}
  void send(std::string json) override { last = std::move(json); }
  void close(int, std::string) override { closed = true; }
  void drop() override { closed = true; }
  std::string last;
  bool closed = false;
};

struct World {
  BotPeer peer;
  std::int64_t real_now = 1795000000000;
  FakeClock clock{[this] { return real_now; }, true, real_now};
  EmulatorService service{
      clock, ServiceEndpoints{"wss://127.0.0.1:1234", "https://127.0.0.1:1234/api/v10", "127.0.0.1:1234"},
      RateLimitSettings{1000000000, 1000000, 0}};
  std::string app, player, channel;

  HttpResponse handle(std::string method, std::string target, std::string body,
                      const std::string& content_type = {}) {
    HttpRequest request;
    request.method = std::move(method);
    request.target = std::move(target);
    request.body = std::move(body);
    request.client_address = "127.0.0.1";
    request.headers.emplace_back("Content-Type", content_type.empty() ? "application/json" : content_type);
    return service.handle(request).response;
  }
  std::string id_of(const HttpResponse& response, const char* member = "id") {
    rapidjson::Document d;
    d.Parse(response.body.data(), response.body.size());
    if (!d.IsObject() || !d.HasMember(member) || !d[member].IsString()) {
      std::fprintf(stderr, "set-up answer without %s: %s\n", member, response.body.c_str());
      __builtin_trap();
    }
    return d[member].GetString();
  }
  World() {
    const auto created = handle("POST", "/_emulator/apps", R"({"name":"Fuzz"})");
    app = id_of(created);
    const auto bot = id_of(created, "bot_user_id");
    const auto token = id_of(created, "bot_token");
    player = id_of(handle("POST", "/_emulator/users", R"({"username":"player"})"));
    const auto guild =
        id_of(handle("POST", "/_emulator/guilds", R"({"name":"Guild","owner_id":")" + player + R"("})"));
    channel =
        id_of(handle("POST", "/_emulator/guilds/" + guild + "/channels", R"({"name":"general","type":0})"));
    handle("POST", "/_emulator/guilds/" + guild + "/members", R"({"user_id":")" + bot + R"("})");
    HttpRequest request;
    request.method = "POST";
    request.target = "/api/v10/applications/" + app + "/commands";
    request.body = R"({"name":"stats","description":"Stats"})";
    request.client_address = "127.0.0.1";
    request.headers = {{"Content-Type", "application/json"}, {"Authorization", "Bot " + token}};
    if (service.handle(request).response.status >= 300) __builtin_trap();
    const auto connection = service.gateway_opened(peer, "/?v=10&encoding=json");
    service.gateway_received(
        connection, R"({"op":2,"d":{"token":")" + token + R"(","properties":{},"intents":513}})", true);
    if (peer.closed) __builtin_trap();
  }
};

World& world() {
  static World w;
  return w;
}

void check_status(const HttpResponse& response) {
  if (response.deferred) return;
  if (response.status < 200 || response.status >= 500) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  auto& w = world();
  const std::string body(reinterpret_cast<const char*>(data + 1), size - 1);
  const bool multipart = (data[0] & 1) != 0;
  const std::string content_type = multipart ? "multipart/form-data; boundary=b" : "application/json";
  // A fresh interaction, to the bot's session: its id and token come from the INTERACTION_CREATE.
  const auto invoked =
      w.handle("POST", "/_emulator/applications/" + w.app + "/interactions/commands",
               R"({"user_id":")" + w.player + R"(","channel_id":")" + w.channel + R"(","name":"stats"})");
  if (!invoked.deferred) __builtin_trap();
  rapidjson::Document dispatch;
  dispatch.Parse(w.peer.last.data(), w.peer.last.size());
  if (!dispatch.IsObject() || !dispatch.HasMember("d") || !dispatch["d"].IsObject()) __builtin_trap();
  const std::string id = dispatch["d"]["id"].GetString();
  const std::string token = dispatch["d"]["token"].GetString();
  check_status(
      w.handle("POST", "/api/v10/interactions/" + id + "/" + token + "/callback", body, content_type));
  switch ((data[0] >> 1) % 3) {
    case 0:
      check_status(w.handle("POST", "/api/v10/webhooks/" + w.app + "/" + token, body, content_type));
      break;
    case 1:
      check_status(w.handle("PATCH", "/api/v10/webhooks/" + w.app + "/" + token + "/messages/@original", body,
                            content_type));
      break;
    default:
      check_status(w.handle(
          "POST", "/_emulator/applications/" + w.app + "/interactions/" + id + "/modal-submit", body));
      break;
  }
  // This interaction's token ends and it goes, so that memory stays flat over a long run.
  w.clock.advance(std::int64_t{16} * 60 * 1000);
  w.service.gateway_tick();
  return 0;
}
