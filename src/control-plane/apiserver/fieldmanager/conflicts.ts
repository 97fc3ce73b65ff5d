import { type StatusCause, type StatusError, statusToError } from "../../../apimachinery/errors.js";
import type { FieldSet } from "./field-set.js";
import type { ManagerEntry } from "./managed-fields.js";
import { pathString } from "./path-element.js";

/** One field another manager owns and an apply would change. */
export interface Conflict {
  /** The owner's identifier (see `managerId`), which orders the message. */
  id: string;
  owner: ManagerEntry;
  path: string;
}

/** The conflicts of an apply: for each other manager, the owned fields it would change. */
export function conflictsOf(owned: ReadonlyArray<[string, ManagerEntry, FieldSet]>): Conflict[] {
  const out: Conflict[] = [];
  for (const [id, owner, set] of [...owned].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    for (const path of set.paths()) out.push({ id, owner, path: pathString(path) });
  }
  return out;
}

/**
 * How kube-apiserver names a manager in a conflict (`printManager`): `"name"` for an applier, with
 * `with subresource "status"` for a subresource, and `using <apiVersion>` for an Update entry.
 */
export function printManager(e: ManagerEntry): string {
  let s = JSON.stringify(e.manager);
  if (e.subresource) s += ` with subresource ${JSON.stringify(e.subresource)}`;
  if (e.operation === "Update") s += ` using ${e.apiVersion}`;
  return s;
}

/**
 * The 409 of an apply that would change fields other managers own (`NewConflictError`): reason Conflict, one
 * `FieldManagerConflict` cause per field naming the owner, and the message
 * `Apply failed with 1 conflict: conflict with "mgr": .spec.replicas`, or for several, grouped by manager:
 * `Apply failed with 2 conflicts: conflicts with "mgr":\n- .spec.a\n- .spec.b`.
 */
export function applyConflictError(conflicts: readonly Conflict[]): StatusError {
  const causes: StatusCause[] = conflicts.map((c) => ({
    reason: "FieldManagerConflict",
    message: `conflict with ${printManager(c.owner)}`,
    field: c.path,
  }));
  let message: string;
  if (conflicts.length === 1) {
    const c = conflicts[0]!;
    message = `Apply failed with 1 conflict: conflict with ${printManager(c.owner)}: ${c.path}`;
  } else {
    const lines: string[] = [];
    let last: string | undefined;
    for (const c of conflicts) {
      if (c.id !== last) lines.push(`conflicts with ${printManager(c.owner)}:`);
      last = c.id;
      lines.push(`- ${c.path}`);
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join("\n")}`;
  }
  return statusToError({
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message,
    reason: "Conflict",
    details: { causes },
    code: 409,
  });
}
