import type { KubeObject } from "../../../apimachinery/object.js";
import { dns1035LabelErrors } from "../../../apimachinery/validation/names.js";
import type { Clock } from "../../../clock/clock.js";
import { isJsonObject, type JsonObject, jsonEqual } from "../json.js";
import { ruleDecodeError, validateSchemaRules } from "../validation/cel/crd-rules.js";
import { RuleValidator } from "../validation/cel/validate.js";
import { decodeError, type FieldErrors, renderValue } from "../validation/field-errors.js";
import { type SchemaProps, validateCustomObject } from "../validation/openapi-schema.js";
import {
  defaultConversion,
  defaultStoredVersions,
  noneReadConverter,
  noneWriteConverter,
  type SchemasByApiVersion,
  validateConversion,
  validateStoredVersions,
} from "./crd-conversion.js";
import { WebhookConversion } from "./crd-conversion-webhook.js";
import { CustomResourceStrategy } from "./custom-resource-strategy.js";
import { CUSTOM_RESOURCE_VERBS, defineResourceType } from "./resource-type.js";
import type { ServedResource } from "./served-resource.js";
import { BasicStrategy } from "./strategy.js";
import type { PrinterColumn } from "./table.js";
import { rfc3339 } from "./time.js";

/** The fields of a CRD spec the server reads. */
interface CrdSpec {
  group?: string;
  scope?: string;
  conversion?: unknown;
  names?: {
    plural?: string;
    singular?: string;
    kind?: string;
    listKind?: string;
    shortNames?: string[];
    categories?: string[];
  };
  versions?: {
    name?: string;
    served?: boolean;
    storage?: boolean;
    schema?: { openAPIV3Schema?: SchemaProps };
    additionalPrinterColumns?: unknown;
    subresources?: { status?: unknown; scale?: unknown };
  }[];
}

function specOf(crd: KubeObject): CrdSpec {
  return (isJsonObject(crd.spec) ? crd.spec : {}) as CrdSpec;
}

/** The annotation a CRD in a `*.k8s.io` or `*.kubernetes.io` group needs (KEP-1111 API review). */
export const API_APPROVED_ANNOTATION = "api-approved.kubernetes.io";

/** Groups reserved for Kubernetes itself: `k8s.io`, `kubernetes.io` and their subdomains. */
export function isProtectedGroup(group: string): boolean {
  return ["k8s.io", "kubernetes.io"].some((g) => group === g || group.endsWith(`.${g}`));
}

/** Validates a CustomResourceDefinition's basics (`ValidateCustomResourceDefinition`, reduced). */
export function validateCrd(
  crd: KubeObject,
  errs: FieldErrors,
  old: KubeObject | undefined,
  subresource?: string,
): void {
  const spec = specOf(crd);
  const names = spec.names ?? {};
  if (!spec.group) errs.required("spec.group");
  else if (!spec.group.includes(".")) {
    errs.invalid("spec.group", spec.group, "should be a domain with at least one dot");
  }
  if (spec.group && isProtectedGroup(spec.group) && !crd.metadata?.annotations?.[API_APPROVED_ANNOTATION]) {
    errs.required(
      `metadata.annotations[${API_APPROVED_ANNOTATION}]`,
      `protected groups must have approval annotation "${API_APPROVED_ANNOTATION}", see https://github.com/kubernetes/enhancements/pull/1111`,
    );
  }
  if (!names.plural) errs.required("spec.names.plural");
  else for (const e of dns1035LabelErrors(names.plural)) errs.invalid("spec.names.plural", names.plural, e);
  if (!names.kind) errs.required("spec.names.kind");
  else if (!/^[A-Za-z][A-Za-z0-9]*$/.test(names.kind)) {
    errs.invalid(
      "spec.names.kind",
      names.kind,
      "must be a valid Kind name (letters and digits, starting with a letter)",
    );
  }
  if (spec.scope !== "Namespaced" && spec.scope !== "Cluster") {
    errs.notSupported("spec.scope", spec.scope ?? "", ["Cluster", "Namespaced"]);
  }
  const name = crd.metadata?.name ?? "";
  if (names.plural && spec.group && name !== `${names.plural}.${spec.group}`) {
    errs.invalid("metadata.name", name, 'must be spec.names.plural+"."+spec.group');
  }
  const versions = Array.isArray(spec.versions) ? spec.versions : [];
  if (versions.length === 0) errs.required("spec.versions", "must have at least one version");
  versions.forEach((v, i) => {
    if (!isJsonObject(v) || !v.name) errs.required(`spec.versions[${i}].name`);
  });
  validateVersionRules(versions, errs);
  const storage = versions.filter((v) => isJsonObject(v) && v.storage === true).length;
  if (versions.length > 0 && storage !== 1) {
    errs.invalid(
      "spec.versions",
      renderValue(versions.map((v) => v?.name)),
      "must have exactly one version marked as storage version",
    );
  }
  validateConversion(spec.conversion, errs);
  // Not on a /status write (`ValidateUpdateCustomResourceDefinitionStatus`): a storage migration edits the list
  // there, and the next spec write adds the storage version back if it was removed.
  if (subresource !== "status" && isJsonObject(crd.status) && Array.isArray(crd.status.storedVersions)) {
    const stored = crd.status.storedVersions.map(String);
    const storageVersion = versions.find((v) => isJsonObject(v) && v.storage === true)?.name;
    validateStoredVersions(
      stored,
      versions.map((v) => v?.name ?? ""),
      storageVersion,
      errs,
    );
  }
  if (old) {
    const oldSpec = specOf(old);
    if (oldSpec.group !== spec.group) errs.invalid("spec.group", spec.group, "field is immutable");
    if (oldSpec.scope !== spec.scope) errs.invalid("spec.scope", spec.scope, "field is immutable");
  }
}

/**
 * The `x-kubernetes-validations` checks of every version's schema. kube-apiserver validates a v1 CRD in its
 * internal form, where a schema all versions share is hoisted to `spec.validation` (the v1 conversion does so
 * whenever the versions' schemas are identical, so always for one version): its causes read
 * `spec.validation.openAPIV3Schema...`, otherwise `spec.versions[i].schema.openAPIV3Schema...`.
 */
function validateVersionRules(versions: NonNullable<CrdSpec["versions"]>, errs: FieldErrors): void {
  const schemas = versions.map((v) => (isJsonObject(v) ? v.schema?.openAPIV3Schema : undefined));
  const first = schemas[0];
  if (schemas.length > 0 && schemas.every((s) => jsonEqual(s, first))) {
    if (first) validateSchemaRules(first, "spec.validation.openAPIV3Schema", errs);
    return;
  }
  schemas.forEach((schema, i) => {
    if (schema) validateSchemaRules(schema, `spec.versions[${i}].schema.openAPIV3Schema`, errs);
  });
}

/**
 * What the CRD strategy tells the server about a CRD's kinds: `sync` when a CRD is stored or updated, `drop`
 * when it goes or is being deleted. `CrdLifecycle` (crd-lifecycle.ts) is the server's; declared here so this
 * file does not import it back (it reads {@link servedResourcesOf} from this one).
 */
export interface CrdServingHooks {
  sync(crd: KubeObject): void;
  drop(name: string): void;
}

/**
 * The CRD strategy: validation as above; on every write the embedded "apiextensions controller" runs at once
 * and sets the status a real cluster reaches a moment later: `acceptedNames`, `storedVersions` and the
 * conditions `NamesAccepted` and `Established`, both True. Its hooks drive the {@link CrdServingHooks}: a stored CRD
 * serves its kinds, an updated one re-serves them, one being deleted stops serving them and purges them.
 */
export class CrdStrategy extends BasicStrategy {
  constructor(
    private readonly clock: Clock,
    private readonly lifecycle?: CrdServingHooks,
  ) {
    super({ hasStatus: true, tracksGeneration: true });
  }

  override afterCreate(obj: KubeObject): void {
    this.lifecycle?.sync(obj);
  }

  /** A CRD being deleted stays unserved until it is gone, whatever else its updates change. */
  override afterUpdate(obj: KubeObject, stored: boolean): void {
    if (stored && !obj.metadata?.deletionTimestamp) this.lifecycle?.sync(obj);
    else this.lifecycle?.drop(obj.metadata?.name ?? "");
  }

  override beforeDelete(name: string): void {
    this.lifecycle?.drop(name);
  }

  override prepareForCreate(obj: KubeObject): void {
    obj.status = crdStatus(obj, undefined, rfc3339(this.clock.now()));
  }

  override prepareForUpdate(obj: KubeObject, old: KubeObject): void {
    obj.status = crdStatus(obj, old, rfc3339(this.clock.now()));
  }

  override validate(
    obj: KubeObject,
    errs: FieldErrors,
    old: KubeObject | undefined,
    subresource?: string,
  ): void {
    validateCrd(obj, errs, old, subresource);
  }

  /** Rules that do not decode into Go's `ValidationRule` are a 400, as kube-apiserver's decoder answers. */
  override decode(obj: KubeObject): void {
    if (isJsonObject(obj.spec)) defaultConversion(obj.spec);
    defaultStoredVersions(obj);
    for (const v of specOf(obj).versions ?? []) {
      const why = isJsonObject(v) ? ruleDecodeError(v.schema?.openAPIV3Schema) : undefined;
      if (why) throw decodeError("CustomResourceDefinition", "v1", why);
    }
  }
}

function crdStatus(crd: KubeObject, old: KubeObject | undefined, now: string): JsonObject {
  const spec = specOf(crd);
  const names = spec.names ?? {};
  const kind = names.kind ?? "";
  const acceptedNames: JsonObject = {
    plural: names.plural ?? "",
    singular: names.singular ?? kind.toLowerCase(),
    kind,
    listKind: names.listKind ?? `${kind}List`,
  };
  if (names.shortNames) acceptedNames.shortNames = names.shortNames;
  const oldStatus: JsonObject = old && isJsonObject(old.status) ? old.status : {};
  const oldConditions = Array.isArray(oldStatus.conditions) ? (oldStatus.conditions as JsonObject[]) : [];
  const since = (type: string) => oldConditions.find((c) => c.type === type)?.lastTransitionTime ?? now;
  const storage = (spec.versions ?? []).find((v) => v?.storage)?.name;
  const stored = Array.isArray(oldStatus.storedVersions) ? [...(oldStatus.storedVersions as string[])] : [];
  if (storage && !stored.includes(storage)) stored.push(storage);
  return {
    conditions: [
      {
        type: "NamesAccepted",
        status: "True",
        reason: "NoConflicts",
        message: "no conflicts found",
        lastTransitionTime: since("NamesAccepted"),
      },
      {
        type: "Established",
        status: "True",
        reason: "InitialNamesAccepted",
        message: "the initial names have been accepted",
        lastTransitionTime: since("Established"),
      },
    ],
    acceptedNames,
    storedVersions: stored,
  };
}

/** The CRD's conversion webhook, when `spec.conversion.strategy` is `Webhook`. */
function webhookConversionOf(
  spec: CrdSpec,
  schemas: SchemasByApiVersion,
  kind: string,
): WebhookConversion | undefined {
  const conversion = isJsonObject(spec.conversion) ? spec.conversion : {};
  if (conversion.strategy !== "Webhook" || !isJsonObject(conversion.webhook)) return undefined;
  const clientConfig = conversion.webhook.clientConfig;
  if (!isJsonObject(clientConfig)) return undefined;
  return new WebhookConversion(spec.group ?? "", kind, clientConfig, schemas);
}

/** The resources a (valid, stored) CRD serves: one per served version, with its scope and subresources. */
export function servedResourcesOf(crd: KubeObject): ServedResource[] {
  const spec = specOf(crd);
  const names = spec.names ?? {};
  const out: ServedResource[] = [];
  const storage = (spec.versions ?? []).find((v) => v?.storage === true);
  const storageApiVersion = `${spec.group ?? ""}/${storage?.name ?? ""}`;
  const schemas = new Map(
    (spec.versions ?? []).map((v) => [`${spec.group ?? ""}/${v?.name ?? ""}`, v?.schema?.openAPIV3Schema]),
  );
  const webhook = webhookConversionOf(spec, schemas, names.kind ?? "");
  for (const v of spec.versions ?? []) {
    if (!v?.name || v.served === false) continue;
    const hasStatus = v.subresources?.status !== undefined && v.subresources?.status !== null;
    const schema = v.schema?.openAPIV3Schema;
    const subresources = hasStatus ? ["status"] : [];
    const apiVersion = `${spec.group ?? ""}/${v.name}`;
    const fromStorage = webhook ? webhook.readConverter(apiVersion) : noneReadConverter(apiVersion, schemas);
    const resource: ServedResource = {
      type: defineResourceType({
        group: spec.group ?? "",
        version: v.name,
        resource: names.plural ?? "",
        kind: names.kind ?? "",
        ...(names.listKind ? { listKind: names.listKind } : {}),
        ...(names.singular ? { singular: names.singular } : {}),
        shortNames: names.shortNames ?? [],
        ...(Array.isArray(names.categories) ? { categories: names.categories } : {}),
        namespaced: spec.scope !== "Cluster",
        subresources,
        verbs: [...CUSTOM_RESOURCE_VERBS],
        custom: true,
      }),
      strategy: new CustomResourceStrategy(hasStatus),
      crd: crd.metadata?.name ?? "",
      printerColumns: printerColumnsOf(v.additionalPrinterColumns),
      ...(schema ? { openAPIV3Schema: schema } : {}),
      // Reads from storage are converted to this version and defaulted (objects stored before a default
      // was added show it); writes are stored in the storage version (crd-conversion.ts).
      ...(fromStorage ? { fromStorage } : {}),
      toStorage: webhook
        ? webhook.writeConverter(apiVersion, storageApiVersion)
        : noneWriteConverter(apiVersion, storageApiVersion, storage?.schema?.openAPIV3Schema),
      ...(webhook ? { conversionWebhook: webhook } : {}),
      ...(schema ? { schemaCheck: customObjectCheck(schema) } : {}),
    };
    out.push(resource);
  }
  return out;
}

/** Causes that keep kube-apiserver from running validation rules at all (`hasBlockingErr`). */
const BLOCKING_REASONS = new Set([
  "FieldValueNotSupported",
  "FieldValueRequired",
  "FieldValueTooLong",
  "FieldValueTooMany",
  "FieldValueTypeInvalid",
]);

function blocks(cause: { reason?: string; message?: string }): boolean {
  return (
    BLOCKING_REASONS.has(cause.reason ?? "") || (cause.message ?? "").includes(" in body must be of type ")
  );
}

/**
 * The schema check of a custom object (customresource `strategy.go`'s Validate/ValidateUpdate): the structural
 * schema, then the `x-kubernetes-validations` rules (compiled once, here), unless an earlier error blocks them.
 */
function customObjectCheck(schema: SchemaProps): NonNullable<ServedResource["schemaCheck"]> {
  const rules = RuleValidator.needed(schema) ? new RuleValidator(schema) : undefined;
  return (obj, errs, old, warnings) => {
    validateCustomObject(obj, schema, errs);
    if (!rules) return;
    if (errs.causes.some(blocks)) {
      errs.invalid(
        "<nil>",
        null,
        "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
      );
    } else rules.validate(obj, old, errs, warnings);
  };
}

/** The well-formed entries of a CRD version's `additionalPrinterColumns` (name, jsonPath and type strings). */
function printerColumnsOf(columns: unknown): PrinterColumn[] {
  if (!Array.isArray(columns)) return [];
  return columns.filter(
    (c): c is PrinterColumn & JsonObject =>
      isJsonObject(c) &&
      typeof c.name === "string" &&
      typeof c.jsonPath === "string" &&
      typeof c.type === "string",
  );
}
