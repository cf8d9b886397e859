// Guilds (guild/): roles with permission bits, members with roles, channels with permission overwrites,
// seeded through the admin API; GET /users/@me/guilds and /guilds/{id}/channels; READY's guilds,
// GUILD_CREATE, CHANNEL_*, op 8, op 31 and op 43 on the Gateway. Lobbies (linked channels, invites) and DMs
// (the shared-guild rule) read the guilds it owns.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "auth/guild_install.hpp"
#include "core/service_context.hpp"
#include "gateway/gateway_module.hpp"
#include "guild/guild_state.hpp"
#include "guild/guild_voice.hpp"
#include "guild/invite_state.hpp"
#include "guild/soundboard.hpp"
#include "voice/guild_voice_states.hpp"

namespace platformpp::emulator {

class GuildModule : public FeatureModule,
                    public GatewayListener,
                    public GuildInstalls,
                    public GuildVoiceStates {
 public:
  GuildModule(ServiceContext& context, GatewayModule& gateway);

  [[nodiscard]] GuildState& guilds() noexcept { return guilds_; }
  [[nodiscard]] const GuildState& guilds() const noexcept { return guilds_; }

  // GatewayListener: READY's guilds, then a bot's GUILD_CREATEs.
  void fill_ready(const GatewaySession& session, ReadyContent& ready) override;
  void session_ready(const GatewaySession& session) override;

  // GuildInstalls (guild_install.cpp): OAuth2 installs of an application's bot.
  [[nodiscard]] Check may_install(const std::string& guild_id, const std::string& user_id) const override;
  std::string install_bot(const Application& app, const std::string& guild_id,
                          std::uint64_t permissions) override;
  [[nodiscard]] std::optional<std::string> guild_json(const std::string& guild_id) const override;
  [[nodiscard]] std::size_t guild_count(const std::string& user_id) const override;

  // Appends `entry` to the guild's audit log as an action of `user_id` (the id a snowflake of now, the
  // reason the request's X-Audit-Log-Reason), and dispatches GUILD_AUDIT_LOG_ENTRY_CREATE to the guild's
  // bots that have VIEW_AUDIT_LOG and the GUILD_MODERATION intent (audit_log_routes.cpp).
  void audit(const Guild& guild, const HttpRequest& request, const std::string& user_id, AuditLogEntry entry);
  // The same for an action no request asked for (AutoMod's): no reason.
  void audit(const Guild& guild, const std::string& user_id, AuditLogEntry entry);

  // AutoMod (automod_routes.cpp).
  // The guild's enabled rules of `event_type` that apply to `user_id` in `channel` (null: no channel):
  // not when the rule exempts one of the member's roles or the channel, nor for members with ADMINISTRATOR
  // or MANAGE_GUILD (whom the platform exempts from every rule).
  [[nodiscard]] std::vector<const AutoModRule*> automod_rules_for(const Guild& guild,
                                                                  const GuildChannel* channel,
                                                                  const std::string& user_id,
                                                                  int event_type) const;
  // An action AutoMod executed: AUTO_MODERATION_ACTION_EXECUTION to the guild's bots with the
  // AUTO_MODERATION_EXECUTION intent and MANAGE_GUILD (content and matched_content only with
  // MESSAGE_CONTENT), the audit entry of BLOCK_MESSAGE (143), TIMEOUT (145) and BLOCK_MEMBER_INTERACTION
  // (146), and a TIMEOUT's timeout of the member.
  struct AutoModExecution {
    const AutoModRule* rule = nullptr;
    const AutoModAction* action = nullptr;
    std::string user_id;
    const GuildChannel* channel = nullptr;
    std::optional<std::string> message_id{};
    std::optional<std::string> alert_system_message_id{};
    std::string content;
    AutoModMatch match;
  };
  void automod_executed(const Guild& guild, const AutoModExecution& execution);
  // Checks the member's profile (nick, username, global name, bio) against the MEMBER_PROFILE rules: a match
  // quarantines the member (BLOCK_MEMBER_INTERACTION), a clean profile lifts an AutoMod quarantine;
  // GUILD_MEMBER_UPDATE when that changes.
  void check_member_profile(const std::string& guild_id, const std::string& user_id);

 private:
  // Routes (guild_routes.cpp).
  void register_routes();
  HttpResponse api_get_current_user_guilds(const RouteContext& context);
  HttpResponse api_get_guild_channels(const RouteContext& context);
  HttpResponse api_create_guild(const RouteContext& context);
  HttpResponse admin_create_guild(const RouteContext& context);
  HttpResponse admin_add_guild_member(const RouteContext& context);
  HttpResponse admin_create_role(const RouteContext& context);
  HttpResponse admin_create_channel(const RouteContext& context);
  HttpResponse admin_update_channel(const RouteContext& context);
  HttpResponse admin_delete_channel(const RouteContext& context);

  // The API's guild routes (role_routes.cpp): a bot in the guild, with the permissions a route needs.
  struct GuildCaller {
    const Guild* guild = nullptr;  // a mutating route asks GuildState for the mutable one (the state file)
    std::string user_id;
    std::uint64_t permissions = 0;  // guild-wide
  };
  // The caller and its guild ({guild_id}), or the error: 401, 404 10004, 403 50001 (not a bot in it), 403
  // 50013 (lacking any bit of `needs`).
  std::variant<GuildCaller, HttpResponse> guild_caller(const RouteContext& context, std::uint64_t needs);
  // A guild event to the sessions of its members (bots: on the guild's shard, with the GUILDS intent).
  void guild_dispatch(const Guild& guild, std::string_view type, const std::string& d_json);
  // GUILD_ROLE_CREATE or GUILD_ROLE_UPDATE {guild_id, role}.
  void role_dispatch(const Guild& guild, std::string_view type, const GuildRole& role);
  // Applies a create or modify body to `role`: name, permissions (only bits the caller has may be added:
  // else the 403 answered), color, colors, hoist, mentionable, icon, unicode_emoji. Field errors go to
  // `errors`; a refusal that is not a 50035 is returned.
  std::optional<HttpResponse> read_role_fields(const rapidjson::Value& body, const GuildCaller& caller,
                                               GuildRole& role, FieldErrors& errors);
  void register_role_routes();
  HttpResponse api_list_roles(const RouteContext& context);
  HttpResponse api_get_role(const RouteContext& context);
  HttpResponse api_role_member_counts(const RouteContext& context);
  HttpResponse api_create_role(const RouteContext& context);
  HttpResponse api_modify_role(const RouteContext& context);
  HttpResponse api_modify_role_positions(const RouteContext& context);
  HttpResponse api_delete_role(const RouteContext& context);

  // The audit log (audit_log_routes.cpp).
  void register_audit_log_routes();
  HttpResponse api_get_audit_log(const RouteContext& context);

  // Channels through the API (channel_routes.cpp): a bot in the channel's guild that can view it.
  struct ChannelCaller {
    const Guild* guild = nullptr;
    const GuildChannel* channel = nullptr;
    std::string user_id;
    std::uint64_t permissions = 0;  // in the channel
  };
  // The caller and the channel ({channel_id}), or the error: 401, 404 10003, 403 50001 (not a bot of its
  // guild, or cannot view it), 403 50013 (lacking any bit of `needs`, counted in the channel).
  std::variant<ChannelCaller, HttpResponse> channel_caller(const RouteContext& context, std::uint64_t needs);
  // Whether `user_id` may set `overwrites` on `channel` (null: a channel being created) where `before` were:
  // each bit an overwrite changes must be one the user has in the guild, or in the channel's category when it
  // has one, unless an overwrite of the channel gives the user MANAGE_ROLES; MANAGE_ROLES itself only by
  // administrators. The refusal is a 403 50013.
  std::optional<HttpResponse> check_overwrite_bits(const Guild& guild, const GuildChannel* channel,
                                                   std::optional<std::string> parent_id,
                                                   const std::string& user_id,
                                                   const std::vector<PermissionOverwrite>& overwrites,
                                                   const std::vector<PermissionOverwrite>& before) const;
  void register_channel_routes();
  HttpResponse api_get_channel(const RouteContext& context);
  HttpResponse api_create_channel(const RouteContext& context);
  HttpResponse api_modify_channel(const RouteContext& context);
  HttpResponse api_modify_channel_positions(const RouteContext& context);
  HttpResponse api_delete_channel(const RouteContext& context);
  HttpResponse api_edit_channel_permission(const RouteContext& context);
  HttpResponse api_delete_channel_permission(const RouteContext& context);

  // AutoMod's rules (automod_routes.cpp).
  void register_automod_routes();
  // AUTO_MODERATION_RULE_CREATE|UPDATE|DELETE to the guild's bots with AUTO_MODERATION_CONFIGURATION and
  // MANAGE_GUILD.
  void automod_rule_dispatch(const Guild& guild, std::string_view type, const AutoModRule& rule);
  HttpResponse api_list_automod_rules(const RouteContext& context);
  HttpResponse api_get_automod_rule(const RouteContext& context);
  HttpResponse api_create_automod_rule(const RouteContext& context);
  HttpResponse api_modify_automod_rule(const RouteContext& context);
  HttpResponse api_delete_automod_rule(const RouteContext& context);

  // Members (member_routes.cpp).
  void register_member_routes();
  [[nodiscard]] std::string member_json_of(const GuildMember& member) const;
  // GUILD_MEMBER_UPDATE (the member with guild_id) or GUILD_MEMBER_REMOVE ({guild_id, user}) to the guild's
  // sessions (bots with the GUILD_MEMBERS intent, on the guild's shard) and the removed member's.
  void member_dispatch(const Guild& guild, std::string_view type, const GuildMember& member);
  // Whether the caller may give `before` exactly `roles`: MANAGE_ROLES, and every role added or removed below
  // the caller's highest and not managed; the refusal otherwise (403 50013, 404 10011).
  std::optional<HttpResponse> assign_roles(const GuildCaller& caller, const GuildMember& before,
                                           const std::vector<std::string>& roles);
  HttpResponse change_member_role(const RouteContext& context, bool add);
  HttpResponse api_get_member(const RouteContext& context);
  HttpResponse api_list_members(const RouteContext& context);
  HttpResponse api_modify_member(const RouteContext& context);
  HttpResponse api_modify_current_member(const RouteContext& context);
  HttpResponse api_add_member_role(const RouteContext& context);
  HttpResponse api_remove_member_role(const RouteContext& context);
  HttpResponse api_remove_member(const RouteContext& context);
  // The members a prune of `days` removes (member_routes.cpp says how inactivity is judged).
  [[nodiscard]] std::vector<std::string> prunable(const Guild& guild, const std::string& caller,
                                                  std::int64_t days,
                                                  const std::vector<std::string>& include_roles) const;
  HttpResponse api_prune_count(const RouteContext& context);
  HttpResponse api_begin_prune(const RouteContext& context);

  // The Gateway side (guild_module.cpp).
  // Whether the session gets channels it cannot view obfuscated (capability bit 15, or the date).
  bool obfuscates_for(const GatewaySession& session);
  // READY's `guilds` (a JSON array) for the session.
  std::string guild_ready_json(const GatewaySession& session);
  // GUILD_CREATE's d for a bot's session: the whole guild (every member the platform's guild object has; the
  // emulator's guilds have no emoji, stickers, voice states or scheduled events), its channels, and its
  // members (all of them with the GUILD_MEMBERS intent, else the bot's own).
  std::string guild_create_json(const Guild& guild, const GatewaySession& session) const;
  // CHANNEL_CREATE|UPDATE|DELETE to every session of the guild's members, obfuscated per session.
  void channel_dispatch(std::string_view type, const Guild& guild, const GuildChannel& channel);
  // op 8 Request Guild Members: GUILD_MEMBERS_CHUNK, or RATE_LIMITED over the all-members limit.
  void request_guild_members(std::uint64_t id, const rapidjson::Value& d);
  // Closes the connection with 4002, as for any payload that does not decode.
  void close_malformed(std::uint64_t id);
  // The `guild_id` (a string) of a request's `d`; nullopt after closing with 4002 when there is none.
  std::optional<std::string> guild_of_request(std::uint64_t id, const rapidjson::Value& d);
  // op 31 Request Soundboard Sounds: SOUNDBOARD_SOUNDS per guild asked for.
  void request_soundboard_sounds(std::uint64_t id, const rapidjson::Value& d);
  // op 43 Request Channel Info: CHANNEL_INFO with the fields asked for.
  void request_channel_info(std::uint64_t id, const rapidjson::Value& d);

  GatewayModule& gateway_;
  GuildState guilds_;

  // ---- Guild voice channels (voice_routes.cpp) and soundboard sounds (soundboard_routes.cpp) ----
 public:
  // GuildVoiceStates: op 4 with a guild_id joins, moves within or leaves (channel_id null) the guild's voice
  // channels.
  void guild_voice_state_update(std::uint64_t connection, const rapidjson::Value& d) override;
  // GatewayListener: the session's guild voice states end with it.
  void session_ending(const GatewaySession& session) override;
  // Disconnects everyone connected to the channel (before it is deleted).
  void end_channel_voice(const std::string& guild_id, const std::string& channel_id);
  [[nodiscard]] const GuildVoiceRegistry& voice_states() const noexcept { return voice_; }
  [[nodiscard]] const SoundboardState& soundboard() const noexcept { return soundboard_; }

 private:
  void register_voice_routes();
  HttpResponse api_get_own_voice_state(const RouteContext& context);
  HttpResponse api_get_user_voice_state(const RouteContext& context);
  HttpResponse api_set_voice_status(const RouteContext& context);
  // The caller of a /channels/{channel_id} voice route: a bot in the channel's guild that can view it.
  struct VoiceChannelCaller {
    const Guild* guild = nullptr;
    const GuildChannel* channel = nullptr;
    std::string user_id{};
    std::uint64_t permissions = 0;  // in the channel
  };
  // The caller, or the error: 401, 404 10003 (no such guild channel), 403 50001 (not a bot of the guild, or
  // cannot view the channel), 400 50024 (not a voice channel; with `stage_too` a stage channel is one).
  std::variant<VoiceChannelCaller, HttpResponse> voice_channel_caller(const RouteContext& context,
                                                                      bool stage_too);
  // The voice state object: with `guild_id` and `member` unless `in_guild_create`; channel_id null when
  // `connected` is false (a leave).
  [[nodiscard]] std::string voice_state_json(const GuildVoiceState& state, bool connected,
                                             bool in_guild_create) const;
  // A voice event to the guild's sessions (bots: on its shard, with `intent`); only to the sessions of
  // `users` when given.
  void guild_intent_dispatch(const Guild& guild, std::string_view type, const std::string& d_json,
                             std::uint64_t intent, const std::vector<std::string>* users = nullptr);
  // Ends the user's voice state in the guild (VOICE_STATE_UPDATE with channel_id null); a no-op if none.
  void leave_voice(const std::string& guild_id, const std::string& user_id);
  // The channel gained its first member: its voice session starts (VOICE_CHANNEL_START_TIME_UPDATE).
  void voice_channel_joined(const Guild& guild, const std::string& channel_id);
  // Someone left the channel; once it is empty its voice session ends and its status clears.
  void voice_channel_left(const std::string& guild_id, const std::string& channel_id);
  // VOICE_CHANNEL_STATUS_UPDATE {id, guild_id, status} with the channel's status.
  void dispatch_voice_status(const Guild& guild, const GuildChannel& channel);

  void register_soundboard_routes();
  HttpResponse api_list_default_sounds(const RouteContext& context);
  HttpResponse api_list_sounds(const RouteContext& context);
  HttpResponse api_get_sound(const RouteContext& context);
  HttpResponse api_create_sound(const RouteContext& context);
  HttpResponse api_modify_sound(const RouteContext& context);
  HttpResponse api_delete_sound(const RouteContext& context);
  HttpResponse api_send_sound(const RouteContext& context);
  // Applies name, volume, emoji_id and emoji_name of a create or modify body; issues go to `errors`.
  void read_sound_fields(const rapidjson::Value& body, SoundboardSound& sound, FieldErrors& errors,
                         bool creating);
  // The sound's object for a caller: with `user` when the caller may manage or create expressions.
  [[nodiscard]] std::string sound_json_for(const SoundboardSound& sound,
                                           std::uint64_t caller_permissions) const;
  // The guild's sounds as a JSON array (op 31, GUILD_CREATE).
  [[nodiscard]] std::string soundboard_sounds_json(const std::string& guild_id) const;

  GuildVoiceRegistry voice_;
  SoundboardState soundboard_;
  // ---- Invites (invite_routes.cpp)
 public:
  // Every guild invite: the channel invites made here and the lobbies' (LobbyModule makes and lists them).
  [[nodiscard]] InviteState& invites() noexcept { return invites_; }
  [[nodiscard]] const InviteState& invites() const noexcept { return invites_; }
  // GatewayListener: the target-users jobs whose time has come end on the tick (the invite routes also end
  // them first: the tick may not have run since the clock moved).
  void tick() override;

 private:
  // A bot in the guild of a guild channel ({channel_id}), with its permissions there; or the error: 401, 404
  // 10003, 403 50001 (not a bot in the guild, or the channel not viewable).
  struct InviteCaller {
    const Guild* guild = nullptr;
    const GuildChannel* channel = nullptr;
    std::string user_id;
    std::uint64_t permissions = 0;        // in the channel
    std::uint64_t guild_permissions = 0;  // guild-wide
  };
  std::variant<InviteCaller, HttpResponse> invite_caller(const RouteContext& context,
                                                         std::string_view channel_id);
  // The invite object as the API answers it: with the invite metadata (uses, max_uses, max_age, temporary,
  // created_at) when `metadata`, with approximate counts when `counts`.
  [[nodiscard]] std::string invite_json(const GuildInvite& invite, const Guild& guild,
                                        const GuildChannel& channel, bool metadata, bool counts) const;
  // INVITE_CREATE or INVITE_DELETE to the guild's bots with the GUILD_INVITES intent and MANAGE_CHANNELS in
  // the invite's channel.
  void invite_dispatch(std::string_view type, const Guild& guild, const GuildChannel& channel,
                       const std::string& d_json);
  // The invite with {code}, live, with its guild and channel; null parts when there is none.
  struct FoundInvite {
    const GuildInvite* invite = nullptr;  // a route that changes it asks InviteState (the state file)
    const Guild* guild = nullptr;
    const GuildChannel* channel = nullptr;
  };
  FoundInvite find_live_invite(std::string_view code);
  // The target-users file of a request (multipart `target_users_file`) read into `invite`'s job, or the
  // refusal (400 50035 naming the invalid lines).
  std::optional<HttpResponse> start_target_users_job(GuildInvite& invite, std::string_view file);
  void register_invite_routes();
  HttpResponse api_create_channel_invite(const RouteContext& context);
  HttpResponse api_get_channel_invites(const RouteContext& context);
  HttpResponse api_get_invite(const RouteContext& context);
  HttpResponse api_delete_invite(const RouteContext& context);
  HttpResponse api_accept_invite(const RouteContext& context);
  HttpResponse api_get_target_users(const RouteContext& context);
  HttpResponse api_update_target_users(const RouteContext& context);
  HttpResponse api_get_target_users_job(const RouteContext& context);

  InviteState invites_;

  // ---- The web console's view of guild voice (guild_voice_document.cpp)
 public:
  // The live-only document kind "guild_voice" (id: the guild's): who is connected to which of its voice
  // channels and since when each channel's voice session runs. Streamed to the console, never persisted.
  void register_voice_document();

 private:
  // The guild's voice changed (a join, a move, a mute, a leave): its "guild_voice" document is saved again.
  void voice_changed(std::string_view guild_id);
  // The "guild_voice" document of the guild, or nullopt when nobody is connected to its voice channels.
  [[nodiscard]] std::optional<std::string> voice_document(const std::string& guild_id) const;
};

// Whether a session gets the events of this guild: a bot's shard covers it ((id >> 22) % shard_count).
bool guild_in_shard(const GatewaySession& session, std::string_view guild_id);

}  // namespace platformpp::emulator
