import { ExpiredError, StatusError } from "../../../src/apimachinery/errors.js";
import { metaNamespaceKey } from "../../../src/apimachinery/keys.js";
import type { MetaObject, ObjectList } from "../../../src/apimachinery/object.js";
import type {
  ListerWatcher,
  ListRequest,
  ListWatchEvent,
  WatchRequest,
} from "../../../src/client/list-watch.js";

export interface TestObject extends MetaObject {
  data?: Record<string, string>;
}

interface HistoryEntry {
  rv: number;
  type: "ADDED" | "MODIFIED" | "DELETED";
  object: TestObject;
}

interface OpenWatch {
  request: WatchRequest;
  onEvent: (e: ListWatchEvent<TestObject>) => void;
  end: (err?: unknown) => void;
}

const expired = (msg: string) =>
  new ExpiredError({ kind: "Status", code: 410, reason: "Expired", message: msg });

/**
 * An in-memory API server for one resource, scriptable for tests: fail lists, fail or drop watches, compact the
 * history (410), send bookmarks. Events reach open watches synchronously on every write.
 */
export class FakeListWatch implements ListerWatcher<TestObject> {
  private objects = new Map<string, TestObject>();
  private history: HistoryEntry[] = [];
  private revision = 100;
  private compactedThrough = 0;
  private watches = new Set<OpenWatch>();
  readonly listCalls: ListRequest[] = [];
  readonly watchCalls: WatchRequest[] = [];
  /** Errors thrown by the next list calls, in order. */
  listFailures: unknown[] = [];
  /** Errors the next watch calls reject with at once, in order. */
  watchFailures: unknown[] = [];
  /** When set, list pages with a continue token fail with 410. */
  expireContinueTokens = false;

  get openWatches(): number {
    return this.watches.size;
  }

  get currentRevision(): number {
    return this.revision;
  }

  create(name: string, namespace = "default", data: Record<string, string> = {}): TestObject {
    const key = metaNamespaceKey({ metadata: { name, namespace } });
    if (this.objects.has(key)) throw new Error(`exists: ${key}`);
    return this.write("ADDED", { kind: "ConfigMap", metadata: { name, namespace, uid: `uid-${key}` }, data });
  }

  update(name: string, namespace = "default", data: Record<string, string> = {}): TestObject {
    const old = this.objects.get(metaNamespaceKey({ metadata: { name, namespace } }));
    if (!old) throw new Error(`missing: ${namespace}/${name}`);
    return this.write("MODIFIED", { ...old, metadata: { ...old.metadata }, data });
  }

  remove(name: string, namespace = "default"): TestObject {
    const old = this.objects.get(metaNamespaceKey({ metadata: { name, namespace } }));
    if (!old) throw new Error(`missing: ${namespace}/${name}`);
    return this.write("DELETED", { ...old, metadata: { ...old.metadata } });
  }

  get(name: string, namespace = "default"): TestObject | undefined {
    return this.objects.get(metaNamespaceKey({ metadata: { name, namespace } }));
  }

  /** Current state, as `key -> resourceVersion`. */
  state(): Map<string, string> {
    return new Map([...this.objects].map(([k, o]) => [k, o.metadata!.resourceVersion!]));
  }

  /** Forgets all history up to now: any watch or continue token from an older RV gets 410. */
  compact(): void {
    this.compactedThrough = this.revision;
    this.history = [];
  }

  /** Ends every open watch normally (like a server-side timeout). */
  dropWatches(): void {
    for (const w of [...this.watches]) w.end();
  }

  /** Ends every open watch with an error (an in-stream ERROR event or a broken connection). */
  failWatches(err: unknown = expired("too old resource version")): void {
    for (const w of [...this.watches]) w.end(err);
  }

  /** Sends a BOOKMARK at the current revision to every open watch. */
  bookmark(): void {
    const object = { kind: "ConfigMap", metadata: { resourceVersion: String(this.revision) } };
    for (const w of [...this.watches]) w.onEvent({ type: "BOOKMARK", object });
  }

  /** Bumps the revision without an event for this resource (another resource was written). */
  bumpRevision(by = 1): void {
    this.revision += by;
  }

  async list(request: ListRequest): Promise<ObjectList<TestObject>> {
    this.listCalls.push({ ...request, signal: undefined });
    if (this.listFailures.length > 0) throw this.listFailures.shift();
    let rv = this.revision;
    let offset = 0;
    if (request.continue) {
      const [tokenRv, tokenOffset] = request.continue.split(":").map(Number);
      if (this.expireContinueTokens || tokenRv! <= this.compactedThrough)
        throw expired("continue token expired");
      rv = tokenRv!;
      offset = tokenOffset!;
    } else if (request.resourceVersion && request.resourceVersion !== "0") {
      if (Number(request.resourceVersion) < this.compactedThrough) throw expired("too old resource version");
    }
    // The fake only serves the latest state; a paginated list after writes would mix revisions, so tests write
    // between lists only.
    const all = [...this.objects.values()].sort((a, b) =>
      metaNamespaceKey(a).localeCompare(metaNamespaceKey(b)),
    );
    const limit = request.limit && request.limit > 0 ? request.limit : all.length;
    const items = all.slice(offset, offset + limit);
    const more = offset + limit < all.length;
    return {
      kind: "ConfigMapList",
      metadata: { resourceVersion: String(rv), continue: more ? `${rv}:${offset + limit}` : undefined },
      items,
    };
  }

  watch(
    request: WatchRequest,
    onEvent: (e: ListWatchEvent<TestObject>) => void,
    signal: AbortSignal,
  ): Promise<void> {
    this.watchCalls.push({ ...request });
    if (this.watchFailures.length > 0) return Promise.reject(this.watchFailures.shift());
    if (signal.aborted) return Promise.resolve();
    const from = Number(request.resourceVersion || 0);
    if (from < this.compactedThrough) return Promise.reject(expired(`too old resource version: ${from}`));
    return new Promise<void>((resolve, reject) => {
      const w: OpenWatch = {
        request,
        onEvent,
        end: (err?: unknown) => {
          if (!this.watches.delete(w)) return;
          signal.removeEventListener("abort", onAbort);
          if (err) reject(err);
          else resolve();
        },
      };
      const onAbort = () => w.end();
      signal.addEventListener("abort", onAbort, { once: true });
      this.watches.add(w);
      for (const h of this.history) if (h.rv > from) onEvent({ type: h.type, object: h.object });
    });
  }

  private write(type: HistoryEntry["type"], obj: TestObject): TestObject {
    this.revision++;
    obj.metadata!.resourceVersion = String(this.revision);
    const key = metaNamespaceKey(obj);
    if (type === "DELETED") this.objects.delete(key);
    else this.objects.set(key, obj);
    this.history.push({ rv: this.revision, type, object: obj });
    for (const w of [...this.watches]) w.onEvent({ type, object: obj });
    return obj;
  }
}

/** A status error with the given code, shaped like what ListWatch produces. */
export function statusError(code: number, reason = "InternalError"): StatusError {
  return new StatusError({ kind: "Status", code, reason, message: `${reason} (${code})` });
}
