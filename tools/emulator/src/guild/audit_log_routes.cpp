// GET /guilds/{guild_id}/audit-logs (VIEW_AUDIT_LOG): the entries newest first, or oldest first with
// `after`; filtered by user_id and action_type; limit 1..100 (50). The users the entries name come along;
// the emulator has no integrations, webhooks, threads or scheduled events to reference, so those lists are
// empty. Entries are appended by GuildModule::audit(), which also dispatches GUILD_AUDIT_LOG_ENTRY_CREATE.
#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "core/json.hpp"
#include "core/query_params.hpp"
#include "core/snowflake.hpp"
#include "core/user_json.hpp"
#include "guild/guild_module.hpp"
#include "guild/permissions.hpp"

namespace platformpp::emulator {

namespace {

constexpr std::int64_t kAuditLogLimitDefault = 50;
constexpr std::int64_t kAuditLogLimitMax = 100;

}  // namespace

void GuildModule::register_audit_log_routes() {
  api_router_.add("GET", "/guilds/{guild_id}/audit-logs", bind(&GuildModule::api_get_audit_log));
}

void GuildModule::audit(const Guild& guild, const HttpRequest& request, const std::string& user_id,
                        AuditLogEntry entry) {
  entry.reason = audit_log_reason(request);
  audit(guild, user_id, std::move(entry));
}

void GuildModule::audit(const Guild& guild, const std::string& user_id, AuditLogEntry entry) {
  entry.id = snowflakes_.next_string();
  entry.user_id = user_id;
  const auto now = clock_.now_ms();
  const auto d = audit_log_entry_json(entry, guild.id);
  guilds_.append_audit_entry(guild.id, std::move(entry), now);
  std::vector<std::string> targets;
  for (const auto& [session_id, session] : gateway_.sessions()) {
    if (!session.bot || !guild.has_member(session.user_id) || !guild_in_shard(session, guild.id) ||
        (session.intents & gateway_intent::kGuildModeration) == 0 ||
        (base_permissions(guild, session.user_id, now) & permission::kViewAuditLog) == 0) {
      continue;
    }
    targets.push_back(session_id);
  }
  for (const auto& session_id : targets)
    gateway_.dispatch(session_id, "GUILD_AUDIT_LOG_ENTRY_CREATE", d);
}

HttpResponse GuildModule::api_get_audit_log(const RouteContext& context) {
  auto found = guild_caller(context, permission::kViewAuditLog);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& guild = *std::get<GuildCaller>(found).guild;
  const auto query = FormFields::parse(query_of(context.request));
  if (!query) return status_error(400);
  FieldErrors errors;
  const auto user_id = query_snowflake(*query, "user_id", errors);
  const auto action_type = query_integer(*query, "action_type", 0, 1000, errors);
  const auto before = query_snowflake(*query, "before", errors);
  const auto after = query_snowflake(*query, "after", errors);
  const auto limit =
      query_integer(*query, "limit", 1, kAuditLogLimitMax, errors).value_or(kAuditLogLimitDefault);
  if (!errors.empty()) return invalid_form_body(errors);

  // Entries are kept oldest first; the retention applies at reading too.
  const auto now = clock_.now_ms();
  std::vector<const AuditLogEntry*> matching;
  for (const auto& entry : guilds_.audit_log(guild.id)) {
    if (decode_snowflake(std::stoull(entry.id)).timestamp_ms + kAuditLogRetentionMs <= now) continue;
    if (user_id && entry.user_id != *user_id) continue;
    if (action_type && entry.action_type != *action_type) continue;
    if (before && !snowflake_less(entry.id, *before)) continue;
    if (after && !snowflake_less(*after, entry.id)) continue;
    matching.push_back(&entry);
  }
  // With `after` (and not `before`): the oldest after it, ascending; otherwise the newest, descending.
  const auto n = std::min(matching.size(), static_cast<std::size_t>(limit));
  std::vector<const AuditLogEntry*> page;
  if (after && !before) {
    page.assign(matching.begin(), matching.begin() + static_cast<std::ptrdiff_t>(n));
  } else {
    page.assign(matching.rbegin(), matching.rbegin() + static_cast<std::ptrdiff_t>(n));
  }

  std::set<std::string> user_ids;
  for (const auto* entry : page) {
    if (entry->user_id) user_ids.insert(*entry->user_id);
    if (entry->target_id && state_.find_user(*entry->target_id) != nullptr)
      user_ids.insert(*entry->target_id);
  }
  return HttpResponse::json(
      200, to_json([&](JsonWriter& writer) {
        writer.StartObject();
        writer.Key("audit_log_entries");
        writer.StartArray();
        for (const auto* entry : page)
          write_raw(writer, audit_log_entry_json(*entry), rapidjson::kObjectType);
        writer.EndArray();
        writer.Key("users");
        writer.StartArray();
        for (const auto& id : user_ids) {
          if (const auto* user = state_.find_user(id))
            write_raw(writer, user_json(*user), rapidjson::kObjectType);
        }
        writer.EndArray();
        for (const char* empty : {"application_commands", "auto_moderation_rules", "guild_scheduled_events",
                                  "integrations", "threads", "webhooks"}) {
          writer.Key(empty);
          writer.StartArray();
          writer.EndArray();
        }
        writer.EndObject();
      }));
}

}  // namespace platformpp::emulator
