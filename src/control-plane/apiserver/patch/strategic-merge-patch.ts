import { isJsonObject, type JsonObject, jsonEqual, setOwn } from "../json.js";

/**
 * The merge keys of the built-in list fields a strategic merge patch merges element by element (the
 * `patchMergeKey` struct tags of `k8s.io/api`), by field name. `ports` is keyed by `containerPort` in
 * containers and by `port` in Services, so its key is chosen from the elements themselves.
 */
const MERGE_KEYS: Record<string, string> = {
  containers: "name",
  initContainers: "name",
  ephemeralContainers: "name",
  env: "name",
  volumes: "name",
  volumeMounts: "mountPath",
  volumeDevices: "devicePath",
  imagePullSecrets: "name",
  conditions: "type",
  ownerReferences: "uid",
  hostAliases: "ip",
  resourceClaims: "name",
  schedulingGates: "name",
};

/** Primitive lists with `patchStrategy: merge` (union on patch): only `metadata.finalizers` among ours. */
const MERGED_PRIMITIVE_LISTS = new Set(["metadata.finalizers"]);

const DIRECTIVE = "$patch";
const RETAIN_KEYS = "$retainKeys";
const SET_ORDER = "$setElementOrder/";
const DELETE_FROM = "$deleteFromPrimitiveList/";

function mergeKeyOf(field: string, elements: unknown[]): string | undefined {
  if (field === "ports") {
    return elements.some((e) => isJsonObject(e) && e.containerPort !== undefined) ? "containerPort" : "port";
  }
  return MERGE_KEYS[field];
}

/**
 * Strategic merge patch (`application/strategic-merge-patch+json`) for built-in kinds, after
 * `k8s.io/apimachinery/pkg/util/strategicpatch`, reduced to what controllers and kubectl send:
 * - maps merge like a JSON merge patch (`null` deletes a key);
 * - lists with a known merge key (containers by name, conditions by type, ownerReferences by uid, ...) merge
 *   element by element, and an element `{"<key>": ..., "$patch": "delete"}` removes the matching one;
 *   `metadata.finalizers` is a union; other lists are replaced;
 * - directives: `$patch: replace|delete` on a map, `{"$patch": "replace"}` inside a list,
 *   `$retainKeys`, `$deleteFromPrimitiveList/<field>`; `$setElementOrder/<field>` is accepted and ignored
 *   (merged elements keep the stored order, new ones are appended).
 * Returns a new value; inputs are not modified.
 */
export function applyStrategicMergePatch(target: unknown, patch: unknown): unknown {
  return mergeValue(target, patch, "");
}

function mergeValue(target: unknown, patch: unknown, path: string): unknown {
  if (!isJsonObject(patch)) return patch;
  if (patch[DIRECTIVE] === "replace") return stripDirectives(patch);
  const result: JsonObject = {};
  if (isJsonObject(target)) for (const [k, v] of Object.entries(target)) setOwn(result, k, v);
  for (const [k, v] of Object.entries(patch)) {
    if (k === DIRECTIVE || k === RETAIN_KEYS || k.startsWith(SET_ORDER)) continue;
    if (k.startsWith(DELETE_FROM)) {
      const field = k.slice(DELETE_FROM.length);
      const current = result[field];
      if (Array.isArray(current) && Array.isArray(v)) {
        setOwn(
          result,
          field,
          current.filter((x) => !v.some((d) => jsonEqual(d, x))),
        );
      }
      continue;
    }
    const childPath = path ? `${path}.${k}` : k;
    if (v === null || (isJsonObject(v) && v[DIRECTIVE] === "delete")) {
      delete result[k];
    } else if (Array.isArray(v)) {
      setOwn(result, k, mergeList(Object.hasOwn(result, k) ? result[k] : undefined, v, k, childPath));
    } else {
      setOwn(result, k, mergeValue(Object.hasOwn(result, k) ? result[k] : undefined, v, childPath));
    }
  }
  const retain = patch[RETAIN_KEYS];
  if (Array.isArray(retain)) {
    for (const k of Object.keys(result)) if (!retain.includes(k)) delete result[k];
  }
  return result;
}

function mergeList(target: unknown, patch: unknown[], field: string, path: string): unknown[] {
  const current = Array.isArray(target) ? target : [];
  if (patch.some((e) => isJsonObject(e) && e[DIRECTIVE] === "replace" && Object.keys(e).length === 1)) {
    return patch.filter((e) => !(isJsonObject(e) && e[DIRECTIVE] === "replace")).map(stripDirectives);
  }
  if (MERGED_PRIMITIVE_LISTS.has(path)) {
    const out = [...current];
    for (const v of patch) if (!out.some((x) => jsonEqual(x, v))) out.push(v);
    return out;
  }
  const key = mergeKeyOf(field, [...current, ...patch]);
  if (!key) return patch.map(stripDirectives);
  const out = [...current];
  for (const el of patch) {
    if (!isJsonObject(el) || el[key] === undefined) {
      out.push(stripDirectives(el));
      continue;
    }
    const i = out.findIndex((x) => isJsonObject(x) && jsonEqual(x[key], el[key]));
    if (el[DIRECTIVE] === "delete") {
      if (i >= 0) out.splice(i, 1);
    } else if (i >= 0) out[i] = mergeValue(out[i], el, path);
    else out.push(stripDirectives(el));
  }
  return out;
}

/** A patch value with its `$` directives removed (what gets stored when it is taken as a whole). */
function stripDirectives(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripDirectives);
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === DIRECTIVE || k === RETAIN_KEYS || k.startsWith(SET_ORDER) || k.startsWith(DELETE_FROM))
      continue;
    setOwn(out, k, stripDirectives(v));
  }
  return out;
}
