/**
 * The embedded API server's wiring (`createBackend`), as kube-apiserver's `APIGroupInfo` and `InstallAPIGroup`
 * wire storage to handlers: it builds the storage (the MVCC store and its watch cache), the served resources,
 * NamespaceLifecycle admission and the registry {@link Store}, then resolves each request's resource and hands
 * every verb to that Store. It holds no kind-specific code and no verb logic.
 *
 * Besides {@link ApiBackend}, the HTTP layer uses optional extras declared in types.ts: `listJson()` (a LIST
 * response body built from the stored JSON bytes, no re-serialization), `table()`/`tableOf()` (kubectl's Table
 * output) and, on watch handles, `bookmark()` (send one BOOKMARK now, e.g. before closing a watch at its
 * timeout).
 */

import { failure, isNotFound } from "../../apimachinery/errors.js";
import type { KubeObject } from "../../apimachinery/object.js";
import { type Clock, realClock } from "../../clock/clock.js";
import { NamespaceLifecycle } from "./admission/namespace-lifecycle.js";
import type { ParamObjects } from "./admission/policies/params.js";
import { WebhookAdmission } from "./admission/webhooks/pipeline.js";
import { responseError } from "./errors.js";
import { builtinResources } from "./registry/builtin-resources.js";
import { ConversionPending, type WebhookConversion } from "./registry/crd-conversion-webhook.js";
import { CrdLifecycle } from "./registry/crd-lifecycle.js";
import { ResourceRegistry } from "./registry/resource-registry.js";
import type { ServedResource } from "./registry/served-resource.js";
import { Store } from "./registry/store.js";
import { type IncludeObject, type PrinterColumn, type Table, toTable } from "./registry/table.js";
import type { ListBody } from "./serializer/list-body.js";
import { DEFAULT_HISTORY_SIZE, MvccStore } from "./storage/mvcc-store.js";
import { DEFAULT_BOOKMARK_INTERVAL_MS, WatchCache } from "./storage/watch-cache.js";
import type {
  ApiBackend,
  DeleteOptions,
  GetOptions,
  KubeList,
  ListOptions,
  PatchType,
  ResourceType,
  WatchHandle,
  WatchOptions,
  WatchSink,
  WebhookWrites,
  WriteOptions,
} from "./types.js";
import { FieldErrors } from "./validation/field-errors.js";

/** Options of {@link createBackend}. */
export interface BackendOptions {
  /** Clock for timestamps and bookmark timers (default: the real clock). */
  clock?: Clock;
  /** Events kept for watch resumption (default 10,000). */
  historySize?: number;
  /** Period of BOOKMARK events on watches that allow them (default 60 s). */
  bookmarkIntervalMs?: number;
  /** Random source for generateName suffixes (default Math.random); pass a seeded one for reproducibility. */
  random?: () => number;
}

/** A snapshot of the store's counters (see {@link Backend.stats}). */
export interface BackendStats {
  revision: number;
  compactedRevision: number;
  historyEvents: number;
  historyCapacity: number;
  watches: number;
}

/** The namespaces every cluster starts with. */
const INITIAL_NAMESPACES = ["default", "kube-system", "kube-public", "kube-node-lease"];

const NAMESPACES_STORAGE_ID = "/namespaces";

/**
 * An in-memory kube-apiserver: MVCC storage with a global revision, watches with a history window,
 * built-in kinds and CRD-served kinds, and the generic registry's write semantics.
 */
export class Backend implements ApiBackend {
  private readonly clock: Clock;
  private readonly store: MvccStore;
  private readonly watchCache: WatchCache;
  private readonly registry = new ResourceRegistry();
  /** The registry store every verb goes through (kube-apiserver's `genericregistry.Store`). */
  private readonly registryStore: Store;
  /** The registry store's writes through the admission webhooks (what the HTTP handlers call). */
  readonly webhookWrites: WebhookWrites;

  constructor(options: BackendOptions = {}) {
    this.clock = options.clock ?? realClock;
    this.store = new MvccStore(options.historySize ?? DEFAULT_HISTORY_SIZE);
    this.watchCache = new WatchCache(
      this.store,
      this.clock,
      options.bookmarkIntervalMs ?? DEFAULT_BOOKMARK_INTERVAL_MS,
    );
    this.registryStore = new Store({
      store: this.store,
      watchCache: this.watchCache,
      registry: this.registry,
      clock: this.clock,
      random: options.random ?? Math.random,
      admission: new NamespaceLifecycle(() => this.store.resource(NAMESPACES_STORAGE_ID)),
    });
    const namespaceObject = (name: string) =>
      this.store.resource(NAMESPACES_STORAGE_ID).current(name)?.object();
    const admission = new WebhookAdmission(
      this.store,
      this.registryStore,
      (name) => {
        const ns = namespaceObject(name);
        return ns ? (ns.metadata?.labels ?? {}) : undefined;
      },
      namespaceObject,
      (apiVersion, kind) => this.paramObjects(apiVersion, kind),
    );
    this.webhookWrites = {
      create: (rt, ns, body, opts) => guardAsync(() => admission.create(this.served(rt), ns, body, opts)),
      update: (rt, ns, name, body, opts) =>
        guardAsync(() => admission.update(this.served(rt), ns, name, body, opts)),
      patch: (rt, ns, name, type, patch, opts) =>
        guardAsync(() => admission.patch(this.served(rt), ns, name, type, patch, opts)),
      delete: (rt, ns, name, opts, warnings) =>
        guardAsync(() => admission.delete(this.served(rt), ns, name, opts, warnings)),
      deleteCollection: (rt, ns, listOpts, deleteOpts, warnings) =>
        guardAsync(() => admission.deleteCollection(this.served(rt), ns, listOpts, deleteOpts, warnings)),
    };
    const crds = new CrdLifecycle(this.registry, this.store, this.watchCache);
    this.registry.add(...builtinResources(this.clock, crds));
    const nsType = this.served(this.registry.find("", "v1", "namespaces")!.type);
    for (const name of INITIAL_NAMESPACES)
      this.registryStore.create(nsType, undefined, { metadata: { name } });
  }

  /** The objects of a ValidatingAdmissionPolicy's paramKind, read through the registry store. */
  private paramObjects(apiVersion: string, kind: string): ParamObjects | undefined {
    const slash = apiVersion.indexOf("/");
    const group = slash < 0 ? "" : apiVersion.slice(0, slash);
    const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
    const found = this.registry
      .all()
      .find((r) => r.type.group === group && r.type.version === version && r.type.kind === kind);
    if (found === undefined) return undefined;
    const served = this.served(found.type);
    return {
      namespaced: found.type.namespaced,
      get: (ns, name) => {
        try {
          return this.registryStore.get(served, ns, name);
        } catch (err) {
          if (isNotFound(err)) return undefined;
          throw err;
        }
      },
      list: (ns) => this.registryStore.list(served, ns, {}).items,
    };
  }

  resourceTypes(): ResourceType[] {
    return this.registry.all().map((r) => r.type);
  }

  findResource(group: string, version: string, resource: string): ResourceType | undefined {
    return this.registry.find(group, version, resource)?.type;
  }

  onResourcesChanged(listener: () => void): () => void {
    return this.registry.onChange(listener);
  }

  /** The conversion webhook of a custom resource whose CRD converts through one (the HTTP handlers use it). */
  conversionWebhook(rt: ResourceType): WebhookConversion | undefined {
    return this.registry.resolve(rt)?.conversionWebhook;
  }

  get(rt: ResourceType, namespace: string | undefined, name: string, opts?: GetOptions): KubeObject {
    return guard(() => this.registryStore.get(this.served(rt), namespace, name, opts));
  }

  list(rt: ResourceType, namespace: string | undefined, opts: ListOptions): KubeList {
    return guard(() => this.registryStore.list(this.served(rt), namespace, opts));
  }

  /** A LIST response body as UTF-8 JSON, assembled from the stored bytes of each item (the fast path for HTTP). */
  listJson(rt: ResourceType, namespace: string | undefined, opts: ListOptions): ListBody {
    return guard(() => this.registryStore.listJson(this.served(rt), namespace, opts));
  }

  table(
    rt: ResourceType,
    namespace: string | undefined,
    name: string | undefined,
    opts: ListOptions,
    includeObject = "Metadata",
  ): Table {
    return guard(() => {
      const include = checkIncludeObject(includeObject);
      const now = this.clock.now();
      const columns = this.printerColumns(rt);
      if (name !== undefined) {
        const obj = this.get(rt, namespace, name, opts);
        const meta = { resourceVersion: obj.metadata?.resourceVersion ?? "" };
        return toTable(rt, [obj], meta, now, include, columns);
      }
      const { metadata, items } = this.list(rt, namespace, opts);
      return toTable(rt, items, metadata, now, include, columns);
    });
  }

  tableOf(rt: ResourceType, obj: KubeObject, includeObject = "Metadata"): Table {
    return guard(() => {
      const include = checkIncludeObject(includeObject);
      const meta = { resourceVersion: obj.metadata?.resourceVersion ?? "" };
      return toTable(rt, [obj], meta, this.clock.now(), include, this.printerColumns(rt));
    });
  }

  watch(rt: ResourceType, namespace: string | undefined, opts: WatchOptions, sink: WatchSink): WatchHandle {
    return guard(() => this.registryStore.watch(this.served(rt), namespace, opts, sink));
  }

  create(rt: ResourceType, namespace: string | undefined, body: unknown, opts?: WriteOptions): KubeObject {
    return guard(() => this.registryStore.create(this.served(rt), namespace, body, opts));
  }

  update(
    rt: ResourceType,
    namespace: string | undefined,
    name: string,
    body: unknown,
    opts?: WriteOptions,
  ): KubeObject {
    return guard(() => this.registryStore.update(this.served(rt), namespace, name, body, opts));
  }

  patch(
    rt: ResourceType,
    namespace: string | undefined,
    name: string,
    type: PatchType,
    patch: unknown,
    opts?: WriteOptions,
  ): KubeObject {
    return guard(() => this.registryStore.patch(this.served(rt), namespace, name, type, patch, opts));
  }

  delete(rt: ResourceType, namespace: string | undefined, name: string, opts?: DeleteOptions): KubeObject {
    return guard(() => this.registryStore.delete(this.served(rt), namespace, name, opts));
  }

  deleteCollection(
    rt: ResourceType,
    namespace: string | undefined,
    listOpts: ListOptions,
    deleteOpts?: DeleteOptions,
  ): KubeList {
    return guard(() => this.registryStore.deleteCollection(this.served(rt), namespace, listOpts, deleteOpts));
  }

  currentRevision(): number {
    return this.store.revision;
  }

  compactHistory(): void {
    this.store.compact();
  }

  /**
   * What a notebook shows about the store: the current revision, the revision history was compacted to
   * (older resourceVersions get 410), how many events the window holds and can hold, and open watches.
   */
  stats(): BackendStats {
    return {
      revision: this.store.revision,
      compactedRevision: this.store.compactedRevision,
      historyEvents: this.store.history.size,
      historyCapacity: this.store.history.capacity,
      watches: this.watchCache.count(),
    };
  }

  /** Number of running watches (for instruments). */
  watchCount(): number {
    return this.watchCache.count();
  }

  /** Stops the bookmark timer and closes every watch. Idempotent. */
  stop(): void {
    this.watchCache.stop();
  }

  /** A custom resource's printer columns from its CRD version (undefined for built-ins). */
  private printerColumns(rt: ResourceType): readonly PrinterColumn[] | undefined {
    return this.served(rt).printerColumns;
  }

  private served(rt: ResourceType): ServedResource {
    const served = this.registry.resolve(rt);
    if (!served) {
      throw failure(404, "NotFound", "the server could not find the requested resource", {
        kind: rt.resource,
        ...(rt.group ? { group: rt.group } : {}),
      });
    }
    return served;
  }
}

/** Creates the embedded API server's backend. */
export function createBackend(options: BackendOptions = {}): Backend {
  return new Backend(options);
}

/** `?includeObject=`: None, Metadata or Object; anything else is 422 (`ValidateTableOptions`). */
function checkIncludeObject(value: string): IncludeObject {
  if (value === "None" || value === "Metadata" || value === "Object") return value;
  new FieldErrors()
    .notSupported("includeObject", value, ["Metadata", "None", "Object"])
    .throwIfAny("TableOptions", "meta.k8s.io", "");
  return "Metadata";
}

/** Runs `fn`, turning anything that is not a StatusError into 500 InternalError. */
function guard<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    // A conversion webhook round that stopped (see crd-conversion-webhook.ts): its runner calls the webhook.
    if (err instanceof ConversionPending) throw err;
    throw responseError(err);
  }
}

/** {@link guard} for an asynchronous write: whatever it rejects with becomes a StatusError. */
async function guardAsync<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ConversionPending) throw err;
    throw responseError(err);
  }
}
