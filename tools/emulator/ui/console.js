// The emulator's live web console (docs/emulator-state.md, "Live web console"). One WebSocket,
// /_emulator/ui/live, brings a snapshot of every document and then each turn's changes once the page has sent
// the admin token; the panels that show a changed kind are drawn again. Nothing is polled. Actions go through
// the admin API (admin.js).
import { refuseAdminToken, whenAdminToken } from "./admin.js";
import { ClockPanel, FaultsPanel } from "./controls.js";
import { renderApplications, renderCalls, renderFriendships, renderLobbies, renderMessages, renderOther,
         renderUsers } from "./panels.js";
import { kGuildKinds, renderGuilds } from "./guilds.js";
import { Inspector } from "./inspector.js";
import { Store } from "./store.js";

const kLivePath = "/_emulator/ui/live";
const kRetryFirstMs = 250;
const kRetryMaxMs = 2000;  // a restarted emulator is back on the page within 2 s

const store = new Store();
const live = document.getElementById("live-status");
const clock = new ClockPanel(document.getElementById("clock"));
const faults = new FaultsPanel(document.getElementById("faults"));
const inspector = new Inspector(document.getElementById("inspector"), { store, clock, faults });

// Two views: the documents' panels ("overview") and the event log ("inspector", inspector.js). The address's
// ?view=inspector opens the second; the choice stays in the address (not the fragment: the admin token's).
function showView(view) {
  const inspecting = view === "inspector";
  document.getElementById("overview").hidden = inspecting;
  document.getElementById("inspector").hidden = !inspecting;
  document.body.dataset.view = inspecting ? "inspector" : "overview";
  for (const button of document.querySelectorAll("nav.views button")) {
    button.setAttribute("aria-pressed", String(button.dataset.view === document.body.dataset.view));
  }
  const address = new URL(location.href);
  if (inspecting) address.searchParams.set("view", "inspector");
  else address.searchParams.delete("view");
  history.replaceState(null, "", address.pathname + address.search + address.hash);
}
for (const button of document.querySelectorAll("nav.views button")) {
  button.addEventListener("click", () => showView(button.dataset.view));
}
showView(new URLSearchParams(location.search).get("view") === "inspector" ? "inspector" : "overview");

// Each panel and the kinds it shows; "*" redraws on any kind (the documents of other kinds).
const panels = [
  { root: "applications", kinds: ["application", "lobby", "presence"], draw: renderApplications },
  { root: "users", kinds: ["user", "presence"], draw: renderUsers },
  { root: "friendships", kinds: ["relationships", "game_relationships", "user", "application"],
    draw: renderFriendships },
  { root: "lobbies", kinds: ["lobby", "user", "application", "presence", "voice_call", "guild"],
    draw: renderLobbies },
  { root: "messages", kinds: ["message", "dm_channel", "user", "lobby"], draw: renderMessages },
  { root: "calls", kinds: ["voice_call", "user"], draw: renderCalls },
  { root: "guilds", kinds: [...kGuildKinds, "user", "clock"], draw: renderGuilds },
  { root: "other", kinds: ["*"], draw: renderOther },
];

function redraw(dirty) {
  for (const panel of panels) {
    if (!dirty.has("*") && !panel.kinds.some((kind) => kind === "*" || dirty.has(kind))) continue;
    const root = document.getElementById(panel.root);
    try {
      panel.draw(store, root);
    } catch (e) {
      // One malformed document must not stop the other panels.
      console.error(`console: drawing ${panel.root}:`, e);
    }
  }
  if (dirty.has("*") || dirty.has("clock")) clock.update(store.get("clock", "clock"));
  if (dirty.has("*") || dirty.has("user") || dirty.has("presence") || dirty.has("voice_call")) faults.updateUsers(store);
  inspector.documentsApplied(dirty);
  const counts = document.getElementById("counts");
  counts.textContent = `${store.all("user").size} users · ${store.all("presence").size} online · ` +
                       `${store.all("lobby").size} lobbies · ${store.all("message").size} messages · ` +
                       `${store.all("voice_call").size} calls · ${store.all("guild").size} guilds`;
}

function setLive(state, text) {
  document.body.dataset.live = state;
  live.textContent = text;
  live.className = `badge live-${state}`;
}

let retryMs = kRetryFirstMs;
let turns = 0;

const kTokenRefused = 4004;  // the live socket's close code for a wrong admin token

async function connect() {
  setLive("connecting", "waiting for the admin token…");
  const token = await whenAdminToken();
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${location.host}${kLivePath}`);
  setLive("connecting", "connecting…");
  socket.addEventListener("open", () => {
    retryMs = kRetryFirstMs;
    socket.send(JSON.stringify({ admin_token: token }));
    // Sent after the token, so the emulator reads it once the token is taken (or closes the socket first).
    inspector.attach((message) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    });
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      console.error("console: a live message that is not JSON");
      return;
    }
    if (message.type === "snapshot") {
      setLive("open", "live");  // the token was taken
      redraw(store.reset(message.documents));
    } else if (message.type === "changes") {
      inspector.documentsChanged(message.changes);
      redraw(store.apply(message.changes));
    } else {
      inspector.receive(message);  // the event log's lines, for the inspector
      return;
    }
    document.body.dataset.turns = String(++turns);
  });
  socket.addEventListener("close", (event) => {
    inspector.detach();
    if (event.code === kTokenRefused) {
      // Asked again; the next connection waits for the new token.
      refuseAdminToken(token);
      connect();
      return;
    }
    // A fresh snapshot comes with the next connection: nothing missed is lost.
    setLive("closed", `reconnecting in ${(retryMs / 1000).toFixed(1)} s…`);
    setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, kRetryMaxMs);
  });
}

redraw(new Set(["*"]));
connect();
