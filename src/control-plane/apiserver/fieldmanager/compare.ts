import { jsonEqual } from "../json.js";
import { FieldSet } from "./field-set.js";
import { indexItems, ListItemError } from "./list-items.js";
import { childType, type ListType, type MapType, type MergeType, resolveType } from "./merge-schema.js";
import { fieldElement, type PathElement } from "./path-element.js";

/**
 * What changed between two versions of an object, as field sets (structured-merge-diff's `Comparison`, with
 * its Added and Modified sets kept as one: every caller wants their union).
 */
export interface Comparison {
  /** Fields added or modified. */
  changed: FieldSet;
  removed: FieldSet;
}

/**
 * Compares the live and the new object field by field (`TypedValue.Compare`): a scalar or atomic value that
 * appears is added, one that changes is modified, one that goes is removed; a map or list that appears or goes
 * is itself added or removed along with everything in it. A field a typed Go object always carries (see
 * `FieldType.zero`) counts as present whenever its parent is there.
 */
export function compareObjects(live: unknown, next: unknown, type: MergeType): Comparison {
  const c: Comparison = { changed: FieldSet.empty(), removed: FieldSet.empty() };
  compareValue(live, next, type, [], c);
  return c;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function leaf(l: unknown, r: unknown, path: PathElement[], c: Comparison): void {
  if (l === undefined) c.changed.insert(path);
  else if (r === undefined) c.removed.insert(path);
  else if (l !== r && !jsonEqual(l, r)) c.changed.insert(path);
}

function isEmptyValue(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isObject(v) && Object.keys(v).length === 0;
}

function compareValue(l: unknown, r: unknown, type: MergeType, path: PathElement[], c: Comparison): void {
  const t = resolveType(type, r !== undefined ? r : l);
  // Values of different shapes (a deduced map that became a list...) are compared whole.
  if (l !== undefined && r !== undefined && t !== resolveType(type, l)) {
    leaf(l, r, path, c);
    return;
  }
  if (t.kind === "scalar" || (isEmptyValue(l) && isEmptyValue(r))) {
    leaf(l, r, path, c);
    return;
  }
  if (t.kind === "map") {
    if (t.atomic) {
      leaf(l, r, path, c);
      return;
    }
    compareMap(l, r, t, path, c);
  } else {
    if (t.relationship === "atomic") {
      leaf(l, r, path, c);
      return;
    }
    compareList(l, r, t, path, c);
  }
  if (l === undefined) c.changed.insert(path);
  else if (r === undefined) c.removed.insert(path);
}

function compareMap(l: unknown, r: unknown, t: MapType, path: PathElement[], c: Comparison): void {
  const lm = isObject(l) ? l : undefined;
  const rm = isObject(r) ? r : undefined;
  if (lm) for (const k in lm) if (Object.hasOwn(lm, k)) compareEntry(lm, rm, k, t, path, c);
  if (rm)
    for (const k in rm)
      if (Object.hasOwn(rm, k) && !(lm && Object.hasOwn(lm, k))) compareEntry(lm, rm, k, t, path, c);
}

function compareEntry(
  lm: Record<string, unknown> | undefined,
  rm: Record<string, unknown> | undefined,
  k: string,
  t: MapType,
  path: PathElement[],
  c: Comparison,
): void {
  const ft = childType(t, k);
  let lv = lm && Object.hasOwn(lm, k) ? lm[k] : undefined;
  let rv = rm && Object.hasOwn(rm, k) ? rm[k] : undefined;
  if (ft.zero !== undefined) {
    if (lv === undefined && lm !== undefined) lv = ft.zero;
    if (rv === undefined && rm !== undefined) rv = ft.zero;
  }
  if (lv === undefined && rv === undefined) return;
  path.push(fieldElement(k));
  compareValue(lv, rv, ft.type, path, c);
  path.pop();
}

function compareList(l: unknown, r: unknown, t: ListType, path: PathElement[], c: Comparison): void {
  let li: ReturnType<typeof indexItems>;
  let ri: ReturnType<typeof indexItems>;
  try {
    li = indexItems(t, Array.isArray(l) ? l : []);
    ri = indexItems(t, Array.isArray(r) ? r : []);
  } catch (err) {
    // A stored list its schema cannot index (duplicates are fine, items without keys are not): compare whole.
    if (!(err instanceof ListItemError)) throw err;
    leaf(l, r, path, c);
    return;
  }
  const all = [...li.order, ...ri.order.filter((pe) => !li.byElement.has(pe))];
  for (const pe of all) {
    path.push(pe);
    if (li.duplicates.has(pe) || ri.duplicates.has(pe)) {
      // Duplicated keys are owned as whole items: changed unless both sides hold the same items.
      const ls = (Array.isArray(l) ? l : []).filter((x) => sameElement(t, x, pe));
      const rs = (Array.isArray(r) ? r : []).filter((x) => sameElement(t, x, pe));
      if (ls.length === 0) c.changed.insert(path);
      else if (rs.length === 0) c.removed.insert(path);
      else if (!jsonEqual(ls, rs)) c.changed.insert(path);
    } else {
      compareValue(li.byElement.get(pe), ri.byElement.get(pe), t.elem, path, c);
    }
    path.pop();
  }
}

function sameElement(t: ListType, item: unknown, pe: PathElement): boolean {
  try {
    return indexItems(t, [item]).order[0] === pe;
  } catch {
    return false;
  }
}
