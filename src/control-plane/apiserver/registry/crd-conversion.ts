/**
 * Custom resources served at several versions, as apiextensions-apiserver converts them
 * (`pkg/apiserver/conversion`, and the codec `customresource_handler.go` builds around it): every version of a
 * CRD shares one storage; an object is written in the storage version (the one with `storage: true` at the time
 * of the write) and read in the version the request names. With `spec.conversion.strategy: None` a conversion
 * changes only `apiVersion` (`nopConverter`); after every conversion the object is pruned to the target
 * version's structural schema (`schemaCoercingConverter`), and on reads the target version's defaults are
 * applied (the codec's defaulter). So a field only one version declares is lost when the object is written
 * through the other one.
 *
 * Also here: the CRD validation of `spec.conversion` (`validateCustomResourceConversion`) and of
 * `status.storedVersions` (`ValidateCustomResourceDefinitionStoredVersions`), and the v1 defaulting of
 * `spec.conversion` (`SetDefaults_CustomResourceDefinitionSpec`).
 */
import type { KubeObject } from "../../../apimachinery/object.js";
import { dns1035LabelErrors } from "../../../apimachinery/validation/names.js";
import { cloneJson, isJsonObject, type JsonObject } from "../json.js";
import type { FieldErrors } from "../validation/field-errors.js";
import type { SchemaProps } from "../validation/openapi-schema.js";
import { pruneToStructuralSchema } from "./field-validation.js";
import { validateWebhookClientConfig } from "./kinds/admission-kinds.js";
import { applyDefaults, hasDefaults, pruneNonNullableNulls } from "./structural-defaults.js";

/** The conversion strategies a CRD may name (`apiextensionsv1.NoneConverter`, `WebhookConverter`). */
export const CONVERSION_STRATEGIES = ["None", "Webhook"] as const;

/** ConversionReview versions an API server understands (`acceptedConversionReviewVersions`). */
const ACCEPTED_REVIEW_VERSIONS = ["v1", "v1beta1"];

/**
 * `SetDefaults_CustomResourceDefinitionSpec` for `spec.conversion`: absent means `{strategy: None}`; a webhook's
 * service port defaults to 443.
 */
export function defaultConversion(spec: JsonObject): void {
  if (!isJsonObject(spec.conversion)) spec.conversion = { strategy: "None" };
  const webhook = (spec.conversion as JsonObject).webhook;
  const clientConfig = isJsonObject(webhook) ? webhook.clientConfig : undefined;
  const service = isJsonObject(clientConfig) ? clientConfig.service : undefined;
  if (isJsonObject(service) && service.port === undefined) service.port = 443;
}

/**
 * `SetDefaults_CustomResourceDefinition` for the status: an empty or absent `status.storedVersions` becomes the
 * storage version (so a /status write that empties it gets the storage version back).
 */
export function defaultStoredVersions(crd: KubeObject): void {
  const status = isJsonObject(crd.status) ? crd.status : undefined;
  const stored = status?.storedVersions;
  if (Array.isArray(stored) && stored.length > 0) return;
  const spec = isJsonObject(crd.spec) ? crd.spec : {};
  const versions = Array.isArray(spec.versions) ? spec.versions : [];
  const storage = versions.find((v) => isJsonObject(v) && v.storage === true) as JsonObject | undefined;
  if (typeof storage?.name !== "string") return;
  crd.status = { ...(status ?? {}), storedVersions: [storage.name] };
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.map((s) => String(s)) : [];
}

/**
 * `validateCustomResourceConversion` on the v1 CRD. kube validates the internal form, where
 * `conversion.webhook.clientConfig` is `conversion.webhookClientConfig` and `conversion.webhook.
 * conversionReviewVersions` is `conversion.conversionReviewVersions`: its field paths name those.
 */
export function validateConversion(conversion: unknown, errs: FieldErrors): void {
  if (!isJsonObject(conversion)) return;
  const path = "spec.conversion";
  const strategy = typeof conversion.strategy === "string" ? conversion.strategy : "";
  if (strategy === "") errs.required(`${path}.strategy`);
  else if (!(CONVERSION_STRATEGIES as readonly string[]).includes(strategy)) {
    errs.notSupported(`${path}.strategy`, strategy, [...CONVERSION_STRATEGIES]);
  }
  const webhook = isJsonObject(conversion.webhook) ? conversion.webhook : {};
  const clientConfig = isJsonObject(webhook.clientConfig) ? webhook.clientConfig : undefined;
  const reviewVersions = strings(webhook.conversionReviewVersions);
  if (strategy !== "Webhook") {
    if (clientConfig) {
      errs.forbidden(`${path}.webhookClientConfig`, "should not be set when strategy is not set to Webhook");
    }
    if (reviewVersions.length > 0) {
      errs.forbidden(
        `${path}.conversionReviewVersions`,
        "should not be set when strategy is not set to Webhook",
      );
    }
    return;
  }
  if (!clientConfig) {
    errs.required(`${path}.webhookClientConfig`, "required when strategy is set to Webhook");
  } else {
    validateWebhookClientConfig(clientConfig, `${path}.webhookClientConfig`, errs);
  }
  validateReviewVersions(reviewVersions, `${path}.conversionReviewVersions`, errs);
}

/** `validateConversionReviewVersions` with a recognized version required. */
function validateReviewVersions(versions: string[], path: string, errs: FieldErrors): void {
  if (versions.length === 0) {
    errs.required(path);
    return;
  }
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.invalid(`${path}[${i}]`, v, "duplicate version");
      return;
    }
    seen.add(v);
    for (const e of dns1035LabelErrors(v)) errs.invalid(`${path}[${i}]`, v, e);
  });
  if (!versions.some((v) => ACCEPTED_REVIEW_VERSIONS.includes(v))) {
    errs.invalid(path, versions, `must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(", ")}`);
  }
}

/**
 * `ValidateCustomResourceDefinitionStoredVersions`: the storage version must be listed, and every listed version
 * must still be in `spec.versions` (a storage migration has to remove it from the status first).
 */
export function validateStoredVersions(
  stored: string[],
  versions: string[],
  storage: string | undefined,
  errs: FieldErrors,
): void {
  const path = "status.storedVersions";
  if (stored.length === 0) {
    errs.invalid(path, stored, "must have at least one stored version");
    return;
  }
  if (storage !== undefined && !stored.includes(storage)) {
    errs.invalid(path, stored, `must have the storage version ${storage}`);
  }
  stored.forEach((v, i) => {
    if (versions.includes(v)) return;
    errs.invalid(
      `${path}[${i}]`,
      v,
      `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
    );
  });
}

/** Prunes a converted object to the target version's structural schema (`unstructuredSchemaCoercer.apply`). */
function coerce(obj: KubeObject, schema: SchemaProps | undefined): void {
  if (!schema) return;
  pruneToStructuralSchema(obj, schema);
  pruneNonNullableNulls(obj, schema);
}

/** A copy of a converted object pruned to the target version's schema (what the webhook strategy applies). */
export function coerceToSchema(obj: KubeObject, schema: SchemaProps | undefined): KubeObject {
  const copy = cloneJson(obj);
  coerce(copy, schema);
  return copy;
}

/** The structural schema of each version of a CRD, by apiVersion (`group/version`). */
export type SchemasByApiVersion = ReadonlyMap<string, SchemaProps | undefined>;

/**
 * A stored object defaulted with the schema of the version it is stored in, as the storage codec's defaulter
 * does on every read (the same object when that schema has no defaults).
 */
export function storedDefaulted(stored: KubeObject, schemas: SchemasByApiVersion): KubeObject {
  const schema = schemas.get(stored.apiVersion ?? "");
  if (!schema || !hasDefaults(schema)) return stored;
  const copy = cloneJson(stored);
  applyDefaults(copy, schema);
  return copy;
}

/**
 * How a stored object reads at one served version with strategy None, as the storage codec of
 * `crdConversionRESTOptionsGetter` decodes it: defaulted with the schema of the version it is stored in (so
 * objects stored before a default was added show it), then, when that is another version, converted
 * (`apiVersion` only) and pruned to this version's schema. The target version's own defaults are not applied
 * to an object stored in another version, as in kube-apiserver. Undefined when no read ever needs work (one
 * version, no defaults): the LIST fast path then serves the stored bytes as they are.
 */
export function noneReadConverter(
  apiVersion: string,
  schemas: SchemasByApiVersion,
): ((stored: KubeObject) => KubeObject) | undefined {
  const anyDefaults = [...schemas.values()].some((s) => s !== undefined && hasDefaults(s));
  if (schemas.size <= 1 && !anyDefaults) return undefined;
  return (stored) => {
    const defaulted = storedDefaulted(stored, schemas);
    if (defaulted.apiVersion === apiVersion) return defaulted;
    const copy = defaulted === stored ? cloneJson(stored) : defaulted;
    copy.apiVersion = apiVersion;
    coerce(copy, schemas.get(apiVersion));
    return copy;
  };
}

/**
 * How an object written at one served version is stored with strategy None: in the storage version, pruned to
 * its schema when that is another version. Undefined when the served version is the storage version.
 */
export function noneWriteConverter(
  apiVersion: string,
  storageApiVersion: string,
  storageSchema: SchemaProps | undefined,
): ((obj: KubeObject) => KubeObject) | undefined {
  if (apiVersion === storageApiVersion) {
    // Objects stored under an older storage version are rewritten in the current one on their next write.
    return (obj) => (obj.apiVersion === storageApiVersion ? obj : { ...obj, apiVersion: storageApiVersion });
  }
  return (obj) => {
    const copy = cloneJson(obj);
    copy.apiVersion = storageApiVersion;
    coerce(copy, storageSchema);
    return copy;
  };
}
