/**
 * The garbage collector's dependency graph (kube-controller-manager `garbagecollector/graph.go`): one node per
 * object uid, linked to the nodes of its owners and its dependents. Nodes for owners that were referenced but
 * not (yet) observed are *virtual*: the collector must check with the API whether they exist.
 *
 * Invariants:
 * - `uidToNode` holds exactly one node per uid; an observed node's `owners` are the object's ownerReferences;
 * - for every node N and every ref in N.owners, the node for ref.uid, while it exists (maybe virtual), has N in
 *   its `dependents` (links are added and removed in pairs); once an owner is removed, its dependents' refs to
 *   it dangle until the collector has decided about each dependent;
 * - a virtual node has no owners of its own; it is removed when found absent, or becomes observed when an event
 *   for its uid arrives.
 */
import type { OwnerReference } from "../../../apimachinery/object.js";

/** Who an object is: enough to GET it (apiVersion, kind, namespace, name) and to check it is the same (uid). */
export interface ObjectIdentity {
  apiVersion: string;
  kind: string;
  name: string;
  /** "" for cluster-scoped objects (and for virtual owners whose scope is not known yet). */
  namespace: string;
  uid: string;
}

/** One object in the graph. */
export interface GraphNode {
  identity: ObjectIdentity;
  owners: OwnerReference[];
  dependents: Set<GraphNode>;
  /** deletionTimestamp is set. */
  beingDeleted: boolean;
  /** Being deleted with the `foregroundDeletion` finalizer: waits for its blocking dependents. */
  deletingDependents: boolean;
  /** Referenced as an owner but never observed through an informer. */
  virtual: boolean;
}

/** Renders an identity for logs: `apps/v1/Deployment ns/web (uid)`. */
export function describeIdentity(id: ObjectIdentity): string {
  return `${id.apiVersion}/${id.kind} ${id.namespace ? `${id.namespace}/` : ""}${id.name} (${id.uid})`;
}

/** The graph: nodes by uid, with the pairwise owner/dependent links kept consistent. */
export class OwnerGraph {
  private readonly nodes = new Map<string, GraphNode>();

  /** The node of `uid`, observed or virtual. */
  get(uid: string): GraphNode | undefined {
    return this.nodes.get(uid);
  }

  /** Number of nodes (observed and virtual). */
  size(): number {
    return this.nodes.size;
  }

  /** Every node, for inspection in notebooks and tests. */
  all(): IterableIterator<GraphNode> {
    return this.nodes.values();
  }

  /**
   * Inserts an observed node and links it to its owners. Returns the virtual owner nodes it had to create,
   * which the caller must verify against the API.
   */
  insert(node: GraphNode): GraphNode[] {
    this.nodes.set(node.identity.uid, node);
    return this.link(node, node.owners);
  }

  /** Replaces a node's owners: unlinks removed ones, links added ones; returns newly created virtual owners. */
  setOwners(node: GraphNode, owners: OwnerReference[]): GraphNode[] {
    const next = new Set(owners.map((o) => o.uid));
    this.unlink(
      node,
      node.owners.filter((o) => !next.has(o.uid)),
    );
    const before = new Set(node.owners.map((o) => o.uid));
    node.owners = owners;
    return this.link(
      node,
      owners.filter((o) => !before.has(o.uid)),
    );
  }

  /** Removes a node and its links to owners. Its dependents keep pointing at the (now absent) uid. */
  remove(node: GraphNode): void {
    this.unlink(node, node.owners);
    this.nodes.delete(node.identity.uid);
  }

  /** Dependents whose reference to `owner` has blockOwnerDeletion: they hold a foreground deletion. */
  blockingDependents(owner: GraphNode): GraphNode[] {
    return [...owner.dependents].filter((d) =>
      d.owners.some((ref) => ref.uid === owner.identity.uid && ref.blockOwnerDeletion === true),
    );
  }

  private link(node: GraphNode, refs: OwnerReference[]): GraphNode[] {
    const created: GraphNode[] = [];
    for (const ref of refs) {
      let owner = this.nodes.get(ref.uid);
      if (!owner) {
        // The owner's namespace is not in the reference: assume the dependent's (checked on verification).
        owner = {
          identity: {
            apiVersion: ref.apiVersion,
            kind: ref.kind,
            name: ref.name,
            uid: ref.uid,
            namespace: node.identity.namespace,
          },
          owners: [],
          dependents: new Set(),
          beingDeleted: false,
          deletingDependents: false,
          virtual: true,
        };
        this.nodes.set(ref.uid, owner);
        created.push(owner);
      }
      owner.dependents.add(node);
    }
    return created;
  }

  private unlink(node: GraphNode, refs: OwnerReference[]): void {
    for (const ref of refs) {
      const owner = this.nodes.get(ref.uid);
      if (!owner) continue;
      owner.dependents.delete(node);
      // A virtual owner nobody points at any more is forgotten.
      if (owner.virtual && owner.dependents.size === 0) this.nodes.delete(ref.uid);
    }
  }
}
