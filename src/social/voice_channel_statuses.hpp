#pragma once
// The statuses of a guild's voice and stage channels ("Playing ranked, join us"), as the player's Gateway
// session can read them: op 43 Request Channel Info asks for the field `status`, the platform answers with
// one CHANNEL_INFO for the guild. The guild-channels list over HTTP does not carry them, so
// Client::GetGuildChannels asks here after its request and merges the answer into its voice channels. Without
// a Ready session, or without an answer within kAnswerTimeout, the statuses are unknown and the list goes out
// without them.

#include "core/retry_timer.hpp"
#include "core/runtime.hpp"
#include "gateway/dispatch.hpp"
#include "gateway/dispatch_router.hpp"
#include "gateway/gateway_connection.hpp"
#include "json/json.hpp"
#include "social/channel_info.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <string>

namespace platformpp::social {

class VoiceChannelStatuses {
 public:
  /// Each voice or stage channel the player can view: its status, or unset when it has none.
  using Statuses = std::map<uint64_t, std::optional<std::string>>;
  /// Gets the guild's statuses, or nullopt when they could not be read.
  using Done = std::function<void(std::optional<Statuses> statuses)>;

  /// How long a Fetch waits for CHANNEL_INFO.
  static constexpr std::chrono::milliseconds kAnswerTimeout{2000};

  VoiceChannelStatuses(core::Runtime& runtime, gateway::GatewayConnection& gateway);
  VoiceChannelStatuses(const VoiceChannelStatuses&) = delete;
  VoiceChannelStatuses& operator=(const VoiceChannelStatuses&) = delete;

  /// CHANNEL_INFO, the answer to op 43.
  static std::span<const gateway::DispatchClaim> DispatchClaims() noexcept;
  /// Ends the fetches waiting for the dispatch's guild (network thread).
  void OnDispatch(const gateway::Dispatch& dispatch);

  /// Asks the platform for `guildId`'s statuses; `done` runs once, on the network thread (or at once, on the
  /// calling thread, when the session is not Ready). Fetches of one guild that overlap share one answer.
  void Fetch(uint64_t guildId, Done done);
  /// Drops the waiting fetches uncalled (their completions report ClientDestroyed); none starts after.
  void Shutdown();

 private:
  /// Ends the fetch `ticket` with nullopt if it still waits.
  void Expire(uint64_t ticket);

  core::Runtime& runtime_;
  gateway::GatewayConnection& gateway_;
  core::RetryTimer timer_;
  std::mutex mutex_;
  bool shutDown_ = false;
  uint64_t nextTicket_ = 1;
  struct Waiting {
    uint64_t guildId = 0;
    Done done;
  };
  std::map<uint64_t, Waiting> waiting_;  // by ticket
};

}  // namespace platformpp::social
