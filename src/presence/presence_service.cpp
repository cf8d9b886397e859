#include "presence/presence_service.hpp"

#include "core/client_core.hpp"

namespace platformpp::presence {

PresenceService::PresenceService(core::ClientCore& core) : core_(core) {}
PresenceService::~PresenceService() = default;

void PresenceService::OnDispatch(const gateway::Dispatch&) {}

}  // namespace platformpp::presence
