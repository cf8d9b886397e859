#pragma once
// AutoMod rules on the wire: the rule object the platform answers with (read leniently, as
// platformpp/guild_automod.hpp promises) and the body CreateAutoModRule and ModifyAutoModRule send.

#include "json/json.hpp"

#include <platformpp/guild_automod.hpp>

#include <optional>
#include <string>
#include <vector>

namespace platformpp::backend {

/// A rule object; nullopt when `value` is not an object.
std::optional<AutoModRule> ParseAutoModRuleValue(const json::Value& value);

/// A list of rule objects; nullopt when `value` is not an array of objects.
std::optional<std::vector<AutoModRule>> ParseAutoModRules(const json::Value& value);

/// The JSON object CreateAutoModRule (`creating`, which sends the trigger type) or ModifyAutoModRule sends:
/// only the fields `changes` sets.
std::string AutoModRuleBody(const AutoModRuleChanges& changes, bool creating);

}  // namespace platformpp::backend
