import type { KubeObject } from "../../../apimachinery/object.js";
import { cloneJson, jsonEqual } from "../json.js";
import { kindSchema } from "../schema/message-schema.js";
import type { ResourceType } from "../types.js";
import type { FieldErrors } from "../validation/field-errors.js";
import { writeAsGo } from "./go-json.js";
import type { KindSpec } from "./kind-spec.js";
import { defineResourceType } from "./resource-type.js";
import type { ServedResource } from "./served-resource.js";
import { BasicStrategy } from "./strategy.js";

/**
 * The write strategy of a kind described by a {@link KindSpec}: kube-apiserver's per-kind strategies
 * (`pkg/registry/<group>/<kind>/strategy.go`) reduced to data. Create drops the status (or stores the kind's
 * initial one) and sets generation 1 when the kind has one; updates keep the stored status when `/status` is a
 * subresource and bump generation by the kind's rule; every stored object is written as Go would write it
 * (`go-json.ts`), so zero values and empty structs read back as on kube-apiserver.
 */
export class KindSpecStrategy extends BasicStrategy {
  readonly orphanByDefault: boolean;

  constructor(private readonly spec: KindSpec) {
    super({
      tracksGeneration: spec.generation !== undefined,
      hasStatus: spec.status === true,
      extraFieldLabels: spec.fieldLabels ?? [],
      ...(spec.nameErrors ? { nameErrors: spec.nameErrors } : {}),
    });
    this.orphanByDefault = spec.orphanByDefault === true;
  }

  override decode(obj: KubeObject): void {
    this.spec.defaults?.(obj);
  }

  override prepareForCreate(obj: KubeObject): void {
    if (this.spec.status && !this.spec.createKeepsStatus) {
      if (this.spec.initialStatus) obj.status = this.spec.initialStatus();
      else delete obj.status;
    }
    this.spec.prepareForCreate?.(obj);
    this.writeAsGo(obj);
  }

  override prepareForUpdate(obj: KubeObject, old: KubeObject): void {
    super.prepareForUpdate(obj, old);
    // The status kept from the stored (frozen) object is copied before it is written as Go would.
    if (obj.status !== undefined) obj.status = cloneJson(obj.status);
    this.spec.prepareForUpdate?.(obj, old);
    this.writeAsGo(obj);
  }

  override prepareForStatusUpdate(body: KubeObject, old: KubeObject): KubeObject {
    return this.writeAsGo(cloneJson(super.prepareForStatusUpdate(body, old)));
  }

  override bumpsGeneration(obj: KubeObject, old: KubeObject): boolean {
    switch (this.spec.generation) {
      case "spec":
        return !jsonEqual(obj.spec, old.spec);
      case "webhooks":
        return !jsonEqual(obj.webhooks, old.webhooks);
      case "content":
        return (
          !jsonEqual(withoutMetadata(obj), withoutMetadata(old)) ||
          !jsonEqual(obj.metadata?.labels, old.metadata?.labels)
        );
      default:
        return false;
    }
  }

  override validate(obj: KubeObject, errs: FieldErrors, old: KubeObject | undefined): void {
    this.spec.validate?.(obj, errs, old);
  }

  private writeAsGo(obj: KubeObject): KubeObject {
    const schema = kindSchema(obj.apiVersion ?? "", obj.kind ?? "");
    if (schema) writeAsGo(obj, schema);
    return obj;
  }
}

function withoutMetadata(obj: KubeObject): KubeObject {
  const { metadata: _m, ...rest } = obj;
  return rest as KubeObject;
}

/** The discovery entry of a kind spec (its `APIResource`, with the status subresource when it has one). */
export function kindSpecType(spec: KindSpec): ResourceType {
  return defineResourceType({
    group: spec.group,
    version: spec.version,
    resource: spec.resource,
    kind: spec.kind,
    namespaced: spec.namespaced,
    ...(spec.shortNames ? { shortNames: spec.shortNames } : {}),
    ...(spec.categories ? { categories: spec.categories } : {}),
    ...(spec.status ? { subresources: ["status"] } : {}),
  });
}

/** A kind spec as a served resource. */
export function servedKind(spec: KindSpec): ServedResource {
  return { type: kindSpecType(spec), strategy: new KindSpecStrategy(spec) };
}
