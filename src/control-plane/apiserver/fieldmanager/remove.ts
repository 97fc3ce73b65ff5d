import type { FieldSet } from "./field-set.js";
import { itemElement, ListItemError } from "./list-items.js";
import { childType, type MergeType, resolveType } from "./merge-schema.js";
import type { PathElement } from "./path-element.js";

/**
 * Removes from `value`, in place, the fields in `drop` (structured-merge-diff's `RemoveItems`, as apply prunes
 * what a manager stopped applying): a member of `drop` goes as a whole, unless `keep` owns something below it,
 * in which case only the dropped paths below it go; a map or list left empty by the removal goes as well.
 */
export function removeFields(value: unknown, drop: FieldSet, keep: FieldSet, type: MergeType): void {
  const t = resolveType(type, value);
  if (t.kind === "scalar") return;
  for (const [pe, member, below] of drop.entries()) {
    const kept = keep.child(pe);
    const whole = member && kept.isEmpty() && !keep.has([pe]);
    if (t.kind === "map") {
      if (value === null || typeof value !== "object" || Array.isArray(value) || !pe.startsWith("f:"))
        continue;
      const obj = value as Record<string, unknown>;
      const key = pe.slice(2);
      if (!Object.hasOwn(obj, key)) continue;
      if (whole) delete obj[key];
      else {
        removeFields(obj[key], below, kept, childType(t, key).type);
        // A map or list the removal emptied goes too, as an empty `omitempty` field leaves a typed object.
        if (isEmptyContainer(obj[key])) delete obj[key];
      }
    } else {
      if (!Array.isArray(value)) continue;
      const i = findItem(value, pe, t.relationship === "atomic" ? undefined : t);
      if (i < 0) continue;
      if (whole) value.splice(i, 1);
      else removeFields(value[i], below, kept, t.elem);
    }
  }
}

function findItem(
  list: unknown[],
  pe: PathElement,
  t: Parameters<typeof itemElement>[0] | undefined,
): number {
  if (pe.startsWith("i:")) {
    const i = Number(pe.slice(2));
    return i < list.length ? i : -1;
  }
  if (!t) return -1;
  return list.findIndex((item) => {
    try {
      return itemElement(t, item) === pe;
    } catch (err) {
      if (err instanceof ListItemError) return false;
      throw err;
    }
  });
}

function isEmptyContainer(v: unknown): boolean {
  if (Array.isArray(v)) return v.length === 0;
  return v !== null && typeof v === "object" && Object.keys(v).length === 0;
}
