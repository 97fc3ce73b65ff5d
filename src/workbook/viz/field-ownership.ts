/**
 * Who owns which field of an object: `metadata.managedFields` as a table, the way `kubectl get -o yaml
 * --show-managed-fields` would let you read it if FieldsV1 were written for people. Server-side apply keeps one
 * entry per manager (and operation and subresource); each entry's `fieldsV1` is a set of field paths (a trie:
 * `f:<name>` a field, `k:<json>` a list item by its keys, `v:<json>` a set member, `i:<n>` a list index, `"."` the
 * node itself), decoded here as any client reads it and printed as kube-apiserver prints paths in a conflict
 * message (`.spec.replicas`, `.metadata.labels.team`, `.spec.containers[name="web"].image`).
 */
import { markdownTable } from "./table.js";

/** One `metadata.managedFields` entry, as every client receives it. */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  subresource?: string;
  fieldsV1?: object;
}

/** Any object as a client reads it (a typed one, or the package's `MetaObject` whose entries are `unknown`). */
export interface WithManagedFields {
  metadata?: { managedFields?: readonly unknown[] };
}

/** One owned field: its path and the entry that owns it. */
export interface OwnedField {
  path: string;
  manager: string;
  /** `Apply` (server-side apply) or `Update` (create, update, any other patch). */
  operation: string;
  /** `status` for a write through `/status`; empty for the main resource. */
  subresource: string;
}

/**
 * Every leaf field each manager owns, sorted by path then manager. A path whose children are owned too (the
 * `"."` member of FieldsV1, e.g. the `status` map a `/status` write created) is left out: its leaves say more.
 */
export function ownedFields(obj: WithManagedFields): OwnedField[] {
  const rows: OwnedField[] = [];
  for (const entry of (obj.metadata?.managedFields ?? []) as ManagedFieldsEntry[]) {
    for (const path of leafPaths(entry.fieldsV1 ?? {}, "")) {
      rows.push({
        path,
        manager: entry.manager ?? "",
        operation: entry.operation ?? "",
        subresource: entry.subresource ?? "",
      });
    }
  }
  return rows.sort((a, b) => a.path.localeCompare(b.path) || a.manager.localeCompare(b.manager));
}

/** The paths of the trie's leaves below `prefix`: nodes with no child but `"."`. */
function leafPaths(node: object, prefix: string): string[] {
  const children = Object.entries(node).filter(([key]) => key !== ".");
  if (children.length === 0) return prefix ? [prefix] : [];
  return children.flatMap(([key, child]) => leafPaths(child as object, prefix + pathElement(key)));
}

/** One FieldsV1 key as kube-apiserver prints it (`fieldpath.PathElement.String`). */
function pathElement(key: string): string {
  const rest = key.slice(2);
  switch (key.slice(0, 2)) {
    case "f:":
      return `.${rest}`;
    case "k:": {
      const fields = Object.entries(JSON.parse(rest) as Record<string, unknown>);
      return `[${fields.map(([name, value]) => `${name}=${JSON.stringify(value)}`).join(",")}]`;
    }
    case "v:":
      return `[=${JSON.stringify(JSON.parse(rest))}]`;
    default:
      return `[${rest}]`;
  }
}

/** {@link ownedFields} as a markdown table: field, manager, operation (`Update /status` for a status write). */
export function fieldOwnershipTable(obj: WithManagedFields): string {
  const rows = ownedFields(obj).map((f) => [
    `\`${f.path}\``,
    f.manager,
    f.subresource ? `${f.operation} /${f.subresource}` : f.operation,
  ]);
  return markdownTable(["field", "manager", "operation"], rows);
}
