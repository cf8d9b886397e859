// What the event log sees of a connection's outbound side: a peer that records each frame, close and drop,
// then hands it to the real peer (the socket's). The service puts one in front of every Gateway, voice
// gateway and IPC connection while the log is on; the modules never know. A connection's id is only known
// once the module's opened() returns, after it may have sent Hello: what comes before is recorded then.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "events/event_log.hpp"
#include "gateway/gateway.hpp"
#include "ipc/ipc_peer.hpp"
#include "voice/voice_gateway.hpp"

namespace platformpp::emulator {

// The session and user a connection speaks for, as its module knows them now (empty when none): views of
// the module's own records, valid until the module next changes.
struct ConnectionOwner {
  std::string_view session;
  std::string_view user;
};
using OwnerLookup = std::function<ConnectionOwner(std::uint64_t connection)>;
// A number that changes whenever any connection's owner may have (empty: look the owner up every time).
using OwnerGeneration = std::function<std::uint64_t()>;

class LoggedConnection {
 public:
  LoggedConnection(EventLog& log, EventLog::Protocol protocol, OwnerLookup owner,
                   OwnerGeneration generation = {})
      : log_(log), protocol_(protocol), owner_(std::move(owner)), generation_(std::move(generation)) {}

  void set_id(std::uint64_t id) {
    id_ = id;
    auto early = std::move(early_);
    for (auto& record : early)
      record();
  }
  [[nodiscard]] std::uint64_t id() const noexcept { return id_; }

  // Records now, or once the id is known.
  template <class Record>
  void record(Record&& write) {
    if (id_ != 0) {
      const auto owner = lookup_owner();
      write(id_, owner);
    } else {
      early_.emplace_back([this, write = std::forward<Record>(write)]() mutable {
        const auto owner = lookup_owner();
        write(id_, owner);
      });
    }
  }

  EventLog& log() noexcept { return log_; }
  // The owner, looked up again only when the generation says it may have changed (a fan-out to a lobby's
  // members asks once per member per message).
  [[nodiscard]] ConnectionOwner lookup_owner() {
    if (!generation_) return owner_(id_);
    const auto now = generation_();
    if (!cached_ || now != cached_generation_) {
      cached_owner_ = owner_(id_);
      cached_generation_ = now;
      cached_ = true;
    }
    return cached_owner_;
  }
  [[nodiscard]] EventLog::Protocol protocol() const noexcept { return protocol_; }
  void record_close(int code, std::string_view reason) {
    record([this, code, reason = std::string(reason)](std::uint64_t id, const ConnectionOwner& owner) {
      log_.connection(protocol_, "close", id, owner.session, owner.user, code, reason);
    });
  }
  void record_drop() {
    record([this](std::uint64_t id, const ConnectionOwner& owner) {
      log_.connection(protocol_, "drop", id, owner.session, owner.user, std::nullopt, {});
    });
  }
  void record_text(std::string_view text) {
    // The common case without a copy: the id is known once opened() returned.
    if (id_ != 0) {
      const auto owner = lookup_owner();
      log_.frame(protocol_, EventLog::Direction::out, id_, owner.session, owner.user, text, true);
      return;
    }
    record([this, text = std::string(text)](std::uint64_t id, const ConnectionOwner& owner) {
      log_.frame(protocol_, EventLog::Direction::out, id, owner.session, owner.user, text, true);
    });
  }

 private:
  EventLog& log_;
  EventLog::Protocol protocol_;
  OwnerLookup owner_;
  OwnerGeneration generation_;
  bool cached_ = false;
  std::uint64_t cached_generation_ = 0;
  ConnectionOwner cached_owner_;
  std::uint64_t id_ = 0;
  std::vector<std::function<void()>> early_;
};

// What the Gateway's and the voice gateway's peers share: a close with its code, and a drop.
template <class Peer>
class LoggedClosablePeer : public Peer, public LoggedConnection {
 public:
  void close(int code, std::string reason) override {
    record_close(code, reason);
    inner_.close(code, std::move(reason));
  }
  void drop() override {
    record_drop();
    inner_.drop();
  }

 protected:
  LoggedClosablePeer(Peer& inner, EventLog& log, EventLog::Protocol protocol, OwnerLookup owner,
                     OwnerGeneration generation = {})
      : LoggedConnection(log, protocol, std::move(owner), std::move(generation)), inner_(inner) {}
  Peer& inner() noexcept { return inner_; }

 private:
  Peer& inner_;
};

class LoggedGatewayPeer final : public LoggedClosablePeer<GatewayPeer> {
 public:
  LoggedGatewayPeer(GatewayPeer& inner, EventLog& log, OwnerLookup owner, OwnerGeneration generation)
      : LoggedClosablePeer(inner, log, EventLog::Protocol::gateway, std::move(owner), std::move(generation)) {
  }
  void enable_compression() override { inner().enable_compression(); }
  void send(std::string json) override {
    record_text(json);
    inner().send(std::move(json));
  }
  void send_dispatch(const SharedDispatchBody& body, std::string_view tail) override {
    if (id() != 0) {
      const auto owner = lookup_owner();
      log().dispatch(id(), owner.session, owner.user, body, body->text, tail);
    } else {
      record([this, body, tail = std::string(tail)](std::uint64_t id, const ConnectionOwner& owner) {
        log().dispatch(id, owner.session, owner.user, body, body->text, tail);
      });
    }
    inner().send_dispatch(body, tail);
  }
};

class LoggedVoicePeer final : public LoggedClosablePeer<VoiceGatewayPeer> {
 public:
  LoggedVoicePeer(VoiceGatewayPeer& inner, EventLog& log, OwnerLookup owner)
      : LoggedClosablePeer(inner, log, EventLog::Protocol::voice, std::move(owner)) {}
  void send_text(std::string json) override {
    record_text(json);
    inner().send_text(std::move(json));
  }
  void send_binary(std::string bytes) override {
    // `u16 seq | u8 opcode | payload`: the opcode and the size.
    const int opcode = bytes.size() >= 3 ? static_cast<unsigned char>(bytes[2]) : -1;
    const auto size = bytes.size();
    record([this, opcode, size](std::uint64_t id, const ConnectionOwner& owner) {
      log().binary(protocol(), EventLog::Direction::out, id, owner.session, owner.user, opcode, size);
    });
    inner().send_binary(std::move(bytes));
  }
};

class LoggedIpcPeer final : public IpcPeer, public LoggedConnection {
 public:
  LoggedIpcPeer(IpcPeer& inner, EventLog& log, OwnerLookup owner)
      : LoggedConnection(log, EventLog::Protocol::ipc, std::move(owner)), inner_(inner) {}
  void send(std::string bytes) override {
    record_ipc_frame(*this, EventLog::Direction::out, bytes);
    inner_.send(std::move(bytes));
  }
  void close() override {
    record([this](std::uint64_t id, const ConnectionOwner& owner) {
      log().connection(protocol(), "close", id, owner.session, owner.user, std::nullopt, {});
    });
    inner_.close();
  }

  // An IPC frame is `u32 LE opcode | u32 LE length | JSON`: its JSON goes in as a frame (out) or text (in),
  // with the opcode. Bytes that are not a whole frame go in as their size.
  static void record_ipc_frame(LoggedConnection& connection, EventLog::Direction direction,
                               std::string_view bytes) {
    connection.record(
        [&connection, direction, bytes = std::string(bytes)](std::uint64_t id, const ConnectionOwner& owner) {
          if (bytes.size() < 8) {
            connection.log().binary(EventLog::Protocol::ipc, direction, id, owner.session, owner.user, -1,
                                    bytes.size());
            return;
          }
          const auto opcode = static_cast<int>(static_cast<unsigned char>(bytes[0]));
          connection.log().frame(EventLog::Protocol::ipc, direction, id, owner.session, owner.user,
                                 std::string_view(bytes).substr(8), direction == EventLog::Direction::out,
                                 opcode);
        });
  }

 private:
  IpcPeer& inner_;
};

}  // namespace platformpp::emulator
