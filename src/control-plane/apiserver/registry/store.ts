import { randomUUID } from "node:crypto";
import { alreadyExists, badRequest, conflict, notFound, StatusError } from "../../../apimachinery/errors.js";
import { joinKey } from "../../../apimachinery/keys.js";
import type { KubeObject, ObjectMeta } from "../../../apimachinery/object.js";
import type { Clock } from "../../../clock/clock.js";
import type { Admission } from "../admission/namespace-lifecycle.js";
import {
  deletePreconditionFailed,
  nameMismatch,
  namespaceMismatch,
  patchedTooDeep,
  resourceVersionRequired,
  resourceVersionSetOnCreate,
  strictDecodingError,
  strictPatchError,
  uidPreconditionFailed,
  undecodableDeleteOptions,
  unparsableUpdateResourceVersion,
} from "../errors.js";
import { recordUpdate } from "../fieldmanager/field-manager.js";
import { cloneJson, isJsonObject, jsonEqual, MAX_BODY_DEPTH, nestedDeeperThan } from "../json.js";
import { applyPatch } from "../patch/apply-patch.js";
import { kindSchema, messageSchema } from "../schema/message-schema.js";
import { ListBody } from "../serializer/list-body.js";
import { readRange } from "../storage/list-reader.js";
import { resolveListPosition } from "../storage/list-revision.js";
import type { MvccStore } from "../storage/mvcc-store.js";
import { parseResourceVersion, tooLargeResourceVersion } from "../storage/resource-version.js";
import type { StoredVersion } from "../storage/stored-version.js";
import type { WatchCache } from "../storage/watch-cache.js";
import type {
  DeleteOptions,
  GetOptions,
  KubeList,
  ListOptions,
  PatchType,
  ResourceType,
  WatchHandle,
  WatchOptions,
  WatchSink,
  WriteOptions,
} from "../types.js";
import { FieldErrors } from "../validation/field-errors.js";
import { validateNoNewFinalizers, validateObjectMeta } from "../validation/object-meta.js";
import { applyWrite, validatePatchOptions } from "./apply-write.js";
import { deferringConversion } from "./crd-conversion-webhook.js";
import { decodeBody } from "./decode-body.js";
import { finalizersForDeletion, isDryRunAll } from "./deletion-policy.js";
import { fieldManagerScope } from "./field-manager-scope.js";
import {
  fieldWarnings,
  pruneToGoType,
  pruneToStructuralSchema,
  strictDecodingMessage,
} from "./field-validation.js";
import {
  itemJsonOf,
  type ListResult,
  listEnvelope,
  listItem,
  predicateOf,
  present,
  validateListOptions,
  validateWatchOptions,
} from "./list-view.js";
import type { ResourceRegistry } from "./resource-registry.js";
import { apiVersionOf, storageId } from "./resource-type.js";
import type { ServedResource } from "./served-resource.js";
import { applyDefaults, pruneNonNullableNulls } from "./structural-defaults.js";
import { rfc3339 } from "./time.js";

/** What the registry store stands on: the storage (MVCC store and its watch cache) and the served set. */
export interface StoreContext {
  store: MvccStore;
  /** The watch cache over `store` (kube-apiserver's cacher): every WATCH starts here. */
  watchCache: WatchCache;
  /** The served resources: a storage shared by several served versions rewrites watch events' apiVersion. */
  registry: ResourceRegistry;
  clock: Clock;
  /** Uniform random number in [0, 1) for generateName suffixes. */
  random: () => number;
  /** Admission run before a create and a delete (NamespaceLifecycle): throws to reject. */
  admission: Admission;
}

/**
 * What the webhook admission step (`../admission/webhooks/pipeline.ts`) puts into one write. kube-apiserver runs
 * its admission chain inside the write; here the write stays synchronous and the asynchronous webhook calls
 * happen between passes of it, each pass seeing the object at the point admission would:
 * - `mutate` is called after decoding, defaulting and NamespaceLifecycle, before the strategy prepares the
 *   object (where kube's mutating admission runs); it returns the object to go on with, or throws to stop;
 * - `expectResourceVersion`: the stored object must still be at this version (else {@link StaleAdmission});
 * - `uid` and `generatedName` keep what the validating webhooks saw in a dry pass for the real one.
 */
export interface WriteHooks {
  mutate?: (obj: KubeObject, old: KubeObject | undefined) => KubeObject;
  expectResourceVersion?: string;
  uid?: string;
  generatedName?: string;
}

/** Thrown when the stored object changed between the admission passes of one write (the write restarts). */
export class StaleAdmission extends Error {
  constructor() {
    super("the object changed while admission webhooks ran");
  }
}

/** Options of an internal update. */
interface UpdateRequest {
  /** Webhook admission hooks (see {@link WriteHooks}). */
  hooks?: WriteHooks;
  subresource?: string;
  dryRun?: boolean;
  /** Patches may omit metadata.resourceVersion even for kinds that require it on PUT. */
  fromPatch?: boolean;
  /** The request's field validation, duplicates and warnings (see {@link WriteOptions}). */
  fields: WriteOptions;
  /** The body carries managedFields an apply computed: record no Update entry. */
  applied?: boolean;
}

/** Write options the backend adds for an apply, whose managedFields are computed before the write. */
export interface AppliedWrite {
  applied?: boolean;
  /** Webhook admission hooks (see {@link WriteHooks}). */
  hooks?: WriteHooks;
  /** The body is a patched object: it may omit metadata.resourceVersion even where a PUT must carry it. */
  fromPatch?: boolean;
}

const NAME_SUFFIX_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
const MAX_GENERATED_PREFIX = 58;
const GENERATE_NAME_ATTEMPTS = 8;

/**
 * The answer of a write, read after it committed: a conversion webhook's call for it comes after the write
 * (`deferringConversion`), never stopping a round that has already written.
 */
function presentWritten(obj: KubeObject, served: ServedResource): KubeObject {
  return served.conversionWebhook ? deferringConversion(() => present(obj, served)) : present(obj, served);
}

/**
 * How a watch shows a stored object. Events are delivered while the write that caused them commits, inside
 * that request's conversion round: a conversion webhook's call for them is deferred to the watch's own sink.
 */
function watchConverter(
  served: ServedResource,
  fromStorage: (stored: KubeObject) => KubeObject,
): (stored: KubeObject) => KubeObject {
  return served.conversionWebhook ? (o) => deferringConversion(() => fromStorage(o)) : fromStorage;
}

/**
 * The registry store every verb goes through, after kube-apiserver's `genericregistry.Store`
 * (`k8s.io/apiserver/pkg/registry/generic/registry/store.go`): GET, LIST and WATCH read the storage (the MVCC
 * store, and the watch cache for watches); CREATE, UPDATE, PATCH, DELETE and DELETECOLLECTION write it. Create
 * sets names, uid, timestamps and generation; update checks optimistic concurrency and serves the `/status` and
 * `/finalize` subresources; delete is graceful and finalizer-driven with the GC propagation policy. Kind-specific
 * rules come from the resource's {@link Strategy}. kube-apiserver has one Store per resource; here one Store
 * serves them all and each call names its {@link ServedResource}. Every verb answers with the object as the
 * served version shows it ({@link present}).
 *
 * Invariants:
 * - a write either commits exactly one new revision or throws an StatusError and changes nothing;
 * - a no-op update (nothing changed) commits nothing and returns the stored object (same resourceVersion);
 * - uid, creationTimestamp, name and namespace never change after create; generation never decreases;
 *   deletionTimestamp, once set, is never removed.
 */
export class Store {
  constructor(private readonly ctx: StoreContext) {}

  /** The live object in its stored shape, or undefined when there is none. */
  find(served: ServedResource, namespace: string | undefined, name: string): KubeObject | undefined {
    const rt = served.type;
    return this.ctx.store
      .resource(storageId(rt))
      .current(joinKey(scopeOf(rt, namespace), name))
      ?.object();
  }

  /** The live version of an object, or 404. */
  current(served: ServedResource, namespace: string | undefined, name: string): StoredVersion {
    const rt = served.type;
    const v = this.ctx.store.resource(storageId(rt)).current(joinKey(scopeOf(rt, namespace), name));
    if (!v) throw notFound({ group: rt.group, resource: rt.resource, name });
    return v;
  }

  /**
   * GET (`Store.Get`). The store is never behind its own writes: any valid resourceVersion up to the current one
   * is served from the latest state; a newer one is 504 at once (kube-apiserver first waits up to 3 s).
   */
  get(served: ServedResource, namespace: string | undefined, name: string, opts?: GetOptions): KubeObject {
    const rv = parseResourceVersion(opts?.resourceVersion);
    if (rv > this.ctx.store.revision) throw tooLargeResourceVersion(rv, this.ctx.store.revision);
    return present(this.current(served, namespace, name).object(), served);
  }

  /** LIST (`Store.List`): one page of the objects the selectors match, at the revision the options name. */
  list(served: ServedResource, namespace: string | undefined, opts: ListOptions): KubeList {
    const r = this.readList(served, namespace, opts);
    const builtin = served.crd === undefined;
    return {
      ...listEnvelope(r),
      items: r.page.versions.map((v) => listItem(present(v.object(), served), builtin)),
    };
  }

  /**
   * LIST as a response body: the same page as {@link list}, as UTF-8 JSON assembled from the stored bytes of
   * each item (no parse and re-serialization; the fast path of the HTTP handler).
   */
  listJson(served: ServedResource, namespace: string | undefined, opts: ListOptions): ListBody {
    const r = this.readList(served, namespace, opts);
    const envelope = JSON.stringify({ ...listEnvelope(r), items: [] });
    return new ListBody(envelope, r.page.versions.map(itemJsonOf(served)));
  }

  /**
   * WATCH (`Store.Watch`, served by the cacher): from a resourceVersion, or from the current state with its
   * initial events; a resourceVersion older than the window is one ERROR event (410 Expired) and the end.
   */
  watch(
    served: ServedResource,
    namespace: string | undefined,
    opts: WatchOptions,
    sink: WatchSink,
  ): WatchHandle {
    const rt = served.type;
    const ns = scopeOrAll(rt, namespace);
    const match = predicateOf(served, opts);
    validateWatchOptions(opts);
    const rv = parseResourceVersion(opts.resourceVersion);
    const id = storageId(rt);
    return this.ctx.watchCache.watch(
      {
        resourceId: id,
        namespace: ns,
        ...(match ? { match } : {}),
        apiVersion: apiVersionOf(rt),
        kind: rt.kind,
        bookmarks: opts.allowWatchBookmarks === true,
        rewriteApiVersion: this.ctx.registry.byStorageId(id).length > 1,
        ...(served.fromStorage ? { convert: watchConverter(served, served.fromStorage) } : {}),
      },
      {
        resourceVersion: rv,
        sendInitialEvents: opts.sendInitialEvents ?? rv === 0,
        initialEventsEndBookmark: opts.sendInitialEvents === true && opts.allowWatchBookmarks === true,
      },
      sink,
    );
  }

  /** POST (`Store.Create`): creates an object. */
  create(
    served: ServedResource,
    namespace: string | undefined,
    body: unknown,
    opts: WriteOptions & AppliedWrite = {},
  ): KubeObject {
    return presentWritten(this.createStored(served, namespace, body, opts), served);
  }

  /** PUT (`Store.Update`): replaces an object (or its `/status` or `/finalize` subresource). */
  update(
    served: ServedResource,
    namespace: string | undefined,
    name: string,
    body: unknown,
    opts: WriteOptions = {},
  ): KubeObject {
    return presentWritten(this.updateStored(served, namespace, name, body, opts), served);
  }

  /**
   * PATCH (the patch handler's `patchResource` over `Store.Update`): a JSON, merge or strategic merge patch is
   * applied to the live object as the served version shows it and the result goes through update; an apply
   * configuration goes through server-side apply, and creates the object when there is none.
   */
  patch(
    served: ServedResource,
    namespace: string | undefined,
    name: string,
    type: PatchType,
    patch: unknown,
    opts: WriteOptions = {},
  ): KubeObject {
    const apply = type === "application/apply-patch+yaml";
    validatePatchOptions(apply, opts);
    if (apply) {
      if (!isJsonObject(patch)) throw badRequest("the apply configuration must be an object");
      // The HTTP decoder has bounded it already; an in-process caller may not have.
      if (nestedDeeperThan(patch, MAX_BODY_DEPTH)) {
        throw badRequest(`error decoding YAML: exceeded max depth of ${MAX_BODY_DEPTH}`);
      }
      const live = this.find(served, namespace, name);
      const applied = applyWrite(this.ctx.clock, served, name, patch, {
        opts,
        live: live && present(live, served),
        exists: () => void this.current(served, namespace, name),
        create: (obj, o) => this.createStored(served, namespace, obj, o),
        update: (obj, o) => this.updateStored(served, namespace, name, obj, o),
      });
      return presentWritten(applied, served);
    }
    const current = present(this.current(served, namespace, name).object(), served);
    const patched = applyPatch(type, current, patch, { customResource: served.crd !== undefined });
    if (!isJsonObject(patched)) throw badRequest("the patched object must be a JSON object");
    // Body and stored object are each within the limit, but a JSON patch can stack one on the other.
    if (userContentTooDeep(patched)) throw patchedTooDeep();
    return presentWritten(
      this.updateStored(served, namespace, name, patched, { ...opts, fromPatch: true }),
      served,
    );
  }

  /**
   * DELETE (`Store.Delete`): removes an object, or marks it deleting while finalizers remain. `hooks` carries
   * the version the webhook admission step saw (see {@link WriteHooks}).
   */
  delete(
    served: ServedResource,
    namespace: string | undefined,
    name: string,
    opts: DeleteOptions = {},
    hooks?: WriteHooks,
  ): KubeObject {
    return presentWritten(this.deleteStored(served, namespace, name, opts, hooks), served);
  }

  /**
   * DELETECOLLECTION (`Store.DeleteCollection`): lists what the selectors match (always the latest state, whole),
   * then deletes each; one already gone is skipped.
   */
  deleteCollection(
    served: ServedResource,
    namespace: string | undefined,
    listOpts: ListOptions,
    deleteOpts: DeleteOptions = {},
  ): KubeList {
    const rt = served.type;
    const builtin = served.crd === undefined;
    const r = this.readList(served, namespace, { ...listOpts, limit: 0, resourceVersion: "", continue: "" });
    const items: KubeObject[] = [];
    for (const v of r.page.versions) {
      const obj = v.object();
      try {
        const deleted = this.delete(served, obj.metadata?.namespace, obj.metadata!.name!, deleteOpts);
        items.push(listItem(deleted, builtin));
      } catch (err) {
        if (!(err instanceof StatusError && err.code === 404)) throw err;
      }
    }
    return {
      apiVersion: apiVersionOf(rt),
      kind: rt.listKind,
      metadata: { resourceVersion: String(this.ctx.store.revision) },
      items,
    };
  }

  /** Reads one LIST page from storage: at the revision and from the position the options name. */
  private readList(served: ServedResource, namespace: string | undefined, opts: ListOptions): ListResult {
    const rt = served.type;
    const ns = scopeOrAll(rt, namespace);
    const match = predicateOf(served, opts);
    validateListOptions(opts);
    const current = this.ctx.store.revision;
    const { rev, start, limit } = resolveListPosition(opts, current, this.ctx.store.compactedRevision);
    const page = readRange(this.ctx.store.resource(storageId(rt)), {
      namespace: ns,
      rev,
      latest: rev === current,
      ...(start !== undefined ? { start } : {}),
      limit,
      ...(match ? { match } : {}),
    });
    return { rt, rev, page };
  }

  /** Create, answering with the stored shape. */
  private createStored(
    served: ServedResource,
    namespace: string | undefined,
    body: unknown,
    opts: WriteOptions & AppliedWrite = {},
  ): KubeObject {
    const rt = served.type;
    const s = served.strategy;
    const ns = scopeOf(rt, namespace);
    let obj = decodeBody(body, rt);
    checkFields(served, obj, opts, undefined);
    s.decode(obj);
    let meta = obj.metadata as ObjectMeta;
    this.checkNamespace(rt, ns, meta);
    let generated: string | undefined;
    if (!meta.name && meta.generateName) {
      generated = opts.hooks?.generatedName ?? this.generateName(served, ns, meta.generateName);
    }
    this.ctx.admission.admitCreate(rt, ns, generated ?? meta.name ?? "");
    if (opts.hooks?.mutate) {
      // Mutating webhooks see the object before the name is generated, as in kube-apiserver.
      obj = this.afterMutation(served, opts.hooks.mutate(obj, undefined));
      meta = obj.metadata as ObjectMeta;
      this.checkNamespace(rt, ns, meta);
    }
    if (!meta.name && generated !== undefined) meta.name = generated;
    const sentVersion = meta.resourceVersion;
    meta.uid = opts.hooks?.uid ?? randomUUID();
    meta.creationTimestamp = rfc3339(this.ctx.clock.now());
    for (const f of ["deletionTimestamp", "deletionGracePeriodSeconds", "resourceVersion", "selfLink"]) {
      delete meta[f];
    }
    if (s.tracksGeneration) meta.generation = 1;
    else delete meta.generation;
    s.prepareForCreate(obj);
    if (!opts.applied) {
      const now = meta.creationTimestamp;
      recordUpdate(undefined, obj, opts.fieldManager ?? "", fieldManagerScope(served, undefined, now));
    }
    const errs = validateObjectMeta(obj, (n) => s.nameErrors(n), new FieldErrors());
    if (meta.generateName) {
      // generateName is validated as a name prefix: a trailing "-" is allowed (`maskTrailingDash`).
      const masked = meta.generateName.length > 1 ? meta.generateName.replace(/-$/, "a") : meta.generateName;
      for (const e of s.nameErrors(masked)) errs.invalid("metadata.generateName", meta.generateName, e);
    }
    s.validate(obj, errs, undefined);
    served.schemaCheck?.(obj, errs);
    errs.throwIfAny(rt.kind, rt.group, meta.name ?? "");
    const key = joinKey(ns, meta.name!);
    const rs = this.ctx.store.resource(storageId(rt));
    // The storage layer refuses a create carrying a version (etcd3 store's Create), after validation and
    // before the existence check; a dry run never reaches it.
    if (!opts.dryRun && typeof sentVersion === "string" && /^0*[1-9][0-9]*$/.test(sentVersion)) {
      throw resourceVersionSetOnCreate();
    }
    if (rs.current(key)) throw alreadyExists({ group: rt.group, resource: rt.resource, name: meta.name! });
    if (opts.dryRun) {
      // A dry run never reaches storage, so a resourceVersion the client sent comes back as sent.
      if (typeof sentVersion === "string" && sentVersion !== "") meta.resourceVersion = sentVersion;
      return obj;
    }
    const stored = served.toStorage ? served.toStorage(obj) : obj;
    const created = this.ctx.store.put(storageId(rt), key, ns, stored).version.object();
    s.afterCreate(created);
    return created;
  }

  /** Update, answering with the stored shape. */
  private updateStored(
    served: ServedResource,
    namespace: string | undefined,
    name: string,
    body: unknown,
    opts: WriteOptions & AppliedWrite = {},
  ): KubeObject {
    const req: UpdateRequest = { fromPatch: opts.fromPatch ?? false, fields: opts };
    if (opts.applied) req.applied = true;
    if (opts.subresource !== undefined) req.subresource = opts.subresource;
    if (opts.dryRun !== undefined) req.dryRun = opts.dryRun;
    if (opts.hooks !== undefined) req.hooks = opts.hooks;
    return this.doUpdate(served, namespace, name, body, req);
  }

  private doUpdate(
    served: ServedResource,
    namespace: string | undefined,
    name: string,
    body: unknown,
    req: UpdateRequest,
  ): KubeObject {
    const rt = served.type;
    const s = served.strategy;
    const ns = scopeOf(rt, namespace);
    const sub = req.subresource ?? "";
    if (sub !== "" && sub !== "status" && !Object.hasOwn(s.subresourceUpdates, sub)) {
      throw notFound({ group: rt.group, resource: `${rt.resource}/${sub}`, name });
    }
    if (sub === "status" && !s.hasStatus)
      throw notFound({ group: rt.group, resource: `${rt.resource}/status`, name });
    let obj = decodeBody(body, rt);
    checkFields(served, obj, req.fields, req.fromPatch ? body : undefined);
    s.decode(obj);
    let meta = obj.metadata as ObjectMeta;
    if (meta.name !== undefined && meta.name !== name) {
      throw nameMismatch(meta.name, name);
    }
    meta.name = name;
    this.checkNamespace(rt, ns, meta);
    const cur = this.current(served, ns, name);
    const old = cur.object();
    const hooks = req.hooks;
    if (
      hooks?.expectResourceVersion !== undefined &&
      old.metadata?.resourceVersion !== hooks.expectResourceVersion
    ) {
      throw new StaleAdmission();
    }
    if (hooks?.mutate) {
      obj = this.afterMutation(served, hooks.mutate(obj, present(old, served)));
      meta = obj.metadata as ObjectMeta;
      if (meta.name !== undefined && meta.name !== name) throw nameMismatch(meta.name, name);
      meta.name = name;
      this.checkNamespace(rt, ns, meta);
    }
    const target = { group: rt.group, resource: rt.resource, name };
    if (meta.resourceVersion) {
      // The storage layer parses the precondition first: garbage is its bare 500.
      if (!/^[0-9]+$/.test(meta.resourceVersion)) throw unparsableUpdateResourceVersion(meta.resourceVersion);
      if (meta.resourceVersion !== old.metadata?.resourceVersion) throw conflict(target);
    } else if (!s.allowUnconditionalUpdate && !req.fromPatch) {
      throw resourceVersionRequired(rt.kind, rt.group, name);
    }
    // A different uid in a PUT body is a storage precondition (409); a patch that changes it is an attempt to
    // change an immutable field (422, `ValidateObjectMetaUpdate`).
    const sentUid = meta.uid && meta.uid !== old.metadata?.uid ? meta.uid : undefined;
    if (sentUid !== undefined && !req.fromPatch) {
      const key = `/registry/${served.crd !== undefined ? `${rt.group}/` : ""}${rt.resource}/${joinKey(ns, name)}`;
      throw uidPreconditionFailed(target, key, sentUid, old.metadata?.uid ?? "");
    }
    let next: KubeObject;
    if (sub === "status") next = s.prepareForStatusUpdate(obj, old);
    else if (sub !== "")
      next = (s.subresourceUpdates[sub] as (b: KubeObject, o: KubeObject) => KubeObject)(obj, old);
    else {
      next = obj;
      s.prepareForUpdate(next, old);
    }
    next = cloneJson(next);
    restoreSystemFields(next, old);
    if (sub === "" && s.tracksGeneration && s.bumpsGeneration(next, old)) {
      next.metadata!.generation = (old.metadata?.generation ?? 0) + 1;
    }
    if (!req.applied) {
      const now = rfc3339(this.ctx.clock.now());
      recordUpdate(old, next, req.fields.fieldManager ?? "", fieldManagerScope(served, sub, now));
    }
    const errs = validateObjectMeta(next, (n) => s.nameErrors(n), new FieldErrors());
    if (sentUid !== undefined) errs.invalid("metadata.uid", sentUid, "field is immutable");
    if (old.metadata?.deletionTimestamp) {
      validateNoNewFinalizers(next.metadata?.finalizers, old.metadata.finalizers, errs);
    }
    s.validate(next, errs, old, sub === "" ? undefined : sub);
    served.schemaCheck?.(next, errs, old, req.fields.warnings);
    errs.throwIfAny(rt.kind, rt.group, name);
    return this.commitUpdate(served, ns, cur, next, req.dryRun ?? false);
  }

  /**
   * Commits an updated object: nothing when it equals the stored one; removal when it is being deleted and
   * its last finalizer is gone (`ShouldDeleteDuringUpdate`); otherwise a new revision.
   */
  private commitUpdate(
    served: ServedResource,
    ns: string | undefined,
    cur: StoredVersion,
    next: KubeObject,
    dryRun: boolean,
  ): KubeObject {
    const old = cur.object();
    next.metadata!.resourceVersion = old.metadata?.resourceVersion;
    // Compared in the storage version, as the storage layer compares the encoded bytes: an object stored in an
    // older storage version is rewritten even by an update that changes nothing.
    if (served.toStorage) next = served.toStorage(next);
    if (jsonEqual(next, old)) return old;
    if (dryRun) return next;
    const id = storageId(served.type);
    const key = joinKey(ns, next.metadata!.name!);
    if (shouldDeleteDuringUpdate(served, next)) {
      // The response is the object as updated (without the removed finalizer), at the version it was
      // deleted from, as kube-apiserver's `deleteWithoutFinalizers` answers an update.
      this.ctx.store.remove(id, key, ns);
      const removed = Object.freeze(next);
      served.strategy.afterUpdate(removed, false);
      return removed;
    }
    delete next.metadata!.resourceVersion;
    const updated = this.ctx.store.put(id, key, ns, next).version.object();
    served.strategy.afterUpdate(updated, true);
    return updated;
  }

  /** Delete, answering with the stored shape. */
  private deleteStored(
    served: ServedResource,
    namespace: string | undefined,
    name: string,
    opts: DeleteOptions = {},
    hooks?: WriteHooks,
  ): KubeObject {
    const rt = served.type;
    const ns = scopeOf(rt, namespace);
    validateDeleteOptions(opts);
    const s = served.strategy;
    this.ctx.admission.admitDelete(rt, ns, name);
    const cur = this.current(served, ns, name);
    const old = cur.object();
    if (
      hooks?.expectResourceVersion !== undefined &&
      old.metadata?.resourceVersion !== hooks.expectResourceVersion
    ) {
      throw new StaleAdmission();
    }
    checkDeletePreconditions(rt, name, old, opts.preconditions);
    const deleting = old.metadata?.deletionTimestamp !== undefined;
    s.checkDelete(old);
    const dryRun = isDryRunAll(opts);
    if (!dryRun) s.beforeDelete(name);
    const next = cloneJson(old);
    const meta = next.metadata!;
    // Policy finalizers cannot change once deletion is pending.
    const finalizers = deleting
      ? (meta.finalizers ?? [])
      : finalizersForDeletion(meta.finalizers ?? [], opts, s.orphanByDefault === true);
    if (finalizers.length > 0) meta.finalizers = finalizers;
    else delete meta.finalizers;
    const remaining = finalizers.length > 0 || s.deletionPending(next);
    if (!remaining) {
      if (dryRun) return old;
      return this.ctx.store.remove(storageId(rt), joinKey(ns, name), ns)!.version.object();
    }
    if (!deleting) {
      meta.deletionTimestamp = rfc3339(this.ctx.clock.now());
      s.prepareForDeletion(next);
      if (s.tracksGeneration && (meta.generation ?? 0) > 0) meta.generation = meta.generation! + 1;
    }
    if (jsonEqual(next, old) || dryRun) return dryRun ? next : old;
    delete meta.resourceVersion;
    const stored = served.toStorage ? served.toStorage(next) : next;
    return this.ctx.store.put(storageId(rt), joinKey(ns, name), ns, stored).version.object();
  }

  /**
   * The object a mutating webhook returned, decoded again (`attr.UpdateObject` then the scheme's defaulter):
   * fields the kind does not have are pruned and the kind's defaults apply to what the patch added.
   */
  private afterMutation(served: ServedResource, mutated: KubeObject): KubeObject {
    const obj = decodeBody(mutated, served.type);
    // Unknown fields a webhook added are dropped silently (pruned), never reported to the client.
    checkFields(served, obj, { fieldValidation: "Ignore" }, undefined);
    served.strategy.decode(obj);
    return obj;
  }

  private checkNamespace(rt: ResourceType, ns: string | undefined, meta: ObjectMeta): void {
    if (!rt.namespaced) {
      delete meta.namespace;
      return;
    }
    if (meta.namespace !== undefined && meta.namespace !== "" && meta.namespace !== ns) {
      throw namespaceMismatch();
    }
    meta.namespace = ns;
  }

  /**
   * `names.SimpleNameGenerator`: the prefix (cut to 58 characters) plus 5 random characters from
   * `bcdfghjklmnpqrstvwxz2456789`; a few retries on collision (`RetryGenerateName`), then 409 AlreadyExists.
   */
  private generateName(served: ServedResource, ns: string | undefined, generateName: string): string {
    const rs = this.ctx.store.resource(storageId(served.type));
    const prefix = generateName.slice(0, MAX_GENERATED_PREFIX);
    let name = prefix;
    for (let attempt = 0; attempt < GENERATE_NAME_ATTEMPTS; attempt++) {
      let suffix = "";
      for (let i = 0; i < 5; i++) {
        suffix += NAME_SUFFIX_ALPHABET[Math.floor(this.ctx.random() * NAME_SUFFIX_ALPHABET.length)];
      }
      name = prefix + suffix;
      if (!rs.current(joinKey(ns, name))) return name;
    }
    throw alreadyExists({ group: served.type.group, resource: served.type.resource, name });
  }
}

/**
 * Field validation of a decoded body (see field-validation.ts): drops the fields the kind's Go type (or a
 * custom resource's structural schema) does not have, then, with duplicates the parser found, fails under
 * `Strict` (400; 422 naming the patched object when `patched` is given) or warns under `Warn`.
 */
function checkFields(served: ServedResource, obj: KubeObject, opts: WriteOptions, patched: unknown): void {
  const rt = served.type;
  let unknown: string[];
  if (served.crd === undefined) {
    const schema = kindSchema(apiVersionOf(rt), rt.kind);
    unknown = schema ? pruneToGoType(obj, schema) : [];
  } else {
    const meta = messageSchema("meta.v1.ObjectMeta");
    const inMeta = meta && obj.metadata ? pruneToGoType(obj.metadata as KubeObject, meta) : [];
    unknown = [
      ...inMeta.map((p) => `metadata.${p}`),
      ...pruneToStructuralSchema(obj, served.openAPIV3Schema),
    ];
    // Then the schema's defaults, as apiextensions-apiserver's decoder applies them after pruning.
    pruneNonNullableNulls(obj, served.openAPIV3Schema);
    applyDefaults(obj, served.openAPIV3Schema);
  }
  const duplicates = opts.duplicateFields ?? [];
  if (unknown.length === 0 && duplicates.length === 0) return;
  const mode = opts.fieldValidation ?? "Warn";
  if (mode === "Strict") {
    const detail = strictDecodingMessage(unknown, duplicates);
    throw patched !== undefined
      ? strictPatchError(patched, detail)
      : strictDecodingError(rt.kind, rt.version, detail);
  }
  if (mode === "Warn") opts.warnings?.push(...fieldWarnings(unknown, duplicates));
}

/** The namespace to read: undefined (all namespaces) for cluster-scoped kinds or an all-namespaces request. */
function scopeOrAll(rt: ResourceType, namespace: string | undefined): string | undefined {
  return rt.namespaced && namespace ? scopeOf(rt, namespace) : undefined;
}

/**
 * Whether an object nests deeper than a request body may, not counting `managedFields`: those are the server's
 * record of the object's own fields, nested a few levels below them.
 */
function userContentTooDeep(obj: KubeObject): boolean {
  const meta = obj.metadata;
  const view =
    meta?.managedFields !== undefined ? { ...obj, metadata: { ...meta, managedFields: undefined } } : obj;
  return nestedDeeperThan(view, MAX_BODY_DEPTH);
}

/** The namespace a key lives in: the request's for namespaced kinds, none for cluster-scoped ones. */
export function scopeOf(rt: ResourceType, namespace: string | undefined): string | undefined {
  if (!rt.namespaced) return undefined;
  if (!namespace) throw badRequest(`a namespace is required for ${rt.resource}`);
  return namespace;
}

/** Fields a client can never change after create (`BeforeUpdate` copies them from the stored object). */
function restoreSystemFields(next: KubeObject, old: KubeObject): void {
  const o = old.metadata ?? {};
  const meta: ObjectMeta = { ...(next.metadata ?? {}) };
  for (const f of [
    "name",
    "namespace",
    "uid",
    "creationTimestamp",
    "generation",
    "deletionTimestamp",
  ] as const) {
    if (o[f] === undefined) delete meta[f];
    else (meta as Record<string, unknown>)[f] = o[f];
  }
  if (o.deletionGracePeriodSeconds === undefined) delete meta.deletionGracePeriodSeconds;
  else meta.deletionGracePeriodSeconds = o.deletionGracePeriodSeconds;
  delete meta.selfLink;
  next.metadata = meta;
  next.apiVersion = old.apiVersion;
  next.kind = old.kind;
}

/**
 * DELETE preconditions (`Preconditions.Check` in the storage layer): a uid or resourceVersion that differs from
 * the stored object's is 409 Conflict naming the Kind (not the resource), with the storage layer's wording.
 */
function checkDeletePreconditions(
  rt: ResourceType,
  name: string,
  old: KubeObject,
  p: DeleteOptions["preconditions"],
): void {
  const uid = old.metadata?.uid ?? "";
  if (p?.uid && p.uid !== uid) throw deletePreconditionFailed(rt.kind, rt.group, name, "UID", p.uid, uid);
  const rv = old.metadata?.resourceVersion ?? "";
  if (p?.resourceVersion && p.resourceVersion !== rv) {
    throw deletePreconditionFailed(rt.kind, rt.group, name, "ResourceVersion", p.resourceVersion, rv);
  }
}

/** `ShouldDeleteDuringUpdate`: deleting, no finalizers left, and nothing else the kind waits for. */
function shouldDeleteDuringUpdate(served: ServedResource, next: KubeObject): boolean {
  const meta = next.metadata ?? {};
  if (meta.deletionTimestamp === undefined) return false;
  if ((meta.finalizers ?? []).length > 0) return false;
  if ((meta.deletionGracePeriodSeconds ?? 0) !== 0) return false;
  if (served.strategy.deletionPending(next)) return false;
  return true;
}

/**
 * Checks DeleteOptions as decoded from a query or a JSON body: wrong JSON types are 400 (the decoder's
 * error), an unknown propagationPolicy or both policy fields set is 422 (`ValidateDeleteOptions`).
 */
function validateDeleteOptions(opts: DeleteOptions): void {
  const raw = opts as Record<string, unknown>;
  const typed: [string, (v: unknown) => boolean][] = [
    ["propagationPolicy", (v) => typeof v === "string"],
    ["orphanDependents", (v) => typeof v === "boolean"],
    ["gracePeriodSeconds", (v) => Number.isInteger(v)],
    ["dryRun", (v) => Array.isArray(v) && v.every((x) => typeof x === "string")],
    [
      "preconditions",
      (v) =>
        isJsonObject(v) &&
        (v.uid === undefined || typeof v.uid === "string") &&
        (v.resourceVersion === undefined || typeof v.resourceVersion === "string"),
    ],
  ];
  for (const [field, ok] of typed) {
    if (raw[field] !== undefined && raw[field] !== null && !ok(raw[field])) {
      throw undecodableDeleteOptions(field);
    }
  }
  const errs = new FieldErrors();
  const policy = opts.propagationPolicy;
  if (policy !== undefined && policy !== null && !["Background", "Foreground", "Orphan"].includes(policy)) {
    errs.notSupported("propagationPolicy", policy, ["Foreground", "Background", "Orphan", "nil"]);
  }
  if (
    policy !== undefined &&
    policy !== null &&
    opts.orphanDependents !== undefined &&
    opts.orphanDependents !== null
  ) {
    errs.invalid(
      "orphanDependents",
      opts.orphanDependents,
      "orphanDependents and deletionPropagation cannot be both set",
    );
  }
  errs.throwIfAny("DeleteOptions", "meta.k8s.io", "");
}
