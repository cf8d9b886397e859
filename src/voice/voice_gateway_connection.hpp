#pragma once
// The SDK side of one voice gateway v8 session (docs/voice-protocol.md "Voice gateway (v8)"): a TLS WebSocket
// (plain ws:// when told) to `wss://<endpoint>/?v=8`, verified like the main Gateway; Hello -> Identify;
// heartbeats `{t, seq_ack}` every interval; the seq of every text and binary server message tracked; Ready
// and Session Description handed to the owner; on a drop or a resumable close (4015, < 4000) a reconnection
// with Resume and seq_ack, bounded and backed off as voice_gateway_session_policy.hpp decides; on a fatal
// close the error reported once. All I/O runs on one strand of the Client's IoContext; the header stays free
// of Asio.
//
// The owner (the Call) gets events through a VoiceGatewaySink, called on the network thread, one at a time,
// in order. A sink must not block; it updates the owner's state and queues user callbacks itself. No sink
// method runs after Close() or the destructor returns, whichever thread calls them (a sink method may itself
// call Close(); do not call Close() while holding a lock that sink methods take).

#include "media_wire/transport_cipher.hpp"
#include "voice/voice_gateway_payload.hpp"
#include "voice/voice_gateway_session_policy.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace platformpp {
class IoContext;
}

namespace platformpp::core {
class Logger;
}

namespace platformpp::voice {

class VoiceGatewaySink {
 public:
  virtual ~VoiceGatewaySink() = default;
  /// Op 2 (once per session): run IP discovery against `ready.ip`/`ready.port` with `ready.ssrc`, then call
  /// SelectProtocol with the discovered address. `mode` is what SelectProtocol will send
  /// (media_wire::ChooseTransportMode of `ready.modes`); when the server offers no supported mode the call
  /// ends with VoiceConnectionFailed instead and this is not called.
  virtual void OnVoiceReady(const VoiceReady& ready, media_wire::TransportMode mode) = 0;
  /// Op 4: the mode (the one selected) and the key for the transport cipher. A description whose mode is not
  /// the selected one ends the call with VoiceConnectionFailed instead.
  virtual void OnVoiceSessionDescription(const VoiceSessionDescription& description) = 0;
  /// Op 5 from another participant (user -> SSRC, speaking bits).
  virtual void OnVoiceSpeaking(const VoiceSpeaking&) {}
  /// Op 11.
  virtual void OnVoiceClientsConnect(const VoiceClientsConnect&) {}
  /// Op 13.
  virtual void OnVoiceClientDisconnect(const VoiceClientDisconnect&) {}
  /// The connection was lost and is being resumed (the Call shows Reconnecting). Once per loss, however many
  /// attempts follow.
  virtual void OnVoiceResuming() {}
  /// Op 9 after a resume: the session is back (the Call shows Connected again).
  virtual void OnVoiceResumed() {}
  /// The session ended for good (never after Close()): `detail` is the close code, or 0. Called once; the
  /// connection does nothing more.
  virtual void OnVoiceEnded(CallError error, int32_t detail) = 0;
  /// DAVE ops 21, 22 and 24 (JSON).
  virtual void OnVoiceDavePrepareTransition(const VoiceDavePrepareTransition&) {}
  virtual void OnVoiceDaveExecuteTransition(const VoiceDaveExecuteTransition&) {}
  virtual void OnVoiceDavePrepareEpoch(const VoiceDavePrepareEpoch&) {}
  /// A binary frame (DAVE ops 25-30), after its seq was recorded.
  virtual void OnVoiceBinary(uint8_t /*op*/, std::span<const uint8_t> /*payload*/) {}
  /// A heartbeat's round trip.
  virtual void OnVoicePing(std::chrono::milliseconds /*roundTrip*/) {}
};

struct VoiceGatewayOptions {
  /// `host:port[/path]` from LOBBY_VOICE_SERVER_UPDATE's `endpoint`.
  std::string endpoint;
  /// ws:// instead of wss:// (the main Gateway URL is ws://: the emulator's --plain-http).
  bool plain = false;
  std::string caFile;
  bool useSystemCertificates = true;
  std::string userAgent = "platformpp";

  uint64_t serverId = 0;  ///< the lobby id
  uint64_t userId = 0;
  std::string sessionId;  ///< the main Gateway session's id
  std::string token;      ///< LOBBY_VOICE_SERVER_UPDATE's `token` (a secret: never logged)

  /// Bounds TCP connect + TLS + WebSocket handshake, and then the wait for Hello.
  std::chrono::milliseconds connectTimeout{10000};
  /// From Start() to the Session Description; JoinTimeout after it.
  std::chrono::milliseconds joinTimeout{20000};
  VoiceReconnectLimits reconnect;
  std::size_t maxMessageBytes = std::size_t{1} << 20;  // 1 MiB
};

class VoiceGatewayConnection {
 public:
  /// `sink` is borrowed: it must outlive this object or the Close() call, whichever comes first.
  VoiceGatewayConnection(IoContext& context, std::shared_ptr<core::Logger> logger,
                         VoiceGatewayOptions options, VoiceGatewaySink& sink);
  ~VoiceGatewayConnection();  ///< Close()
  VoiceGatewayConnection(const VoiceGatewayConnection&) = delete;
  VoiceGatewayConnection& operator=(const VoiceGatewayConnection&) = delete;

  /// Connects and identifies. Once; later calls do nothing. Thread-safe.
  void Start();
  /// Op 1 with the address IP discovery found and the mode chosen at Ready. Sent once per session; when the
  /// connection is being resumed it goes out after Resumed. Thread-safe.
  void SelectProtocol(std::string address, uint16_t port);
  /// Op 5 with the session's SSRC (send before the first audio and whenever the bits change). While resuming,
  /// only the latest value goes out, after Resumed. Thread-safe.
  void SetSpeaking(uint32_t speaking);
  /// A DAVE message: JSON text (ops 23, 31) or a binary frame `u8 op | payload` (ops 26, 28). In order with
  /// Select Protocol and Speaking; held while the connection resumes. Thread-safe.
  void SendDaveText(std::string json);
  void SendDaveBinary(std::vector<uint8_t> frame);
  /// Leaving: closes with 1000 and stops; no sink method runs after this returns (from any thread, a sink
  /// method included). Idempotent.
  void Close();

  /// The SSRC from Ready (0 before). Thread-safe.
  uint32_t Ssrc() const noexcept;
  /// The seq the next heartbeat or Resume acknowledges (-1 before any). Thread-safe.
  int64_t SeqAck() const noexcept;

 private:
  class Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace platformpp::voice
