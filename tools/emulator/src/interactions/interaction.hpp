// An interaction as the emulator keeps it while its token lives (developers/interactions/receiving-and-
// responding in the platform's API docs; the seed's "Commands and interactions"): who triggered it where,
// what was delivered, how the application answered, and the messages its token made.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/http_message.hpp"

namespace platformpp::emulator {

namespace interaction_type {
inline constexpr int kPing = 1;
inline constexpr int kApplicationCommand = 2;
inline constexpr int kMessageComponent = 3;
inline constexpr int kAutocomplete = 4;
inline constexpr int kModalSubmit = 5;
}  // namespace interaction_type

namespace callback_type {
inline constexpr int kPong = 1;
inline constexpr int kChannelMessageWithSource = 4;
inline constexpr int kDeferredChannelMessageWithSource = 5;
inline constexpr int kDeferredUpdateMessage = 6;
inline constexpr int kUpdateMessage = 7;
inline constexpr int kAutocompleteResult = 8;
inline constexpr int kModal = 9;
inline constexpr int kPremiumRequired = 10;  // deprecated (premium buttons replace it), still accepted
inline constexpr int kLaunchActivity = 12;
}  // namespace callback_type

namespace interaction_limit {
// The initial response must come within this time of the delivery (fake clock), else the token is void.
inline constexpr std::int64_t kInitialResponseMs = 3000;
// The token answers the webhook routes this long after the interaction (fake clock).
inline constexpr std::int64_t kTokenLifetimeMs = std::int64_t{15} * 60 * 1000;
// Follow-ups of an interaction authorized only by a user install (the seed's Limits).
inline constexpr std::size_t kUserInstallFollowups = 5;
inline constexpr std::size_t kAutocompleteChoicesMax = 25;
inline constexpr std::size_t kModalTitleMax = 45;
inline constexpr std::size_t kCustomIdMax = 100;
// The seed: 10 MiB per attachment from 16 January 2025 (it was 25 MiB).
inline constexpr std::int64_t kDefaultAttachmentSizeLimit = std::int64_t{10} * 1024 * 1024;
}  // namespace interaction_limit

// Message types the interaction responses create.
namespace message_type {
inline constexpr int kDefault = 0;
inline constexpr int kChatInputCommand = 20;
inline constexpr int kContextMenuCommand = 23;
}  // namespace message_type

struct Interaction {
  enum class Delivery { gateway, endpoint };

  std::string id;
  std::string app_id;
  std::string token;
  int type = interaction_type::kApplicationCommand;
  std::string user_id;
  std::string channel_id;
  std::optional<std::string> guild_id;
  int context = 0;
  std::string locale = "en-US";  // the invoking user's client language
  bool guild_installed = false;  // authorizing_integration_owners has "0"
  bool user_installed = false;   // authorizing_integration_owners has "1"
  std::int64_t created_ms = 0;   // fake clock
  Delivery delivery = Delivery::gateway;
  // Command interactions: the command's type (the response message's type).
  int command_type = 0;
  std::optional<std::string> target_user_id;     // USER commands
  std::optional<std::string> target_message_id;  // MESSAGE commands
  std::optional<std::string> source_message_id;  // components: the message the component is on
  // Modal submits: the interaction that opened the modal (its metadata names it).
  std::optional<std::string> triggering_interaction_id;

  // The initial response, once given.
  std::optional<int> response_type;
  std::optional<std::string> original_message_id;
  std::vector<std::string> followup_ids;
  // A MODAL response: {custom_id, title, components} as answered, for the user's submit.
  std::optional<std::string> modal_json;
  // LAUNCH_ACTIVITY: the activity instance it made.
  std::optional<std::string> activity_instance_id;

  // The admin request that triggered it waits for the initial response (or the deadline).
  std::shared_ptr<DeferredResponse> waiter;
  // The application's answer, as the admin request reports it: {type, data?}.
  std::optional<std::string> response_json;
  bool expired_unanswered = false;

  // Whether follow-ups are limited: authorized by a user install only.
  [[nodiscard]] bool user_install_only() const { return user_installed && !guild_installed; }
};

}  // namespace platformpp::emulator
