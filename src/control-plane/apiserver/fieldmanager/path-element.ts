/**
 * One step of a field path, spelled as `metadata.managedFields[].fieldsV1` spells it (structured-merge-diff's
 * `fieldpath.PathElement` and its serialization):
 * - `f:<name>`: a field of a struct or a key of a map;
 * - `k:{"name":"nginx"}`: an item of a list-type map, by its key fields (sorted by name, compact JSON);
 * - `v:"a"`: an item of a set list, by its value;
 * - `i:3`: an item of a list by position (only when a list has no keys and is not atomic: rare).
 */
import { findNestingPastLimit, MAX_BODY_DEPTH } from "../json.js";

export type PathElement = string;

/** The path element of a struct field or map key. */
export function fieldElement(name: string): PathElement {
  return `f:${name}`;
}

/** The path element of a list-map item from its key fields (`k:{...}`, key names sorted). */
export function keyElement(fields: ReadonlyArray<readonly [string, unknown]>): PathElement {
  const sorted = [...fields].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `k:{${sorted.map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`).join(",")}}`;
}

/** The path element of a set item (`v:<json>`). */
export function valueElement(value: unknown): PathElement {
  return `v:${JSON.stringify(value)}`;
}

/** The path element of a list item by position. */
export function indexElement(i: number): PathElement {
  return `i:${i}`;
}

/** Thrown for a fieldsV1 key that is not a path element. */
export class PathElementError extends Error {}

/**
 * Parses a fieldsV1 key into its canonical spelling (keys re-sorted, JSON compacted), so two spellings of the
 * same element compare equal. Throws {@link PathElementError} for anything else, as `DeserializePathElement`.
 */
export function canonicalElement(key: string): PathElement {
  const kind = key.slice(0, 2);
  const rest = key.slice(2);
  switch (kind) {
    case "f:":
      return key;
    case "i:":
      if (!/^(0|[1-9][0-9]*)$/.test(rest)) throw new PathElementError(`invalid index path element ${key}`);
      return key;
    case "v:":
      return valueElement(parseJson(rest, key));
    case "k:": {
      const fields = parseJson(rest, key);
      if (fields === null || typeof fields !== "object" || Array.isArray(fields)) {
        throw new PathElementError(`invalid key path element ${key}`);
      }
      return keyElement(Object.entries(fields));
    }
    default:
      throw new PathElementError(`unknown path element type in ${JSON.stringify(key)}`);
  }
}

function parseJson(text: string, key: string): unknown {
  // A key is a string, so the body's nesting check never saw the JSON inside it.
  if (findNestingPastLimit(text, MAX_BODY_DEPTH) !== undefined) {
    throw new PathElementError(
      `path element nested deeper than ${MAX_BODY_DEPTH} levels in ${key.slice(0, 40)}...`,
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new PathElementError(`invalid JSON in path element ${key}`);
  }
}

const KIND_ORDER: Record<string, number> = { "f:": 0, "k:": 1, "v:": 2, "i:": 3 };

/**
 * The order structured-merge-diff sorts path elements in (`PathElement.Compare`): fields before keys before
 * values before indexes; fields by name, indexes by number, keys and values by their values.
 */
export function compareElements(a: PathElement, b: PathElement): number {
  const ka = KIND_ORDER[a.slice(0, 2)] ?? 4;
  const kb = KIND_ORDER[b.slice(0, 2)] ?? 4;
  if (ka !== kb) return ka - kb;
  if (a === b) return 0;
  if (ka === 0) return a < b ? -1 : 1;
  if (ka === 3) return Number(a.slice(2)) - Number(b.slice(2));
  const va = JSON.parse(a.slice(2)) as unknown;
  const vb = JSON.parse(b.slice(2)) as unknown;
  if (ka === 1) return compareFieldLists(va as Record<string, unknown>, vb as Record<string, unknown>);
  return compareValues(va, vb);
}

function compareFieldLists(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const ea = Object.entries(a);
  const eb = Object.entries(b);
  for (let i = 0; i < Math.min(ea.length, eb.length); i++) {
    const [na, va] = ea[i]!;
    const [nb, vb] = eb[i]!;
    if (na !== nb) return na < nb ? -1 : 1;
    const c = compareValues(va, vb);
    if (c !== 0) return c;
  }
  return ea.length - eb.length;
}

function rank(v: unknown): number {
  if (v === null) return 0;
  if (typeof v === "number") return 1;
  if (typeof v === "string") return 2;
  if (typeof v === "boolean") return 3;
  if (Array.isArray(v)) return 4;
  return 5;
}

/** A total order over JSON values (structured-merge-diff's `value.Compare`, for scalars as keys use them). */
function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === "number" || typeof a === "string")
    return a < (b as typeof a) ? -1 : a > (b as typeof a) ? 1 : 0;
  if (typeof a === "boolean") return Number(a) - Number(b);
  const sa = JSON.stringify(a);
  const sb = JSON.stringify(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/**
 * A path as kube-apiserver prints it in conflict messages (`fieldpath.Path.String`): `.spec.replicas`,
 * `.spec.containers[name="nginx"].image`, `.metadata.finalizers[="a"]`, `.spec.list[0]`.
 */
export function pathString(path: readonly PathElement[]): string {
  let out = "";
  for (const pe of path) {
    const rest = pe.slice(2);
    switch (pe.slice(0, 2)) {
      case "f:":
        out += `.${rest}`;
        break;
      case "k:": {
        const fields = Object.entries(JSON.parse(rest) as Record<string, unknown>);
        out += `[${fields.map(([n, v]) => `${n}=${printValue(v)}`).join(",")}]`;
        break;
      }
      case "v:":
        out += `[=${printValue(JSON.parse(rest))}]`;
        break;
      default:
        out += `[${rest}]`;
    }
  }
  return out;
}

/** `value.ToString`: strings quoted, other values as JSON. */
function printValue(v: unknown): string {
  return JSON.stringify(v);
}
