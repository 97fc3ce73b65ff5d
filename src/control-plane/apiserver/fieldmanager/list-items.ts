import type { ListType } from "./merge-schema.js";
import { keyElement, type PathElement, valueElement } from "./path-element.js";

/** An element of a list that cannot be indexed by its list type (structured-merge-diff's validation errors). */
export class ListItemError extends Error {}

/**
 * The path element of one item of a non-atomic list (`listItemToPathElement`): for a list-type map, its key
 * fields (a missing key takes its schema default; an item with none of the keys is an error); for a set, its
 * value (which must be a scalar).
 */
export function itemElement(list: ListType, item: unknown): PathElement {
  if (list.relationship === "map") {
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      throw new ListItemError("associative list with keys may not have non-map elements");
    }
    const fields: [string, unknown][] = [];
    for (const k of list.keys) {
      const v = Object.hasOwn(item, k) ? (item as Record<string, unknown>)[k] : list.keyDefaults[k];
      if (v !== undefined) fields.push([k, v]);
    }
    if (fields.length === 0) {
      throw new ListItemError(
        `associative list with keys has an element that omits all key fields ${JSON.stringify(list.keys)} (and doesn't have default values for any key fields)`,
      );
    }
    return keyElement(fields);
  }
  if (item === null || typeof item === "object") {
    throw new ListItemError("associative list without keys has an element that's a map type");
  }
  return valueElement(item);
}

/**
 * The items of a list by path element, first occurrence kept, in list order; `duplicates` lists the path
 * elements seen more than once (an apply config may have none; a stored object's are compared whole).
 */
export function indexItems(
  list: ListType,
  items: readonly unknown[],
): { order: PathElement[]; byElement: Map<PathElement, unknown>; duplicates: Set<PathElement> } {
  const order: PathElement[] = [];
  const byElement = new Map<PathElement, unknown>();
  const duplicates = new Set<PathElement>();
  for (const item of items) {
    const pe = itemElement(list, item);
    if (byElement.has(pe)) {
      duplicates.add(pe);
      continue;
    }
    byElement.set(pe, item);
    order.push(pe);
  }
  return { order, byElement, duplicates };
}
