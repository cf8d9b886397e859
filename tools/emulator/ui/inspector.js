// The inspector (tools/emulator/README.md, "Inspector"): the emulator's event log, live. Over the console's
// live socket the page asks for it ({"inspect": true}); the emulator then sends the log's lines in "events"
// frames, each acknowledged ({"ack": N}) once taken in, and says how many lines it dropped when the page was
// too slow. The page keeps the newest lines, lists those the filters let through (user, session, route, kind,
// event name, free text), shows one in full (an HTTP request beside its answer, a frame's JSON), follows each
// lobby and call (members, DAVE protocol and epoch) as they change, and moves the clock and sets faults
// through the admin API. The lines are the log's: secrets in them are already markers.
import { el, fill, formatTime } from "./dom.js";
import { describeFault, faultOf } from "./controls.js";
import { userLabel } from "./panels.js";
import { snowflakeCompare } from "./store.js";

const kKept = 5000;        // lines the page keeps (the oldest go)
const kRowsShown = 400;    // rows in the list at most (the newest that pass the filters)
const kHistoryShown = 12;  // changes listed per lobby
const kRecordingKey = "platformpp.emulator.inspector.recording";
const kMinuteMs = 60 * 1000;
const kHourMs = 60 * kMinuteMs;

const kGatewayOps = { 0: "DISPATCH", 1: "HEARTBEAT", 2: "IDENTIFY", 3: "PRESENCE_UPDATE", 4: "VOICE_STATE_UPDATE",
                      6: "RESUME", 7: "RECONNECT", 8: "REQUEST_GUILD_MEMBERS", 9: "INVALID_SESSION", 10: "HELLO",
                      11: "HEARTBEAT_ACK" };
const kVoiceOps = { 0: "IDENTIFY", 1: "SELECT_PROTOCOL", 2: "READY", 3: "HEARTBEAT", 4: "SESSION_DESCRIPTION",
                    5: "SPEAKING", 6: "HEARTBEAT_ACK", 7: "RESUME", 8: "HELLO", 9: "RESUMED", 11: "CLIENTS_CONNECT",
                    13: "CLIENT_DISCONNECT", 21: "DAVE_PREPARE_TRANSITION", 22: "DAVE_EXECUTE_TRANSITION",
                    23: "DAVE_TRANSITION_READY", 24: "DAVE_PREPARE_EPOCH", 25: "DAVE_MLS_EXTERNAL_SENDER",
                    26: "DAVE_MLS_KEY_PACKAGE", 27: "DAVE_MLS_PROPOSALS", 28: "DAVE_MLS_COMMIT_WELCOME",
                    29: "DAVE_MLS_ANNOUNCE_COMMIT_TRANSITION", 30: "DAVE_MLS_WELCOME",
                    31: "DAVE_MLS_INVALID_COMMIT_WELCOME" };
const kIpcOps = { 0: "HANDSHAKE", 1: "FRAME", 2: "CLOSE", 3: "PING", 4: "PONG" };
const kConnectionEvents = new Set(["open", "close", "drop", "gone"]);
const kDaveShown = new Set([21, 22, 24]);  // what the emulator tells a call's members of its epochs

// ---- one line of the log, summarised --------------------------------------------------------------------

function parseMaybe(text) {
  if (typeof text !== "string") return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function opName(kind, op) {
  const names = kind === "voice" ? kVoiceOps : kind === "ipc" ? kIpcOps : kGatewayOps;
  return names[op] ?? `op ${op}`;
}

function pathOf(target) {
  const text = String(target ?? "");
  const query = text.indexOf("?");
  return query < 0 ? text : text.slice(0, query);
}

// "POST /lobbies/*/messages": an /api/v10 request's route as a fault names it (snowflakes as "*"), or null.
export function faultRouteOf(method, target) {
  const path = pathOf(target);
  if (!path.startsWith("/api/v10/")) return null;
  const segments = path.slice("/api/v10".length).split("/").map((s) => (/^\d{5,}$/.test(s) ? "*" : s));
  return `${method} ${segments.join("/")}`;
}

// Whether "METHOD /path" matches `filter`: with a "*" in it, as a fault's route does ("*" one segment, a
// trailing "/**" the rest, an optional method or "*" first; the path with or without /api/v10); else as
// text anywhere in it.
export function routeMatches(filter, method, target) {
  const wanted = filter.trim();
  if (!wanted) return true;
  const path = pathOf(target);
  if (!wanted.includes("*")) return `${method} ${path}`.toLowerCase().includes(wanted.toLowerCase());
  const space = wanted.indexOf(" ");
  const wantMethod = space > 0 ? wanted.slice(0, space) : "*";
  const wantPath = space > 0 ? wanted.slice(space + 1).trim() : wanted;
  if (wantMethod !== "*" && wantMethod.toUpperCase() !== String(method).toUpperCase()) return false;
  const matchPath = (candidate) => {
    const want = wantPath.split("/");
    const have = candidate.split("/");
    for (let i = 0; i < want.length; ++i) {
      if (want[i] === "**" && i === want.length - 1) return true;
      if (i >= have.length) return false;
      if (want[i] !== "*" && want[i] !== have[i]) return false;
    }
    return want.length === have.length;
  };
  return matchPath(path) || (path.startsWith("/api/v10/") && matchPath(path.slice("/api/v10".length)));
}

// What the list shows and the filters read of a line.
function summarise(line) {
  const kind = String(line.kind ?? "?");
  const entry = { seq: Number(line.seq ?? 0), line, kind, dir: line.dir ?? null, conn: line.conn ?? null,
                  users: new Set(), sessions: new Set(), name: "", what: "", status: "", method: null,
                  target: null, raw: null, opcode: null, payload: null };
  if (line.user) entry.users.add(String(line.user));
  if (line.session) entry.sessions.add(String(line.session));
  for (const to of Array.isArray(line.to) ? line.to : []) {
    if (to.user) entry.users.add(String(to.user));
    if (to.session) entry.sessions.add(String(to.session));
  }
  if (kind === "http") {
    entry.method = String(line.method ?? "");
    entry.target = String(line.target ?? "");
    // The platform's routes without their common prefix (the whole target is the row's tooltip).
    const shown = entry.target.startsWith("/api/v10/") ? entry.target.slice("/api/v10".length) : entry.target;
    entry.what = `${entry.method} ${shown}`;
    entry.name = entry.what;
    entry.status = line.status !== undefined ? String(line.status) : String(line.delivery ?? "");
    if (line.delivery && line.delivery !== "respond") entry.status += ` ${line.delivery}`;
  } else if (kind === "webhook") {
    entry.what = `POST ${line.url ?? ""}`;
    entry.name = "webhook";
    entry.status = line.status !== undefined ? String(line.status) : String(line.error ?? "");
  } else if (kConnectionEvents.has(entry.dir)) {
    entry.name = entry.dir;
    entry.what = `connection ${entry.dir}${line.detail ? `: ${line.detail}` : ""}`;
    entry.status = line.code !== undefined ? String(line.code) : "";
  } else if (!["gateway", "voice", "ipc"].includes(kind)) {
    entry.name = kind;  // a kind this page does not know: shown whole when clicked
    entry.what = kind;
  } else if (line.same_as !== undefined) {
    entry.what = `same as #${line.same_as} to ${Array.isArray(line.to) ? line.to.length : 0} more`;
    entry.name = "";  // the first line's (filled in by the inspector, which has it)
  } else if (line.binary_op !== undefined) {
    entry.opcode = Number(line.binary_op);
    entry.name = opName(kind, entry.opcode);
    entry.what = `${entry.name} (binary, ${line.bytes ?? "?"} bytes)`;
  } else {
    const payload = line.frame ?? parseMaybe(line.text);
    entry.payload = payload;
    if (payload && typeof payload === "object") {
      entry.opcode = typeof payload.op === "number" ? payload.op : null;
      if (kind === "ipc") {
        entry.name = String(payload.evt ?? payload.cmd ?? opName(kind, line.op ?? -1));
      } else if (payload.t) {
        entry.name = String(payload.t);
      } else if (entry.opcode !== null) {
        entry.name = opName(kind, entry.opcode);
      }
    }
    entry.what = entry.name || (line.text !== undefined ? "text" : "frame");
  }
  return entry;
}

// The line as text, for the free-text filter (made once, when first asked).
function rawOf(entry) {
  if (entry.raw === null) entry.raw = JSON.stringify(entry.line).toLowerCase();
  return entry.raw;
}

function clockTime(ms) {
  if (typeof ms !== "number" || !Number.isFinite(ms)) return "?";
  return new Date(ms).toISOString().slice(11, 23);
}

function pretty(value) {
  return el("pre", { class: "json" }, JSON.stringify(value, null, 2));
}

// A body as the log wrote it (a string): pretty JSON when it is JSON, else as it is.
function prettyText(text) {
  const parsed = parseMaybe(text);
  return parsed !== null && typeof parsed === "object" ? pretty(parsed) : el("pre", { class: "json" }, String(text));
}

function appName(store, id) {
  const app = store.get("application", id);
  return app && typeof app.name === "string" ? app.name : id;
}

function badge(text, kind) {
  return el("span", { class: `badge ${kind ?? ""}` }, text);
}

// ---- lobbies and calls ------------------------------------------------------------------------------------

function memberIds(lobby) {
  const members = lobby?.members;
  if (Array.isArray(members)) return members.map((m) => String(m.user_id ?? m.id ?? m.user?.id ?? ""));
  if (members && typeof members === "object") return Object.keys(members);
  return [];
}

function callMemberIds(call) {
  return (call?.members ?? []).map((m) => String(m.user_id));
}

function daveText(call) {
  if (!call) return "";
  const version = Number(call.dave_protocol_version ?? 0);
  if (version <= 0) return "transport encryption only (no DAVE)";
  const state = call.e2ee === true ? "end-to-end encrypted" : "DAVE group being formed";
  return `DAVE v${version} · epoch ${call.epoch ?? 0} · ${state}`;
}

// ---- the inspector ------------------------------------------------------------------------------------------

export class Inspector {
  // `root`: the inspector's element; `store`: the documents; `clock`, `faults`: the console's clock and faults
  // panels (controls.js), whose admin calls the inspector's buttons make.
  constructor(root, { store, clock, faults }) {
    this.store = store;
    this.clock = clock;
    this.faults = faults;
    this.entries = [];
    this.frozen = [];  // what was kept when the list was paused
    this.bySeq = new Map();
    this.selected = null;
    this.paused = false;
    this.unseen = 0;  // lines come in while paused
    this.dropped = 0;
    this.received = 0;
    this.send = null;  // the live socket's, while it is open
    this.active = false;
    this.untracked = 0;  // connections open and not followed when recording began
    this.recording = localStorage.getItem(kRecordingKey) !== "off";
    this.history = new Map();  // lobby id -> [{ms, text}]
    this.drawPending = false;
    this.build(root);
    this.clock.onChange(() => this.#showClock());
    this.faults.onChange((faults) => this.#showFaults(faults));
    setInterval(() => this.#showClock(), 1000);
    this.#showStatus();
    this.drawLobbies();
  }

  build(root) {
    const input = (id, label, placeholder, extra) =>
      el("input", { id, type: "search", placeholder, "aria-label": label, spellcheck: "false", autocomplete: "off",
                    oninput: () => this.refilter(), ...(extra ?? {}) });
    this.record = el("button", { id: "insp-record", type: "button", onclick: () => this.setRecording(!this.recording) });
    this.pause = el("button", { id: "insp-pause", type: "button", onclick: () => this.setPaused(!this.paused) });
    this.status = el("span", { id: "insp-status", class: "muted", role: "status" });
    this.filters = {
      kind: el("select", { id: "insp-kind", "aria-label": "kind", onchange: () => this.refilter() },
               el("option", { value: "" }, "every kind"), el("option", { value: "http" }, "HTTP"),
               el("option", { value: "gateway" }, "Gateway"), el("option", { value: "voice" }, "voice"),
               el("option", { value: "ipc" }, "IPC"), el("option", { value: "webhook" }, "webhook"),
               el("option", { value: "connection" }, "connections")),
      user: el("select", { id: "insp-user", "aria-label": "user", onchange: () => this.refilter() }),
      session: input("insp-session", "session", "session", { list: "insp-sessions" }),
      route: input("insp-route", "route", "route: GET /users/@me, /lobbies/*/messages"),
      event: input("insp-event", "event", "event: LOBBY_MESSAGE_CREATE, IDENTIFY", { list: "insp-events" }),
      text: input("insp-text", "free text", "free text"),
    };
    this.sessionList = el("datalist", { id: "insp-sessions" });
    this.eventList = el("datalist", { id: "insp-events" });
    this.knownEvents = new Set();
    this.knownSessions = new Set();
    this.rows = el("tbody", { id: "insp-rows" });
    this.list = el("div", { id: "insp-list", class: "insp-list", tabindex: "0" },
                   el("table", { class: "insp-table" },
                      el("thead", {}, el("tr", {}, el("th", { class: "seq" }, "#"), el("th", {}, "fake time"),
                                         el("th", { class: "real" }, "real time"), el("th", {}, "kind"),
                                         el("th", {}, "who"), el("th", {}, "what"), el("th", {}, "status"))),
                      this.rows));
    this.detail = el("div", { id: "insp-detail", class: "insp-detail" });
    this.lobbies = el("div", { id: "insp-lobbies" });
    this.clockNow = el("output", { id: "insp-clock-now", class: "clock-now" }, "?");
    this.freeze = el("button", { id: "insp-freeze", type: "button", onclick: () => this.clock.toggleFreeze() }, "freeze");
    const jump = (id, label, ms) => el("button", { id, type: "button", onclick: () => this.clock.advance(ms) }, label);
    this.faultRoute = el("input", { id: "insp-fault-route", type: "text", value: "GET /users/@me",
                                    "aria-label": "fault route", spellcheck: "false" });
    this.faultType = el("select", { id: "insp-fault-type", "aria-label": "fault",
                                    onchange: () => { this.faultValue.value = { delay: "2000", "5xx": "503", "429": "1.5" }[this.faultType.value]; } },
                        el("option", { value: "5xx" }, "5xx (status)"), el("option", { value: "delay" }, "delay (ms)"),
                        el("option", { value: "429" }, "429 (retry after, s)"));
    this.faultValue = el("input", { id: "insp-fault-value", type: "number", value: "503", "aria-label": "fault value" });
    this.faultCount = el("input", { id: "insp-fault-count", type: "number", min: "0", value: "1",
                                    "aria-label": "requests affected (0: until cleared)" });
    this.faultList = el("ul", { id: "insp-faults", class: "plain" });
    fill(root,
         el("div", { id: "insp-toolbar", class: "insp-toolbar" },
            this.record, this.pause,
            el("button", { id: "insp-clear", type: "button", onclick: () => this.clear() }, "clear"),
            this.status),
         el("div", { id: "insp-filters", class: "insp-filters" },
            this.filters.kind, this.filters.user, this.filters.session, this.filters.route, this.filters.event,
            this.filters.text,
            el("button", { id: "insp-reset-filters", type: "button", onclick: () => this.resetFilters() }, "all"),
            this.sessionList, this.eventList),
         el("div", { class: "insp-body" },
            el("section", { class: "insp-events", "aria-label": "events" }, this.list),
            el("section", { class: "insp-detail-pane", "aria-label": "event" }, this.detail),
            el("aside", { id: "insp-side", class: "insp-side" },
               el("section", { id: "insp-controls", class: "insp-box", "aria-labelledby": "insp-controls-title" },
                  el("h3", { id: "insp-controls-title" }, "Clock and faults"),
                  el("div", { class: "clock-line" }, this.clockNow),
                  el("div", { class: "buttons" }, jump("insp-clock-1m", "+1 min", kMinuteMs),
                     jump("insp-clock-1h", "+1 h", kHourMs), jump("insp-clock-1d", "+1 day", 24 * kHourMs), this.freeze),
                  el("div", { class: "buttons" }, this.faultRoute),
                  el("div", { class: "buttons" }, this.faultType, this.faultValue,
                     el("label", {}, "× ", this.faultCount),
                     el("button", { id: "insp-fault-add", type: "button", onclick: () => this.#addFault() }, "add fault"),
                     el("button", { id: "insp-fault-clear", type: "button", onclick: () => this.faults.clear() }, "clear")),
                  this.faultList),
               el("section", { class: "insp-box", "aria-labelledby": "insp-lobbies-title" },
                  el("h3", { id: "insp-lobbies-title" }, "Lobbies and calls"),
                  this.lobbies))));
    this.list.addEventListener("click", (event) => {
      const row = event.target.closest("tr[data-seq]");
      if (row) this.select(Number(row.dataset.seq));
    });
    this.list.addEventListener("keydown", (event) => this.#key(event));
    this.#showRecord();
    this.#showPause();
    this.#showDetail();
    this.updateUsers();
  }

  // ---- the live socket ----

  // The live socket took the admin token: `send(object)` writes to it. Asks for the log when recording.
  attach(send) {
    this.send = send;
    this.active = false;
    if (this.recording) send({ inspect: true });
    this.#showStatus();
  }

  // The socket closed: nothing comes until the next attach().
  detach() {
    this.send = null;
    if (this.active) this.#gap("the live socket closed: lines until it is back are not shown");
    this.active = false;
    this.#showStatus();
  }

  // An "inspector" or "events" message; true when it was one.
  receive(message) {
    if (message.type === "inspector") {
      this.active = message.active === true;
      if (this.active) {
        // The log follows a connection from its opening: without it on before, those open now are not
        // followed (their HTTP is). The documents say whether there are any.
        this.untracked = message.continuous === true ? 0 : this.#openConnections();
      }
      this.#showStatus();
      return true;
    }
    if (message.type !== "events") return false;
    const dropped = Number(message.dropped ?? 0);
    if (dropped > 0) {
      this.dropped += dropped;
      this.#gap(`${dropped} lines dropped: the page was too slow to take them`);
    }
    const added = [];
    for (const line of Array.isArray(message.lines) ? message.lines : []) {
      if (!line || typeof line !== "object") continue;
      added.push(this.#add(line));
    }
    // Taken in: the emulator may send more (drawn later, once per frame of the screen).
    this.send?.({ ack: message.batch });
    this.received += added.length;
    if (this.faults.current.length > 0 && added.some((e) => e.kind === "http" && e.target.startsWith("/api/v10/"))) {
      this.#refreshFaultsSoon();  // a fault may have been used up
    }
    if (this.paused) {
      this.unseen += added.length;
      this.#showPause();
    } else {
      this.pending = (this.pending ?? []).concat(added);
      this.#scheduleDraw();
    }
    this.#showStatus();
    return true;
  }

  // GET /faults again, at most every half second.
  #refreshFaultsSoon() {
    if (this.faultsRefresh) return;
    this.faultsRefresh = setTimeout(async () => {
      await this.faults.refreshFaults();
      this.faultsRefresh = null;
    }, 500);
  }

  setRecording(on) {
    this.recording = on;
    localStorage.setItem(kRecordingKey, on ? "on" : "off");
    this.send?.({ inspect: on });
    this.#showRecord();
    this.#showStatus();
  }

  setPaused(paused) {
    this.paused = paused;
    this.frozen = paused ? this.entries.slice() : [];
    if (!paused) {
      this.unseen = 0;
      this.pending = [];
      this.refilter();
    }
    this.#showPause();
  }

  clear() {
    this.entries = [];
    this.frozen = [];
    this.bySeq.clear();
    this.pending = [];
    this.unseen = 0;
    this.dropped = 0;
    this.received = 0;
    this.selected = null;
    fill(this.rows);
    this.#showDetail();
    this.#showPause();
    this.#showStatus();
  }

  // ---- the documents ----

  // A turn's changes, before the store takes them (so the bodies before are still there): lobby and call
  // changes go into their lobby's history.
  documentsChanged(changes) {
    const now = this.clock.current() ?? Date.now();
    for (const change of changes ?? []) {
      if (change?.kind === "lobby") this.#lobbyChanged(String(change.id), this.store.get("lobby", change.id), change.body, now);
      if (change?.kind === "voice_call") this.#callChanged(String(change.id), this.store.get("voice_call", change.id), change.body, now);
    }
  }

  // After the store changed: the lobby view and the user filter.
  documentsApplied(dirty) {
    if (dirty.has("*") || dirty.has("lobby") || dirty.has("voice_call") || dirty.has("user") || dirty.has("application")) {
      this.drawLobbies();
    }
    if (dirty.has("*") || dirty.has("user")) this.updateUsers();
  }

  #note(lobby, ms, text) {
    let list = this.history.get(lobby);
    if (!list) {
      list = [];
      this.history.set(lobby, list);
    }
    const last = list[list.length - 1];
    if (last && last.text === text && Math.abs(last.ms - ms) < 1000) return;
    list.push({ ms, text });
    if (list.length > 50) list.shift();
  }

  #lobbyChanged(id, before, after, ms) {
    if (!before && after) this.#note(id, ms, "lobby created");
    if (before && !after) this.#note(id, ms, "lobby deleted");
    if (!before || !after) return;
    const was = new Set(memberIds(before));
    const now = new Set(memberIds(after));
    for (const user of now) if (!was.has(user)) this.#note(id, ms, `${userLabel(this.store, user)} joined`);
    for (const user of was) if (!now.has(user)) this.#note(id, ms, `${userLabel(this.store, user)} left`);
  }

  #callChanged(id, before, after, ms) {
    if (!before && after) this.#note(id, ms, `call started: ${daveText(after)}`);
    if (before && !after) this.#note(id, ms, "call ended");
    if (!before || !after) return;
    const was = new Set(callMemberIds(before));
    const now = new Set(callMemberIds(after));
    for (const user of now) if (!was.has(user)) this.#note(id, ms, `${userLabel(this.store, user)} joined the call`);
    for (const user of was) if (!now.has(user)) this.#note(id, ms, `${userLabel(this.store, user)} left the call`);
    if (before.dave_protocol_version !== after.dave_protocol_version) {
      this.#note(id, ms, `DAVE protocol v${after.dave_protocol_version} (was v${before.dave_protocol_version})`);
    }
    if (before.epoch !== after.epoch) this.#note(id, ms, `DAVE epoch ${after.epoch} (was ${before.epoch})`);
    if (before.e2ee !== after.e2ee) {
      this.#note(id, ms, after.e2ee ? "end-to-end encrypted" : "no longer end-to-end encrypted");
    }
  }

  // A DAVE message the emulator sent a call's member (from the log): into that call's history.
  #daveFrame(entry) {
    if (entry.kind !== "voice" || entry.dir !== "out" || !kDaveShown.has(entry.opcode)) return;
    const user = [...entry.users][0];
    if (!user) return;
    for (const [lobby, call] of this.store.all("voice_call")) {
      if (!callMemberIds(call).includes(user)) continue;
      const d = entry.payload?.d ?? {};
      const parts = [entry.name];
      if (d.epoch !== undefined) parts.push(`epoch ${d.epoch}`);
      if (d.protocol_version !== undefined) parts.push(`v${d.protocol_version}`);
      if (d.transition_id !== undefined) parts.push(`transition ${d.transition_id}`);
      this.#note(lobby, entry.line.fake_ms, `${parts.join(" ")} → ${userLabel(this.store, user)}`);
      this.#scheduleLobbies();
      return;
    }
  }

  #scheduleLobbies() {
    if (this.lobbiesPending) return;
    this.lobbiesPending = true;
    requestAnimationFrame(() => {
      this.lobbiesPending = false;
      this.drawLobbies();
    });
  }

  drawLobbies() {
    const lobbies = this.store.all("lobby");
    const calls = this.store.all("voice_call");
    const ids = [...new Set([...lobbies.keys(), ...calls.keys()])].sort(snowflakeCompare);
    if (ids.length === 0) {
      fill(this.lobbies, el("p", { class: "empty" }, "No lobby or call."));
      return;
    }
    fill(this.lobbies, ids.map((id) => {
      const lobby = lobbies.get(id);
      const call = calls.get(id);
      const members = memberIds(lobby);
      const inCall = new Set(callMemberIds(call));
      const history = (this.history.get(id) ?? []).slice(-kHistoryShown).reverse();
      return el("article", { class: "insp-lobby card", dataset: { lobbyId: id } },
                el("header", {}, el("strong", {}, `Lobby ${id}`), " ",
                   lobby ? null : badge("no lobby document", "warn")),
                members.length === 0 ? null
                    : el("div", { class: "insp-members" }, members.map((m) => el("span", {
                        class: `badge ${inCall.has(m) ? "good" : ""}`, dataset: { userId: m } },
                        userLabel(this.store, m), inCall.has(m) ? " · in call" : ""))),
                call ? el("div", { class: "insp-call", dataset: {
                         lobbyId: id, epoch: String(call.epoch ?? 0),
                         protocol: String(call.dave_protocol_version ?? 0), e2ee: String(call.e2ee === true),
                         members: String(inCall.size) } },
                         badge(`call: ${inCall.size}`, "good"), " ",
                         el("span", { class: "insp-dave" }, daveText(call)))
                     : el("div", { class: "muted" }, "no call"),
                history.length === 0 ? null
                    : el("ol", { class: "insp-history plain" }, history.map((h) =>
                        el("li", {}, el("time", { class: "muted" }, clockTime(h.ms)), " ", h.text))));
    }));
  }

  updateUsers() {
    const select = this.filters.user;
    const chosen = select.value;
    const ids = new Set(this.store.all("user").keys());
    for (const entry of this.entries) for (const user of entry.users) ids.add(user);
    fill(select, el("option", { value: "" }, "every user"),
         [...ids].sort(snowflakeCompare).map((id) => el("option", { value: id }, `${userLabel(this.store, id)} (${id})`)));
    select.value = [...select.options].some((o) => o.value === chosen) ? chosen : "";
  }

  resetFilters() {
    for (const filter of Object.values(this.filters)) filter.value = "";
    this.refilter();
  }

  // ---- the list ----

  #add(line) {
    const entry = summarise(line);
    if (line.same_as !== undefined) {
      const first = this.bySeq.get(Number(line.same_as));
      if (first) {
        entry.name = first.name;
        entry.what = `${first.name || "frame"} (same as #${line.same_as}) to ${line.to?.length ?? 0} more`;
      }
    }
    this.entries.push(entry);
    this.bySeq.set(entry.seq, entry);
    while (this.entries.length > kKept) this.bySeq.delete(this.entries.shift().seq);
    for (const session of entry.sessions) {
      if (!this.knownSessions.has(session)) {
        this.knownSessions.add(session);
        this.sessionList.appendChild(el("option", { value: session }));
      }
    }
    if (entry.name && entry.kind !== "http" && !this.knownEvents.has(entry.name)) {
      this.knownEvents.add(entry.name);
      this.eventList.appendChild(el("option", { value: entry.name }));
    }
    for (const user of entry.users) {
      if (![...this.filters.user.options].some((o) => o.value === user)) {
        this.filters.user.appendChild(el("option", { value: user }, `${userLabel(this.store, user)} (${user})`));
      }
    }
    this.#daveFrame(entry);
    return entry;
  }

  // A row that says what the list is missing there (lines dropped, a closed socket).
  #gap(text) {
    const entry = { gap: true, seq: null, text, users: new Set(), sessions: new Set() };
    this.entries.push(entry);
    while (this.entries.length > kKept) this.bySeq.delete(this.entries.shift().seq);
    if (this.paused) return;
    this.pending = (this.pending ?? []).concat([entry]);
    this.#scheduleDraw();
  }

  passes(entry) {
    if (entry.gap) return true;
    const f = this.filters;
    if (f.kind.value === "connection") {
      if (!kConnectionEvents.has(entry.dir)) return false;
    } else if (f.kind.value && entry.kind !== f.kind.value) {
      return false;
    }
    if (f.user.value && !entry.users.has(f.user.value)) return false;
    const session = f.session.value.trim();
    if (session && ![...entry.sessions].some((s) => s.startsWith(session))) return false;
    const route = f.route.value.trim();
    if (route) {
      if (entry.kind === "http") {
        if (!routeMatches(route, entry.method, entry.target)) return false;
      } else if (entry.kind === "webhook") {
        if (!entry.what.toLowerCase().includes(route.toLowerCase())) return false;
      } else {
        return false;
      }
    }
    const event = f.event.value.trim().toLowerCase();
    if (event && !entry.name.toLowerCase().includes(event)) return false;
    const text = f.text.value.trim().toLowerCase();
    if (text && !rawOf(entry).includes(text)) return false;
    return true;
  }

  // Draws the list again from what is kept (what was kept when paused, while paused).
  refilter() {
    this.pending = [];
    const entries = this.paused ? this.frozen : this.entries;
    const shown = [];
    for (let i = entries.length - 1; i >= 0 && shown.length < kRowsShown; --i) {
      if (this.passes(entries[i])) shown.push(entries[i]);
    }
    shown.reverse();
    fill(this.rows, shown.map((entry) => this.#row(entry)));
    this.list.scrollTop = this.list.scrollHeight;
    this.#showStatus();
  }

  #scheduleDraw() {
    if (this.drawPending) return;
    this.drawPending = true;
    requestAnimationFrame(() => {
      this.drawPending = false;
      this.#drawPending();
    });
  }

  #drawPending() {
    const pending = this.pending ?? [];
    this.pending = [];
    if (this.paused || pending.length === 0) return;
    const follow = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 24;
    const rows = pending.filter((entry) => this.passes(entry)).slice(-kRowsShown).map((entry) => this.#row(entry));
    this.rows.append(...rows);
    while (this.rows.children.length > kRowsShown) this.rows.firstElementChild.remove();
    if (follow) this.list.scrollTop = this.list.scrollHeight;
    this.#showStatus();
  }

  #who(entry) {
    const parts = [];
    const users = [...entry.users];
    if (users.length === 1) parts.push(el("span", { class: "user-ref", dataset: { userId: users[0] } }, userLabel(this.store, users[0])));
    if (users.length > 1) parts.push(`${users.length} users`);
    if (entry.conn !== null && entry.conn !== undefined) parts.push(el("span", { class: "muted" }, ` #${entry.conn}`));
    const sessions = [...entry.sessions];
    if (sessions.length === 1) parts.push(el("span", { class: "muted id", title: sessions[0] }, ` ${sessions[0].slice(0, 8)}`));
    return parts;
  }

  #row(entry) {
    if (entry.gap) return el("tr", { class: "insp-gap" }, el("td", { colspan: "7" }, `⋯ ${entry.text}`));
    const line = entry.line;
    const arrow = entry.dir === "in" ? "→" : entry.dir === "out" ? "←" : "";
    const failed = entry.kind === "http" ? Number(line.status ?? 0) >= 400 || line.delivery !== "respond"
                                         : entry.kind === "webhook" && (line.error || Number(line.status ?? 0) >= 400);
    return el("tr", { class: `insp-row kind-${entry.kind}${entry.seq === this.selected ? " selected" : ""}${failed ? " failed" : ""}`,
                      tabindex: "-1", dataset: { seq: entry.seq, kind: entry.kind, name: entry.name,
                                                 users: [...entry.users].join(" "), dir: entry.dir ?? "" } },
              el("td", { class: "seq id" }, String(entry.seq)),
              el("td", { class: "id", title: formatTime(line.fake_ms) }, clockTime(line.fake_ms)),
              el("td", { class: "id real" }, clockTime(line.real_ms)),
              el("td", {}, badge(entry.kind, `kind ${entry.kind}`), arrow ? ` ${arrow}` : ""),
              el("td", { class: "who" }, this.#who(entry)),
              el("td", { class: "what", title: entry.kind === "http" ? `${entry.method} ${entry.target}` : entry.what },
                 entry.what),
              el("td", { class: "status" }, entry.status));
  }

  #key(event) {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    const rows = [...this.rows.querySelectorAll("tr[data-seq]")];
    if (rows.length === 0) return;
    event.preventDefault();
    const at = rows.findIndex((row) => Number(row.dataset.seq) === this.selected);
    const next = at < 0 ? rows.length - 1 : Math.max(0, Math.min(rows.length - 1, at + (event.key === "ArrowDown" ? 1 : -1)));
    this.select(Number(rows[next].dataset.seq));
    rows[next].scrollIntoView({ block: "nearest" });
  }

  select(seq) {
    this.selected = seq;
    for (const row of this.rows.querySelectorAll("tr.selected")) row.classList.remove("selected");
    this.rows.querySelector(`tr[data-seq="${seq}"]`)?.classList.add("selected");
    this.#showDetail();
  }

  // ---- the detail ----

  #showDetail() {
    const entry = this.selected === null ? null : this.bySeq.get(this.selected);
    if (!entry) {
      fill(this.detail, el("p", { class: "empty" }, "Click an event to see it whole: an HTTP request beside its answer, a frame's JSON."));
      return;
    }
    const line = entry.line;
    const head = el("div", { class: "insp-detail-head" },
                    el("strong", {}, `#${entry.seq} ${entry.kind === "http" ? `${entry.method} ${entry.target}` : entry.what}`), " ",
                    el("span", { class: "muted" }, `fake ${formatTime(line.fake_ms)} · real ${formatTime(line.real_ms)}`));
    const actions = el("div", { class: "buttons" });
    const user = [...entry.users][0];
    if (entry.kind === "http") {
      const route = faultRouteOf(entry.method, entry.target);
      if (route) {
        actions.append(el("button", { id: "insp-fault-this", type: "button", onclick: () => {
          this.faultRoute.value = route;
          this.faultRoute.focus();
        } }, `fault ${route}…`));
      }
      fill(this.detail, head, actions, el("div", { class: "insp-exchange" },
                                          this.#request(line), this.#answer(line)));
      return;
    }
    if ((entry.kind === "gateway" || entry.kind === "voice") && user) {
      const path = entry.kind === "gateway" ? "/gateway/drop" : "/voice/drop";
      actions.append(el("button", { id: "insp-drop-this", type: "button", onclick: () => this.faults.drop(path, user) },
                        `drop ${userLabel(this.store, user)}'s ${entry.kind === "gateway" ? "Gateway" : "voice"} connection`));
    }
    const facts = el("dl", { class: "metadata" },
                     [["protocol", entry.kind], ["direction", entry.dir], ["connection", entry.conn],
                      ["session", line.session], ["user", line.user ? `${userLabel(this.store, String(line.user))} (${line.user})` : null],
                      ["opcode", entry.opcode !== null ? `${entry.opcode} ${entry.name}` : null],
                      ["code", line.code], ["detail", line.detail], ["bytes", line.bytes]]
                         .filter(([, value]) => value !== undefined && value !== null && value !== "")
                         .map(([name, value]) => [el("dt", {}, name), el("dd", {}, String(value))]));
    let body = null;
    if (line.same_as !== undefined) {
      const first = this.bySeq.get(Number(line.same_as));
      body = [el("h4", {}, `Sent as #${line.same_as}${first ? "" : " (no longer kept)"} to`),
              el("ul", { class: "plain" }, (line.to ?? []).map((to) => el("li", {},
                  to.user ? userLabel(this.store, String(to.user)) : "?", el("span", { class: "muted id" }, ` #${to.conn} s=${to.s}`)))),
              first ? pretty(first.line.frame ?? first.line) : null];
    } else if (line.frame !== undefined) {
      body = pretty(line.frame);
    } else if (line.text !== undefined) {
      body = prettyText(line.text);
    } else if (line.body !== undefined) {
      body = [el("h4", {}, "Body"), prettyText(line.body), line.answer !== undefined ? [el("h4", {}, "Answer"), prettyText(line.answer)] : null];
    } else {
      body = pretty(line);
    }
    fill(this.detail, head, actions, facts, body);
  }

  #request(line) {
    const headers = [["Authorization", line.auth], ["Content-Type", line.content_type]]
        .filter(([, value]) => value !== undefined);
    return el("section", { class: "insp-request" },
              el("h4", {}, "Request"),
              el("div", { class: "id" }, `${line.method} ${line.target}`),
              el("dl", { class: "metadata" },
                 line.user ? [el("dt", {}, "user"), el("dd", { title: `user ${line.user}`, dataset: { userId: String(line.user) } },
                                                        userLabel(this.store, String(line.user)))] : null,
                 line.app ? [el("dt", {}, "application"), el("dd", { title: `application ${line.app}` },
                                                             appName(this.store, String(line.app)))] : null,
                 line.origin ? [el("dt", {}, "made by"), el("dd", {}, String(line.origin))] : null,
                 headers.map(([name, value]) => [el("dt", {}, name), el("dd", { class: "id" }, String(value))])),
              line.body !== undefined ? prettyText(line.body) : el("p", { class: "empty" }, "No body."));
  }

  #answer(line) {
    let body;
    if (line.response !== undefined) body = pretty(line.response);
    else if (line.response_text !== undefined) body = prettyText(line.response_text);
    else if (line.response_bytes !== undefined) body = el("p", { class: "muted" }, `${line.response_bytes} bytes (not logged)`);
    else body = el("p", { class: "empty" }, line.status === undefined ? "No answer." : "No body.");
    return el("section", { class: "insp-answer" },
              el("h4", {}, "Answer"),
              el("div", { class: "id" }, line.status !== undefined ? `${line.status}` : "—",
                 line.delivery && line.delivery !== "respond" ? ` (${line.delivery})` : ""),
              line.location ? el("dl", { class: "metadata" }, el("dt", {}, "Location"), el("dd", { class: "id" }, String(line.location))) : null,
              body);
  }

  // ---- controls and status ----

  // Gateway sessions connected and members connected to a call's voice gateway, as the documents say.
  #openConnections() {
    let open = 0;
    for (const presence of this.store.all("presence").values()) {
      open += (presence.sessions ?? []).filter((s) => s.connected).length;
    }
    for (const call of this.store.all("voice_call").values()) {
      open += (call.members ?? []).filter((m) => m.voice_connected).length;
    }
    return open;
  }

  async #addFault() {
    await this.faults.add(faultOf(this.faultType.value, this.faultRoute.value, Number(this.faultValue.value),
                                  Number(this.faultCount.value)));
  }

  #showFaults(faults) {
    fill(this.faultList, faults.length === 0 ? el("li", { class: "muted" }, "No HTTP faults.")
        : faults.map((f) => el("li", { dataset: { faultId: String(f.id) } }, describeFault(f))));
  }

  #showClock() {
    const now = this.clock.current();
    this.clockNow.textContent = now === null ? "?" : formatTime(now) + (this.clock.frozen() ? " (frozen)" : "");
    if (now !== null) this.clockNow.dataset.ms = String(now);
    this.freeze.textContent = this.clock.frozen() ? "unfreeze" : "freeze";
  }

  #showRecord() {
    this.record.textContent = this.recording ? "● recording" : "○ not recording";
    this.record.setAttribute("aria-pressed", String(this.recording));
    this.record.classList.toggle("on", this.recording);
  }

  #showPause() {
    this.pause.textContent = this.paused ? `resume${this.unseen ? ` (${this.unseen} new)` : ""}` : "pause";
    this.pause.setAttribute("aria-pressed", String(this.paused));
  }

  #showStatus() {
    const state = !this.send ? "not connected" : !this.recording ? "not recording"
        : this.active ? "live" : "asking…";
    const parts = [`${state}`, `${this.entries.length} kept`, `${this.rows.children.length} shown`];
    if (this.dropped) parts.push(`${this.dropped} dropped`);
    if (this.active && this.untracked > 0) {
      parts.push(`${this.untracked} connections were open when recording began: their frames are not shown, ` +
                 "their HTTP is (--event-log follows every connection)");
    }
    this.status.textContent = parts.join(" · ");
    this.status.dataset.state = state;
    this.status.dataset.kept = String(this.entries.length);
    this.status.dataset.dropped = String(this.dropped);
  }
}
