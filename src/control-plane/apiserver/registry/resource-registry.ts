import type { ResourceType } from "../types.js";
import { storageId } from "./resource-type.js";
import type { ServedResource } from "./served-resource.js";

/**
 * The set of served resources: built-ins plus the kinds of established CRDs. Discovery and URL routing read
 * it; CRD create/delete changes it and notifies listeners (kube-apiserver's discovery controller and the
 * apiextensions handler swap their maps the same way).
 */
export class ResourceRegistry {
  private readonly byGvr = new Map<string, ServedResource>();
  private readonly listeners = new Set<() => void>();

  /** Adds (or replaces) served resources; notifies once. */
  add(...resources: ServedResource[]): void {
    for (const r of resources) this.byGvr.set(gvrKey(r.type.group, r.type.version, r.type.resource), r);
    this.notify();
  }

  /**
   * Replaces the resources `match` selects by `next` (a CRD was written); notifies once, and only when the
   * served set really changed. Returns the replaced resources.
   */
  replaceWhere(match: (r: ServedResource) => boolean, next: readonly ServedResource[]): ServedResource[] {
    const before = [...this.byGvr.entries()].filter(([, r]) => match(r));
    const signature = (rs: readonly ServedResource[]) =>
      rs
        .map((r) => JSON.stringify(r.type))
        .sort()
        .join("\n");
    const changed = signature(before.map(([, r]) => r)) !== signature(next);
    for (const [k] of before) this.byGvr.delete(k);
    for (const r of next) this.byGvr.set(gvrKey(r.type.group, r.type.version, r.type.resource), r);
    if (changed) this.notify();
    return before.map(([, r]) => r);
  }

  /** Removes every resource `match` selects; notifies when anything was removed. */
  removeWhere(match: (r: ServedResource) => boolean): ServedResource[] {
    const removed: ServedResource[] = [];
    for (const [k, r] of this.byGvr) {
      if (match(r)) {
        this.byGvr.delete(k);
        removed.push(r);
      }
    }
    if (removed.length > 0) this.notify();
    return removed;
  }

  /** The served resource for a URL's group/version/resource. */
  find(group: string, version: string, resource: string): ServedResource | undefined {
    return this.byGvr.get(gvrKey(group, version, resource));
  }

  /** The served resource behind a ResourceType the HTTP layer hands back (matched by group/version/resource). */
  resolve(rt: ResourceType): ServedResource | undefined {
    return this.find(rt.group, rt.version, rt.resource);
  }

  /** Every served version of the resource stored under `id` (`group/resource`). */
  byStorageId(id: string): ServedResource[] {
    return [...this.byGvr.values()].filter((r) => storageId(r.type) === id);
  }

  /** All served resources. */
  all(): ServedResource[] {
    return [...this.byGvr.values()];
  }

  /** Subscribes to changes of the served set; returns an unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    for (const l of [...this.listeners]) {
      try {
        l();
      } catch {
        // a failing listener must not break the write that changed the served set
      }
    }
  }
}

function gvrKey(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}
