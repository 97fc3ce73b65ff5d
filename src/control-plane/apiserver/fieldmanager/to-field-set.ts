import { FieldSet } from "./field-set.js";
import { indexItems, ListItemError } from "./list-items.js";
import { childType, isAtomic, type MergeType, resolveType } from "./merge-schema.js";
import { fieldElement, type PathElement, pathString } from "./path-element.js";

/**
 * The fields an apply configuration sets (structured-merge-diff's `TypedValue.ToFieldSet`): every scalar, every
 * atomic list or map as a whole, every list item (and its fields), and a map entry itself when it is not a
 * struct field or holds `null` or `{}`. This is what the applying manager owns afterwards.
 *
 * Throws {@link ListItemError} (with the path) for a list item its list type cannot index or a duplicate key.
 */
export function toFieldSet(value: unknown, type: MergeType): FieldSet {
  const set = FieldSet.empty();
  walk(value, type, [], set);
  return set;
}

function walk(value: unknown, type: MergeType, path: PathElement[], set: FieldSet): void {
  const t = resolveType(type, value);
  if (t.kind === "scalar") {
    set.insert(path);
    return;
  }
  if (isAtomic(t)) {
    set.insert(path);
    return;
  }
  if (t.kind === "list") {
    if (!Array.isArray(value)) return;
    let index: ReturnType<typeof indexItems>;
    try {
      index = indexItems(t, value);
    } catch (err) {
      if (err instanceof ListItemError) throw new ListItemError(`${pathString(path)}: ${err.message}`);
      throw err;
    }
    if (index.duplicates.size > 0) {
      const first = [...index.duplicates][0]!;
      throw new ListItemError(`${pathString(path)}: duplicate entries for key ${pathString([first])}`);
    }
    for (const pe of index.order) {
      const itemPath = [...path, pe];
      walk(index.byElement.get(pe), t.elem, itemPath, set);
      set.insert(itemPath);
    }
    return;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return;
  for (const [key, child] of Object.entries(value)) {
    const childPath = [...path, fieldElement(key)];
    const field = t.field(key);
    walk(child, childType(t, key).type, childPath, set);
    const emptyMap =
      child !== null && typeof child === "object" && !Array.isArray(child) && Object.keys(child).length === 0;
    if (child === null || emptyMap || field === undefined) set.insert(childPath);
  }
}
