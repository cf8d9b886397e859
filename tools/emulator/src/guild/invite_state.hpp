// Guild invites: the channel invites a bot makes (Create Channel Invite) and the single-use ones a lobby
// makes for one member (Create Lobby Channel Invite), one store for both, with the target-users job that
// processes an uploaded file on the fake clock. Plain data; the routes live in GuildModule
// (guild/invite_routes.cpp) and LobbyModule. Kept as documents of the kind "guild_invite" by code
// (invite_state.cpp): format 2; format 1 (a lobby's invite, from before channel invites) still loads.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::emulator {

class StateChanges;

namespace document_kind {
inline constexpr std::string_view kGuildInvite = "guild_invite";  // id: the code
}  // namespace document_kind

// The status codes of a target-users job (the platform's).
namespace target_users_job_status {
inline constexpr int kProcessing = 1;
inline constexpr int kCompleted = 2;
inline constexpr int kFailed = 3;
}  // namespace target_users_job_status

// A target-users job processes this many rows a second (fake clock), and takes at least a second: our figures
// (the platform says only that the job is asynchronous).
inline constexpr std::int64_t kTargetUsersRowsPerSecond = 1000;
inline constexpr std::int64_t kTargetUsersMinProcessingMs = 1000;

// The processing of an uploaded target-users file. Its outcome is known when it is uploaded; it shows (and
// the users apply) only once the fake clock reaches `ready_ms`.
struct TargetUsersJob {
  int status = target_users_job_status::kProcessing;
  std::int64_t created_ms = 0;
  std::int64_t ready_ms = 0;
  std::optional<std::int64_t> completed_ms{};  // when it completed (not when it failed: null then, as shown)
  std::int64_t total_users = 0;
  std::optional<std::string> error_message{};  // the failure's
  std::vector<std::string> user_ids{};         // applied to the invite on completion
};

// A guild invite.
struct GuildInvite {
  std::string code;
  std::string guild_id;
  std::string channel_id;
  // A lobby's invite: the one user who may use it (others are told it does not exist).
  std::optional<std::string> for_user_id{};
  std::optional<std::string> inviter_id{};
  std::int64_t created_ms = 0;  // fake clock
  std::int64_t max_age_s = 0;   // 0: never expires
  std::int64_t max_uses = 0;    // 0: unlimited
  std::int64_t uses = 0;
  bool temporary = false;
  std::optional<int> target_type{};
  std::optional<std::string> target_user_id{};
  std::optional<std::string> target_application_id{};
  std::vector<std::string> role_ids{};  // given to whoever accepts
  // Whether a target-users file was given: then only target_user_ids may see and accept it (nobody while the
  // first file is processed).
  bool targeted = false;
  std::vector<std::string> target_user_ids{};
  std::optional<TargetUsersJob> job{};

  [[nodiscard]] std::optional<std::int64_t> expires_ms() const {
    if (max_age_s == 0) return std::nullopt;
    return created_ms + max_age_s * 1000;
  }
  // Expired or used up at `now_ms`: it can no longer be used.
  [[nodiscard]] bool dead(std::int64_t now_ms) const {
    const auto expires = expires_ms();
    return (expires && now_ms >= *expires) || (max_uses != 0 && uses >= max_uses);
  }
};

// The processing time of a file of `rows` rows.
[[nodiscard]] std::int64_t target_users_processing_ms(std::size_t rows);

class InviteState {
 public:
  // Registers the document kind and from then on names every invite changed.
  void register_documents(StateChanges& changes);

  [[nodiscard]] const GuildInvite* find(std::string_view code) const;
  // The invite to change (named as changed), or null.
  [[nodiscard]] GuildInvite* find_mutable(std::string_view code);
  [[nodiscard]] bool contains(std::string_view code) const { return find(code) != nullptr; }
  const GuildInvite& add(GuildInvite invite);
  // Forgets the invite; false if there was none.
  bool erase(std::string_view code);
  // Forgets the invites that can no longer be used at `now_ms` (expired or used up), as the platform does.
  void prune(std::int64_t now_ms);
  // Ends the target-users jobs whose time has come at `now_ms`: the users of a completed one apply.
  void settle_jobs(std::int64_t now_ms);
  // Every invite by code.
  [[nodiscard]] const std::map<std::string, GuildInvite, std::less<>>& all() const noexcept {
    return invites_;
  }

 private:
  void touch(std::string_view code);

  StateChanges* changes_ = nullptr;
  std::map<std::string, GuildInvite, std::less<>> invites_;
};

}  // namespace platformpp::emulator
