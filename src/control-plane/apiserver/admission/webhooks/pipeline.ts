/**
 * Admission webhooks around the registry store's writes, in kube-apiserver's order:
 *
 * 1. decode, defaults, the built-in admission (NamespaceLifecycle);
 * 2. the mutating webhooks (`MutatingAdmissionWebhook`), which may patch the object;
 * 3. the strategy's preparation and validation (schema, field and kind rules: 422 here stops the write);
 * 4. the validating webhooks (`ValidatingAdmissionWebhook`), which see the object as it would be stored;
 * 5. the write to storage.
 *
 * The registry store is synchronous (a write commits or throws in one step) and webhooks are HTTP calls, so the
 * write runs in passes: a dry pass stops at step 2 and hands over the object (and the stored one), the
 * mutating webhooks run, a dry pass with their result gives the object of step 4, the validating webhooks run,
 * and the real pass writes it, refusing ({@link StaleAdmission}) when the stored object moved meanwhile; the
 * whole write then starts again, as kube-apiserver's `GuaranteedUpdate` retries its admission on a conflict.
 *
 * A write with no webhook configuration stored goes straight to the store (one pass).
 */
import { conflict, StatusError } from "../../../../apimachinery/errors.js";
import type { KubeObject } from "../../../../apimachinery/object.js";
import { cloneJson, type JsonObject } from "../../json.js";
import { listItem, present } from "../../registry/list-view.js";
import { apiVersionOf } from "../../registry/resource-type.js";
import type { ServedResource } from "../../registry/served-resource.js";
import { StaleAdmission, type Store, type WriteHooks } from "../../registry/store.js";
import type { MvccStore } from "../../storage/mvcc-store.js";
import type { DeleteOptions, KubeList, ListOptions, PatchType, WriteOptions } from "../../types.js";
import { dispatchPolicies, type PolicyContext } from "../policies/dispatcher.js";
import type { ParamSource } from "../policies/params.js";
import { type PolicyHook, PolicySource } from "../policies/policy-source.js";
import { storedWebhooks, type Webhook } from "./configuration.js";
import { type DispatchContext, dispatchMutating, dispatchValidating } from "./dispatcher.js";
import type { AdmissionAttributes, NamespaceLabels, Operation } from "./matching.js";

/** How many times a write restarts when the stored object moves while its webhooks run. */
const MAX_ATTEMPTS = 5;

/** The object and stored object a dry pass reached the mutating admission point with. */
class Captured extends Error {
  constructor(
    readonly object: KubeObject,
    readonly old: KubeObject | undefined,
  ) {
    super("captured at mutating admission");
  }
}

type Pass = (opts: WriteOptions & { hooks?: WriteHooks }) => KubeObject;

/** Runs the registry store's writes through the admission webhooks. */
export class WebhookAdmission {
  private readonly policySource: PolicySource;

  constructor(
    private readonly store: MvccStore,
    private readonly registryStore: Store,
    private readonly namespaceLabels: NamespaceLabels,
    private readonly namespaceObject: (name: string) => KubeObject | undefined = () => undefined,
    private readonly params: ParamSource = () => undefined,
  ) {
    this.policySource = new PolicySource(store);
  }

  /**
   * Both kinds of webhooks and the bound ValidatingAdmissionPolicies (which run just before the validating
   * webhooks), read live; all empty when nothing is stored.
   */
  private webhooks(): { mutating: Webhook[]; validating: Webhook[]; policies: PolicyHook[] } {
    return {
      mutating: storedWebhooks(this.store, true),
      validating: storedWebhooks(this.store, false),
      policies: this.policySource.hooks(),
    };
  }

  private policyContext(warnings: string[]): PolicyContext {
    return {
      namespaceLabels: this.namespaceLabels,
      namespaceObject: this.namespaceObject,
      params: this.params,
      warnings,
    };
  }

  /** POST through the webhooks. */
  create(
    served: ServedResource,
    ns: string | undefined,
    body: unknown,
    opts: WriteOptions = {},
  ): Promise<KubeObject> {
    return this.write(served, ns, undefined, opts, (o) =>
      this.registryStore.create(served, ns, cloneJson(body), o),
    );
  }

  /** PUT through the webhooks. */
  update(
    served: ServedResource,
    ns: string | undefined,
    name: string,
    body: unknown,
    opts: WriteOptions = {},
  ): Promise<KubeObject> {
    return this.write(served, ns, name, opts, (o) =>
      this.registryStore.update(served, ns, name, cloneJson(body), o),
    );
  }

  /** PATCH through the webhooks (an apply that creates is a CREATE for them). */
  patch(
    served: ServedResource,
    ns: string | undefined,
    name: string,
    type: PatchType,
    patch: unknown,
    opts: WriteOptions = {},
  ): Promise<KubeObject> {
    return this.write(served, ns, name, opts, (o) =>
      this.registryStore.patch(served, ns, name, type, cloneJson(patch), o),
    );
  }

  /**
   * DELETE through the webhooks: both kinds see the stored object as `oldObject` and no `object`
   * (`AdmissionToValidateObjectDeleteFunc`); a mutating webhook that answers with a patch fails the request.
   */
  async delete(
    served: ServedResource,
    ns: string | undefined,
    name: string,
    opts: DeleteOptions = {},
    warnings: string[] = [],
  ): Promise<KubeObject> {
    for (let attempt = 0; ; attempt++) {
      const hooks = this.webhooks();
      if (none(hooks)) return this.registryStore.delete(served, ns, name, opts);
      // What fails before admission webhooks in kube-apiserver fails first here too: a missing object (404),
      // NamespaceLifecycle's immortal namespaces (403), failed preconditions (409), a kind's own refusal.
      this.registryStore.delete(served, ns, name, { ...opts, dryRun: ["All"] });
      const stored = this.registryStore.current(served, ns, name).object();
      const attrs = this.attributes(served, ns, name, "DELETE", undefined, present(stored, served), {
        ...deleteOptionsOf(opts),
      });
      attrs.dryRun = Array.isArray(opts.dryRun) && opts.dryRun.includes("All");
      const ctx: DispatchContext = { namespaceLabels: this.namespaceLabels, warnings };
      await dispatchMutating(hooks.mutating, attrs, ctx);
      dispatchPolicies(hooks.policies, attrs, this.policyContext(warnings));
      await dispatchValidating(hooks.validating, attrs, ctx);
      try {
        return this.registryStore.delete(served, ns, name, opts, {
          ...(stored.metadata?.resourceVersion !== undefined
            ? { expectResourceVersion: stored.metadata.resourceVersion }
            : {}),
        });
      } catch (err) {
        if (!(err instanceof StaleAdmission)) throw err;
        if (attempt + 1 >= MAX_ATTEMPTS)
          throw conflict({ group: served.type.group, resource: served.type.resource, name });
      }
    }
  }

  /** DELETECOLLECTION: each matching object is deleted through the webhooks; one already gone is skipped. */
  async deleteCollection(
    served: ServedResource,
    ns: string | undefined,
    listOpts: ListOptions,
    deleteOpts: DeleteOptions = {},
    warnings: string[] = [],
  ): Promise<KubeList> {
    const rt = served.type;
    const builtin = served.crd === undefined;
    const list = this.registryStore.list(served, ns, {
      ...listOpts,
      limit: 0,
      resourceVersion: "",
      continue: "",
    });
    const items: KubeObject[] = [];
    for (const obj of list.items) {
      try {
        const deleted = await this.delete(
          served,
          obj.metadata?.namespace,
          obj.metadata?.name ?? "",
          deleteOpts,
          warnings,
        );
        items.push(listItem(deleted, builtin));
      } catch (err) {
        if (!(err instanceof StatusError && err.code === 404)) throw err;
      }
    }
    return {
      apiVersion: apiVersionOf(rt),
      kind: rt.listKind,
      metadata: { resourceVersion: String(this.store.revision) },
      items,
    };
  }

  /** The passes of one create, update or patch (see the file's comment). */
  private async write(
    served: ServedResource,
    ns: string | undefined,
    name: string | undefined,
    opts: WriteOptions,
    pass: Pass,
  ): Promise<KubeObject> {
    for (let attempt = 0; ; attempt++) {
      const hooks = this.webhooks();
      if (none(hooks)) return pass(opts);
      // Dry passes get their own warnings and flags: only the pass that answers reports them.
      const dry = (extra: WriteHooks): WriteOptions & { hooks: WriteHooks } => ({
        ...opts,
        dryRun: true,
        warnings: [],
        hooks: extra,
      });
      let captured: Captured | undefined;
      try {
        pass(
          dry({
            mutate: (object, old) => {
              throw new Captured(cloneJson(object), old);
            },
          }),
        );
      } catch (err) {
        if (!(err instanceof Captured)) throw err;
        captured = err;
      }
      // A write that never reached admission (nothing to write) needs no webhook.
      if (captured === undefined) return pass(opts);
      const operation: Operation = captured.old === undefined ? "CREATE" : "UPDATE";
      const objName = name ?? captured.object.metadata?.name ?? "";
      const attrs = this.attributes(
        served,
        ns,
        objName,
        operation,
        captured.object,
        captured.old,
        writeOptionsOf(operation, opts),
      );
      const warnings = opts.warnings ?? [];
      const ctx: DispatchContext = { namespaceLabels: this.namespaceLabels, warnings };
      const mutated = (await dispatchMutating(hooks.mutating, attrs, ctx)) ?? captured.object;
      const real: WriteHooks = { mutate: () => cloneJson(mutated) };
      if (captured.old?.metadata?.resourceVersion !== undefined) {
        real.expectResourceVersion = captured.old.metadata.resourceVersion;
      }
      if (hooks.validating.length > 0 || hooks.policies.length > 0) {
        // The object as it would be stored: prepared and validated (a 422 stops the write here).
        const answer = opts.dryRun === true;
        const validated = answer ? answering(pass, opts, real) : pass(dry(real));
        const uid = validated.metadata?.uid;
        if (operation === "CREATE" && uid !== undefined) real.uid = uid;
        if (operation === "CREATE" && !mutated.metadata?.name && validated.metadata?.name) {
          real.generatedName = validated.metadata.name;
        }
        const validating = { ...attrs, name: validated.metadata?.name ?? objName, object: validated };
        dispatchPolicies(hooks.policies, validating, this.policyContext(warnings));
        await dispatchValidating(hooks.validating, validating, ctx);
        if (answer) return validated;
      }
      try {
        return answering(pass, opts, real);
      } catch (err) {
        if (!(err instanceof StaleAdmission)) throw err;
        if (attempt + 1 >= MAX_ATTEMPTS) {
          throw conflict({ group: served.type.group, resource: served.type.resource, name: objName });
        }
      }
    }
  }

  private attributes(
    served: ServedResource,
    ns: string | undefined,
    name: string,
    operation: Operation,
    object: KubeObject | undefined,
    oldObject: KubeObject | undefined,
    options: JsonObject,
  ): AdmissionAttributes {
    const rt = served.type;
    const isNamespace = rt.group === "" && rt.resource === "namespaces";
    return {
      operation,
      group: rt.group,
      version: rt.version,
      resource: rt.resource,
      kind: rt.kind,
      subresource: typeof options.subresource === "string" ? options.subresource : "",
      namespace: isNamespace ? name : rt.namespaced ? (ns ?? "") : "",
      name,
      object,
      oldObject,
      dryRun: options.dryRun !== undefined,
      options: withoutSubresource(options),
    };
  }
}

/** Whether no webhook and no bound policy is stored (the write then goes straight to the store). */
function none(hooks: { mutating: Webhook[]; validating: Webhook[]; policies: PolicyHook[] }): boolean {
  return hooks.mutating.length === 0 && hooks.validating.length === 0 && hooks.policies.length === 0;
}

/**
 * The pass that answers the request: with the request's own options (its warnings), and what the store sets on
 * them (`created`, for an apply that created the object) copied back.
 */
function answering(pass: Pass, opts: WriteOptions, hooks: WriteHooks): KubeObject {
  const o = { ...opts, hooks };
  const result = pass(o);
  if (o.created) opts.created = true;
  return result;
}

function withoutSubresource(options: JsonObject): JsonObject {
  const { subresource: _s, ...rest } = options;
  return rest;
}

/** CreateOptions or UpdateOptions as the AdmissionReview carries them (plus the subresource, taken out later). */
function writeOptionsOf(operation: Operation, opts: WriteOptions): JsonObject {
  const out: JsonObject = {
    kind: operation === "CREATE" ? "CreateOptions" : "UpdateOptions",
    apiVersion: "meta.k8s.io/v1",
  };
  if (opts.dryRun) out.dryRun = ["All"];
  if (opts.fieldManager && !opts.fieldManagerDefaulted) out.fieldManager = opts.fieldManager;
  if (opts.fieldValidation) out.fieldValidation = opts.fieldValidation;
  if (opts.subresource) out.subresource = opts.subresource;
  return out;
}

/** DeleteOptions as the AdmissionReview carries them. */
function deleteOptionsOf(opts: DeleteOptions): JsonObject {
  const out: JsonObject = { kind: "DeleteOptions", apiVersion: "meta.k8s.io/v1" };
  for (const [k, v] of Object.entries(opts)) if (v !== undefined && v !== null) out[k] = cloneJson(v);
  return out;
}
