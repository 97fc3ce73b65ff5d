/**
 * The ownership tree: objects drawn as boxes with an arrow from each owner to each dependent, read from the
 * objects' own `metadata.ownerReferences` (the same edges the garbage collector's dependency graph holds, see
 * `src/control-plane/builtin-controllers/garbage-collector/graph.ts`). Objects being deleted (`deletionTimestamp` set) are
 * grey and dashed, from the theme's `deleting` swatch; an owner that a reference names but that is not among
 * the objects (deleted, or never there) is drawn as a dashed "absent" box, because an absent owner is exactly
 * what makes the garbage collector delete a dependent.
 */
import type { MetaObject, OwnerReference } from "../../apimachinery/object.js";
import { type FlowchartSpec, type FlowEdge, type FlowNode, flowchart } from "./flowchart.js";
import type { StateName } from "./theme.js";

/** Options of {@link ownershipTree}. */
export interface OwnershipTreeOptions {
  /** Default `TD` (owners above their dependents). */
  direction?: "TD" | "LR";
  /** Colour of an object that is not being deleted (e.g. `created` for a new child); default none. */
  state?: (object: MetaObject) => StateName | undefined;
  /** Prefix names with their namespace (`ns/name`). Default false. */
  showNamespace?: boolean;
  /** Under a deleting object, list its finalizers. Default true. */
  showFinalizers?: boolean;
}

function nodeIdOf(uid: string): string {
  return `uid_${uid}`;
}

function isDeleting(object: MetaObject): boolean {
  const ts = object.metadata?.deletionTimestamp;
  return ts !== undefined && ts !== null;
}

function nameOf(object: MetaObject, showNamespace: boolean): string {
  const name = object.metadata?.name ?? "?";
  const ns = object.metadata?.namespace;
  return showNamespace && ns ? `${ns}/${name}` : name;
}

function labelOf(object: MetaObject, options: OwnershipTreeOptions): string {
  const lines = [object.kind ?? "object", nameOf(object, options.showNamespace ?? false)];
  if (isDeleting(object)) {
    const finalizers = object.metadata?.finalizers ?? [];
    lines.push(
      options.showFinalizers === false || finalizers.length === 0
        ? "deleting"
        : `deleting, waits for:\n${finalizers.join("\n")}`,
    );
  }
  return lines.join("\n");
}

function edgeLabel(ref: OwnerReference): string {
  const role = ref.controller ? "controller" : "owner";
  return ref.blockOwnerDeletion ? `${role}, blocks` : role;
}

/**
 * The flowchart spec of an ownership tree (see {@link ownershipTree}); exposed so tests and notebooks can read
 * nodes and edges as data. Objects without a uid are skipped (they cannot be owners or be referenced).
 */
export function ownershipTreeSpec(
  objects: readonly MetaObject[],
  options: OwnershipTreeOptions = {},
): FlowchartSpec {
  const nodes: FlowNode[] = [];
  const edges: FlowEdge[] = [];
  const present = new Set<string>();
  for (const object of objects) {
    const uid = object.metadata?.uid;
    if (!uid || present.has(uid)) continue;
    present.add(uid);
    const state = isDeleting(object) ? "deleting" : options.state?.(object);
    nodes.push({ id: nodeIdOf(uid), label: labelOf(object, options), shape: "round", state });
  }
  const absent = new Set<string>();
  for (const object of objects) {
    const uid = object.metadata?.uid;
    if (!uid) continue;
    for (const ref of object.metadata?.ownerReferences ?? []) {
      const missing = !present.has(ref.uid);
      if (missing && !absent.has(ref.uid)) {
        absent.add(ref.uid);
        nodes.push({ id: nodeIdOf(ref.uid), label: `${ref.kind}\n${ref.name}\n(absent)`, state: "deleting" });
      }
      edges.push({ from: nodeIdOf(ref.uid), to: nodeIdOf(uid), label: edgeLabel(ref), dashed: missing });
    }
  }
  return { direction: options.direction ?? "TD", nodes, edges };
}

/**
 * Mermaid source of the ownership tree of `objects`: one box per object (kind and name; grey dashed with its
 * pending finalizers while being deleted), one arrow per ownerReference from owner to dependent, labelled
 * `controller` or `owner` and `, blocks` when `blockOwnerDeletion` is set (the reference that makes a
 * foreground deletion wait). Owners referenced but not among `objects` appear as dashed "(absent)" boxes with
 * dashed arrows. Mirrors what `kubectl tree` (a krew plugin) prints, from the same field.
 */
export function ownershipTree(objects: readonly MetaObject[], options: OwnershipTreeOptions = {}): string {
  return flowchart(ownershipTreeSpec(objects, options));
}
