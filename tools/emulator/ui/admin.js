// The admin API (/_emulator, tools/emulator/README.md), the same routes the testkit uses, called with fetch
// on the page's own origin with the admin token. Every call is written to the action log with its status.
import { el } from "./dom.js";

const kAdminBase = "/_emulator";
const kLogLength = 12;
const kTokenKey = "platformpp.emulator.adminToken";

// The admin token: from the address's fragment (#admin_token=..., which the browser never sends; it leaves
// the address bar at once), else what this tab was given before (sessionStorage: gone with the tab), else
// asked for with the token form.
let tokenWaiters = [];

function adminToken() {
  return sessionStorage.getItem(kTokenKey) || "";
}

// A promise of the token; asks for it when the tab has none.
export function whenAdminToken() {
  const token = adminToken();
  if (token) return Promise.resolve(token);
  showTokenForm(null);
  return new Promise((resolve) => tokenWaiters.push(resolve));
}

// The emulator refused `token` (an HTTP 401, or the live socket's 4004): forget it and ask again. A refusal
// that arrives after the tab was given another token (a request or a socket still in flight with the old one)
// leaves the new one alone.
export function refuseAdminToken(token) {
  if (adminToken() !== token) return;
  sessionStorage.removeItem(kTokenKey);
  showTokenForm("The emulator refused that token (a new one is made at each start, unless it keeps its state).");
}

function useToken(token) {
  sessionStorage.setItem(kTokenKey, token);
  document.getElementById("token-form").hidden = true;
  const waiters = tokenWaiters;
  tokenWaiters = [];
  for (const resolve of waiters) resolve(token);
}

// `error`: why the form is shown again; null keeps what it says (a refusal stays on screen while the page
// waits for the next token).
function showTokenForm(error) {
  if (error !== null) document.getElementById("token-error").textContent = error;
  document.getElementById("token-form").hidden = false;
  document.getElementById("token-input").focus();
}

function takeTokenFromAddress() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const token = fragment.get("admin_token");
  if (!token) return;
  history.replaceState(null, "", location.pathname + location.search);
  useToken(token);
}

document.getElementById("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = document.getElementById("token-input");
  const token = input.value.trim();
  input.value = "";
  if (token) useToken(token);
});
takeTokenFromAddress();
window.addEventListener("hashchange", takeTokenFromAddress);  // the address edited in an open tab

// {ok, status, body (parsed JSON or null)}; never throws (a network failure is status 0).
export async function admin(method, path, body) {
  const token = await whenAdminToken();
  const init = { method, headers: { Authorization: `Bearer ${token}` } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let status = 0;
  let parsed = null;
  let error = null;
  try {
    const response = await fetch(kAdminBase + path, init);
    status = response.status;
    const text = await response.text();
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
  } catch (e) {
    error = String(e);
  }
  if (status === 401) refuseAdminToken(token);
  const ok = status >= 200 && status < 300;
  log(method, path, status, ok ? null : describeError(parsed, error));
  return { ok, status, body: parsed };
}

function describeError(body, error) {
  if (error) return error;
  if (body && typeof body === "object" && typeof body.message === "string") return body.message;
  return typeof body === "string" ? body : null;
}

function log(method, path, status, error) {
  const list = document.getElementById("action-log");
  if (!list) return;
  const time = new Date().toLocaleTimeString();
  const item = el("li", { class: status >= 200 && status < 300 ? "ok" : "failed", dataset: { status } },
                  el("span", { class: "time" }, time), " ", el("code", {}, `${method} ${kAdminBase}${path}`),
                  " → ", el("strong", {}, status === 0 ? "no answer" : String(status)),
                  error ? el("span", { class: "error" }, " " + error) : null);
  list.prepend(item);
  while (list.children.length > kLogLength) list.lastElementChild.remove();
}
