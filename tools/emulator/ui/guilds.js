// The console's guild view: each guild's roles, members, channels (with who is connected to voice), invites,
// AutoMod rules, soundboard sounds and latest audit log entries, drawn from the guild documents (guild,
// guild_member, guild_voice, guild_invite, automod_rule, guild_soundboard, guild_audit_log). Every string is
// put in the page as text (dom.js).
import { el, fill, formatTime } from "./dom.js";
import { userLabel } from "./panels.js";
import { snowflakeCompare } from "./store.js";

// The kinds this view shows: the console's other documents leave them out.
export const kGuildKinds = ["guild", "guild_member", "guild_voice", "guild_invite", "automod_rule",
                            "guild_soundboard", "guild_audit_log"];

const kAuditEntriesShown = 20;  // the newest of each guild
const kPlatformEpochMs = 1420070400000n;
const kQuarantinedFlag = 1n << 7n;  // guild member flag AUTOMOD_QUARANTINED_USERNAME
const kChannelTypes = { 0: "text", 2: "voice", 4: "category", 5: "announcement", 13: "stage", 15: "forum",
                        16: "media" };
const kJobStatus = { 1: "processing", 2: "completed", 3: "failed" };
const kTriggerTypes = { 1: "keyword", 3: "spam", 4: "keyword preset", 5: "mention spam", 6: "member profile" };
const kActionTypes = { 1: "block message", 2: "alert", 3: "timeout", 4: "block member interaction" };
// The audit log's action types the emulator writes, by name (the platform's).
const kAuditActions = {
  10: "CHANNEL_CREATE", 11: "CHANNEL_UPDATE", 12: "CHANNEL_DELETE", 13: "CHANNEL_OVERWRITE_CREATE",
  14: "CHANNEL_OVERWRITE_UPDATE", 15: "CHANNEL_OVERWRITE_DELETE", 20: "MEMBER_KICK", 21: "MEMBER_PRUNE",
  24: "MEMBER_UPDATE", 25: "MEMBER_ROLE_UPDATE", 26: "MEMBER_MOVE", 27: "MEMBER_DISCONNECT", 28: "BOT_ADD",
  30: "ROLE_CREATE", 31: "ROLE_UPDATE", 32: "ROLE_DELETE", 40: "INVITE_CREATE", 41: "INVITE_UPDATE",
  42: "INVITE_DELETE", 72: "MESSAGE_DELETE", 74: "MESSAGE_PIN", 75: "MESSAGE_UNPIN", 130: "SOUNDBOARD_SOUND_CREATE",
  131: "SOUNDBOARD_SOUND_UPDATE", 132: "SOUNDBOARD_SOUND_DELETE", 140: "AUTO_MODERATION_RULE_CREATE",
  141: "AUTO_MODERATION_RULE_UPDATE", 142: "AUTO_MODERATION_RULE_DELETE", 143: "AUTO_MODERATION_BLOCK_MESSAGE",
  144: "AUTO_MODERATION_FLAG_TO_CHANNEL", 145: "AUTO_MODERATION_USER_COMMUNICATION_DISABLED",
  146: "AUTO_MODERATION_QUARANTINE_USER", 192: "VOICE_CHANNEL_STATUS_UPDATE", 193: "VOICE_CHANNEL_STATUS_DELETE",
};

function badge(text, kind) {
  return el("span", { class: `badge ${kind ?? ""}` }, text);
}

function empty(text) {
  return el("p", { class: "empty" }, text);
}

function table(headings, rows) {
  return el("table", {}, el("thead", {}, el("tr", {}, headings.map((h) => el("th", {}, h)))), el("tbody", {}, rows));
}

function section(title, count, content) {
  return [el("h3", {}, `${title} (${count})`), content];
}

// "#2b8a3e" for a role color; null for none (0).
function colorHex(color) {
  const value = Number(color ?? 0);
  return value > 0 ? `#${value.toString(16).padStart(6, "0")}` : null;
}

function bits(value) {
  try {
    return BigInt(value ?? 0);
  } catch {
    return 0n;
  }
}

// A snowflake's instant (the platform's epoch).
function snowflakeTime(id) {
  try {
    return Number((BigInt(id) >> 22n) + kPlatformEpochMs);
  } catch {
    return NaN;
  }
}

// The emulator's time now, from the "clock" document (it flows with real time unless frozen).
function clockNow(store) {
  const body = store.get("clock", "clock");
  if (!body) return Date.now();
  const last = Number(body.last_ms ?? 0);
  if (body.frozen) return Math.max(last, Number(body.frozen_at_ms ?? 0));
  return Math.max(last, Date.now() + Number(body.offset_ms ?? 0));
}

// The documents of `kind` whose id starts with "<guild>:" (members, AutoMod rules), or whose guild_id is it.
function ofGuild(store, kind, guildId) {
  const found = [];
  for (const [id, body] of store.all(kind)) {
    if (id.startsWith(`${guildId}:`) || String(body?.guild_id ?? "") === guildId) found.push([id, body]);
  }
  return found;
}

function userCell(store, id) {
  return el("span", { class: "user-ref", title: `user ${id}`, dataset: { userId: id } }, userLabel(store, id));
}

function renderRoles(guild) {
  const roles = [...(guild.roles ?? [])].sort((a, b) => (b.position ?? 0) - (a.position ?? 0) ||
                                                       snowflakeCompare(String(a.id), String(b.id)));
  return section("Roles", roles.length, table(["Role", "Position", "Color", "Permissions"], roles.map((role) => {
    const hex = colorHex(role.color);
    return el("tr", { class: "guild-role", dataset: { roleId: String(role.id) } },
              el("td", {}, String(role.name ?? ""), role.hoist ? badge("hoisted", "info") : null,
                 role.bot_id ? badge("bot's", "") : null),
              el("td", { class: "role-position" }, String(role.position ?? 0)),
              // The swatch's color is a property set from a number, never parsed markup.
              el("td", { class: "role-color" }, hex ? [swatch(hex), " ", hex] : el("span", { class: "muted" }, "none")),
              el("td", { class: "id" }, String(role.permissions ?? "0")));
  })));
}

function swatch(hex) {
  const node = el("span", { class: "swatch", title: hex });
  node.style.backgroundColor = hex;
  return node;
}

function renderMembers(store, guild, guildId, now) {
  const roleNames = new Map((guild.roles ?? []).map((r) => [String(r.id), String(r.name ?? r.id)]));
  const members = ofGuild(store, "guild_member", guildId).sort(([a], [b]) => a.localeCompare(b));
  return section("Members", members.length, table(["Member", "Nick", "Roles", "Timeout", "Flags"],
    members.map(([, member]) => {
      const user = String(member.user_id ?? "");
      const timeout = typeof member.timeout_until_ms === "number" && member.timeout_until_ms > now
          ? member.timeout_until_ms : null;
      const quarantined = (bits(member.flags) & kQuarantinedFlag) !== 0n;
      return el("tr", { class: "guild-member", dataset: { userId: user, quarantined: String(quarantined) } },
                el("td", {}, userCell(store, user), user === String(guild.owner_id ?? "") ? badge("owner", "info") : null),
                el("td", { class: "nick" }, member.nick ? String(member.nick) : ""),
                el("td", { class: "member-roles" }, (member.roles ?? []).map((r) => badge(roleNames.get(String(r)) ?? `role ${r}`, ""))),
                el("td", { class: "timeout" }, timeout ? badge(`timed out until ${formatTime(timeout)}`, "warn") : ""),
                el("td", {}, quarantined ? badge("quarantined", "bad") : null));
    })));
}

function renderChannels(store, guild, guildId) {
  const voice = store.get("guild_voice", guildId);
  const connected = new Map();  // channel id -> {members, start}
  for (const channel of voice?.channels ?? []) connected.set(String(channel.channel_id), channel);
  const channels = [...(guild.channels ?? [])].sort((a, b) => (a.position ?? 0) - (b.position ?? 0) ||
                                                             snowflakeCompare(String(a.id), String(b.id)));
  return section("Channels", channels.length, table(["Channel", "Type", "Slowmode", "Voice status", "Connected"],
    channels.map((channel) => {
      const id = String(channel.id);
      const live = connected.get(id);
      return el("tr", { class: "guild-channel", dataset: { channelId: id } },
                el("td", {}, `#${String(channel.name ?? "")}`, (channel.permission_overwrites ?? []).length > 0
                    ? el("span", { class: "muted" }, ` · ${channel.permission_overwrites.length} overwrites`) : null),
                el("td", { class: "channel-type" }, kChannelTypes[channel.type] ?? `type ${channel.type}`),
                el("td", { class: "slowmode" }, channel.rate_limit_per_user ? `${channel.rate_limit_per_user} s` : ""),
                el("td", { class: "voice-status" }, channel.voice_status ? String(channel.voice_status) : ""),
                el("td", { class: "connected" }, live ? [
                  (live.members ?? []).map((m) => el("div", { class: "voice-member", dataset: { userId: String(m.user_id) } },
                      userCell(store, String(m.user_id)), m.self_mute ? badge("muted", "") : null,
                      m.self_deaf ? badge("deafened", "") : null, m.suppress ? badge("audience", "") : null)),
                  typeof live.voice_start_time === "number"
                      ? el("div", { class: "muted" }, `since ${formatTime(live.voice_start_time * 1000)}`) : null,
                ] : ""));
    })));
}

function renderInvites(store, guild, guildId, now) {
  const channelNames = new Map((guild.channels ?? []).map((c) => [String(c.id), String(c.name ?? c.id)]));
  const invites = ofGuild(store, "guild_invite", guildId).sort(([, a], [, b]) => (a.created_ms ?? 0) - (b.created_ms ?? 0));
  return section("Invites", invites.length, table(["Code", "Channel", "Uses", "Expires", "Target users"],
    invites.map(([code, invite]) => {
      const expires = invite.max_age_s ? invite.created_ms + invite.max_age_s * 1000 : null;
      const job = invite.job;
      const jobStatus = job ? kJobStatus[job.status] ?? `status ${job.status}` : null;
      return el("tr", { class: "guild-invite", dataset: { code, jobStatus: jobStatus ?? "" } },
                el("td", {}, el("code", {}, code), invite.for_user_id ? badge("lobby", "info") : null),
                el("td", {}, `#${channelNames.get(String(invite.channel_id)) ?? invite.channel_id}`),
                el("td", { class: "uses" }, `${invite.uses ?? 0}${invite.max_uses ? ` / ${invite.max_uses}` : ""}`),
                el("td", {}, expires === null ? "never" : expires <= now ? badge("expired", "warn") : formatTime(expires)),
                el("td", { class: "target-users" },
                   invite.targeted ? `${(invite.target_user_ids ?? []).length} users` : "",
                   job ? [" ", badge(`job ${jobStatus}${job.total_users !== undefined ? ` (${job.total_users})` : ""}`,
                                     job.status === 2 ? "good" : job.status === 3 ? "bad" : "info"),
                          job.error_message ? el("span", { class: "muted" }, ` ${job.error_message}`) : null] : null));
    })));
}

function renderAutoMod(store, guildId) {
  const rules = ofGuild(store, "automod_rule", guildId).sort(([a], [b]) => a.localeCompare(b));
  return section("AutoMod rules", rules.length, table(["Rule", "Trigger", "Actions", ""], rules.map(([id, rule]) =>
    el("tr", { class: "automod-rule", dataset: { ruleId: String(rule.rule_id ?? id) } },
       el("td", {}, String(rule.name ?? "")),
       el("td", {}, kTriggerTypes[rule.trigger_type] ?? `type ${rule.trigger_type}`,
          (rule.keyword_filter ?? []).length > 0 ? el("span", { class: "muted" }, ` ${rule.keyword_filter.join(", ")}`) : null),
       el("td", {}, (rule.actions ?? []).map((a) => badge(kActionTypes[a.type] ?? `action ${a.type}`, ""))),
       el("td", {}, rule.enabled ? badge("enabled", "good") : badge("disabled", ""))))));
}

function renderSounds(store, guildId) {
  const sounds = store.get("guild_soundboard", guildId)?.sounds ?? [];
  return section("Soundboard sounds", sounds.length, table(["Sound", "Emoji", "Volume", "By"], sounds.map((sound) =>
    el("tr", { class: "soundboard-sound", dataset: { soundId: String(sound.sound_id) } },
       el("td", {}, String(sound.name ?? "")),
       el("td", {}, sound.emoji_name ? String(sound.emoji_name) : sound.emoji_id ? `emoji ${sound.emoji_id}` : ""),
       el("td", {}, typeof sound.volume === "number" ? sound.volume.toFixed(2) : ""),
       el("td", {}, sound.user_id ? userCell(store, String(sound.user_id)) : "")))));
}

function renderAudit(store, guildId) {
  const entries = [...(store.get("guild_audit_log", guildId)?.entries ?? [])]
      .sort((a, b) => snowflakeCompare(String(b.id), String(a.id)))  // the newest first
      .slice(0, kAuditEntriesShown);
  return section("Latest audit log entries", entries.length, table(["When", "Action", "By", "Target", "Reason"],
    entries.map((entry) => el("tr", { class: "audit-entry", dataset: { action: String(entry.action_type) } },
      el("td", {}, el("time", {}, formatTime(snowflakeTime(String(entry.id))))),
      el("td", { class: "audit-action" }, kAuditActions[entry.action_type] ?? `action ${entry.action_type}`),
      el("td", {}, entry.user_id ? userCell(store, String(entry.user_id)) : ""),
      el("td", { class: "id" }, entry.target_id ? String(entry.target_id) : ""),
      el("td", { class: "audit-reason" }, entry.reason ? String(entry.reason) : "")))));
}

export function renderGuilds(store, root) {
  const guilds = store.all("guild");
  if (guilds.size === 0) return fill(root, empty("No guilds yet (POST /_emulator/guilds)."));
  const now = clockNow(store);
  // Each guild is open until the developer folds it; a redraw keeps it folded.
  const folded = new Set([...root.querySelectorAll("details.guild:not([open])")].map((d) => d.dataset.guildId));
  fill(root, [...guilds.keys()].sort(snowflakeCompare).map((id) => {
    const guild = guilds.get(id);
    return el("details", { class: "guild card", open: !folded.has(id), dataset: { guildId: id } },
              el("summary", {}, el("strong", {}, String(guild.name ?? `guild ${id}`)), " ",
                 el("span", { class: "id" }, id),
                 guild.owner_id ? el("span", { class: "muted" }, " · owner ", userLabel(store, String(guild.owner_id))) : null),
              renderRoles(guild), renderMembers(store, guild, id, now), renderChannels(store, guild, id),
              renderInvites(store, guild, id, now), renderAutoMod(store, id), renderSounds(store, id),
              renderAudit(store, id));
  }));
}
