/**
 * Reads the `openAPIV3Schema` of every served CRD version through the backend, for the OpenAPI documents
 * (`kubectl explain` on custom resources). Read through {@link ApiBackend} like any client would, so the HTTP
 * layer needs nothing from the registry's internals.
 */
import type { ApiBackend } from "../types.js";
import { type CrdSchemas, schemaKey } from "./openapi.js";

interface CrdVersion {
  name?: unknown;
  served?: unknown;
  schema?: { openAPIV3Schema?: unknown };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** Maps `group/version/plural` to that CRD version's schema; empty when the backend serves no CRDs. */
export function crdSchemasOf(backend: ApiBackend): CrdSchemas {
  const schemas = new Map<string, Record<string, unknown>>();
  const crdType = backend.findResource("apiextensions.k8s.io", "v1", "customresourcedefinitions");
  if (!crdType) return schemas;
  let items: unknown[];
  try {
    items = backend.list(crdType, undefined, {}).items;
  } catch {
    return schemas; // discovery must never fail because of a schema
  }
  for (const crd of items) {
    const spec = isObject(crd) && isObject(crd.spec) ? crd.spec : undefined;
    const names = spec && isObject(spec.names) ? spec.names : undefined;
    if (!spec || typeof spec.group !== "string" || typeof names?.plural !== "string") continue;
    for (const v of Array.isArray(spec.versions) ? (spec.versions as CrdVersion[]) : []) {
      const schema = v.schema?.openAPIV3Schema;
      if (typeof v.name === "string" && v.served !== false && isObject(schema)) {
        schemas.set(schemaKey(spec.group, v.name, names.plural), schema);
      }
    }
  }
  return schemas;
}
