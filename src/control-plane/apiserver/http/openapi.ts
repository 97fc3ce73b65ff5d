/**
 * OpenAPI v3 (`/openapi/v3` and `/openapi/v3/<api|apis/group>/<version>`): just enough for kubectl.
 *
 * What kubectl 1.32 reads, and why each piece is here:
 * - `apply`/`create`/`replace` with the default `--validate=strict` ask the OpenAPI v3 document of the
 *   object's group/version whether its PATCH operation accepts the `fieldValidation` query parameter
 *   (`cli-runtime/pkg/resource/query_param_verifier_v3.go`). If it does, kubectl leaves validation to the
 *   server and never downloads the v2 schema; if the document is missing it falls back to `/openapi/v2` and
 *   fails with "failed to download openapi". So every path gets a PATCH operation tagged with
 *   `x-kubernetes-group-version-kind` that lists `fieldValidation`.
 * - `explain` looks the kind up in `components.schemas` by its `x-kubernetes-group-version-kind`. A custom
 *   resource gets its CRD's `openAPIV3Schema`; a built-in kind only the common fields (apiVersion, kind,
 *   metadata): the embedded server does not describe built-in kinds' own fields.
 * - `apply` computes a strategic merge patch with the compiled-in Go types when the schema has no patch
 *   metadata, so nothing more is needed for it.
 * `/openapi/v2` is an empty document (`non-resource.ts`): kubectl 1.32 never needs it once v3 answers, and older
 * kubectl (Debian's 1.20) only needs it to exist.
 */
import type { ResourceType } from "../types.js";
import type { DiscoveryDocuments } from "./discovery.js";

const QUERY = (name: string, description: string) => ({
  name,
  in: "query",
  description,
  schema: { type: "string", uniqueItems: true },
});

const WRITE_PARAMS = [
  QUERY("dryRun", "When present, indicates that modifications should not be persisted (All)."),
  QUERY("fieldManager", "Name of the actor making the change."),
  QUERY("fieldValidation", "Ignore, Warn or Strict: how unknown or duplicate fields are handled."),
];

function gvk(rt: ResourceType) {
  return { group: rt.group, version: rt.version, kind: rt.kind };
}

function schemaName(rt: ResourceType): string {
  return `${rt.group || "core"}.${rt.version}.${rt.kind}`;
}

function operation(rt: ResourceType, action: string, parameters: unknown[]) {
  return {
    description: `${action} ${rt.kind}`,
    operationId: `${action}${rt.kind}`,
    parameters,
    responses: {
      "200": {
        description: "OK",
        content: { "application/json": { schema: { $ref: `#/components/schemas/${schemaName(rt)}` } } },
      },
    },
    "x-kubernetes-action": action,
    "x-kubernetes-group-version-kind": gvk(rt),
  };
}

const COMMON_PROPERTIES = {
  apiVersion: { type: "string", description: "APIVersion defines the versioned schema of this object." },
  kind: { type: "string", description: "Kind is the REST resource this object represents." },
  metadata: {
    type: "object",
    description: "Standard object metadata (ObjectMeta).",
    "x-kubernetes-preserve-unknown-fields": true,
  },
};

/**
 * A kind's schema: a custom resource's own `openAPIV3Schema` from its CRD (so `kubectl explain widget.spec`
 * shows the fields the lab defined), or, for built-ins, the common fields only.
 */
function kindSchema(rt: ResourceType, crdSchema: Record<string, unknown> | undefined) {
  const where = `${rt.group ? `${rt.group}/` : ""}${rt.version}`;
  const own = (crdSchema?.properties ?? {}) as Record<string, unknown>;
  return {
    type: "object",
    ...(crdSchema ?? { "x-kubernetes-preserve-unknown-fields": true }),
    description:
      (crdSchema?.description as string | undefined) ??
      (crdSchema
        ? `${rt.kind} (${where}), a custom resource served by the workbook's embedded API server.`
        : `${rt.kind} (${where}), served by the workbook's embedded API server. Kind-specific fields are not described here; see the Kubernetes API reference.`),
    properties: { ...COMMON_PROPERTIES, ...own },
    "x-kubernetes-group-version-kind": [gvk(rt)],
  };
}

/** `group/version/resource` of a served kind, the key of {@link CrdSchemas}. */
export function schemaKey(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}

/** The `openAPIV3Schema` of each CRD-served group/version/resource. */
export type CrdSchemas = ReadonlyMap<string, Record<string, unknown>>;

function gvDocument(group: string, version: string, types: ResourceType[], crdSchemas: CrdSchemas) {
  const prefix = group ? `/apis/${group}/${version}` : `/api/${version}`;
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (const rt of types) {
    const base = rt.namespaced
      ? `${prefix}/namespaces/{namespace}/${rt.resource}`
      : `${prefix}/${rt.resource}`;
    paths[base] = { get: operation(rt, "list", []), post: operation(rt, "post", WRITE_PARAMS) };
    paths[`${base}/{name}`] = {
      get: operation(rt, "get", []),
      put: operation(rt, "put", WRITE_PARAMS),
      patch: operation(rt, "patch", [...WRITE_PARAMS, QUERY("force", "Force an apply.")]),
      delete: operation(rt, "delete", [QUERY("propagationPolicy", "Orphan, Foreground or Background.")]),
    };
    schemas[schemaName(rt)] = kindSchema(rt, crdSchemas.get(schemaKey(rt.group, rt.version, rt.resource)));
  }
  return {
    openapi: "3.0.0",
    info: { title: "Kubernetes (kube-controller-workbook embedded API server)", version: "v1.32.0" },
    paths,
    components: { schemas },
  };
}

/** The OpenAPI v3 documents for one snapshot of served resources. */
export class OpenApiDocuments {
  private readonly docs = new Map<string, string>();

  constructor(discovery: DiscoveryDocuments, crdSchemas: CrdSchemas = new Map()) {
    const index: Record<string, { serverRelativeURL: string }> = {};
    for (const gv of discovery.groupVersions()) {
      const rel = gv.group ? `apis/${gv.group}/${gv.version}` : `api/${gv.version}`;
      const text = JSON.stringify(gvDocument(gv.group, gv.version, gv.types, crdSchemas));
      this.docs.set(`/openapi/v3/${rel}`, text);
      index[rel] = { serverRelativeURL: `/openapi/v3/${rel}?hash=${hashOf(text)}` };
    }
    this.docs.set("/openapi/v3", JSON.stringify({ paths: index }));
  }

  /** The serialized document for `path` (query string removed), or undefined. */
  lookup(path: string): string | undefined {
    return this.docs.get(path);
  }
}

/** A short content hash (FNV-1a, 32 bit, hex): clients cache documents by it, as by kube-apiserver's etag. */
function hashOf(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0").toUpperCase();
}
