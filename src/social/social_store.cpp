#include "social/social_store.hpp"

#include "core/client_core.hpp"

namespace platformpp::social {

SocialStore::SocialStore(core::ClientCore& core) : core_(core) {}
SocialStore::~SocialStore() = default;

void SocialStore::OnDispatch(const gateway::Dispatch&) {}

}  // namespace platformpp::social
