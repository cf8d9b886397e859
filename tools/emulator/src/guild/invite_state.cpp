// InviteState's changes and its documents: one per invite, by code. Format 2 holds every field of a channel
// invite and its target-users job; format 1 is a lobby's single-use invite as the emulator kept it before
// ({guild_id, channel_id, user_id, expires_ms, used}), read as one: for that user, one use, an hour long.
#include "guild/invite_state.hpp"

#include <algorithm>

#include "core/document_json.hpp"
#include "core/state_changes.hpp"

namespace platformpp::emulator {

namespace {

constexpr std::int64_t kInviteFormat = 2;
constexpr std::int64_t kLobbyInviteAgeS = 3600;  // a format-1 invite's: the lobby invite's hour

std::string invite_document(const GuildInvite& invite) {
  return document::document_json(
      [&](JsonWriter& writer) {
        document::write_member(writer, "guild_id", invite.guild_id);
        document::write_member(writer, "channel_id", invite.channel_id);
        document::write_member(writer, "for_user_id", invite.for_user_id);
        document::write_member(writer, "inviter_id", invite.inviter_id);
        document::write_member(writer, "created_ms", invite.created_ms);
        document::write_member(writer, "max_age_s", invite.max_age_s);
        document::write_member(writer, "max_uses", invite.max_uses);
        document::write_member(writer, "uses", invite.uses);
        if (invite.temporary) document::write_member(writer, "temporary", true);
        if (invite.target_type) document::write_member(writer, "target_type", *invite.target_type);
        document::write_member(writer, "target_user_id", invite.target_user_id);
        document::write_member(writer, "target_application_id", invite.target_application_id);
        if (!invite.role_ids.empty()) document::write_member(writer, "role_ids", invite.role_ids);
        if (invite.targeted) {
          document::write_member(writer, "targeted", true);
          document::write_member(writer, "target_user_ids", invite.target_user_ids);
        }
        if (invite.job) {
          const auto& job = *invite.job;
          writer.Key("job");
          writer.StartObject();
          document::write_member(writer, "status", job.status);
          document::write_member(writer, "created_ms", job.created_ms);
          document::write_member(writer, "ready_ms", job.ready_ms);
          document::write_member(writer, "completed_ms", job.completed_ms);
          document::write_member(writer, "total_users", job.total_users);
          document::write_member(writer, "error_message", job.error_message);
          // Only a job still processing needs its users: a completed one's are the invite's.
          if (job.status == target_users_job_status::kProcessing)
            document::write_member(writer, "user_ids", job.user_ids);
          writer.EndObject();
        }
      },
      kInviteFormat);
}

GuildInvite read_invite(const std::string& code, const rapidjson::Value& body) {
  document::check_format(body, kInviteFormat);
  GuildInvite invite;
  invite.code = code;
  invite.guild_id = document::string(body, "guild_id");
  invite.channel_id = document::string(body, "channel_id");
  if (document::integer(body, "v") == 1) {
    // A lobby's invite as format 1 kept it.
    invite.for_user_id = document::string(body, "user_id");
    invite.max_age_s = kLobbyInviteAgeS;
    invite.created_ms = document::integer(body, "expires_ms") - kLobbyInviteAgeS * 1000;
    invite.max_uses = 1;
    invite.uses = document::boolean_or(body, "used", false) ? 1 : 0;
    return invite;
  }
  invite.for_user_id = document::optional_string(body, "for_user_id");
  invite.inviter_id = document::optional_string(body, "inviter_id");
  invite.created_ms = document::integer(body, "created_ms");
  invite.max_age_s = document::integer_or(body, "max_age_s", 0);
  invite.max_uses = document::integer_or(body, "max_uses", 0);
  invite.uses = document::integer_or(body, "uses", 0);
  invite.temporary = document::boolean_or(body, "temporary", false);
  if (const auto type = document::optional_integer(body, "target_type"))
    invite.target_type = static_cast<int>(*type);
  invite.target_user_id = document::optional_string(body, "target_user_id");
  invite.target_application_id = document::optional_string(body, "target_application_id");
  invite.role_ids = document::strings(body, "role_ids");
  invite.targeted = document::boolean_or(body, "targeted", false);
  invite.target_user_ids = document::strings(body, "target_user_ids");
  if (body.HasMember("job") && !body["job"].IsNull()) {
    const auto& value = document::object(body, "job");
    TargetUsersJob job;
    job.status = static_cast<int>(document::integer(value, "status"));
    job.created_ms = document::integer(value, "created_ms");
    job.ready_ms = document::integer(value, "ready_ms");
    job.completed_ms = document::optional_integer(value, "completed_ms");
    job.total_users = document::integer(value, "total_users");
    job.error_message = document::optional_string(value, "error_message");
    job.user_ids = document::strings(value, "user_ids");
    invite.job = std::move(job);
  }
  return invite;
}

}  // namespace

std::int64_t target_users_processing_ms(std::size_t rows) {
  const auto seconds =
      (static_cast<std::int64_t>(rows) + kTargetUsersRowsPerSecond - 1) / kTargetUsersRowsPerSecond;
  return std::max(kTargetUsersMinProcessingMs, seconds * 1000);
}

const GuildInvite* InviteState::find(std::string_view code) const {
  const auto it = invites_.find(code);
  return it == invites_.end() ? nullptr : &it->second;
}

GuildInvite* InviteState::find_mutable(std::string_view code) {
  const auto it = invites_.find(code);
  if (it == invites_.end()) return nullptr;
  touch(code);
  return &it->second;
}

const GuildInvite& InviteState::add(GuildInvite invite) {
  touch(invite.code);
  auto code = invite.code;
  return invites_.insert_or_assign(std::move(code), std::move(invite)).first->second;
}

bool InviteState::erase(std::string_view code) {
  const auto it = invites_.find(code);
  if (it == invites_.end()) return false;
  touch(code);
  invites_.erase(it);
  return true;
}

void InviteState::prune(std::int64_t now_ms) {
  for (auto it = invites_.begin(); it != invites_.end();) {
    if (!it->second.dead(now_ms)) {
      ++it;
      continue;
    }
    touch(it->first);
    it = invites_.erase(it);
  }
}

void InviteState::settle_jobs(std::int64_t now_ms) {
  for (auto& [code, invite] : invites_) {
    if (!invite.job || invite.job->status != target_users_job_status::kProcessing ||
        now_ms < invite.job->ready_ms)
      continue;
    auto& job = *invite.job;
    touch(code);
    if (job.error_message) {
      job.status = target_users_job_status::kFailed;
    } else {
      job.status = target_users_job_status::kCompleted;
      job.completed_ms = job.ready_ms;  // when it completed on the fake clock, whenever this runs
      invite.target_user_ids = std::move(job.user_ids);
      job.user_ids.clear();
    }
  }
}

void InviteState::touch(std::string_view code) {
  if (changes_ != nullptr) changes_->touch(document_kind::kGuildInvite, code);
}

void InviteState::register_documents(StateChanges& changes) {
  changes_ = &changes;
  changes.register_kind(
      DocumentKind{std::string(document_kind::kGuildInvite),
                   [this](const std::string& code) -> std::optional<std::string> {
                     const auto* invite = find(code);
                     return invite == nullptr ? std::nullopt : std::optional(invite_document(*invite));
                   },
                   [this](const std::string& code, const rapidjson::Value& body) {
                     invites_.insert_or_assign(code, read_invite(code, body));
                   },
                   [this] { return document::keys_of(invites_); }, [this] { invites_.clear(); }});
}

}  // namespace platformpp::emulator
