// The console's copy of the emulator's documents (docs/emulator-state.md): kind -> id -> body, as the live
// stream gives them: a snapshot of everything, then each turn's changes (a body, or null when removed).

export class Store {
  constructor() {
    this.kinds = new Map();
  }

  // The snapshot: everything is replaced. Returns the kinds present before or after (all of them changed).
  reset(documents) {
    const dirty = new Set(this.kinds.keys());
    this.kinds = new Map();
    for (const document of documents ?? []) {
      if (!validDocument(document)) continue;
      this.#put(document.kind, document.id, document.body);
      dirty.add(document.kind);
    }
    return dirty;
  }

  // One turn's changes. Returns the kinds that changed.
  apply(changes) {
    const dirty = new Set();
    for (const change of changes ?? []) {
      if (!validDocument(change)) continue;
      dirty.add(change.kind);
      if (change.body === null || change.body === undefined) {
        this.kinds.get(change.kind)?.delete(change.id);
      } else {
        this.#put(change.kind, change.id, change.body);
      }
    }
    return dirty;
  }

  // The documents of a kind, by id (an empty map for a kind never seen).
  all(kind) {
    return this.kinds.get(kind) ?? new Map();
  }

  get(kind, id) {
    return this.kinds.get(kind)?.get(String(id));
  }

  #put(kind, id, body) {
    let documents = this.kinds.get(kind);
    if (!documents) {
      documents = new Map();
      this.kinds.set(kind, documents);
    }
    documents.set(id, body);
  }
}

function validDocument(document) {
  return document !== null && typeof document === "object" && typeof document.kind === "string" &&
         typeof document.id === "string";
}

// Snowflake ids in numeric order (their text order differs when lengths differ).
export function snowflakeCompare(a, b) {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}
