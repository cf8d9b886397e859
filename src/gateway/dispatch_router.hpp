#pragma once
// Which feature reads which Gateway dispatch. Each feature claims the events it consumes, naming what it
// takes from each (its meaning); a dispatch reaches only the features that claimed its event, in the order
// they were added. One owner per meaning: a second claim of an event with the same meaning is refused when
// the table is built, so two features cannot both decide what one thing in a dispatch means.

#include "gateway/dispatch.hpp"

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::gateway {

/// One event a feature consumes. Both views must outlive the router (features declare them as constant
/// tables).
struct DispatchClaim {
  std::string_view event;    ///< the dispatch's `t`, e.g. "LOBBY_UPDATE"
  std::string_view meaning;  ///< what the feature takes from it, e.g. "lobby member"; unique per event
};

/// The index of `event` in `claims`, if claimed: how a feature's OnDispatch turns a dispatch into its own
/// enumerator (its claims table is in the enum's order).
std::optional<std::size_t> FindClaim(std::span<const DispatchClaim> claims, std::string_view event);

class DispatchRouter {
 public:
  using Handler = std::function<void(const Dispatch&)>;

  /// Adds a feature with the events it claims. Throws std::logic_error when it claims an event twice, or
  /// an event with a meaning another feature owns already. Call before the Gateway connects.
  void Add(std::string_view feature, std::span<const DispatchClaim> claims, Handler handler);

  /// Hands the dispatch to each feature that claimed its event, in the order they were added (network
  /// thread).
  void Route(const Dispatch& dispatch) const;

  /// Who reads one event: the feature and the meaning it claimed, in routing order.
  struct Owner {
    std::string_view feature;
    std::string_view meaning;
  };
  std::vector<Owner> OwnersOf(std::string_view event) const;
  /// Every claimed event, sorted.
  std::vector<std::string_view> Events() const;
  /// The features, in the order they were added.
  std::vector<std::string_view> Features() const;

 private:
  struct Feature {
    std::string name;
    Handler handler;
  };
  struct Target {
    std::size_t feature;  // index in features_
    std::string_view meaning;
  };
  std::vector<Feature> features_;
  std::map<std::string, std::vector<Target>, std::less<>> routes_;
};

}  // namespace platformpp::gateway
