#include "gateway/dispatch_router.hpp"

#include <stdexcept>

namespace platformpp::gateway {

std::optional<std::size_t> FindClaim(std::span<const DispatchClaim> claims, std::string_view event) {
  for (std::size_t i = 0; i < claims.size(); ++i)
    if (claims[i].event == event) return i;
  return std::nullopt;
}

void DispatchRouter::Add(std::string_view feature, std::span<const DispatchClaim> claims, Handler handler) {
  const std::size_t index = features_.size();
  // Checked in full before anything is added: a refused feature leaves the table as it was.
  for (std::size_t i = 0; i < claims.size(); ++i) {
    const DispatchClaim& claim = claims[i];
    if (FindClaim(claims.first(i), claim.event))
      throw std::logic_error(std::string(feature) + " claims " + std::string(claim.event) + " twice");
    auto route = routes_.find(claim.event);
    if (route == routes_.end()) continue;
    for (const Target& target : route->second) {
      if (target.meaning == claim.meaning) {
        throw std::logic_error(std::string(feature) + " claims " + std::string(claim.event) + " for \"" +
                               std::string(claim.meaning) + "\", which " + features_[target.feature].name +
                               " owns");
      }
    }
  }
  features_.push_back({std::string(feature), std::move(handler)});
  for (const DispatchClaim& claim : claims) {
    auto route = routes_.find(claim.event);
    if (route == routes_.end())
      route = routes_.emplace(std::string(claim.event), std::vector<Target>()).first;
    route->second.push_back({index, claim.meaning});
  }
}

void DispatchRouter::Route(const Dispatch& dispatch) const {
  auto route = routes_.find(dispatch.type);
  if (route == routes_.end()) return;  // an event no feature reads
  for (const Target& target : route->second)
    features_[target.feature].handler(dispatch);
}

std::vector<DispatchRouter::Owner> DispatchRouter::OwnersOf(std::string_view event) const {
  std::vector<Owner> owners;
  if (auto route = routes_.find(event); route != routes_.end()) {
    for (const Target& target : route->second)
      owners.push_back({features_[target.feature].name, target.meaning});
  }
  return owners;
}

std::vector<std::string_view> DispatchRouter::Events() const {
  std::vector<std::string_view> events;
  for (const auto& [event, targets] : routes_)
    events.emplace_back(event);
  return events;
}

std::vector<std::string_view> DispatchRouter::Features() const {
  std::vector<std::string_view> names;
  for (const Feature& feature : features_)
    names.emplace_back(feature.name);
  return names;
}

}  // namespace platformpp::gateway
