// The three protocols the server speaks over a WebSocket, each an endpoint of a WebSocketLink: the Gateway,
// the voice gateway and the web console's live socket.
// Included by server/server.cpp alone: the one translation unit that instantiates Boost.Beast's server
// templates (they are slow to compile), so each session kind has a file of its own without costing a
// compilation of its own.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "console/console_stream.hpp"
#include "gateway/gateway_deflater.hpp"
#include "server/websocket_link.hpp"
#include "service/emulator_service.hpp"
#include "voice/voice_gateway.hpp"

namespace platformpp::emulator::server_detail {

// The Gateway on a WebSocket: JSON text frames, or with zlib-stream compression every message deflated into
// one zlib stream and sent as a binary frame.
class GatewayEndpoint final : public WebSocketEndpoint, public GatewayPeer {
 public:
  GatewayEndpoint(EmulatorService& service, WebSocketChannel& channel)
      : service_(service), channel_(channel) {}
  ~GatewayEndpoint() override {
    if (opened_) service_.gateway_disconnected(id_, std::nullopt);
  }
  GatewayEndpoint(const GatewayEndpoint&) = delete;
  GatewayEndpoint& operator=(const GatewayEndpoint&) = delete;

  void opened(std::string_view target) override {
    opened_ = true;
    id_ = service_.gateway_opened(*this, target);
  }
  void received(std::string_view message, bool text) override {
    service_.gateway_received(id_, message, text);
  }
  void disconnected(std::optional<int> close_code) override {
    service_.gateway_disconnected(id_, close_code);
  }

  void enable_compression() override { compress_ = true; }
  void send(std::string json) override {
    if (channel_.closing()) return;
    if (!compress_) return channel_.send_frame(std::move(json), false);
    std::string frame = stream_start();
    frame += thread_gateway_deflater().deflate(json);
    channel_.send_frame(std::move(frame), true);
  }
  void send_dispatch(const SharedDispatchBody& body, std::string_view tail) override {
    if (channel_.closing()) return;
    if (!compress_) {
      return channel_.send_frame(
          OutgoingFrame{{}, std::shared_ptr<const std::string>(body, &body->text), std::string(tail), false});
    }
    std::string head = stream_start();
    const std::string* bytes = &body->text;
    auto& deflater = thread_gateway_deflater();
    if (deflater.stores(body->text)) {
      // A small body goes out as it is, in one stored block: no copy of it per body or per connection.
      GatewayDeflater::append_stored_header(head, body->text.size());
    } else {
      // A large one is deflated once for every connection it goes to.
      if (body->deflated.empty()) body->deflated = deflater.deflate(body->text);
      bytes = &body->deflated;
    }
    std::string stored_tail;  // the per-session tail, as it is
    stored_tail.reserve(tail.size() + 10);
    GatewayDeflater::append_stored(stored_tail, tail);
    channel_.send_frame(OutgoingFrame{std::move(head), std::shared_ptr<const std::string>(body, bytes),
                                      std::move(stored_tail), true});
  }
  void close(int code, std::string reason) override { channel_.close(code, std::move(reason)); }
  void drop() override { channel_.drop(); }

 private:
  // The zlib header before the connection's first message (gateway/gateway_deflater.hpp).
  std::string stream_start() {
    if (header_sent_) return {};
    header_sent_ = true;
    return std::string(GatewayDeflater::kStreamHeader);
  }

  EmulatorService& service_;
  WebSocketChannel& channel_;
  std::uint64_t id_ = 0;
  bool opened_ = false;
  bool compress_ = false;
  bool header_sent_ = false;
};

// The voice gateway on a WebSocket: JSON text frames and DAVE binary frames.
class VoiceEndpoint final : public WebSocketEndpoint, public VoiceGatewayPeer {
 public:
  VoiceEndpoint(EmulatorService& service, WebSocketChannel& channel) : service_(service), channel_(channel) {}
  ~VoiceEndpoint() override {
    if (opened_) service_.voice_disconnected(id_, std::nullopt);
  }
  VoiceEndpoint(const VoiceEndpoint&) = delete;
  VoiceEndpoint& operator=(const VoiceEndpoint&) = delete;

  void opened(std::string_view target) override {
    opened_ = true;
    id_ = service_.voice_opened(*this, target);
  }
  void received(std::string_view message, bool text) override { service_.voice_received(id_, message, text); }
  void disconnected(std::optional<int> close_code) override { service_.voice_disconnected(id_, close_code); }

  void send_text(std::string json) override { channel_.send_frame(std::move(json), false); }
  void send_binary(std::string bytes) override { channel_.send_frame(std::move(bytes), true); }
  void close(int code, std::string reason) override { channel_.close(code, std::move(reason)); }
  void drop() override { channel_.drop(); }

 private:
  EmulatorService& service_;
  WebSocketChannel& channel_;
  std::uint64_t id_ = 0;
  bool opened_ = false;
};

// The web console's live socket (/_emulator/ui/live, console/console_stream.hpp). A browser cannot add an
// Authorization header to a WebSocket, so the page's first message carries the admin token,
// {"admin_token": "..."}; then comes a snapshot of the documents, and each committed turn's changes. A wrong
// token, or anything else first, closes the socket with 4004 (the Gateway's "authentication failed"). Later
// messages are the inspector's (InspectorFeed): the event log, live, for a page that asks.
class ConsoleEndpoint final : public WebSocketEndpoint {
 public:
  ConsoleEndpoint(EmulatorService& service, WebSocketChannel& channel)
      : service_(service), channel_(channel) {}
  ~ConsoleEndpoint() override { stop_watching(); }
  ConsoleEndpoint(const ConsoleEndpoint&) = delete;
  ConsoleEndpoint& operator=(const ConsoleEndpoint&) = delete;

  void opened(std::string_view /*target*/) override {}
  void received(std::string_view message, bool text) override {
    if (authenticated_) {
      if (text && inspector_) inspector_->handle(message);  // anything else is ignored
      return;
    }
    if (!text || !service_.admin_access().accepts_token(console_admin_token(message))) {
      return channel_.close(4004, "Authentication failed.");
    }
    authenticated_ = true;
    inspector_ = std::make_unique<InspectorFeed>(
        service_.inspector(), [this](std::string frame) { channel_.send_frame(std::move(frame), false); });
    watch_ = service_.state_store().watch([this](const std::vector<DocumentChange>& changes) {
      if (console_changes_replace_all(changes)) {
        channel_.send_frame(console_snapshot_json(service_.changes()), false);
      } else if (auto json = console_changes_json(changes)) {
        channel_.send_frame(std::move(*json), false);
      }
    });
    channel_.send_frame(console_snapshot_json(service_.changes()), false);
  }
  void disconnected(std::optional<int> /*close_code*/) override { stop_watching(); }

 private:
  void stop_watching() {
    if (watch_ != 0) service_.state_store().unwatch(watch_);
    watch_ = 0;
    inspector_.reset();
  }

  EmulatorService& service_;
  WebSocketChannel& channel_;
  std::uint64_t watch_ = 0;
  std::unique_ptr<InspectorFeed> inspector_;
  bool authenticated_ = false;
};

}  // namespace platformpp::emulator::server_detail
