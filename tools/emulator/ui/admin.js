// The admin API (/_emulator, tools/emulator/README.md), the same routes the testkit uses, called with fetch
// on the page's own origin. Every call is written to the action log with its status.
import { el } from "./dom.js";

const kAdminBase = "/_emulator";
const kLogLength = 12;

// {ok, status, body (parsed JSON or null)}; never throws (a network failure is status 0).
export async function admin(method, path, body) {
  const init = { method, headers: {} };
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
