/**
 * The CustomResourceDefinitions of the workbook's kinds, as the JSON `kubectl apply -f` would send (what
 * kubebuilder's `controller-gen crd` writes to `config/crd/bases/`). Structural schemas with validation, a
 * `/status` subresource and printer columns. Kept as wire JSON (`enum`, not client-node's `_enum`) so the same
 * manifest is sent byte for byte to the embedded server, envtest, kind or any cluster.
 */
import {
  CONFIGSET_MAX_REPLICAS,
  STATIC_SITE_MAX_REPLICAS,
  WORKBOOK_GROUP,
  WORKBOOK_VERSION,
} from "./constants.js";

/** A structural OpenAPI v3 schema node, wire field names (the subset the workbook's CRDs use). */
export interface SchemaNode {
  type?: "object" | "array" | "string" | "integer" | "boolean" | "number";
  description?: string;
  format?: string;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode;
  items?: SchemaNode;
  required?: string[];
  enum?: string[];
  minimum?: number;
  maximum?: number;
}

/** `apiextensions.k8s.io/v1` CustomResourceDefinition, wire JSON, the fields the workbook sets. */
export interface CrdManifest {
  apiVersion: "apiextensions.k8s.io/v1";
  kind: "CustomResourceDefinition";
  metadata: { name: string; labels?: Record<string, string> };
  spec: {
    group: string;
    scope: "Namespaced" | "Cluster";
    names: { plural: string; singular: string; kind: string; listKind: string; shortNames?: string[] };
    versions: {
      name: string;
      served: boolean;
      storage: boolean;
      subresources?: { status?: Record<string, never> };
      additionalPrinterColumns?: { name: string; type: string; jsonPath: string; description?: string }[];
      schema: { openAPIV3Schema: SchemaNode };
    }[];
  };
}

/** `metav1.Condition` as a schema: the shape `setStatusCondition` writes. */
function conditionsSchema(types?: string[]): SchemaNode {
  return {
    type: "array",
    description: "Latest observations of the object's state (metav1.Condition).",
    items: {
      type: "object",
      required: ["type", "status", "reason"],
      properties: {
        type: types ? { type: "string", enum: types } : { type: "string" },
        status: { type: "string", enum: ["True", "False", "Unknown"] },
        reason: { type: "string" },
        message: { type: "string" },
        lastTransitionTime: { type: "string", format: "date-time" },
        observedGeneration: { type: "integer", minimum: 0 },
      },
    },
  };
}

const AGE = { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" };

function crd(
  plural: string,
  kind: string,
  shortNames: string[],
  spec: SchemaNode,
  status: SchemaNode,
  columns: { name: string; type: string; jsonPath: string; description?: string }[],
): CrdManifest {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${WORKBOOK_GROUP}`, labels: { "app.kubernetes.io/part-of": "workbook" } },
    spec: {
      group: WORKBOOK_GROUP,
      scope: "Namespaced",
      names: {
        plural,
        singular: kind.toLowerCase(),
        kind,
        listKind: `${kind}List`,
        ...(shortNames.length > 0 ? { shortNames } : {}),
      },
      versions: [
        {
          name: WORKBOOK_VERSION,
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [...columns, AGE],
          schema: {
            openAPIV3Schema: {
              type: "object",
              required: ["spec"],
              properties: {
                apiVersion: { type: "string" },
                kind: { type: "string" },
                metadata: { type: "object" },
                spec,
                status,
              },
            },
          },
        },
      ],
    },
  };
}

/** The ConfigSet CRD: `configsets.workbook.dev`, short name `cfs`, columns Desired/Current/Ready/Age. */
export const CONFIGSET_CRD: CrdManifest = crd(
  "configsets",
  "ConfigSet",
  ["cfs"],
  {
    type: "object",
    required: ["replicas"],
    properties: {
      replicas: {
        type: "integer",
        minimum: 0,
        maximum: CONFIGSET_MAX_REPLICAS,
        description: "How many child ConfigMaps to keep.",
      },
      data: {
        type: "object",
        additionalProperties: { type: "string" },
        description: "Data copied into every child ConfigMap.",
      },
    },
  },
  {
    type: "object",
    properties: {
      observedGeneration: { type: "integer", minimum: 0 },
      replicas: { type: "integer", minimum: 0 },
      readyReplicas: { type: "integer", minimum: 0 },
      conditions: conditionsSchema(["Ready", "Progressing", "Degraded"]),
    },
  },
  [
    { name: "Desired", type: "integer", jsonPath: ".spec.replicas" },
    { name: "Current", type: "integer", jsonPath: ".status.replicas" },
    { name: "Ready", type: "integer", jsonPath: ".status.readyReplicas" },
  ],
);

/** The Bucket CRD: `buckets.workbook.dev`, columns Region/Versioning/BucketID/Age. */
export const BUCKET_CRD: CrdManifest = crd(
  "buckets",
  "Bucket",
  [],
  {
    type: "object",
    required: ["region"],
    properties: {
      region: { type: "string", description: "Where the bucket lives in the (fake) cloud." },
      versioning: { type: "boolean", description: "Keep old versions of objects." },
    },
  },
  {
    type: "object",
    properties: {
      observedGeneration: { type: "integer", minimum: 0 },
      bucketId: { type: "string", description: "The cloud's id of the bucket, once created." },
      conditions: conditionsSchema(),
    },
  },
  [
    { name: "Region", type: "string", jsonPath: ".spec.region" },
    { name: "Versioning", type: "boolean", jsonPath: ".spec.versioning" },
    { name: "BucketID", type: "string", jsonPath: ".status.bucketId" },
  ],
);

/**
 * The StaticSite CRD: `staticsites.workbook.dev`, short name `site`, columns Desired/Ready/Bucket/Age. The
 * capstone's kind (notebook 10, lab 10): children plus an external bucket behind a finalizer.
 */
export const STATIC_SITE_CRD: CrdManifest = crd(
  "staticsites",
  "StaticSite",
  ["site"],
  {
    type: "object",
    required: ["replicas", "content"],
    properties: {
      replicas: {
        type: "integer",
        minimum: 0,
        maximum: STATIC_SITE_MAX_REPLICAS,
        description: "How many children serve the site.",
      },
      content: { type: "string", description: "The site's content; every child serves exactly this." },
      domain: { type: "string", description: "The host name the site answers on (optional)." },
    },
  },
  {
    type: "object",
    properties: {
      observedGeneration: { type: "integer", minimum: 0 },
      replicas: { type: "integer", minimum: 0 },
      readyReplicas: { type: "integer", minimum: 0 },
      bucketId: { type: "string", description: "The cloud's id of the site's bucket, once created." },
      conditions: conditionsSchema(["Ready", "Progressing", "Degraded"]),
    },
  },
  [
    { name: "Desired", type: "integer", jsonPath: ".spec.replicas" },
    { name: "Ready", type: "integer", jsonPath: ".status.readyReplicas" },
    { name: "Bucket", type: "string", jsonPath: ".status.bucketId" },
  ],
);

/** Every CRD the workbook installs, in install order. */
export const WORKBOOK_CRDS: readonly CrdManifest[] = [CONFIGSET_CRD, BUCKET_CRD, STATIC_SITE_CRD];
