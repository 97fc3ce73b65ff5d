import { indexItems } from "./list-items.js";
import { childType, isAtomic, type ListType, type MergeType, resolveType } from "./merge-schema.js";
import type { PathElement } from "./path-element.js";

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * Merges an apply configuration into the live object (structured-merge-diff's `TypedValue.Merge`): scalars
 * and atomic values are replaced by the configuration's; granular maps merge key by key (an explicit `null`
 * unsets); list-type maps merge item by item by their keys and sets by value, keeping the configuration's
 * order for the items it names and the live items it does not name where they were. Returns a new value;
 * the inputs are not modified (the result may share unchanged parts with them).
 */
export function mergeValues(live: unknown, config: unknown, type: MergeType): unknown {
  if (config === undefined) return live;
  if (live === undefined || live === null || config === null) return config;
  const t = resolveType(type, config);
  if (t.kind === "scalar" || isAtomic(t)) return config;
  if (t.kind === "map") {
    if (!isObject(live) || !isObject(config)) return config;
    const out: Record<string, unknown> = { ...live };
    for (const [k, v] of Object.entries(config)) {
      const merged = mergeValues(Object.hasOwn(live, k) ? live[k] : undefined, v, childType(t, k).type);
      if (merged === null) delete out[k];
      else out[k] = merged;
    }
    return out;
  }
  if (t.relationship === "atomic" || !Array.isArray(live) || !Array.isArray(config)) return config;
  return mergeLists(live, config, t);
}

/**
 * The merged items of a set or list-type map: walking both lists, an item in both is merged when the
 * configuration reaches it (so shared items follow the configuration's order), a live-only item stays
 * where it was, a configuration-only item comes where the configuration puts it.
 */
function mergeLists(live: unknown[], config: unknown[], t: ListType): unknown[] {
  const l = indexItems(t, live);
  const r = indexItems(t, config);
  const out: unknown[] = [];
  const done = new Set<PathElement>();
  const shared = r.order.filter((pe) => l.byElement.has(pe));
  let next = 0; // index in `shared` of the next item both lists hold, in the configuration's order
  const emit = (pe: PathElement): void => {
    done.add(pe);
    out.push(mergeValues(l.byElement.get(pe), r.byElement.get(pe), t.elem));
  };
  let li = 0;
  let ri = 0;
  while (li < l.order.length || ri < r.order.length) {
    const lpe = l.order[li];
    const rpe = r.order[ri];
    if (lpe !== undefined && rpe !== undefined) {
      if (lpe === rpe) {
        emit(lpe);
        li++;
        ri++;
        next++;
        continue;
      }
      // A shared live item out of the configuration's order waits until the configuration reaches it.
      if (r.byElement.has(lpe) && shared[next] !== undefined && shared[next] !== lpe) {
        li++;
        continue;
      }
    }
    if (lpe !== undefined) {
      if (!r.byElement.has(lpe)) {
        out.push(l.byElement.get(lpe));
        li++;
        continue;
      }
      if (done.has(lpe)) li++;
    }
    if (rpe !== undefined) {
      emit(rpe);
      ri++;
      if (shared[next] === rpe) next++;
    }
  }
  return out;
}
