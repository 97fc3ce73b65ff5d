import type { KubeObject } from "../../../apimachinery/object.js";
import { dns1123SubdomainErrors } from "../../../apimachinery/validation/names.js";
import type { JsonObject } from "../json.js";
import { jsonEqual } from "../json.js";
import type { FieldErrors } from "../validation/field-errors.js";

/**
 * How one kind behaves on writes: kube-apiserver's `RESTCreateStrategy` / `RESTUpdateStrategy` /
 * `RESTDeleteStrategy` / status strategy, plus the `AfterCreate`-style hooks of its `registry.Store`, reduced to
 * what the embedded server needs. The registry store (`Store`, registry/store.ts) calls them in the order kube's
 * `registry.Store` does: decode checks, PrepareFor*, generation, validation, commit, After*. A kind's special
 * behaviour lives here, never in the store: a namespace's `/finalize` and Terminating phase, a CRD serving
 * its kinds once stored.
 */
export interface Strategy {
  /** The name rule for `metadata.name` (DNS-1123 subdomain for most kinds). */
  nameErrors(name: string): string[];
  /** Whether the kind has `metadata.generation` (set to 1 on create, bumped by {@link Strategy.bumpsGeneration}). */
  readonly tracksGeneration: boolean;
  /** Whether an update without metadata.resourceVersion is accepted (false for custom resources). */
  readonly allowUnconditionalUpdate: boolean;
  /** Whether `/status` is a separate subresource (then main-endpoint writes keep the stored status). */
  readonly hasStatus: boolean;
  /** A DELETE without a propagation policy orphans dependents (a batch/v1 Job's pods); default background. */
  readonly orphanByDefault?: boolean;
  /** Field-selector labels this kind supports, besides `metadata.name` and `metadata.namespace`. */
  readonly extraFieldLabels: readonly string[];
  /** Type checks and normalisation done while decoding a body (400 on failure), e.g. Secret base64. */
  decode(obj: KubeObject): void;
  /** Defaults and clean-up before a create (e.g. drop status, namespace `spec.finalizers`). */
  prepareForCreate(obj: KubeObject): void;
  /** Restores what a main-endpoint update may not change (status, when the kind has a status subresource). */
  prepareForUpdate(obj: KubeObject, old: KubeObject): void;
  /** Builds the object a `/status` write stores, from the request body and the stored object. */
  prepareForStatusUpdate(body: KubeObject, old: KubeObject): KubeObject;
  /** Whether this main-endpoint update bumps metadata.generation. */
  bumpsGeneration(obj: KubeObject, old: KubeObject): boolean;
  /** Kind-specific validation (422 causes); `subresource` names the subresource an update writes (`status`). */
  validate(obj: KubeObject, errs: FieldErrors, old: KubeObject | undefined, subresource?: string): void;
  /**
   * Subresources besides `status` that accept updates, each building the stored object from the body and the
   * stored one (a namespace's `finalize`). Any other subresource is 404.
   */
  readonly subresourceUpdates: Readonly<Record<string, (body: KubeObject, old: KubeObject) => KubeObject>>;
  /** Refuses a DELETE (throws a Status) of an object already being deleted, e.g. a Terminating namespace. */
  checkDelete(old: KubeObject): void;
  /**
   * Whether the object stays after DELETE even without `metadata.finalizers` (a namespace's spec finalizers);
   * an update that leaves it without either removes it, as `ShouldDeleteDuringUpdate` does.
   */
  deletionPending(obj: KubeObject): boolean;
  /** Marks an object that stays after its first DELETE (deletionTimestamp is set by the store). */
  prepareForDeletion(obj: KubeObject): void;
  /** After a create was stored (never on a dry run). */
  afterCreate(obj: KubeObject): void;
  /** After an update was committed (never on a dry run); `stored` is false when it removed the object. */
  afterUpdate(obj: KubeObject, stored: boolean): void;
  /** Before an existing object is deleted or marked deleting (never on a dry run). */
  beforeDelete(name: string): void;
}

/** Options of {@link BasicStrategy}. */
export interface BasicStrategyOptions {
  nameErrors?: (name: string) => string[];
  tracksGeneration?: boolean;
  allowUnconditionalUpdate?: boolean;
  hasStatus?: boolean;
  extraFieldLabels?: readonly string[];
}

/**
 * The behaviour most built-in kinds share: DNS-1123 subdomain names, unconditional updates allowed,
 * generation (when tracked) bumped by spec changes, status kept from the old object when `/status` is a
 * subresource, and `/status` writes taking only `.status` from the body plus its metadata.
 */
export class BasicStrategy implements Strategy {
  readonly tracksGeneration: boolean;
  readonly allowUnconditionalUpdate: boolean;
  readonly hasStatus: boolean;
  readonly extraFieldLabels: readonly string[];
  private readonly nameRule: (name: string) => string[];

  constructor(options: BasicStrategyOptions = {}) {
    this.nameRule = options.nameErrors ?? dns1123SubdomainErrors;
    this.tracksGeneration = options.tracksGeneration ?? false;
    this.allowUnconditionalUpdate = options.allowUnconditionalUpdate ?? true;
    this.hasStatus = options.hasStatus ?? false;
    this.extraFieldLabels = options.extraFieldLabels ?? [];
  }

  nameErrors(name: string): string[] {
    return this.nameRule(name);
  }

  decode(_obj: KubeObject): void {}

  prepareForCreate(_obj: KubeObject): void {}

  prepareForUpdate(obj: KubeObject, old: KubeObject): void {
    if (this.hasStatus) copyField(obj, old, "status");
  }

  prepareForStatusUpdate(body: KubeObject, old: KubeObject): KubeObject {
    // Built-in status strategies keep spec (every top-level field but metadata and status) from the stored
    // object; the body's metadata is taken and the store restores the system fields afterwards.
    const next: KubeObject = { ...old, metadata: { ...(body.metadata ?? {}) } };
    copyField(next, body, "status");
    return next;
  }

  bumpsGeneration(obj: KubeObject, old: KubeObject): boolean {
    return !jsonEqual(obj.spec, old.spec);
  }

  validate(_obj: KubeObject, _errs: FieldErrors, _old: KubeObject | undefined): void {}

  readonly subresourceUpdates: Readonly<Record<string, (body: KubeObject, old: KubeObject) => KubeObject>> =
    {};

  checkDelete(_old: KubeObject): void {}

  deletionPending(_obj: KubeObject): boolean {
    return false;
  }

  /** Non-graceful kinds: `deletionGracePeriodSeconds` 0 (`updateForGracefulDeletionAndFinalizers`). */
  prepareForDeletion(obj: KubeObject): void {
    if (obj.metadata) obj.metadata.deletionGracePeriodSeconds = 0;
  }

  afterCreate(_obj: KubeObject): void {}

  afterUpdate(_obj: KubeObject, _stored: boolean): void {}

  beforeDelete(_name: string): void {}
}

/** Copies `from[field]` into `to[field]` (deleting it when absent). */
export function copyField(to: JsonObject, from: JsonObject, field: string): void {
  if (from[field] === undefined) delete to[field];
  else to[field] = from[field];
}
