// The console's controls: the fake clock (shown, advanced, frozen) and the faults (HTTP delay, 5xx or 429 on a
// route; a Gateway or voice connection dropped; UDP loss). Each action is one admin API call (admin.js).
import { admin } from "./admin.js";
import { el, fill, formatClock } from "./dom.js";
import { userLabel } from "./panels.js";

const kHourMs = 60 * 60 * 1000;

// ---- the fake clock ---------------------------------------------------------------------------------------

export class ClockPanel {
  constructor(root) {
    this.body = null;
    this.listeners = [];
    this.now = el("output", { id: "clock-now", class: "clock-now" }, "?");
    this.state = el("span", { id: "clock-state", class: "badge" }, "");
    this.freeze = el("button", { id: "freeze-clock", type: "button", onclick: () => this.#toggleFreeze() },
                     "freeze clock");
    this.minutes = el("input", { id: "advance-minutes", type: "number", min: "1", value: "10", size: "5",
                                 "aria-label": "minutes to advance" });
    fill(root,
         el("div", { class: "clock-line" }, this.now, " ", this.state),
         el("div", { class: "buttons" },
            el("button", { id: "advance-clock-1h", type: "button", onclick: () => this.advance(kHourMs) },
               "advance clock 1 h"),
            el("button", { id: "advance-clock-1d", type: "button", onclick: () => this.advance(24 * kHourMs) },
               "advance 1 day"),
            this.freeze),
         el("div", { class: "buttons" },
            el("label", {}, "advance ", this.minutes, " min "),
            el("button", { id: "advance-clock-minutes", type: "button",
                           onclick: () => this.advance(Number(this.minutes.value) * 60000) }, "advance")));
    // The clock flows with real time between changes: shown from its offset, without asking the emulator.
    setInterval(() => this.#show(), 1000);
  }

  // The "clock" document: {now, frozen, offset_ms, frozen_at_ms, last_ms}.
  update(body) {
    if (!body) return;
    this.body = { ...body };
    this.#show();
    for (const listener of this.listeners) listener();
  }

  // Moves the fake clock `ms` forward (POST /clock); the answer, or null when nothing was asked.
  async advance(ms) {
    if (!Number.isFinite(ms) || ms <= 0) return null;
    return await this.#post({ advance_ms: Math.round(ms) });
  }

  // The fake clock now as the page reckons it (ms since the epoch), or null before the first clock document.
  current() {
    return this.#current();
  }

  // Whether the clock is frozen.
  frozen() {
    return this.body?.frozen === true;
  }

  // Freezes or unfreezes it (POST /clock).
  async toggleFreeze() {
    return await this.#toggleFreeze();
  }

  async #toggleFreeze() {
    return await this.#post({ frozen: !(this.body?.frozen ?? false) });
  }

  // The answer ({now, now_ms, frozen}) is shown at once; the stream's clock document follows.
  async #post(body) {
    const answer = await admin("POST", "/clock", body);
    if (!answer.ok || !answer.body || typeof answer.body.now_ms !== "number") return answer;
    const now = answer.body.now_ms;
    this.body = { ...(this.body ?? {}), frozen: answer.body.frozen === true, last_ms: now, frozen_at_ms: now,
                  offset_ms: now - Date.now() };
    this.#show();
    for (const listener of this.listeners) listener();
    return answer;
  }

  // `listener()` runs whenever the clock shown changes (a document, an answer).
  onChange(listener) {
    this.listeners.push(listener);
  }

  #current() {
    const body = this.body;
    if (!body) return null;
    const last = Number(body.last_ms ?? 0);
    if (body.frozen) return Math.max(last, Number(body.frozen_at_ms ?? 0));
    return Math.max(last, Date.now() + Number(body.offset_ms ?? 0));
  }

  #show() {
    const now = this.#current();
    this.now.textContent = now === null ? "?" : formatClock(now);
    if (now !== null) this.now.dataset.ms = String(now);
    const frozen = this.body?.frozen === true;
    this.state.textContent = frozen ? "frozen" : "flowing";
    this.state.className = `badge ${frozen ? "warn" : "good"}`;
    this.freeze.textContent = frozen ? "unfreeze clock" : "freeze clock";
  }
}

// ---- faults -----------------------------------------------------------------------------------------------

function userOptions(store, users, allLabel) {
  return [el("option", { value: "" }, allLabel),
          users.map((id) => el("option", { value: id }, `${userLabel(store, id)} (${id})`))];
}

export function describeFault(fault) {
  const parts = [];
  if (fault.delay_ms) parts.push(`delay ${fault.delay_ms} ms`);
  if (fault.status) parts.push(`status ${fault.status}`);
  if (fault.status === 429 && fault.retry_after !== undefined) parts.push(`retry after ${fault.retry_after} s`);
  if (fault.drop) parts.push("drop");
  if (fault.drop_after) parts.push("drop the answer");
  if (fault.truncate) parts.push("truncate");
  const left = fault.count === 0 ? "until cleared" : `${fault.remaining ?? fault.count} left`;
  return `${fault.route}: ${parts.join(", ") || "no effect"} (${left})`;
}

// A fault of the faults panel's kinds: "delay" (`value` ms), "5xx" (`value`: the status) or "429" (`value`:
// the seconds to wait), on `route`, for `count` requests (0: until cleared).
export function faultOf(type, route, value, count) {
  const fault = { route: String(route).trim(), count: Math.max(0, Math.round(Number.isFinite(count) ? count : 1)) };
  if (type === "delay") fault.delay_ms = Math.max(0, Math.round(value));
  if (type === "5xx") fault.status = Math.round(value);
  if (type === "429") {
    fault.status = 429;
    fault.retry_after = value;
  }
  return fault;
}

export class FaultsPanel {
  constructor(root) {
    this.route = el("input", { id: "fault-route", type: "text", value: "GET /users/@me", size: "28",
                               "aria-label": "route" });
    this.type = el("select", { id: "fault-type", "aria-label": "fault",
                               onchange: () => { this.value.value = this.#defaultValue(); } },
                   el("option", { value: "delay" }, "delay (ms)"),
                   el("option", { value: "5xx" }, "5xx (status)"),
                   el("option", { value: "429" }, "429 (retry after, s)"));
    this.value = el("input", { id: "fault-value", type: "number", value: "2000", size: "6", "aria-label": "value" });
    this.count = el("input", { id: "fault-count", type: "number", min: "0", value: "1", size: "4",
                               "aria-label": "requests affected (0: until cleared)" });
    this.faults = el("ul", { id: "fault-list", class: "plain" });
    this.gatewayUser = el("select", { id: "gateway-user", "aria-label": "Gateway user" });
    this.voiceUser = el("select", { id: "voice-user", "aria-label": "voice user" });
    this.loss = el("input", { id: "udp-loss", type: "number", min: "0", max: "100", value: "10", size: "4",
                              "aria-label": "UDP loss percent" });
    this.udpState = el("span", { id: "udp-state", class: "muted" }, "");
    this.current = [];  // the HTTP faults in place, as GET /faults last said
    this.listeners = [];
    fill(root,
         el("h3", {}, "HTTP (/api/v10)"),
         el("div", { class: "buttons" }, this.route, this.type, this.value,
            el("label", {}, " × ", this.count),
            el("button", { id: "fault-add", type: "button", onclick: () => this.#addFault() }, "add HTTP fault"),
            el("button", { id: "fault-clear", type: "button", onclick: () => this.#clearFaults() }, "clear")),
         this.faults,
         el("h3", {}, "Gateway"),
         el("div", { class: "buttons" }, this.gatewayUser,
            el("button", { id: "gateway-drop", type: "button",
                           onclick: () => this.#drop("/gateway/drop", this.gatewayUser.value) },
               "drop Gateway connection")),
         el("h3", {}, "Voice"),
         el("div", { class: "buttons" }, this.voiceUser,
            el("button", { id: "voice-drop", type: "button",
                           onclick: () => this.#drop("/voice/drop", this.voiceUser.value) },
               "drop voice connection")),
         el("div", { class: "buttons" },
            el("label", {}, "UDP loss ", this.loss, " % "),
            el("button", { id: "udp-apply", type: "button", onclick: () => this.#udpLoss() }, "set UDP loss"),
            el("button", { id: "udp-clear", type: "button", onclick: () => this.#udpClear() }, "clear UDP faults"),
            " ", this.udpState));
    this.refreshFaults();
  }

  // The users to choose from: those online (Gateway) and those in a call (voice).
  updateUsers(store) {
    const online = [...store.all("presence").keys()].filter((id) => (store.get("presence", id).sessions ?? []).length > 0);
    const inCall = new Set();
    for (const call of store.all("voice_call").values()) {
      for (const member of call.members ?? []) inCall.add(String(member.user_id));
    }
    this.#setOptions(this.gatewayUser, userOptions(store, online, "every connection"));
    this.#setOptions(this.voiceUser, userOptions(store, [...inCall], "every voice connection"));
  }

  #setOptions(select, options) {
    const chosen = select.value;
    fill(select, options);
    select.value = [...select.options].some((o) => o.value === chosen) ? chosen : "";
  }

  #defaultValue() {
    return { delay: "2000", "5xx": "503", "429": "1.5" }[this.type.value];
  }

  async refreshFaults() {
    const answer = await admin("GET", "/faults");
    if (!answer.ok || !Array.isArray(answer.body?.faults)) return;
    this.current = answer.body.faults;
    for (const listener of this.listeners) listener(this.current);
    fill(this.faults, answer.body.faults.length === 0
        ? el("li", { class: "muted" }, "No HTTP faults.")
        : answer.body.faults.map((f) => el("li", { dataset: { faultId: String(f.id) } }, describeFault(f))));
  }

  // `listener(faults)` runs with the HTTP faults in place whenever the page learns them.
  onChange(listener) {
    this.listeners.push(listener);
  }

  // Adds an HTTP fault (POST /faults, `fault` as the README describes it), then lists them again.
  async add(fault) {
    const answer = await admin("POST", "/faults", fault);
    await this.refreshFaults();
    return answer;
  }

  async #addFault() {
    await this.add(faultOf(this.type.value, this.route.value, Number(this.value.value), Number(this.count.value)));
  }

  // Removes every HTTP fault (DELETE /faults).
  async clear() {
    const answer = await admin("DELETE", "/faults");
    await this.refreshFaults();
    return answer;
  }

  async #clearFaults() {
    await this.clear();
  }

  // Drops the Gateway ("/gateway/drop") or voice ("/voice/drop") connections of `user` (all when empty).
  // Answers {connections: N}: the action log shows the status.
  async drop(path, user) {
    return await admin("POST", path, user ? { user_id: user } : {});
  }

  async #drop(path, user) {
    await this.drop(path, user);
  }

  async #udpLoss() {
    const answer = await admin("POST", "/voice/udp-faults", { loss_percent: Number(this.loss.value) });
    if (answer.ok) this.udpState.textContent = `loss ${answer.body?.loss_percent ?? this.loss.value} %`;
  }

  async #udpClear() {
    const answer = await admin("DELETE", "/voice/udp-faults");
    if (answer.ok) this.udpState.textContent = "no UDP faults";
  }
}
