// The console's panels, each drawn from the store's documents (docs/emulator-state.md): applications, users
// with their presence, friendships, lobbies, the message streams, calls and the documents of other kinds.
// Every string is put in the page as text (dom.js): a user named "<script>" shows as those characters.
import { el, fill, formatTime } from "./dom.js";
import { snowflakeCompare } from "./store.js";

const kMessagesShown = 100;  // per conversation, the newest
const kRelationship = { friend: 1, blocked: 2, incoming: 3, outgoing: 4 };

// ---- names ------------------------------------------------------------------------------------------------

export function userLabel(store, id) {
  const user = store.get("user", id);
  if (!user) return `user ${id}`;
  const name = typeof user.global_name === "string" && user.global_name !== "" ? user.global_name : user.username;
  return String(name ?? `user ${id}`);
}

// "Display Name @username", with the id as a tooltip.
function userRef(store, id) {
  const user = store.get("user", id);
  return el("span", { class: "user-ref", title: `user ${id}`, dataset: { userId: id } },
            el("span", { class: "display-name" }, userLabel(store, id)),
            user && user.global_name && user.username ? el("span", { class: "username" }, ` @${user.username}`)
                                                      : null);
}

function appLabel(store, id) {
  const app = store.get("application", id);
  return app && typeof app.name === "string" ? app.name : `application ${id}`;
}

function guildLabel(store, id) {
  const guild = store.get("guild", id);
  return guild && typeof guild.name === "string" ? `guild ${guild.name}` : `guild ${id}`;
}

function badge(text, kind) {
  return el("span", { class: `badge ${kind ?? ""}` }, text);
}

function empty(text) {
  return el("p", { class: "empty" }, text);
}

function metadataList(metadata) {
  if (!metadata || typeof metadata !== "object" || Object.keys(metadata).length === 0) return null;
  return el("dl", { class: "metadata" },
            Object.entries(metadata).map(([key, value]) => [el("dt", {}, key),
                                                            el("dd", {}, typeof value === "string" ? value
                                                                                                   : JSON.stringify(value))]));
}

function sortedIds(map) {
  return [...map.keys()].sort(snowflakeCompare);
}

// ---- applications -----------------------------------------------------------------------------------------

export function renderApplications(store, root) {
  const apps = store.all("application");
  if (apps.size === 0) return fill(root, empty("No applications yet (POST /_emulator/apps)."));
  const lobbiesByApp = new Map();
  for (const lobby of store.all("lobby").values()) {
    const app = lobbyApplication(lobby);
    lobbiesByApp.set(app, (lobbiesByApp.get(app) ?? 0) + 1);
  }
  const sessionsByApp = new Map();
  for (const presence of store.all("presence").values()) {
    for (const session of presence.sessions ?? []) {
      sessionsByApp.set(session.application_id, (sessionsByApp.get(session.application_id) ?? 0) + 1);
    }
  }
  fill(root, el("table", {},
                el("thead", {}, el("tr", {}, el("th", {}, "Name"), el("th", {}, "Id"), el("th", {}, "Bot user"),
                                   el("th", {}, "Sessions"), el("th", {}, "Lobbies"))),
                el("tbody", {}, sortedIds(apps).map((id) => {
                  const app = apps.get(id);
                  return el("tr", { dataset: { applicationId: id } },
                            el("td", {}, String(app.name ?? ""),
                               app.parent_id ? el("span", { class: "muted" }, ` (child of ${appLabel(store, app.parent_id)})`)
                                             : null),
                            el("td", { class: "id" }, id),
                            el("td", { class: "id" }, String(app.bot_user_id ?? "")),
                            el("td", {}, String(sessionsByApp.get(id) ?? 0)),
                            el("td", {}, String(lobbiesByApp.get(id) ?? 0)));
                }))));
}

// ---- users and presence -----------------------------------------------------------------------------------

function activityText(activity) {
  const parts = [activity.name, activity.details, activity.state].filter((p) => typeof p === "string" && p !== "");
  return parts.join(" · ");
}

export function renderUsers(store, root) {
  const users = store.all("user");
  if (users.size === 0) return fill(root, empty("No users yet."));
  const presence = store.all("presence");
  const ids = sortedIds(users).sort((a, b) => (presence.has(a) ? 0 : 1) - (presence.has(b) ? 0 : 1));
  fill(root, el("table", {},
                el("thead", {}, el("tr", {}, el("th", {}, "User"), el("th", {}, "Status"), el("th", {}, "Activity"),
                                   el("th", {}, "Sessions"), el("th", {}, "Id"))),
                el("tbody", {}, ids.map((id) => {
                  const user = users.get(id);
                  const live = presence.get(id);
                  const status = live ? String(live.status ?? "online") : "offline";
                  const sessions = live?.sessions ?? [];
                  const connected = sessions.filter((s) => s.connected).length;
                  const flags = [];
                  if (user.bot) flags.push(badge("bot", "info"));
                  if (user.provisional) flags.push(badge("provisional", "info"));
                  if (user.restricted) flags.push(badge("restricted", "warn"));
                  if (user.spammer) flags.push(badge("spammer", "warn"));
                  if (user.ban_permanent !== undefined) flags.push(badge(user.ban_permanent ? "banned for good" : "banned", "bad"));
                  return el("tr", { class: `user status-${status}`, dataset: { userId: id, status } },
                            el("td", {}, el("span", { class: "display-name" }, userLabel(store, id)),
                               el("span", { class: "username" }, ` @${String(user.username ?? "")}`), " ", flags),
                            el("td", {}, el("span", { class: "dot" }), " ", status,
                               live && live.shown_as && live.shown_as !== status ? el("span", { class: "muted" }, ` (friends see ${live.shown_as})`) : null,
                               live?.desktop ? badge("desktop client", "info") : null),
                            el("td", {}, (live?.activities ?? []).map((a) => el("div", { class: "activity" }, activityText(a)))),
                            el("td", {}, sessions.length === 0 ? "" :
                               `${connected} connected${sessions.length > connected ? `, ${sessions.length - connected} resumable` : ""}`),
                            el("td", { class: "id" }, id));
                }))));
}

// ---- friendships ------------------------------------------------------------------------------------------

function relationshipLines(store, documents, prefix) {
  const friends = [], requests = [], blocks = [];
  const seen = new Set();
  for (const [owner, body] of documents) {
    for (const r of body.relationships ?? []) {
      const other = String(r.user_id);
      if (r.type === kRelationship.friend) {
        const key = [owner, other].sort(snowflakeCompare).join("-");
        if (seen.has(key)) continue;
        seen.add(key);
        friends.push(el("li", { class: "friendship", dataset: { users: key } }, prefix, userRef(store, owner), " ⇄ ",
                        userRef(store, other), el("span", { class: "muted" }, ` since ${formatTime(r.since_ms)}`)));
      } else if (r.type === kRelationship.outgoing) {
        requests.push(el("li", { class: "request" }, prefix, userRef(store, owner), " → ", userRef(store, other),
                         el("span", { class: "muted" }, " request"), r.spam_request ? badge("spam", "warn") : null));
      } else if (r.type === kRelationship.blocked) {
        blocks.push(el("li", { class: "block" }, prefix, userRef(store, owner), " blocked ", userRef(store, other)));
      }
    }
  }
  return { friends, requests, blocks };
}

export function renderFriendships(store, root) {
  const platform = relationshipLines(store, store.all("relationships"), null);
  const games = { friends: [], requests: [], blocks: [] };
  const byApp = new Map();
  for (const [id, body] of store.all("game_relationships")) {
    const colon = id.indexOf(":");
    const app = id.slice(0, colon), user = id.slice(colon + 1);
    if (!byApp.has(app)) byApp.set(app, new Map());
    byApp.get(app).set(user, body);
  }
  for (const [app, documents] of byApp) {
    const lines = relationshipLines(store, documents, badge(appLabel(store, app), "info"));
    games.friends.push(...lines.friends);
    games.requests.push(...lines.requests);
  }
  const section = (title, items) => items.length === 0 ? null : [el("h3", {}, title), el("ul", { class: "plain" }, items)];
  const all = [...platform.friends, ...platform.requests, ...platform.blocks, ...games.friends, ...games.requests];
  if (all.length === 0) return fill(root, empty("No relationships yet."));
  fill(root, section("Friends", platform.friends), section("Pending requests", platform.requests),
       section("Blocks", platform.blocks), section("Game friends", games.friends),
       section("Game friend requests", games.requests));
}

// ---- lobbies ----------------------------------------------------------------------------------------------

function lobbyApplication(lobby) {
  return String(lobby.application_id ?? lobby.app_id ?? "");
}

// The members of a lobby document, whether a list of {user_id|id, ...} or an object by user id.
function lobbyMembers(lobby) {
  const members = lobby.members;
  if (Array.isArray(members)) {
    return members.map((m) => ({ ...m, id: String(m.user_id ?? m.id ?? m.user?.id ?? "") }));
  }
  if (members && typeof members === "object") {
    return Object.entries(members).map(([id, m]) => ({ ...(m ?? {}), id }));
  }
  return [];
}

export function renderLobbies(store, root) {
  const lobbies = store.all("lobby");
  if (lobbies.size === 0) return fill(root, empty("No lobbies."));
  const onlineIn = (app, user) => (store.get("presence", user)?.sessions ?? [])
      .some((s) => s.connected && s.application_id === app);
  fill(root, sortedIds(lobbies).map((id) => {
    const lobby = lobbies.get(id);
    const app = lobbyApplication(lobby);
    const members = lobbyMembers(lobby);
    const call = store.get("voice_call", id);
    const inCall = new Set((call?.members ?? []).map((m) => String(m.user_id)));
    return el("article", { class: "lobby card", dataset: { lobbyId: id } },
              el("header", {}, el("strong", {}, `Lobby ${id}`), " ", badge(appLabel(store, app), "info"),
                 lobby.created_by_backend ? badge("made by the game server", "") : null,
                 call ? badge(`call: ${inCall.size}`, "good") : null),
              lobby.linked_channel ? el("div", { class: "muted" }, `linked to channel ${lobby.linked_channel}` +
                                        (lobby.linked_guild ? ` of ${guildLabel(store, lobby.linked_guild)}` : ""))
                                   : null,
              typeof lobby.idle_since_ms === "number" && !members.some((m) => onlineIn(app, m.id))
                  ? el("div", { class: "muted" }, `idle since ${formatTime(lobby.idle_since_ms)}` +
                       (lobby.idle_timeout_s ? ` (deleted after ${lobby.idle_timeout_s} s)` : ""))
                  : null,
              metadataList(lobby.metadata),
              el("ul", { class: "plain members" }, members.map((m) => {
                const connected = typeof m.connected === "boolean" ? m.connected : onlineIn(app, m.id);
                return el("li", { class: connected ? "connected" : "disconnected", dataset: { userId: m.id } },
                          el("span", { class: "dot" }), " ", userRef(store, m.id),
                          m.additional_name ? el("span", { class: "muted" }, ` “${m.additional_name}”`) : null,
                          inCall.has(m.id) ? badge("in call", "good") : null,
                          metadataList(m.metadata));
              })),
              members.length === 0 ? empty("No members.") : null);
  }));
}

// ---- messages ---------------------------------------------------------------------------------------------

export function renderMessages(store, root) {
  const conversations = new Map();  // channel id -> [message id]
  for (const [id, message] of store.all("message")) {
    const channel = String(message.lobby_id ?? message.channel_id ?? "");
    if (!conversations.has(channel)) conversations.set(channel, []);
    conversations.get(channel).push(id);
  }
  if (conversations.size === 0) return fill(root, empty("No messages yet."));
  const order = [...conversations.entries()].map(([channel, ids]) => {
    ids.sort(snowflakeCompare);
    return { channel, ids, last: ids[ids.length - 1] };
  }).sort((a, b) => snowflakeCompare(b.last, a.last));  // the latest conversation first
  fill(root, order.map(({ channel, ids }) => {
    const first = store.get("message", ids[0]);
    const isLobby = first.lobby_id !== undefined && first.lobby_id !== null;
    let title;
    if (isLobby) {
      title = [el("strong", {}, `Lobby ${channel}`)];
    } else {
      const dm = store.get("dm_channel", channel);
      const people = dm?.recipient_ids ?? [first.author_id, first.recipient_id].filter(Boolean);
      title = [el("strong", {}, "DM "), people.map((p, i) => [i > 0 ? " ↔ " : null, userRef(store, String(p))])];
    }
    const shown = ids.slice(-kMessagesShown);
    const list = el("ol", { class: "messages" }, shown.map((mid) => {
      const m = store.get("message", mid);
      const flags = [];
      if (m.edited_ms !== null && m.edited_ms !== undefined) flags.push(badge("edited", ""));
      if ((m.flags ?? 0) & 64) flags.push(badge("ephemeral", ""));
      if (m.activity) flags.push(badge("activity invite", "info"));
      if (m.moderation_metadata && Object.keys(m.moderation_metadata).length > 0) flags.push(badge("moderated", "warn"));
      return el("li", { class: "message", dataset: { messageId: mid, authorId: String(m.author_id) } },
                el("time", { class: "muted" }, formatTime(m.timestamp_ms)), " ",
                el("span", { class: "author" }, userLabel(store, String(m.author_id))),
                m.additional_name ? el("span", { class: "muted" }, ` (${m.additional_name})`) : null, ": ",
                el("span", { class: "content" }, String(m.content ?? "")), " ", flags);
    }));
    return el("section", { class: `conversation card ${isLobby ? "lobby-chat" : "dm-chat"}`, dataset: { channelId: channel } },
              el("header", {}, title, el("span", { class: "muted" }, ` · ${ids.length} kept`)),
              ids.length > shown.length ? el("p", { class: "muted" }, `${ids.length - shown.length} older not shown`) : null,
              list);
  }));
  for (const list of root.querySelectorAll("ol.messages")) list.scrollTop = list.scrollHeight;
}

// ---- calls ------------------------------------------------------------------------------------------------

export function renderCalls(store, root) {
  const calls = store.all("voice_call");
  if (calls.size === 0) return fill(root, empty("No call in progress."));
  fill(root, sortedIds(calls).map((id) => {
    const call = calls.get(id);
    const e2ee = call.e2ee === true;
    const encryption = e2ee
        ? badge(`end-to-end encrypted · DAVE v${call.dave_protocol_version} · epoch ${call.epoch}`, "good e2ee")
        : badge(call.dave_protocol_version > 0 ? "DAVE: group being formed" : "not end-to-end encrypted (transport only)",
                "warn e2ee");
    return el("article", { class: "call card", dataset: { lobbyId: id, e2ee: String(e2ee) } },
              el("header", {}, el("strong", {}, `Call in lobby ${id}`), " ", encryption),
              el("ul", { class: "plain members" }, (call.members ?? []).map((m) => {
                const user = String(m.user_id);
                return el("li", { class: `call-member${m.speaking ? " speaking" : ""}`,
                                  dataset: { userId: user, speaking: String(Boolean(m.speaking)),
                                             voiceConnected: String(Boolean(m.voice_connected)) } },
                          el("span", { class: "mic", title: m.speaking ? "speaking" : "silent" }), " ",
                          userRef(store, user), " ",
                          m.speaking ? badge("speaking", "good") : null,
                          m.self_mute ? badge("muted", "") : null,
                          m.self_deaf ? badge("deafened", "") : null,
                          m.voice_connected ? null : badge("voice not connected", "warn"),
                          m.in_e2ee_group ? badge("in the E2EE group", "info") : null,
                          m.mode ? el("span", { class: "muted" }, ` ${m.mode}`) : null);
              })));
  }));
}

// ---- other kinds ------------------------------------------------------------------------------------------

const kShownElsewhere = new Set(["application", "user", "presence", "relationships", "game_relationships",
                                 "dm_channel", "message", "clock", "lobby", "voice_call",
                                 // the guild view's (guilds.js)
                                 "guild", "guild_member", "guild_voice", "guild_invite", "automod_rule",
                                 "guild_soundboard", "guild_audit_log"]);

// Members that hold secrets are not shown even if a document carried them.
function withoutSecrets(value) {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value)
        .filter(([key]) => !/secret|token|password/i.test(key))
        .map(([key, inner]) => [key, withoutSecrets(inner)]));
  }
  return value;
}

// Kinds whose ids are secrets themselves (a lobby's join secret, say): counted, not listed.
const kSecretKinds = /secret|token|grant|code/i;

export function renderOther(store, root) {
  const kinds = [...store.kinds.keys()].filter((k) => !kShownElsewhere.has(k) && store.all(k).size > 0).sort();
  if (kinds.length === 0) return fill(root, empty("Nothing else."));
  const open = new Set([...root.querySelectorAll("details[open]")].map((d) => d.dataset.kind));
  fill(root, kinds.map((kind) => {
    const documents = store.all(kind);
    if (kSecretKinds.test(kind)) {
      return el("div", { class: "kind", dataset: { kind } }, el("strong", {}, kind), ` (${documents.size}, not shown)`);
    }
    return el("details", { class: "kind", open: open.has(kind), dataset: { kind } },
              el("summary", {}, el("strong", {}, kind), ` (${documents.size})`),
              sortedIds(documents).slice(0, 200).map((id) =>
                  el("div", { class: "document" }, el("div", { class: "id" }, id),
                     el("pre", {}, JSON.stringify(withoutSecrets(documents.get(id)), null, 2)))));
  }));
}
