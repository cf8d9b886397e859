#include "social/voice_channel_statuses.hpp"

#include "json/json.hpp"

#include <array>
#include <utility>
#include <vector>

namespace platformpp::social {

namespace {

constexpr std::array<gateway::DispatchClaim, 1> kStatusClaims{{{"CHANNEL_INFO", "voice channel statuses"}}};

// op 43 for the one field the SDK reads.
std::string RequestChannelInfo(uint64_t guildId) {
  return R"({"op":43,"d":{"guild_id":")" + std::to_string(guildId) + R"(","fields":["status"]}})";
}

}  // namespace

VoiceChannelStatuses::VoiceChannelStatuses(core::Runtime& runtime, gateway::GatewayConnection& gateway)
    : runtime_(runtime), gateway_(gateway), timer_(runtime.Io()) {}

std::span<const gateway::DispatchClaim> VoiceChannelStatuses::DispatchClaims() noexcept {
  return kStatusClaims;
}

void VoiceChannelStatuses::OnDispatch(const gateway::Dispatch& dispatch) {
  if (!gateway::FindClaim(kStatusClaims, dispatch.type)) return;
  const json::Value* data = dispatch.DataOrWarn(runtime_.Log());
  if (data == nullptr) return;
  auto info = ParseChannelInfo(*data);
  if (!info) {
    runtime_.Log().Warning("CHANNEL_INFO without a guild_id, ignored");
    return;
  }
  const uint64_t guildId = info->guildId;
  const Statuses& statuses = info->statuses;
  std::vector<Done> ended;
  {
    std::lock_guard lock(mutex_);
    for (auto it = waiting_.begin(); it != waiting_.end();) {
      if (it->second.guildId == guildId) {
        ended.push_back(std::move(it->second.done));
        it = waiting_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& done : ended)
    done(statuses);
}

void VoiceChannelStatuses::Fetch(uint64_t guildId, Done done) {
  if (gateway_.CurrentStatus() != ClientStatus::Ready) return done(std::nullopt);
  uint64_t ticket = 0;
  bool ask = true;
  {
    std::lock_guard lock(mutex_);
    if (shutDown_) return;  // `done` dropped: its completion reports ClientDestroyed
    for (const auto& entry : waiting_)
      ask = ask && entry.second.guildId != guildId;  // one question answers every fetch of the guild
    ticket = nextTicket_++;
    waiting_.emplace(ticket, Waiting{guildId, std::move(done)});
  }
  timer_.After(kAnswerTimeout, [this, ticket] { Expire(ticket); });
  if (ask) {
    gateway_.Send(RequestChannelInfo(guildId), [this, ticket](bool sent) {
      if (!sent) Expire(ticket);
    });
  }
}

void VoiceChannelStatuses::Expire(uint64_t ticket) {
  Done done;
  {
    std::lock_guard lock(mutex_);
    const auto it = waiting_.find(ticket);
    if (it == waiting_.end()) return;
    done = std::move(it->second.done);
    waiting_.erase(it);
  }
  runtime_.Log().Info("GetGuildChannels: no CHANNEL_INFO came; the voice channel statuses are left out");
  done(std::nullopt);
}

void VoiceChannelStatuses::Shutdown() {
  timer_.Shutdown();
  std::map<uint64_t, Waiting> dropped;
  {
    std::lock_guard lock(mutex_);
    shutDown_ = true;
    dropped.swap(waiting_);
  }
}

}  // namespace platformpp::social
