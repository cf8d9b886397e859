// The voice gateway session (v8) over the WebSocket that net/websocket_link.hpp opens (Beast stays in its
// .cpp).
#include "core/asio_prelude.hpp"

#include "voice/voice_gateway_connection.hpp"

#include <platformpp/io_context.hpp>

#include "core/io_context_access.hpp"
#include "core/logger.hpp"
#include "net/client_tls.hpp"
#include "net/url.hpp"
#include "net/websocket_link.hpp"
#include "net/websocket_session.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <atomic>
#include <functional>
#include <mutex>

namespace platformpp::voice {
namespace {

namespace asio = boost::asio;
namespace ssl = asio::ssl;
using boost::system::error_code;
using net::ws::Strand;
using Clock = std::chrono::steady_clock;

constexpr uint16_t kNormalCloseCode = 1000;

using net::ws::Link;

std::string Describe(std::optional<int> closeCode) {
  return closeCode ? "close " + std::to_string(*closeCode) : std::string("no close frame");
}

}  // namespace

class VoiceGatewayConnection::Impl : public std::enable_shared_from_this<Impl> {
 public:
  Impl(asio::io_context& io, std::shared_ptr<core::Logger> logger, VoiceGatewayOptions options,
       VoiceGatewaySink& sink)
      : logger_(std::move(logger)),
        options_(std::move(options)),
        session_(io, logger_, net::ws::SessionOptions::From("Voice gateway", options_)),
        strand_(session_.GetStrand()),
        policy_(options_.reconnect),
        joinTimer_(strand_),
        sink_(&sink) {
    logger_->Secrets().AddSecret(options_.token);
  }

  std::atomic<uint32_t> ssrcPublished{0};
  std::atomic<int64_t> seqAckPublished{-1};

  void Start() {
    asio::dispatch(strand_, [self = shared_from_this()] {
      if (self->started_ || self->closed_) return;
      self->started_ = true;
      self->joinTimer_.expires_after(self->options_.joinTimeout);
      self->joinTimer_.async_wait([self](error_code ec) {
        if (ec || self->described_) return;
        self->logger_->Error("Voice gateway: no Session Description within " +
                             std::to_string(self->options_.joinTimeout.count()) + " ms");
        self->End(CallError::JoinTimeout, 0);
      });
      self->session_.Spawn(
          self, [raw = self.get()] { return raw->Run(); },
          [raw = self.get()] { raw->End(CallError::SignalingUnexpectedClose, 0); });
    });
  }

  void SelectProtocol(std::string address, uint16_t port) {
    asio::post(strand_, [self = shared_from_this(), address = std::move(address), port]() mutable {
      if (self->closed_ || self->ended_ || self->selectSent_) return;
      self->pendingSelect_ = std::make_pair(std::move(address), port);
      self->FlushPending();
    });
  }

  void SetSpeaking(uint32_t speaking) {
    asio::post(strand_, [self = shared_from_this(), speaking] {
      if (self->closed_ || self->ended_) return;
      self->pendingSpeaking_ = speaking;
      self->FlushPending();
    });
  }

  void SendDave(std::string data, bool binary) {
    asio::post(strand_, [self = shared_from_this(), data = std::move(data), binary]() mutable {
      if (self->closed_ || self->ended_) return;
      self->pendingDave_.emplace_back(std::move(data), binary);
      self->FlushPending();
    });
  }

  // Any thread, a sink method included: once the sink pointer is cleared under the lock, no sink method can
  // start, and one in progress on another thread has finished.
  void Close() {
    {
      std::lock_guard lock(sinkMutex_);
      sink_ = nullptr;
    }
    asio::dispatch(strand_, [self = shared_from_this()] {
      if (self->closed_) return;
      self->closed_ = true;
      self->Interrupt();
      if (self->link_) self->link_->Close(kNormalCloseCode);
    });
  }

 private:
  template <class F>
  void Notify(F&& f) {
    std::lock_guard lock(sinkMutex_);
    if (!sink_ || closed_) return;
    try {
      f(*sink_);
    } catch (const std::exception& e) {
      logger_->Error(std::string("Voice gateway: a sink method threw: ") + e.what());
    } catch (...) {
      logger_->Error("Voice gateway: a sink method threw");
    }
  }

  void Interrupt() {
    session_.Interrupt();
    joinTimer_.cancel();
    heartbeat_.Stop();
  }

  // The call ends: report once, stop everything.
  void End(CallError error, int32_t detail) {
    if (ended_ || closed_) return;
    ended_ = true;
    Interrupt();
    if (link_) link_->Close(kNormalCloseCode);
    logger_->Warning(std::string("Voice gateway: the call ends (") + CallErrorName(error) +
                     (detail ? ", " + std::to_string(detail) : std::string()) + ")");
    Notify([&](VoiceGatewaySink& sink) { sink.OnVoiceEnded(error, detail); });
  }

  bool Stopped() const noexcept { return closed_ || ended_; }

  asio::awaitable<void> Run() {
    const std::string url = VoiceGatewayUrl(options_.endpoint, options_.plain);
    bool resume = false;
    while (!Stopped()) {
      std::string failure;
      std::shared_ptr<Link> link = co_await session_.Open(url, failure, [this] { return Stopped(); });
      if (Stopped()) {
        if (link) link->Teardown();
        break;
      }
      std::optional<int> closeCode;
      if (link) {
        link_ = link;
        co_await Serve(link, resume, closeCode);
        link_.reset();
        live_ = false;
        if (Stopped()) break;
        logger_->Info("Voice gateway: the connection ended (" + Describe(closeCode) + ")");
      } else {
        logger_->Warning("Voice gateway: " + failure);
      }
      VoiceReconnectDecision decision = policy_.OnConnectionEnded(closeCode);
      if (decision.step == VoiceNextStep::End) {
        End(decision.error, decision.errorDetail);
        break;
      }
      resume = decision.step == VoiceNextStep::Resume;
      if (resume && !resumingReported_) {
        resumingReported_ = true;
        Notify([](VoiceGatewaySink& sink) { sink.OnVoiceResuming(); });
      }
      logger_->Info(std::string("Voice gateway: ") + (resume ? "resuming" : "connecting again") + " in " +
                    std::to_string(decision.delay.count()) + " ms (attempt " +
                    std::to_string(policy_.Attempts()) + ")");
      co_await session_.Wait(decision.delay);
    }
  }

  // Reads until the connection ends.
  asio::awaitable<void> Serve(std::shared_ptr<Link> link, bool resume, std::optional<int>& closeCode) {
    resumeOnHello_ = resume;
    closeCode = co_await session_.Serve(
        shared_from_this(), link,
        [this](const std::shared_ptr<Link>& current, std::string_view message, bool text) {
          if (text) return HandleText(current, message);
          HandleBinary(
              std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(message.data()), message.size()));
        },
        [](const std::shared_ptr<Link>& current) { current->Teardown(); }, [this] { return Stopped(); });
    heartbeat_.Stop();
  }

  // The seq first: a message is acknowledged once received, even if it cannot be used.
  bool AcceptSeq(const VoiceServerMessage& message, bool binary) {
    if (!message.seq) return true;
    bool fresh = binary ? seq_.AcceptBinary(static_cast<uint16_t>(*message.seq)) : seq_.Accept(*message.seq);
    seqAckPublished.store(seq_.Last(), std::memory_order_relaxed);
    if (!fresh)
      logger_->Verbose("Voice gateway: op " + std::to_string(message.op) + " already received; dropped");
    return fresh;
  }

  void HandleBinary(std::span<const uint8_t> frame) {
    VoiceServerMessage message = ParseVoiceServerBinary(frame);
    if (!AcceptSeq(message, true)) return;
    if (const auto* binary = message.As<VoiceBinary>()) {
      Notify([&](VoiceGatewaySink& sink) { sink.OnVoiceBinary(binary->op, binary->payload); });
    } else {
      logger_->Warning("Voice gateway: " + message.As<VoiceMalformed>()->error);
    }
  }

  void HandleText(const std::shared_ptr<Link>& link, std::string_view text) {
    if (link->closing) return;
    VoiceServerMessage message = ParseVoiceServerText(text);
    if (!AcceptSeq(message, false)) return;
    if (message.As<VoiceUnknown>()) {
      logger_->Verbose("Voice gateway: op " + std::to_string(message.op) + " ignored");
      return;
    }
    std::visit([&](const auto& payload) { On(link, payload); }, message.payload);
  }

  void On(const std::shared_ptr<Link>&, const VoiceMalformed& malformed) {
    logger_->Warning("Voice gateway: message ignored: " + malformed.error);
  }

  void On(const std::shared_ptr<Link>& link, const VoiceHello& hello) {
    if (link->gotHello) return;
    session_.HelloReceived(link);
    heartbeat_.Start(std::chrono::milliseconds(hello.heartbeatIntervalMs), Clock::now());
    session_.StartHeartbeats(shared_from_this(), link, heartbeat_.NextBeat(),
                             [this](const std::shared_ptr<Link>& current) { return Beat(current); });
    if (resumeOnHello_) {
      logger_->Info("Voice gateway: resuming after seq " + std::to_string(seq_.Last()));
      link->Send(BuildVoiceResume(options_.serverId, options_.sessionId, options_.token, seq_.Last()));
    } else {
      link->Send(BuildVoiceIdentify(options_.serverId, options_.userId, options_.sessionId, options_.token));
    }
  }

  void On(const std::shared_ptr<Link>& link, const VoiceReady& ready) {
    if (policy_.HasSession()) {
      logger_->Warning("Voice gateway: a second Ready ignored");
      return;
    }
    std::optional<media_wire::TransportMode> mode = media_wire::ChooseTransportMode(ready.modes);
    if (!mode) {
      std::string offered;
      for (const std::string& name : ready.modes)
        offered += (offered.empty() ? "" : ", ") + name;
      logger_->Error("Voice gateway: no supported encryption mode offered (" + offered + ")");
      return End(CallError::VoiceConnectionFailed, 0);
    }
    (void)link;
    mode_ = mode;
    ssrc_ = ready.ssrc;
    ssrcPublished.store(ready.ssrc, std::memory_order_relaxed);
    policy_.OnReady();
    live_ = true;
    logger_->Info("Voice gateway: ready (ssrc " + std::to_string(ready.ssrc) + ", media " + ready.ip + ":" +
                  std::to_string(ready.port) + ", mode " + std::string(media_wire::TransportModeName(*mode)) +
                  ")");
    Notify([&](VoiceGatewaySink& sink) { sink.OnVoiceReady(ready, *mode); });
    FlushPending();
  }

  void On(const std::shared_ptr<Link>&, const VoiceSessionDescription& description) {
    if (!mode_ || description.parsedMode != mode_) {
      logger_->Error("Voice gateway: Session Description with mode " + description.mode +
                     ", not the one selected");
      return End(CallError::VoiceConnectionFailed, 0);
    }
    described_ = true;
    joinTimer_.cancel();
    logger_->Info("Voice gateway: session description (" + description.mode + ", dave " +
                  std::to_string(description.daveProtocolVersion) + ")");
    Notify([&](VoiceGatewaySink& sink) { sink.OnVoiceSessionDescription(description); });
  }

  void On(const std::shared_ptr<Link>&, const VoiceSpeaking& speaking) {
    Notify([&](VoiceGatewaySink& sink) { sink.OnVoiceSpeaking(speaking); });
  }
  void On(const std::shared_ptr<Link>&, const VoiceClientsConnect& connect) {
    Notify([&](VoiceGatewaySink& sink) { sink.OnVoiceClientsConnect(connect); });
  }
  void On(const std::shared_ptr<Link>&, const VoiceClientDisconnect& disconnect) {
    Notify([&](VoiceGatewaySink& sink) { sink.OnVoiceClientDisconnect(disconnect); });
  }

  void On(const std::shared_ptr<Link>&, const VoiceHeartbeatAck& ack) {
    if (std::optional<std::chrono::milliseconds> rtt = heartbeat_.OnAck(ack.t, Clock::now()))
      Notify([&](VoiceGatewaySink& sink) { sink.OnVoicePing(*rtt); });
  }

  void On(const std::shared_ptr<Link>&, const VoiceResumed&) {
    if (!resumeOnHello_ || live_) return;
    live_ = true;
    resumingReported_ = false;
    policy_.OnResumed();
    logger_->Info("Voice gateway: resumed at seq " + std::to_string(seq_.Last()));
    Notify([](VoiceGatewaySink& sink) { sink.OnVoiceResumed(); });
    FlushPending();
  }

  void On(const std::shared_ptr<Link>&, const VoiceDavePrepareTransition& prepare) {
    Notify([&](VoiceGatewaySink& sink) { sink.OnVoiceDavePrepareTransition(prepare); });
  }
  void On(const std::shared_ptr<Link>&, const VoiceDaveExecuteTransition& execute) {
    Notify([&](VoiceGatewaySink& sink) { sink.OnVoiceDaveExecuteTransition(execute); });
  }
  void On(const std::shared_ptr<Link>&, const VoiceDavePrepareEpoch& epoch) {
    Notify([&](VoiceGatewaySink& sink) { sink.OnVoiceDavePrepareEpoch(epoch); });
  }
  void On(const std::shared_ptr<Link>&, const VoiceBinary&) {}  // binary frames only
  void On(const std::shared_ptr<Link>&, const VoiceUnknown&) {}

  // Select Protocol and Speaking go out on a live session (after Ready, or after Resumed when resuming).
  void FlushPending() {
    if (!live_ || !link_ || link_->closing || Stopped()) return;
    if (pendingSelect_ && mode_ && !selectSent_) {
      link_->Send(BuildVoiceSelectProtocol(pendingSelect_->first, pendingSelect_->second, *mode_));
      selectSent_ = true;
      logger_->Info("Voice gateway: select protocol (" + pendingSelect_->first + ":" +
                    std::to_string(pendingSelect_->second) + ")");
      pendingSelect_.reset();
    }
    if (pendingSpeaking_) {
      link_->Send(BuildVoiceSpeaking(*pendingSpeaking_, ssrc_));
      pendingSpeaking_.reset();
    }
    // DAVE messages made while the connection was resuming go out in order once it is live again.
    for (auto& [data, binary] : pendingDave_) {
      if (binary)
        link_->SendBinary(std::move(data));
      else
        link_->Send(std::move(data));
    }
    pendingDave_.clear();
  }

  uint64_t NextNonce() {
    auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::system_clock::now().time_since_epoch())
                   .count();
    uint64_t t = now > 0 ? static_cast<uint64_t>(now) : 0;
    if (t <= lastNonce_) t = lastNonce_ + 1;
    lastNonce_ = t;
    return t;
  }

  // A heartbeat is due: send it (the next one's time), or drop a zombie connection (nothing).
  std::optional<Clock::time_point> Beat(const std::shared_ptr<Link>& link) {
    if (!heartbeat_.Running() || link_ != link) return std::nullopt;
    uint64_t t = NextNonce();
    if (heartbeat_.OnDue(Clock::now(), t) == VoiceHeartbeat::Beat::Zombie) {
      logger_->Warning("Voice gateway: no heartbeat ACK since the last heartbeat; resuming");
      link->Teardown();
      return std::nullopt;
    }
    link->Send(BuildVoiceHeartbeat(t, seq_.Last()));
    return heartbeat_.NextBeat();
  }

  std::shared_ptr<core::Logger> logger_;
  VoiceGatewayOptions options_;
  net::ws::Session
      session_;    // strand, TLS, open, read loop, heartbeat schedule; its wait: the reconnect delay
  Strand strand_;  // the session's
  VoiceSessionPolicy policy_;
  VoiceHeartbeat heartbeat_;
  VoiceSeqTracker seq_;
  asio::steady_timer joinTimer_;
  std::shared_ptr<Link> link_;

  std::recursive_mutex sinkMutex_;
  VoiceGatewaySink* sink_;  // guarded by sinkMutex_; null after Close()

  bool started_ = false;
  bool closed_ = false;  // Close() reached the strand
  bool ended_ = false;   // OnVoiceEnded reported
  bool resumeOnHello_ = false;
  bool live_ = false;  // Ready (or Resumed) on the current connection
  bool resumingReported_ = false;
  bool described_ = false;
  bool selectSent_ = false;
  std::optional<media_wire::TransportMode> mode_;
  uint32_t ssrc_ = 0;
  uint64_t lastNonce_ = 0;
  std::optional<std::pair<std::string, uint16_t>> pendingSelect_;
  std::optional<uint32_t> pendingSpeaking_;
  std::vector<std::pair<std::string, bool>> pendingDave_;  // (frame, binary)
};

VoiceGatewayConnection::VoiceGatewayConnection(IoContext& context, std::shared_ptr<core::Logger> logger,
                                               VoiceGatewayOptions options, VoiceGatewaySink& sink)
    : impl_(std::make_shared<Impl>(core::IoContextAccess::Get(context), std::move(logger), std::move(options),
                                   sink)) {}

VoiceGatewayConnection::~VoiceGatewayConnection() {
  Close();
}

void VoiceGatewayConnection::Start() {
  impl_->Start();
}
void VoiceGatewayConnection::SelectProtocol(std::string address, uint16_t port) {
  impl_->SelectProtocol(std::move(address), port);
}
void VoiceGatewayConnection::SetSpeaking(uint32_t speaking) {
  impl_->SetSpeaking(speaking);
}

void VoiceGatewayConnection::SendDaveText(std::string json) {
  impl_->SendDave(std::move(json), false);
}

void VoiceGatewayConnection::SendDaveBinary(std::vector<uint8_t> frame) {
  impl_->SendDave(std::string(frame.begin(), frame.end()), true);
}
void VoiceGatewayConnection::Close() {
  impl_->Close();
}
uint32_t VoiceGatewayConnection::Ssrc() const noexcept {
  return impl_->ssrcPublished.load(std::memory_order_relaxed);
}
int64_t VoiceGatewayConnection::SeqAck() const noexcept {
  return impl_->seqAckPublished.load(std::memory_order_relaxed);
}

}  // namespace platformpp::voice
