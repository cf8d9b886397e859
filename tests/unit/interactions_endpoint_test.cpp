// InteractionsEndpoint over real loopback sockets, with requests signed by a libsodium test key and an
// injected clock: PING, refusals, the game's answer in the HTTP reply (given inside RunCallbacks only), the
// endpoint's own deferral at the margin before the 3-second deadline and the late message that edits
// @original through a BackendClient (on the HTTP stand-in), one answer per responder, the 15-minute token,
// files through the callback route with a 202, and the settings' limits.
#include "core/asio_prelude.hpp"

#include "api_stand_in.hpp"
#include "backend/backend_access.hpp"
#include "webhook_signer.hpp"

#include <platformpp/backend.hpp>
#include <platformpp/interactions_endpoint.hpp>

#include <doctest/doctest.h>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace interactions_endpoint_test {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using namespace platformpp;
using namespace platformpp::backend;
using platformpp::testing::ApiStandIn;
using webhook_test::Signer;

namespace {

using Clock = std::chrono::system_clock;

// A fixed point in time the endpoint's clock starts at (tests move it).
const Clock::time_point kStart = Clock::time_point(std::chrono::seconds(1'800'000'000));

std::string Seconds(Clock::time_point at) {
  return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(at.time_since_epoch()).count());
}

std::string Interaction(int type, const std::string& extra = "") {
  std::string data;
  if (type == 2)
    data = R"(,"data":{"id":"8","name":"stats","type":1})";
  else if (type == 3)
    data =
        R"(,"data":{"custom_id":"go","component_type":2},"message":{"id":"50","channel_id":"60","flags":0})";
  else if (type == 4)
    data =
        R"(,"data":{"id":"8","name":"find","type":1,"options":[{"name":"q","type":3,"value":"a","focused":true}]})";
  else if (type == 5)
    data =
        R"(,"data":{"custom_id":"m","components":[{"type":18,"id":1,"component":{"type":4,"id":2,"custom_id":"n","value":"v"}}]})";
  return R"({"id":"1001","application_id":"2002","type":)" + std::to_string(type) +
         R"(,"token":"aW50ZXJhY3Rpb24.tok","version":1,"app_permissions":"0","locale":"en-US",)"
         R"("user":{"id":"5005","username":"player"})" +
         data + extra + "}";
}

struct Reply {
  int status = 0;
  std::string body;
  std::string contentType;
};

std::string RequestText(const std::string& body, const std::string& timestamp, const std::string& signature,
                        const std::string& path = "/interactions", const std::string& method = "POST") {
  std::string request =
      method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n";
  if (!signature.empty()) request += "X-Signature-Ed25519: " + signature + "\r\n";
  if (!timestamp.empty()) request += "X-Signature-Timestamp: " + timestamp + "\r\n";
  request += "Content-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
  return request;
}

// One request on a connection of its own; blocks until the answer (status 0: none).
Reply Exchange(uint16_t port, const std::string& request) {
  asio::io_context io;
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  asio::write(socket, asio::buffer(request));
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  beast::error_code ec;
  http::read(socket, buffer, response, ec);
  if (ec) return {};
  return Reply{static_cast<int>(response.result_int()), response.body(),
               std::string(response[http::field::content_type])};
}

struct Endpoint {
  Signer platform;
  std::atomic<int64_t> offsetMs{0};  // the endpoint's clock: kStart + offset
  ApiStandIn standIn;
  std::shared_ptr<BackendClient> backend;
  std::unique_ptr<InteractionsEndpoint> endpoint;
  std::vector<InteractionResponder> received;

  explicit Endpoint(InteractionsEndpointOptions options = {}, bool withBackend = true) {
    options.publicKeyHex = platform.PublicHex();
    options.path = "/interactions";
    options.clock = [this] { return kStart + std::chrono::milliseconds(offsetMs.load()); };
    if (withBackend) {
      BackendOptions backendOptions;
      backendOptions.apiBase = "https://api.test/api/v10";
      backendOptions.applicationId = 2002;
      backend = std::make_shared<BackendClient>(backendOptions);
      BackendAccess::SessionOf(*backend)->SetTransportForTesting(standIn.Transport());
      options.backend = backend;
    }
    endpoint = std::make_unique<InteractionsEndpoint>(std::move(options));
    endpoint->SetInteractionCallback(
        [this](const platformpp::backend::Interaction&, InteractionResponder responder) {
          received.push_back(std::move(responder));
        });
    auto started = endpoint->Start();
    REQUIRE_MESSAGE(started.Successful(), started.Error());
  }
  ~Endpoint() {
    endpoint.reset();
    if (backend) standIn.ShutDown(*BackendAccess::SessionOf(*backend));
  }
  Endpoint(const Endpoint&) = delete;
  Endpoint& operator=(const Endpoint&) = delete;

  Clock::time_point Now() const { return kStart + std::chrono::milliseconds(offsetMs.load()); }

  std::string Signed(const std::string& body) const {
    const std::string timestamp = Seconds(Now());
    return RequestText(body, timestamp, platform.Sign(timestamp, body));
  }
  // Sends in the background: the test thread pumps the endpoint meanwhile.
  std::future<Reply> Send(const std::string& request) {
    return std::async(std::launch::async,
                      [port = endpoint->Port(), request] { return Exchange(port, request); });
  }
  // Pumps until an interaction was delivered (or a second passed).
  bool AwaitInteraction(std::size_t count = 1) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (received.size() < count && std::chrono::steady_clock::now() < until)
      endpoint->WaitForCallbacks(10);
    return received.size() >= count;
  }
  // Pumps the endpoint and the backend until `done` holds a value.
  void AwaitEnd(const std::optional<ClientResult>& done) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!done && std::chrono::steady_clock::now() < until) {
      if (backend) backend->RunCallbacks();
      endpoint->WaitForCallbacks(10);
    }
  }
};

}  // namespace

TEST_CASE("PING is answered {\"type\":1}; refusals answer 401, 400, 404 and deliver nothing") {
  Endpoint e;
  const std::string ping = R"({"id":"1","application_id":"2002","type":1,"token":"t","version":1})";
  Reply pong = Exchange(e.endpoint->Port(), e.Signed(ping));
  CHECK(pong.status == 200);
  CHECK(pong.body == R"({"type":1})");
  CHECK(pong.contentType == "application/json");

  const std::string body = Interaction(2);
  const std::string now = Seconds(e.Now());
  CHECK(Exchange(e.endpoint->Port(), RequestText(body, now, e.platform.Sign(now, body + " "))).status == 401);
  CHECK(Exchange(e.endpoint->Port(), RequestText(body, now, "")).status == 401);
  CHECK(Exchange(e.endpoint->Port(), RequestText(body, "", e.platform.Sign(now, body))).status == 401);
  // The replay window (300 s by default), crossed by one second either way.
  const std::string edge = Seconds(e.Now() - std::chrono::seconds(300));
  const std::string stale = Seconds(e.Now() - std::chrono::seconds(301));
  CHECK(Exchange(e.endpoint->Port(), RequestText(ping, edge, e.platform.Sign(edge, ping))).status == 200);
  CHECK(Exchange(e.endpoint->Port(), RequestText(ping, stale, e.platform.Sign(stale, ping))).status == 401);
  CHECK(Exchange(e.endpoint->Port(), e.Signed(R"({"type":2})")).status == 400);
  CHECK(
      Exchange(e.endpoint->Port(), RequestText(ping, now, e.platform.Sign(now, ping), "/elsewhere")).status ==
      404);
  CHECK(
      Exchange(e.endpoint->Port(), RequestText(ping, now, e.platform.Sign(now, ping), "/interactions", "PUT"))
          .status == 405);
  e.endpoint->RunCallbacks();
  CHECK(e.received.empty());
}

TEST_CASE("the game's answer goes in the HTTP reply; the callback runs only inside RunCallbacks") {
  Endpoint e;
  auto reply = e.Send(e.Signed(Interaction(2)));
  // Nothing is delivered without a pump, whatever time passes.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(e.received.empty());
  REQUIRE(e.AwaitInteraction());
  InteractionResponder& responder = e.received[0];
  CHECK(responder.GetInteraction().id == 1001);
  CHECK(responder.GetInteraction().Command()->name == "stats");
  CHECK(!responder.Answered());
  std::optional<ClientResult> done;
  responder.Respond(InteractionResponse::Message(MessagePayload::Text("Level 12")),
                    [&](ClientResult r) { done = std::move(r); });
  const Reply answer = reply.get();
  CHECK(answer.status == 200);
  CHECK(answer.body == R"({"type":4,"data":{"content":"Level 12"}})");
  CHECK(!done);  // the end, too, waits for RunCallbacks
  e.AwaitEnd(done);
  REQUIRE(done);
  CHECK(done->Successful());
  CHECK(responder.Answered());
  CHECK(!responder.Deferred());
  CHECK(e.standIn.requests.empty());  // nothing went through the BackendClient

  // A second initial answer is refused: follow-ups go through the BackendClient.
  std::optional<ClientResult> again;
  responder.Respond(InteractionResponse::Message(MessagePayload::Text("again")),
                    [&](ClientResult r) { again = std::move(r); });
  e.AwaitEnd(again);
  REQUIRE(again);
  CHECK(again->Type() == ErrorType::ValidationError);
  CHECK(again->Error().find("CreateFollowup") != std::string::npos);
}

TEST_CASE("a response the interaction's type does not take is refused, and the responder stays open") {
  Endpoint e;
  auto reply = e.Send(e.Signed(Interaction(4)));
  REQUIRE(e.AwaitInteraction());
  std::optional<ClientResult> refused;
  e.received[0].Respond(InteractionResponse::LaunchActivity(),
                        [&](ClientResult r) { refused = std::move(r); });
  e.AwaitEnd(refused);
  REQUIRE(refused);
  CHECK(refused->Type() == ErrorType::ValidationError);
  CHECK(!e.received[0].Answered());
  e.received[0].Respond(InteractionResponse::Autocomplete({{"alpha", {}, std::string("a")}}));
  const Reply answer = reply.get();
  CHECK(answer.status == 200);
  CHECK(answer.body == R"({"type":8,"data":{"choices":[{"name":"alpha","value":"a"}]}})");
}

TEST_CASE("the endpoint defers at the margin: commands and modals \"thinking\", components an update") {
  InteractionsEndpointOptions options;
  options.deferAfter = std::chrono::milliseconds(100);
  Endpoint e(options);
  // Nobody pumps: the game has not answered by the margin.
  const auto started = std::chrono::steady_clock::now();
  const Reply command = e.Send(e.Signed(Interaction(2))).get();
  const auto waited = std::chrono::steady_clock::now() - started;
  CHECK(command.status == 200);
  CHECK(command.body == R"({"type":5})");
  CHECK(waited >= std::chrono::milliseconds(100));
  CHECK(waited < std::chrono::milliseconds(2500));
  CHECK(e.Send(e.Signed(Interaction(5))).get().body == R"({"type":5})");
  CHECK(e.Send(e.Signed(Interaction(3))).get().body == R"({"type":6})");
  CHECK(e.Send(e.Signed(Interaction(4))).get().body == R"({"type":8,"data":{"choices":[]}})");

  REQUIRE(e.AwaitInteraction(4));
  for (const auto& responder : e.received) {
    CHECK(responder.Deferred());
    CHECK(responder.Answered());
  }

  // The late message of the command edits @original through the BackendClient, without a bot token.
  std::optional<ClientResult> edited;
  e.received[0].Respond(InteractionResponse::Message(MessagePayload::Text("late")),
                        [&](ClientResult r) { edited = std::move(r); });
  REQUIRE(e.standIn.requests.size() == 1);
  CHECK(e.standIn.requests[0].method == "PATCH");
  CHECK(e.standIn.requests[0].url ==
        "https://api.test/api/v10/webhooks/2002/aW50ZXJhY3Rpb24.tok/messages/@original");
  CHECK(e.standIn.requests[0].body == R"({"content":"late"})");
  e.standIn.Answer(0, 200, R"({"id":"77","channel_id":"60","content":"late"})");
  e.AwaitEnd(edited);
  REQUIRE(edited);
  CHECK(edited->Successful());

  // The component's: an update edits the component's message (@original); a new message is a follow-up.
  e.received[2].Respond(InteractionResponse::Message(MessagePayload::Text("new")));
  REQUIRE(e.standIn.requests.size() == 2);
  CHECK(e.standIn.requests[1].method == "POST");
  CHECK(e.standIn.requests[1].url == "https://api.test/api/v10/webhooks/2002/aW50ZXJhY3Rpb24.tok");

  // The modal's: the deferral it already got is accepted as a no-op. The autocomplete was answered with no
  // suggestion: its choices can no longer be sent.
  std::optional<ClientResult> same;
  e.received[1].Respond(InteractionResponse::Deferred(), [&](ClientResult r) { same = std::move(r); });
  e.AwaitEnd(same);
  REQUIRE(same);
  CHECK(same->Successful());
  std::optional<ClientResult> tooLate;
  e.received[3].Respond(InteractionResponse::Autocomplete({{"a", {}, std::string("a")}}),
                        [&](ClientResult r) { tooLate = std::move(r); });
  e.AwaitEnd(tooLate);
  REQUIRE(tooLate);
  CHECK(tooLate->Type() == ErrorType::ValidationError);
  CHECK(e.standIn.requests.size() == 2);
}

TEST_CASE(
    "deferEphemeral: the endpoint's deferral is ephemeral; a public one refuses a late ephemeral message") {
  InteractionsEndpointOptions options;
  options.deferAfter = std::chrono::milliseconds(50);
  options.deferEphemeral = true;
  Endpoint hidden(options);
  CHECK(hidden.Send(hidden.Signed(Interaction(2))).get().body == R"({"type":5,"data":{"flags":64}})");
  CHECK(hidden.Send(hidden.Signed(Interaction(3))).get().body == R"({"type":6})");
  REQUIRE(hidden.AwaitInteraction());
  MessagePayload secret = MessagePayload::Text("only you");
  secret.flags = message_flags::Ephemeral;
  hidden.received[0].Respond(InteractionResponse::Message(secret));
  REQUIRE(hidden.standIn.requests.size() == 1);
  CHECK(hidden.standIn.requests[0].method == "PATCH");

  options.deferEphemeral = false;
  Endpoint open(options);
  CHECK(open.Send(open.Signed(Interaction(2))).get().body == R"({"type":5})");
  REQUIRE(open.AwaitInteraction());
  std::optional<ClientResult> refused;
  open.received[0].Respond(InteractionResponse::Message(secret),
                           [&](ClientResult r) { refused = std::move(r); });
  open.AwaitEnd(refused);
  REQUIRE(refused);
  CHECK(refused->Type() == ErrorType::ValidationError);
  CHECK(open.standIn.requests.empty());
  CHECK(
      open.received[0].Answered());  // deferred by the endpoint; the refused message left it open to another
  open.received[0].Respond(InteractionResponse::Message(MessagePayload::Text("for all")));
  CHECK(open.standIn.requests.size() == 1);
}

TEST_CASE("the 15-minute token: the last second answers, the next one is refused") {
  InteractionsEndpointOptions options;
  options.deferAfter = std::chrono::milliseconds(50);
  Endpoint e(options);
  CHECK(e.Send(e.Signed(Interaction(2))).get().body == R"({"type":5})");
  CHECK(e.Send(e.Signed(Interaction(2))).get().body == R"({"type":5})");
  REQUIRE(e.AwaitInteraction(2));

  e.offsetMs = std::chrono::duration_cast<std::chrono::milliseconds>(kInteractionTokenLifetime).count() - 1;
  e.received[0].Respond(InteractionResponse::Message(MessagePayload::Text("just in time")));
  CHECK(e.standIn.requests.size() == 1);

  e.offsetMs = std::chrono::duration_cast<std::chrono::milliseconds>(kInteractionTokenLifetime).count();
  std::optional<ClientResult> expired;
  e.received[1].Respond(InteractionResponse::Message(MessagePayload::Text("too late")),
                        [&](ClientResult r) { expired = std::move(r); });
  e.AwaitEnd(expired);
  REQUIRE(expired);
  CHECK(expired->Type() == ErrorType::ValidationError);
  CHECK(expired->Error().find("15 minutes") != std::string::npos);
  CHECK(e.standIn.requests.size() == 1);
}

TEST_CASE("a late message without a BackendClient fails with ClientNotReady") {
  InteractionsEndpointOptions options;
  options.deferAfter = std::chrono::milliseconds(50);
  Endpoint e(options, false);
  CHECK(e.Send(e.Signed(Interaction(2))).get().body == R"({"type":5})");
  REQUIRE(e.AwaitInteraction());
  std::optional<ClientResult> done;
  e.received[0].Respond(InteractionResponse::Message(MessagePayload::Text("late")),
                        [&](ClientResult r) { done = std::move(r); });
  e.AwaitEnd(done);
  REQUIRE(done);
  CHECK(done->Type() == ErrorType::ClientNotReady);
}

TEST_CASE("files go through the callback route as multipart, the HTTP request is answered 202") {
  Endpoint e;
  auto reply = e.Send(e.Signed(Interaction(2)));
  REQUIRE(e.AwaitInteraction());
  MessagePayload message = MessagePayload::Text("chart");
  message.files.push_back(FileUpload{"chart.png", "PNG", "", false, "image/png"});
  std::optional<ClientResult> done;
  e.received[0].Respond(InteractionResponse::Message(message), [&](ClientResult r) { done = std::move(r); });
  const Reply answer = reply.get();
  CHECK(answer.status == 202);
  CHECK(answer.body.empty());
  REQUIRE(e.standIn.requests.size() == 1);
  CHECK(e.standIn.requests[0].url ==
        "https://api.test/api/v10/interactions/1001/aW50ZXJhY3Rpb24.tok/callback");
  CHECK(e.standIn.requests[0].contentType.rfind("multipart/form-data", 0) == 0);
  e.standIn.Answer(0, 204, "");
  e.AwaitEnd(done);
  REQUIRE(done);
  CHECK(done->Successful());
}

TEST_CASE("the interaction's attachment_size_limit bounds each file, crossed by one") {
  Endpoint e;
  auto reply = e.Send(e.Signed(Interaction(2, R"(,"attachment_size_limit":3)")));
  REQUIRE(e.AwaitInteraction());
  MessagePayload message;
  message.files.push_back(FileUpload{"a.bin", "1234", "", false, ""});
  std::optional<ClientResult> refused;
  e.received[0].Respond(InteractionResponse::Message(message),
                        [&](ClientResult r) { refused = std::move(r); });
  e.AwaitEnd(refused);
  REQUIRE(refused);
  CHECK(refused->Type() == ErrorType::ValidationError);
  CHECK(refused->Error().find("data.files.0") != std::string::npos);
  CHECK(e.standIn.requests.empty());
  message.files[0].bytes = "123";
  e.received[0].Respond(InteractionResponse::Message(message));
  CHECK(reply.get().status == 202);
  CHECK(e.standIn.requests.size() == 1);
}

TEST_CASE(
    "with autoDefer off, an interaction unanswered at 3 seconds is answered 500 and a late answer fails") {
  InteractionsEndpointOptions options;
  options.autoDefer = false;
  Endpoint e(options);
  const auto started = std::chrono::steady_clock::now();
  const Reply answer = e.Send(e.Signed(Interaction(2))).get();
  const auto waited = std::chrono::steady_clock::now() - started;
  CHECK(answer.status == 500);
  CHECK(waited >= kInteractionResponseDeadline);
  REQUIRE(e.AwaitInteraction());
  CHECK(!e.received[0].Deferred());
  std::optional<ClientResult> done;
  e.received[0].Respond(InteractionResponse::Message(MessagePayload::Text("late")),
                        [&](ClientResult r) { done = std::move(r); });
  e.AwaitEnd(done);
  REQUIRE(done);
  CHECK(done->Type() == ErrorType::ValidationError);
  CHECK(e.standIn.requests.empty());
}

TEST_CASE("settings: the key, and the margin strictly between 0 and 3000 ms") {
  Signer platform;
  const auto start = [&](std::string key, std::chrono::milliseconds deferAfter) {
    InteractionsEndpointOptions options;
    options.publicKeyHex = std::move(key);
    options.deferAfter = deferAfter;
    InteractionsEndpoint endpoint(options);
    return endpoint.Start();
  };
  CHECK(start(platform.PublicHex(), std::chrono::milliseconds(2999)).Successful());
  CHECK(start(platform.PublicHex(), std::chrono::milliseconds(3000)).Type() == ErrorType::ValidationError);
  CHECK(start(platform.PublicHex(), std::chrono::milliseconds(1)).Successful());
  CHECK(start(platform.PublicHex(), std::chrono::milliseconds(0)).Type() == ErrorType::ValidationError);
  CHECK(start(platform.PublicHex().substr(1), std::chrono::milliseconds(2500)).Type() ==
        ErrorType::ValidationError);
}

TEST_CASE("a responder held past Stop fails, and the token never reaches the logs") {
  InteractionsEndpointOptions options;
  options.deferAfter = std::chrono::milliseconds(2000);
  Endpoint e(options);
  std::vector<std::string> logs;
  e.endpoint->AddLogCallback(
      [&](std::string message, LoggingSeverity) { logs.push_back(std::move(message)); },
      LoggingSeverity::Verbose);
  auto reply = e.Send(e.Signed(Interaction(2)));
  REQUIRE(e.AwaitInteraction());
  e.endpoint->Stop();
  CHECK(reply.get().status == 0);  // the connection closed unanswered
  std::optional<ClientResult> done;
  e.received[0].Respond(InteractionResponse::Message(MessagePayload::Text("x")),
                        [&](ClientResult r) { done = std::move(r); });
  e.AwaitEnd(done);
  REQUIRE(done);
  CHECK(done->Type() == ErrorType::ClientDestroyed);
  CHECK(!logs.empty());
  for (const auto& line : logs)
    CHECK(line.find("aW50ZXJhY3Rpb24.tok") == std::string::npos);

  // The responder outlives the endpoint (and the network thread it owned): it answers nothing, safely.
  e.endpoint.reset();
  bool ran = false;
  e.received[0].Respond(InteractionResponse::Message(MessagePayload::Text("y")),
                        [&](const ClientResult&) { ran = true; });
  CHECK(!ran);
  e.received.clear();
}

TEST_CASE("VerifyInteraction: the check alone") {
  Signer platform;
  const std::string body = Interaction(2);
  const std::string now = Seconds(kStart);
  auto verdict = VerifyInteraction(platform.PublicHex(), platform.Sign(now, body), now, body, kStart);
  CHECK(verdict.status == 200);
  REQUIRE(verdict.interaction);
  CHECK(verdict.interaction->id == 1001);
  CHECK(VerifyInteraction(platform.PublicHex(), platform.Sign(now, body), now, body + " ", kStart).status ==
        401);
  CHECK(VerifyInteraction(platform.PublicHex(), platform.Sign(now, "{}"), now, "{}", kStart).status == 400);
}

}  // namespace interactions_endpoint_test
