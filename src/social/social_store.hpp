#pragma once
// What the Client knows of users, relationships, presences and guilds, kept current from the Gateway's READY
// and dispatches. Written on the network thread (a Gateway sink), read from any thread under one mutex,
// which is never held while a callback runs.

#include "gateway/gateway_connection.hpp"

namespace platformpp::core {
class ClientCore;
}

namespace platformpp::social {

class SocialStore {
 public:
  explicit SocialStore(core::ClientCore& core);
  ~SocialStore();
  SocialStore(const SocialStore&) = delete;
  SocialStore& operator=(const SocialStore&) = delete;

  /// The Gateway sink (network thread): update the state, then queue the callbacks.
  void OnDispatch(const gateway::Dispatch& dispatch);

 private:
  core::ClientCore& core_;
};

}  // namespace platformpp::social
