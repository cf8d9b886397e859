#pragma once
// The player's own rich presence and activity invites: validation, sending over the Gateway (op 3) or the
// desktop client (SET_ACTIVITY), re-sending after reconnects, and the invite and join callbacks.

#include "gateway/gateway_connection.hpp"

namespace platformpp::core {
class ClientCore;
}

namespace platformpp::presence {

class PresenceService {
 public:
  explicit PresenceService(core::ClientCore& core);
  ~PresenceService();
  PresenceService(const PresenceService&) = delete;
  PresenceService& operator=(const PresenceService&) = delete;

  /// The Gateway sink (network thread).
  void OnDispatch(const gateway::Dispatch& dispatch);

 private:
  core::ClientCore& core_;
};

}  // namespace platformpp::presence
