// The desktop-client stand-in on IPC (ipc/, docs/ipc-protocol.md): the handshake, the RPC commands a game's
// SDK sends (AUTHORIZE and AUTHENTICATE through the consent of auth/, SUBSCRIBE/UNSUBSCRIBE, SET_ACTIVITY,
// whose activity becomes part of the desktop client's user's presence, START_PURCHASE through premium/), and
// the admin routes under
// /_emulator/ipc. The server implements IpcPeer and IpcListenerControl (ipc_peer.hpp) and reports socket
// events here.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "auth/auth_module.hpp"
#include "core/json.hpp"
#include "core/service_context.hpp"
#include "ipc/ipc_codec.hpp"
#include "ipc/ipc_peer.hpp"
#include "premium/premium_module.hpp"
#include "presence/presence_module.hpp"

namespace platformpp::emulator {

class IpcModule : public FeatureModule, public DesktopActivities {
 public:
  IpcModule(ServiceContext& context, PresenceModule& presence, AuthModule& auth, PremiumModule& premium);

  // `listener` is null when IPC is off (--no-ipc).
  void set_listener(IpcListenerControl* listener) noexcept { listener_ = listener; }
  // Registers a freshly accepted peer; the returned id names it in the calls below.
  std::uint64_t connected(IpcPeer& peer);
  // Bytes read from the peer: frames are decoded and answered; protocol errors close the connection.
  void received(std::uint64_t id, std::string_view bytes);
  // The peer is gone (end of stream, error or destruction). A no-op for connections the module closed.
  void disconnected(std::uint64_t connection);
  [[nodiscard]] std::size_t connection_count() const noexcept { return connections_.size(); }
  // Sees each whole frame a client sent, before it is handled: the event log's.
  using FrameListener = std::function<void(std::uint64_t connection, const IpcFrame& frame)>;
  void set_frame_listener(FrameListener listener) { frame_listener_ = std::move(listener); }

  // DesktopActivities: what the desktop client's connections set for the user (SET_ACTIVITY).
  [[nodiscard]] std::vector<std::string> desktop_activities(std::string_view user_id) const override;

 private:
  // A command's answer: `data` (JSON text), or an ERROR with an RPC error code.
  struct IpcReply {
    std::string data = "null";
    int error = 0;  // 0 = success
    std::string message;
  };

  void handle_frame(std::uint64_t id, const IpcFrame& frame);
  void handshake(std::uint64_t id, const rapidjson::Document& payload);
  void command(std::uint64_t id, const rapidjson::Document& payload);
  // Sends CLOSE {code, message} (unless code is 0), then closes and forgets the connection.
  void close_connection(std::uint64_t id, int code, std::string_view message);
  void send_frame(std::uint64_t id, std::string_view payload);
  IpcReply command_authorize(const IpcConnection& connection, const rapidjson::Value* args);
  IpcReply command_authenticate(const IpcConnection& connection, const rapidjson::Value* args);
  IpcReply command_subscribe(IpcConnection& connection, const rapidjson::Value& payload, bool subscribe);
  IpcReply command_set_activity(std::uint64_t id, IpcConnection& connection, const rapidjson::Value* args);
  // The desktop client's checkout for its logged-in user, completed headless by premium/.
  IpcReply command_start_purchase(const IpcConnection& connection, const rapidjson::Value* args);
  // A closed connection's activity leaves its user's presence.
  void forget_activity(std::uint64_t connection);
  HttpResponse admin_status(const RouteContext& context);
  HttpResponse admin_authorize_request(const RouteContext& context);
  // The player joins from the desktop client: ACTIVITY_JOIN {secret} to every subscribed connection.
  HttpResponse admin_activity_join(const RouteContext& context);
  HttpResponse admin_drop(const RouteContext& context);
  HttpResponse admin_restore(const RouteContext& context);
  HttpResponse admin_close(const RouteContext& context);

  PresenceModule& presence_;
  AuthModule& auth_;
  PremiumModule& premium_;
  IpcListenerControl* listener_ = nullptr;
  std::map<std::uint64_t, IpcConnection> connections_;
  std::uint64_t next_connection_ = 1;
  FrameListener frame_listener_;
  std::uint64_t handshakes_ = 0;  // successful handshakes since start (GET /_emulator/ipc)
  // IPC connections whose SET_ACTIVITY is part of a user's presence: connection id -> user id (the desktop
  // client's logged-in user when it was set).
  std::map<std::uint64_t, std::string> activity_users_;
};

}  // namespace platformpp::emulator
