/**
 * Generic reads and writes of any object by apiVersion, kind, namespace and name, for the control-plane
 * controllers (client-go's dynamic/metadata client). Goes through client-node's `KubernetesObjectApi`.
 */
import { PatchStrategy } from "@kubernetes/client-node";
import { isNotFound } from "../../apimachinery/errors.js";
import type { MetaObject } from "../../apimachinery/object.js";
import type { DiscoveredResource, DynamicClient, ResourceMapper } from "./discovery.js";

/** Where an object lives: enough to address it. */
export interface ObjectAddress {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
}

/** A propagation policy of DELETE (`metav1.DeletionPropagation`). */
export type PropagationPolicy = "Background" | "Foreground" | "Orphan";

/** Thrown when an object's kind is not served (yet): retry after the next discovery. */
export class UnknownKindError extends Error {
  constructor(apiVersion: string, kind: string) {
    super(`no resource serves ${kind} in ${apiVersion} (not discovered yet?)`);
    this.name = "UnknownKindError";
  }
}

/** Object reads and writes addressed by kind, resolved through discovery. */
export class ObjectAccess {
  constructor(
    private readonly client: DynamicClient,
    private readonly mapper: () => ResourceMapper,
  ) {}

  /** The served resource for `apiVersion`/`kind`, or undefined. */
  resourceFor(apiVersion: string, kind: string): DiscoveredResource | undefined {
    return this.mapper().find(apiVersion, kind);
  }

  private header(address: ObjectAddress) {
    const resource = this.resourceFor(address.apiVersion, address.kind);
    if (!resource) throw new UnknownKindError(address.apiVersion, address.kind);
    const apiVersion = resource.group ? `${resource.group}/${resource.version}` : resource.version;
    const metadata: { name: string; namespace?: string } = { name: address.name };
    if (resource.namespaced) metadata.namespace = address.namespace;
    return { apiVersion, kind: resource.kind, metadata };
  }

  /** GET; undefined when NotFound. */
  async get(address: ObjectAddress): Promise<MetaObject | undefined> {
    try {
      return (await this.client.read(this.header(address))) as MetaObject;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** DELETE with a propagation policy and a uid precondition; NotFound counts as done. */
  async delete(address: ObjectAddress, policy: PropagationPolicy, uid?: string): Promise<void> {
    try {
      const body = uid ? { preconditions: { uid } } : undefined;
      await this.client.delete(
        this.header(address),
        undefined,
        undefined,
        undefined,
        undefined,
        policy,
        body,
      );
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /**
   * Merge-patches `metadata` fields; include `resourceVersion` to make the write fail with 409 if the object
   * changed since it was read. NotFound counts as done.
   */
  async patchMetadata(address: ObjectAddress, metadata: Record<string, unknown>): Promise<void> {
    const header = this.header(address);
    try {
      await this.client.patch(
        { ...header, metadata: { ...header.metadata, ...metadata } },
        undefined,
        undefined,
        undefined,
        undefined,
        PatchStrategy.MergePatch,
      );
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
