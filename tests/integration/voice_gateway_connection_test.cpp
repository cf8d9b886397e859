// voice::VoiceGatewayConnection and voice::VoiceUdpSocket against the emulator's voice gateway and forwarding
// unit, without the Call on top: the test joins a lobby call itself on its own main Gateway session (op 4,
// then LOBBY_VOICE_SERVER_UPDATE gives the voice token and endpoint), then drives the voice connection the
// way the Call does (Ready -> IP discovery -> Select Protocol -> Session Description) and checks resume after
// a drop and after 4015, the end of the call on other codes, the mode choice, and Close().
#include "voice/voice_gateway_connection.hpp"
#include "core/callback_queue.hpp"
#include "core/io_context_access.hpp"
#include "core/logger.hpp"
#include "emulator_fixture.hpp"
#include "gateway/gateway_connection.hpp"
#include "json/json.hpp"
#include "net/http_client.hpp"
#include "voice/voice_udp_socket.hpp"

#include <platformpp/io_context.hpp>

#include <boost/asio/post.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <iterator>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace voice_gateway_connection_test {

namespace {

using namespace std::chrono_literals;
using namespace platformpp;
using media_wire::TransportMode;
using voice::CallError;

std::string UniqueSecret() {
  static std::atomic<int> counter{0};
  return "voice-gateway-test-" + std::to_string(counter++) + "-" +
         std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
}

// Records what the connection reports; the test thread waits on it.
class RecordingSink : public voice::VoiceGatewaySink {
 public:
  void OnVoiceReady(const voice::VoiceReady& r, media_wire::TransportMode m) override {
    Record([&] {
      ready = r;
      mode = m;
    });
  }
  void OnVoiceSessionDescription(const voice::VoiceSessionDescription& d) override {
    Record([&] { description = d; });
  }
  void OnVoiceResuming() override {
    Record([&] { ++resuming; });
  }
  void OnVoiceResumed() override {
    Record([&] { ++resumed; });
  }
  void OnVoiceEnded(CallError e, int32_t d) override {
    Record([&] {
      ++ended;
      error = e;
      detail = d;
    });
  }
  void OnVoiceSpeaking(const voice::VoiceSpeaking& s) override {
    Record([&] { speaking.push_back(s); });
  }
  void OnVoiceClientsConnect(const voice::VoiceClientsConnect& c) override {
    Record([&] { connected.insert(connected.end(), c.userIds.begin(), c.userIds.end()); });
  }
  void OnVoiceClientDisconnect(const voice::VoiceClientDisconnect& d) override {
    Record([&] { disconnected.push_back(d.userId); });
  }
  void OnVoicePing(std::chrono::milliseconds) override {
    Record([&] { ++pings; });
  }

  template <class F>
  bool WaitFor(F done, std::chrono::milliseconds timeout = 10s) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, timeout, [&] { return done(); });
  }

  std::mutex mutex;
  std::condition_variable changed;
  std::optional<voice::VoiceReady> ready;
  std::optional<media_wire::TransportMode> mode;
  std::optional<voice::VoiceSessionDescription> description;
  std::vector<voice::VoiceSpeaking> speaking;
  std::vector<uint64_t> connected;
  std::vector<uint64_t> disconnected;
  int resuming = 0;
  int resumed = 0;
  int ended = 0;
  int pings = 0;
  CallError error = CallError::None;
  int32_t detail = 0;
  std::atomic<int> calls{0};

 protected:  // a test's own sink records through it too
  template <class F>
  void Record(F f) {
    ++calls;
    {
      std::lock_guard lock(mutex);
      f();
    }
    changed.notify_all();
  }
};

// A player's main Gateway session in a fresh lobby, joined to its call: what LOBBY_VOICE_SERVER_UPDATE gave.
// Holds the (one) network thread of `io` in a handler until it goes: what is queued meanwhile (a local Close,
// frames read from the server) waits, so a test can make the server act on a connection the client has
// already closed, and check that it did.
class HeldNetworkThread {
 public:
  explicit HeldNetworkThread(IoContext& io) {
    std::promise<void> holding;
    auto held = holding.get_future();
    boost::asio::post(core::IoContextAccess::Get(io), [&holding, released = release_.get_future().share()] {
      holding.set_value();
      released.wait();
    });
    held.wait();
  }
  ~HeldNetworkThread() { Release(); }
  HeldNetworkThread(const HeldNetworkThread&) = delete;
  HeldNetworkThread& operator=(const HeldNetworkThread&) = delete;
  void Release() {
    if (!released_) release_.set_value();
    released_ = true;
  }

 private:
  std::promise<void> release_;
  bool released_ = false;
};

struct JoinedCall {
  /// The shared user in a new lobby; or `userId` with `accessToken` in the lobby of `secret`.
  JoinedCall(uint64_t userId = 0, std::string accessToken = {}, std::string secret = UniqueSecret())
      : emulator(itest::Shared()),
        connection(emulator.process->Connection()),
        userId(userId ? userId : emulator.user.id),
        accessToken(accessToken.empty() ? emulator.token.accessToken : std::move(accessToken)),
        secret(std::move(secret)),
        http(*io, logger, HttpOptions(connection.caFile)) {
    if (const char* dir = std::getenv("PLATFORMPP_TEST_LOG_DIR"))
      logger->SetLogDir(dir, LoggingSeverity::Verbose);
    lobbyId = CreateLobby();
    gateway::GatewayOptions options;
    options.apiBase = connection.apiBase;
    options.caFile = connection.caFile;
    options.token = [token = this->accessToken] { return "Bearer " + token; };
    gateway = std::make_unique<gateway::GatewayConnection>(*io, logger, http, options);
    gateway->SetReadyHandler([this](const gateway::ReadyInfo& info) {
      std::lock_guard lock(mutex);
      sessionId = info.sessionId;
      changed.notify_all();
    });
    gateway->SetDispatchSink([this](const gateway::Dispatch& dispatch) {
      if (dispatch.type != "LOBBY_VOICE_SERVER_UPDATE") return;
      json::Document d;
      if (!json::Parse(dispatch.dataJson, d)) return;
      std::lock_guard lock(mutex);
      voiceToken = std::string(json::GetString(d, "token").value_or(""));
      endpoint = std::string(json::GetString(d, "endpoint").value_or(""));
      changed.notify_all();
    });
    gateway->Connect();
    {
      std::unique_lock lock(mutex);
      REQUIRE(changed.wait_for(lock, 10s, [&] { return !sessionId.empty(); }));
    }
    const std::string lobby = std::to_string(lobbyId);
    gateway->Send(R"({"op":4,"d":{"lobby_id":")" + lobby + R"(","channel_id":")" + lobby +
                  R"(","self_mute":false,"self_deaf":false}})");
    std::unique_lock lock(mutex);
    REQUIRE(changed.wait_for(lock, 10s, [&] { return !endpoint.empty(); }));
    REQUIRE_FALSE(voiceToken.empty());
  }
  ~JoinedCall() { gateway->Shutdown(); }

  voice::VoiceGatewayOptions VoiceOptions() const {
    voice::VoiceGatewayOptions options;
    options.endpoint = endpoint;
    options.plain = !connection.tls;
    options.caFile = connection.caFile;
    options.serverId = lobbyId;
    options.userId = userId;
    options.sessionId = sessionId;
    options.token = voiceToken;
    options.connectTimeout = 5s;
    options.joinTimeout = 15s;
    options.reconnect.backoffInitial = 50ms;
    options.reconnect.backoffMaximum = 200ms;
    return options;
  }

  std::optional<testkit::EmulatorAdmin::VoiceSession> Session() {
    for (const auto& session : emulator.admin->VoiceSessions()) {
      if (session.userId == userId && session.lobbyId == lobbyId) return session;
    }
    return std::nullopt;
  }

  uint64_t CreateLobby() {
    net::HttpRequest request;
    request.method = "PUT";
    request.url = connection.apiBase + "/lobbies";
    request.headers.emplace_back("Authorization", "Bearer " + accessToken);
    request.body = R"({"secret":")" + secret + R"("})";
    request.contentType = "application/json";
    std::promise<net::HttpResponse> done;
    auto future = done.get_future();
    http.Send(std::move(request),
              [&done](net::HttpResponse response) { done.set_value(std::move(response)); });
    REQUIRE(future.wait_for(10s) == std::future_status::ready);
    net::HttpResponse response = future.get();
    REQUIRE(response.Ok());
    json::Document body;
    REQUIRE(json::Parse(response.body, body));
    std::optional<uint64_t> id = json::GetSnowflake(body, "id");
    REQUIRE(id);
    return *id;
  }

  static net::HttpClientOptions HttpOptions(const std::string& caFile) {
    net::HttpClientOptions options;
    options.caFile = caFile;
    return options;
  }

  itest::Emulator& emulator;
  testkit::ConnectionInfo connection;
  uint64_t userId;
  std::string accessToken;
  std::string secret;
  std::shared_ptr<IoContext> io = std::make_shared<IoContext>(1);
  std::shared_ptr<core::CallbackQueue> queue = std::make_shared<core::CallbackQueue>();
  std::shared_ptr<core::Logger> logger = std::make_shared<core::Logger>(queue);
  net::HttpClient http;
  std::unique_ptr<gateway::GatewayConnection> gateway;
  uint64_t lobbyId = 0;

  std::mutex mutex;
  std::condition_variable changed;
  std::string sessionId;
  std::string voiceToken;
  std::string endpoint;
};

// Ready -> IP discovery against the forwarding unit -> Select Protocol -> Session Description, as the Call
// does it (on its voice thread; here on the test thread).
void Establish(RecordingSink& sink, voice::VoiceGatewayConnection& voice, voice::VoiceUdpSocket& udp) {
  REQUIRE(sink.WaitFor([&] { return sink.ready.has_value() || sink.ended > 0; }));
  REQUIRE(sink.ready);
  voice::VoiceReady ready;
  {
    std::lock_guard lock(sink.mutex);
    ready = *sink.ready;
  }
  std::string error;
  REQUIRE(udp.Connect(ready.ip, ready.port, &error));
  auto found = udp.DiscoverAddress(ready.ssrc, {5, 500ms}, &error);
  INFO(error);
  REQUIRE(found);
  CHECK(found->port == udp.LocalPort());
  voice.SelectProtocol(found->address, found->port);
  REQUIRE(sink.WaitFor([&] { return sink.description.has_value() || sink.ended > 0; }));
  REQUIRE(sink.description);
}

}  // namespace

TEST_CASE(
    "voice gateway: Ready, IP discovery, Select Protocol, Session Description; resume after a drop and "
    "4015") {
  itest::FaultScope faults;
  JoinedCall call;
  RecordingSink sink;
  voice::VoiceGatewayConnection voice(*call.io, call.logger, call.VoiceOptions(), sink);
  voice::VoiceUdpSocket udp;
  voice.Start();
  Establish(sink, voice, udp);

  {
    std::lock_guard lock(sink.mutex);
    CHECK(sink.ready->ssrc != 0);
    CHECK(sink.mode ==
          media_wire::TransportMode::AeadAes256GcmRtpsize);  // preferred when offered (the default offer)
    CHECK(sink.description->parsedMode == media_wire::TransportMode::AeadAes256GcmRtpsize);
    CHECK(sink.description->daveProtocolVersion == 1);  // offered at Identify, served by the emulator
  }
  CHECK(voice.Ssrc() == sink.ready->ssrc);
  CHECK(voice.SeqAck() >= 2);  // Ready and Session Description at least
  auto session = call.Session();
  REQUIRE(session);
  CHECK(session->connected);
  CHECK(session->mode == "aead_aes256_gcm_rtpsize");
  CHECK(session->mediaAddress == "127.0.0.1:" + std::to_string(udp.LocalPort()));
  CHECK(session->ssrc == voice.Ssrc());

  // A drop without a close frame: Resume with seq_ack, Resumed; the session keeps its SSRC.
  REQUIRE(call.emulator.admin->DropVoice(call.emulator.user.id) == 1);
  REQUIRE(sink.WaitFor([&] { return sink.resumed >= 1 || sink.ended > 0; }));
  {
    std::lock_guard lock(sink.mutex);
    CHECK(sink.resuming == 1);
    CHECK(sink.resumed == 1);
    CHECK(sink.ended == 0);
  }
  session = call.Session();
  REQUIRE(session);
  CHECK(session->connected);
  CHECK(session->ssrc == voice.Ssrc());

  // 4015 (voice server crashed) resumes too.
  REQUIRE(call.emulator.admin->CloseVoice(call.emulator.user.id, 4015) == 1);
  REQUIRE(sink.WaitFor([&] { return sink.resumed >= 2 || sink.ended > 0; }));
  {
    std::lock_guard lock(sink.mutex);
    CHECK(sink.resuming == 2);
    CHECK(sink.ended == 0);
  }

  // Speaking goes out on the resumed session; keepalives reach the forwarding unit.
  voice.SetSpeaking(voice::kSpeakingMicrophone);
  CHECK(udp.MaybeSendKeepalive(std::chrono::steady_clock::now()));

  // 4014 (disconnected): the call ends, once, with SignalingUnexpectedClose; no reconnection.
  REQUIRE(call.emulator.admin->CloseVoice(call.emulator.user.id, 4014) == 1);
  REQUIRE(sink.WaitFor([&] { return sink.ended > 0; }));
  std::this_thread::sleep_for(300ms);
  {
    std::lock_guard lock(sink.mutex);
    CHECK(sink.ended == 1);
    CHECK(sink.error == CallError::SignalingUnexpectedClose);
    CHECK(sink.detail == 4014);
    CHECK(sink.resuming == 2);
  }
  voice.Close();
}

TEST_CASE("voice gateway: XChaCha20-Poly1305 when GCM is not offered; no supported mode ends the call") {
  itest::FaultScope faults;
  struct ResetSettings {
    ~ResetSettings() {
      testkit::EmulatorAdmin::VoiceSettings settings;
      settings.reset = true;
      itest::Shared().admin->SetVoiceSettings(settings);
    }
  } reset;
  testkit::EmulatorAdmin::VoiceSettings settings;

  SUBCASE("xchacha") {
    settings.modes =
        std::vector<std::string>{"xsalsa20_poly1305", "aead_aes256_gcm", "aead_xchacha20_poly1305_rtpsize"};
    itest::Shared().admin->SetVoiceSettings(settings);
    JoinedCall call;
    RecordingSink sink;
    voice::VoiceGatewayConnection voice(*call.io, call.logger, call.VoiceOptions(), sink);
    voice::VoiceUdpSocket udp;
    voice.Start();
    Establish(sink, voice, udp);
    std::lock_guard lock(sink.mutex);
    CHECK(sink.mode == media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize);
    CHECK(sink.description->parsedMode == media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize);
  }
  SUBCASE("only deprecated modes") {
    settings.modes = std::vector<std::string>{"xsalsa20_poly1305", "aead_aes256_gcm"};
    itest::Shared().admin->SetVoiceSettings(settings);
    JoinedCall call;
    RecordingSink sink;
    voice::VoiceGatewayConnection voice(*call.io, call.logger, call.VoiceOptions(), sink);
    voice.Start();
    REQUIRE(sink.WaitFor([&] { return sink.ended > 0; }));
    std::lock_guard lock(sink.mutex);
    CHECK_FALSE(sink.ready);
    CHECK(sink.error == CallError::VoiceConnectionFailed);
  }
}

TEST_CASE("voice gateway: a wrong token ends the call with Forbidden; Close() stops every report") {
  itest::FaultScope faults;
  JoinedCall call;
  SUBCASE("wrong token: 4004") {
    RecordingSink sink;
    voice::VoiceGatewayOptions options = call.VoiceOptions();
    options.token += "x";
    voice::VoiceGatewayConnection voice(*call.io, call.logger, options, sink);
    voice.Start();
    REQUIRE(sink.WaitFor([&] { return sink.ended > 0; }));
    std::lock_guard lock(sink.mutex);
    CHECK(sink.error == CallError::Forbidden);
    CHECK(sink.detail == 4004);
  }
  SUBCASE("Close() while connected: nothing after it returns, even when the server then ends the session") {
    RecordingSink sink;
    voice::VoiceGatewayConnection voice(*call.io, call.logger, call.VoiceOptions(), sink);
    voice.Start();
    REQUIRE(sink.WaitFor([&] { return sink.ready.has_value(); }));
    HeldNetworkThread held(*call.io);  // the client's close cannot leave before the server acts
    voice.Close();
    const int calls = sink.calls.load();
    // The premise: the server did end the live session, so its close frame reaches a closed connection.
    REQUIRE(call.emulator.admin->CloseVoice(call.emulator.user.id, 4015) == 1);
    held.Release();
    std::this_thread::sleep_for(500ms);
    CHECK(sink.calls.load() == calls);
  }
}

TEST_CASE("voice gateway: two players: Clients Connect, Speaking relayed with the SSRC, Client Disconnect") {
  itest::FaultScope faults;
  auto& emulator = itest::Shared();
  static std::atomic<int> counter{0};
  testkit::EmulatorAdmin::User other = emulator.admin->CreateUser("voice_peer_" + std::to_string(counter++));
  testkit::EmulatorAdmin::Token otherToken =
      emulator.admin->MintToken(other.id, emulator.app.id, "openid sdk.social_layer");
  const std::string secret = UniqueSecret();
  JoinedCall a(0, {}, secret);
  JoinedCall b(other.id, otherToken.accessToken, secret);
  REQUIRE(a.lobbyId == b.lobbyId);

  RecordingSink sinkA;
  voice::VoiceGatewayOptions optionsA = a.VoiceOptions();
  // A waits 400-800 ms before resuming, so what B does meanwhile reaches A only by replay.
  optionsA.reconnect.backoffInitial = 800ms;
  optionsA.reconnect.backoffMaximum = 800ms;
  voice::VoiceGatewayConnection voiceA(*a.io, a.logger, optionsA, sinkA);
  voice::VoiceUdpSocket udpA;
  voiceA.Start();
  Establish(sinkA, voiceA, udpA);

  RecordingSink sinkB;
  auto voiceB = std::make_unique<voice::VoiceGatewayConnection>(*b.io, b.logger, b.VoiceOptions(), sinkB);
  voice::VoiceUdpSocket udpB;
  voiceB->Start();
  Establish(sinkB, *voiceB, udpB);

  // Each learns of the other.
  CHECK(sinkA.WaitFor(
      [&] { return std::count(sinkA.connected.begin(), sinkA.connected.end(), other.id) > 0; }));
  CHECK(sinkB.WaitFor(
      [&] { return std::count(sinkB.connected.begin(), sinkB.connected.end(), emulator.user.id) > 0; }));

  // B speaks: A maps B's SSRC to B before any audio.
  voiceB->SetSpeaking(voice::kSpeakingMicrophone);
  REQUIRE(sinkA.WaitFor([&] { return !sinkA.speaking.empty(); }));
  {
    std::lock_guard lock(sinkA.mutex);
    CHECK(sinkA.speaking.back().userId == other.id);
    CHECK(sinkA.speaking.back().ssrc == voiceB->Ssrc());
    CHECK(sinkA.speaking.back().speaking == voice::kSpeakingMicrophone);
  }

  // A's connection drops; B speaks while A is away; A resumes with seq_ack and gets it by replay, once.
  const int64_t seqBefore = voiceA.SeqAck();
  REQUIRE(a.emulator.admin->DropVoice(emulator.user.id) == 1);
  REQUIRE(sinkA.WaitFor([&] { return sinkA.resuming == 1; }));
  voiceB->SetSpeaking(voice::kSpeakingMicrophone | voice::kSpeakingPriority);
  REQUIRE(sinkA.WaitFor([&] { return sinkA.resumed == 1 || sinkA.ended > 0; }));
  REQUIRE(sinkA.WaitFor([&] { return sinkA.speaking.size() >= 2; }));
  std::this_thread::sleep_for(200ms);
  {
    std::lock_guard lock(sinkA.mutex);
    REQUIRE(sinkA.speaking.size() == 2);
    CHECK(sinkA.speaking.back().userId == other.id);
    CHECK(sinkA.speaking.back().speaking == (voice::kSpeakingMicrophone | voice::kSpeakingPriority));
  }
  CHECK(voiceA.SeqAck() > seqBefore);

  // B leaves the call (op 4 with channel_id null): A hears of it; B's connection ends with 4014.
  b.gateway->Send(R"({"op":4,"d":{"lobby_id":")" + std::to_string(b.lobbyId) +
                  R"(","channel_id":null,"self_mute":false,"self_deaf":false}})");
  CHECK(sinkA.WaitFor([&] { return !sinkA.disconnected.empty(); }));
  {
    std::lock_guard lock(sinkA.mutex);
    CHECK(sinkA.disconnected == std::vector<uint64_t>{other.id});
  }
  CHECK(sinkB.WaitFor([&] { return sinkB.ended > 0; }));
  std::lock_guard lock(sinkB.mutex);
  CHECK(sinkB.detail == 4014);
}

TEST_CASE(
    "voice gateway: heartbeats every interval carry seq_ack and are acknowledged; the session stays up") {
  itest::FaultScope faults;
  struct ResetSettings {
    ~ResetSettings() {
      testkit::EmulatorAdmin::VoiceSettings settings;
      settings.reset = true;
      itest::Shared().admin->SetVoiceSettings(settings);
    }
  } reset;
  testkit::EmulatorAdmin::VoiceSettings settings;
  settings.heartbeatIntervalMs = 250;
  itest::Shared().admin->SetVoiceSettings(settings);
  JoinedCall call;
  RecordingSink sink;
  voice::VoiceGatewayConnection voice(*call.io, call.logger, call.VoiceOptions(), sink);
  voice.Start();
  REQUIRE(sink.WaitFor([&] { return sink.ready.has_value(); }));
  // Over four intervals: the server closes with 4009 after two without a heartbeat; ours keep it open.
  CHECK(sink.WaitFor([&] { return sink.pings >= 4; }, 5s));
  std::this_thread::sleep_for(600ms);
  std::lock_guard lock(sink.mutex);
  CHECK(sink.ended == 0);
  CHECK(sink.resuming == 0);
}

TEST_CASE("voice gateway: Close() from inside a sink method, on the network thread") {
  itest::FaultScope faults;
  JoinedCall call;
  struct ClosingSink : RecordingSink {
    voice::VoiceGatewayConnection* connection = nullptr;
    std::function<int()> serverEnds;
    std::atomic<int> ended{-1};
    void OnVoiceReady(const voice::VoiceReady& r, media_wire::TransportMode m) override {
      RecordingSink::OnVoiceReady(r, m);
      // The server ends the session first (a test may block here: its admin call has its own thread), so its
      // close frame is certainly on its way when Close() is called.
      const int closed = serverEnds();
      Record([&] { ended = closed; });
      connection->Close();
    }
  } sink;
  sink.serverEnds = [&] { return call.emulator.admin->CloseVoice(call.emulator.user.id, 4004); };
  voice::VoiceGatewayConnection voice(*call.io, call.logger, call.VoiceOptions(), sink);
  sink.connection = &voice;
  voice.Start();
  REQUIRE(sink.WaitFor([&] { return sink.ended.load() != -1; }));
  const int calls = sink.calls.load();
  REQUIRE(sink.ended.load() == 1);  // the premise: the server ended the live session
  std::this_thread::sleep_for(300ms);
  CHECK(sink.calls.load() == calls);
}

TEST_CASE("voice gateway: the voice token never reaches the logs") {
  itest::FaultScope faults;
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("platformpp-voice-log-" + UniqueSecret());
  std::filesystem::create_directories(dir);
  {
    JoinedCall call;
    REQUIRE(call.logger->SetLogDir(dir.string(), LoggingSeverity::Verbose));
    RecordingSink sink;
    voice::VoiceGatewayConnection voice(*call.io, call.logger, call.VoiceOptions(), sink);
    voice::VoiceUdpSocket udp;
    voice.Start();
    Establish(sink, voice, udp);
    REQUIRE(call.emulator.admin->DropVoice(call.emulator.user.id) == 1);  // a Resume carries the token too
    REQUIRE(sink.WaitFor([&] { return sink.resumed >= 1; }));
    voice.Close();
    call.logger->SetLogDir({}, LoggingSeverity::Verbose);
    std::string logs;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      std::ifstream file(entry.path());
      logs.append(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
    }
    CHECK(logs.find("Voice gateway: ready") != std::string::npos);  // the log was written
    CHECK(logs.find("Voice gateway: resumed") != std::string::npos);
    CHECK(logs.find(call.voiceToken) == std::string::npos);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace voice_gateway_connection_test
