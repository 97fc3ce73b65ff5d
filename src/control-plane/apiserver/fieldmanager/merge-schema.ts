import type { FieldSpec, MessageSchema } from "../schema/message-schema.js";
import { kindSchema, messageSchema } from "../schema/message-schema.js";
import type { SchemaProps } from "../validation/openapi-schema.js";

/**
 * The merge schema of a value, as structured-merge-diff's `schema.Atom` sees a type: it decides what a field
 * path is and how apply merges. Built from the generated `k8s.io/api` schema data for built-in kinds (Go
 * struct tags and `+listType`/`+listMapKey`/`+mapType`/`+structType` markers, with `patchStrategy=merge` and
 * `patchMergeKey` as the fallback kube-openapi uses) and from the structural schema of a CRD version
 * (`x-kubernetes-list-type`, `x-kubernetes-list-map-keys`, `x-kubernetes-map-type`).
 */
export type MergeType = ScalarType | MapType | ListType | DeducedType;

/** A leaf: strings, numbers, booleans, and types with their own JSON (Time, Quantity, IntOrString). */
export interface ScalarType {
  readonly kind: "scalar";
}

/** Anything, typed by its value: objects are granular maps, arrays atomic, the rest scalars (`deduced`). */
export interface DeducedType {
  readonly kind: "deduced";
}

/** A struct (named fields) or a map (any key, one element type), or both. */
export interface MapType {
  readonly kind: "map";
  /** `+structType=atomic` / `+mapType=atomic`: owned and replaced as a whole. */
  readonly atomic: boolean;
  /** A named field, or undefined when the struct has none of that name. */
  field(name: string): FieldType | undefined;
  /** The type of keys that are not named fields (map values; undefined for a struct). */
  readonly elem: MergeType | undefined;
}

/** A named field of a struct. */
export interface FieldType {
  readonly type: MergeType;
  /**
   * What a typed Go object holds for the field when the JSON lacks it, or undefined when it is left out: `{}`
   * for a non-pointer struct (encoding/json always writes one), `null` for a field without `omitempty` (a nil
   * slice, map or pointer, or a zero scalar). Update tracking compares typed objects, where such a field is
   * always there, so a field that appears in it is "changed", never "added" with its parent.
   */
  readonly zero: unknown;
}

/** A list: atomic, a set of scalars, or a map keyed by some fields of its elements. */
export interface ListType {
  readonly kind: "list";
  readonly relationship: "atomic" | "set" | "map";
  readonly keys: readonly string[];
  /** Defaults of key fields (`+default="TCP"` on `protocol`), used when an element omits one. */
  readonly keyDefaults: Readonly<Record<string, unknown>>;
  readonly elem: MergeType;
}

/** The shared scalar type. */
export const SCALAR: ScalarType = { kind: "scalar" };
/** The shared deduced type. */
export const DEDUCED: DeducedType = { kind: "deduced" };

/** The customJSON messages whose value can be any JSON (RawExtension, JSON): typed by value. */
const ANY_JSON = new Set([
  "runtime.RawExtension",
  "runtime.Unknown",
  "apiextensions.v1.JSON",
  "meta.v1.FieldsV1",
]);

const messageTypes = new Map<string, MergeType>();

/** The merge type of a built-in kind, from the generated schema data; undefined for an unknown kind. */
export function builtinMergeType(apiVersion: string, kind: string): MergeType | undefined {
  const schema = kindSchema(apiVersion, kind);
  return schema ? typeOfMessage(schema) : undefined;
}

function typeOfMessage(schema: MessageSchema): MergeType {
  const cached = messageTypes.get(schema.name);
  if (cached) return cached;
  if (schema.customJson) {
    const t = ANY_JSON.has(schema.name) ? DEDUCED : SCALAR;
    messageTypes.set(schema.name, t);
    return t;
  }
  if (schema.slice) {
    const items = schema.fields.get(1);
    const t: ListType = {
      kind: "list",
      relationship: "atomic",
      keys: [],
      keyDefaults: {},
      elem: items ? elementType(items) : SCALAR,
    };
    messageTypes.set(schema.name, t);
    return t;
  }
  // Fields are resolved on first use: messages refer to each other (and JSONSchemaProps to itself).
  let fields: Map<string, FieldType> | undefined;
  const resolve = (): Map<string, FieldType> => {
    if (fields) return fields;
    fields = new Map();
    addFields(schema, fields);
    return fields;
  };
  const t: MapType = {
    kind: "map",
    atomic: schema.markers.structType === "atomic",
    field: (name) => resolve().get(name),
    elem: undefined,
  };
  messageTypes.set(schema.name, t);
  return t;
}

function addFields(schema: MessageSchema, into: Map<string, FieldType>): void {
  if (schema.typeMeta) {
    into.set("apiVersion", { type: SCALAR, zero: undefined });
    into.set("kind", { type: SCALAR, zero: undefined });
  }
  for (const f of schema.fields.values()) {
    if (f.inline && f.message) {
      addFields(f.message, into);
      continue;
    }
    into.set(f.json, { type: fieldType(f), zero: zeroOf(f) });
  }
}

function zeroOf(f: FieldSpec): unknown {
  if (f.omitzero) return undefined;
  const struct =
    f.type === "message" &&
    !f.repeated &&
    f.message !== undefined &&
    !f.message.customJson &&
    !f.message.slice;
  if (struct && !f.pointer) return {};
  return f.emit ? null : undefined;
}

/** The type of one element of a field (the field itself when it is not repeated). */
function elementType(f: FieldSpec): MergeType {
  if (f.type === "map") {
    const elem = f.message ? typeOfMessage(f.message) : SCALAR;
    return { kind: "map", atomic: f.markers.mapType === "atomic", field: () => undefined, elem };
  }
  if (f.type === "message" && f.message) {
    const t = typeOfMessage(f.message);
    if (t.kind === "map" && !t.atomic && f.markers.structType === "atomic") {
      return { ...t, atomic: true, field: t.field };
    }
    return t;
  }
  return SCALAR;
}

function fieldType(f: FieldSpec): MergeType {
  if (!f.repeated || f.type === "map") return elementType(f);
  const elem = elementType(f);
  const m = f.markers;
  let relationship: ListType["relationship"] = "atomic";
  let keys: string[] = [];
  if (m.listType === "map" || m.listType === "set" || m.listType === "atomic") {
    relationship = m.listType;
    if (relationship === "map") keys = (m.listMapKey ?? "").split(",").filter((k) => k !== "");
  } else if ((m.patchStrategy ?? "").split(",").includes("merge")) {
    // kube-openapi's fallback: a merge strategy with a key is a map, without one a set.
    if (m.patchMergeKey) {
      relationship = "map";
      keys = [m.patchMergeKey];
    } else {
      relationship = "set";
    }
  }
  return { kind: "list", relationship, keys, keyDefaults: keyDefaultsOf(f, keys), elem };
}

function keyDefaultsOf(f: FieldSpec, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (keys.length === 0 || !f.message) return out;
  for (const spec of f.message.fields.values()) {
    const d = spec.markers.default;
    if (!keys.includes(spec.json) || d === undefined) continue;
    try {
      out[spec.json] = JSON.parse(d);
    } catch {
      // `default=ref(...)` names a Go constant: not a literal, so no default here.
    }
  }
  return out;
}

/** The structural-schema extensions apply reads (apiextensions' `JSONSchemaProps`). */
interface StructuralSchema extends SchemaProps {
  "x-kubernetes-list-type"?: string;
  "x-kubernetes-list-map-keys"?: string[];
  "x-kubernetes-map-type"?: string;
  "x-kubernetes-embedded-resource"?: boolean;
  default?: unknown;
}

/**
 * The merge type of a custom resource from its CRD version's structural schema; `metadata` is always
 * ObjectMeta's (as kube-apiserver replaces it), and a CRD without a schema is typed by value.
 */
export function crdMergeType(schema: SchemaProps | undefined): MergeType {
  const meta = messageSchema("meta.v1.ObjectMeta");
  const metaType: FieldType | undefined = meta ? { type: typeOfMessage(meta), zero: undefined } : undefined;
  const root = schema ? fromSchema(schema as StructuralSchema) : DEDUCED;
  const base: MapType =
    root.kind === "map" ? root : { kind: "map", atomic: false, field: () => undefined, elem: DEDUCED };
  return {
    kind: "map",
    atomic: false,
    field: (name) => {
      if (name === "metadata") return metaType;
      if (name === "apiVersion" || name === "kind") return { type: SCALAR, zero: undefined };
      return base.field(name);
    },
    elem: base.elem,
  };
}

function fromSchema(s: StructuralSchema): MergeType {
  if (s["x-kubernetes-int-or-string"]) return SCALAR;
  if (s.type === "array") {
    const listType = s["x-kubernetes-list-type"];
    const relationship = listType === "map" || listType === "set" ? listType : "atomic";
    const keys = relationship === "map" ? (s["x-kubernetes-list-map-keys"] ?? []) : [];
    const elem = s.items ? fromSchema(s.items as StructuralSchema) : DEDUCED;
    const keyDefaults: Record<string, unknown> = {};
    const props = (s.items as StructuralSchema | undefined)?.properties ?? {};
    for (const k of keys) {
      const d = (props[k] as StructuralSchema | undefined)?.default;
      if (d !== undefined) keyDefaults[k] = d;
    }
    return { kind: "list", relationship, keys, keyDefaults, elem };
  }
  if (s.type === "object" || s.properties) {
    const props = s.properties ?? {};
    const fields = new Map<string, FieldType>();
    for (const [name, p] of Object.entries(props)) {
      fields.set(name, { type: fromSchema(p as StructuralSchema), zero: undefined });
    }
    let elem: MergeType | undefined;
    if (typeof s.additionalProperties === "object")
      elem = fromSchema(s.additionalProperties as StructuralSchema);
    else if (s.additionalProperties === true || s["x-kubernetes-preserve-unknown-fields"]) elem = DEDUCED;
    else if (fields.size === 0) elem = DEDUCED;
    return {
      kind: "map",
      atomic: s["x-kubernetes-map-type"] === "atomic",
      field: (name) => (Object.hasOwn(props, name) ? fields.get(name) : undefined),
      elem,
    };
  }
  if (s.type === undefined) return DEDUCED;
  return SCALAR;
}

const DEDUCED_MAP: MapType = { kind: "map", atomic: false, field: () => undefined, elem: DEDUCED };
const DEDUCED_LIST: ListType = {
  kind: "list",
  relationship: "atomic",
  keys: [],
  keyDefaults: {},
  elem: DEDUCED,
};

/**
 * The type a walker uses for a value: a deduced type becomes a granular map for an object, an atomic list for
 * an array and a scalar otherwise (structured-merge-diff's `deduceAtom`).
 */
export function resolveType(t: MergeType, value: unknown): ScalarType | MapType | ListType {
  if (t.kind !== "deduced") return t;
  if (Array.isArray(value)) return DEDUCED_LIST;
  if (value !== null && typeof value === "object") return DEDUCED_MAP;
  return SCALAR;
}

/** A map or list owned and replaced as a whole (`+structType=atomic`, `+mapType=atomic`, `+listType=atomic`). */
export function isAtomic(t: MapType | ListType): boolean {
  return t.kind === "map" ? t.atomic : t.relationship === "atomic";
}

/** The type of a map's entry or a struct's field `key`: the named field, else the element type, else deduced. */
export function childType(t: MapType, key: string): FieldType {
  return t.field(key) ?? { type: t.elem ?? DEDUCED, zero: undefined };
}
