// Safe DOM building for the console: every string from the emulator becomes a Text node (textContent), never
// markup. Nothing in the console uses innerHTML, outerHTML, insertAdjacentHTML or document.write.

// el("li", {class: "user", dataset: {userId: "1"}, onclick: fn}, "text", childNode, ...)
// Attribute values are set with setAttribute (never parsed as HTML); children that are strings or numbers
// become Text nodes; null, undefined and false children are skipped; arrays are flattened.
export function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "dataset") {
      for (const [key, data] of Object.entries(value)) node.dataset[key] = String(data);
    } else if (name.startsWith("on") && typeof value === "function") {
      node.addEventListener(name.slice(2), value);
    } else if (name === "value") {
      node.value = String(value);
    } else {
      node.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(node, children);
  return node;
}

export function append(node, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) {
      append(node, child);
    } else if (child instanceof Node) {
      node.appendChild(child);
    } else {
      node.appendChild(document.createTextNode(String(child)));
    }
  }
}

// Replaces the node's children.
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
}

// A fake-clock instant (ms since the epoch) as "2026-11-22 10:00:00" (UTC).
export function formatTime(ms) {
  if (typeof ms !== "number" || !Number.isFinite(ms)) return "?";
  return new Date(ms).toISOString().replace("T", " ").replace(/\.\d+Z$/, "");
}

export function formatClock(ms) {
  if (typeof ms !== "number" || !Number.isFinite(ms)) return "?";
  return new Date(ms).toISOString().replace("T", " ").replace("Z", " UTC");
}
