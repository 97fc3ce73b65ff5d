import type { ResourceType } from "../types.js";

/** Verbs of an ordinary served resource (what discovery advertises). */
export const STANDARD_VERBS: readonly string[] = [
  "create",
  "delete",
  "deletecollection",
  "get",
  "list",
  "patch",
  "update",
  "watch",
];

/** Inputs of {@link defineResourceType}; `listKind` and `singular` default from `kind`. */
export interface ResourceTypeInput {
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  listKind?: string;
  singular?: string;
  shortNames?: string[];
  categories?: string[];
  storageGroup?: string;
  custom?: boolean;
  subresources?: string[];
  verbs?: string[];
}

/** Verbs of a custom resource, in the order apiextensions-apiserver lists them in discovery. */
export const CUSTOM_RESOURCE_VERBS: readonly string[] = [
  "delete",
  "deletecollection",
  "get",
  "list",
  "patch",
  "create",
  "update",
  "watch",
];

/** Builds a {@link ResourceType} (the discovery `APIResource` plus its group/version). */
export function defineResourceType(input: ResourceTypeInput): ResourceType {
  return {
    group: input.group,
    version: input.version,
    resource: input.resource,
    kind: input.kind,
    listKind: input.listKind ?? `${input.kind}List`,
    singular: input.singular ?? input.kind.toLowerCase(),
    namespaced: input.namespaced,
    shortNames: input.shortNames ?? [],
    ...(input.categories && input.categories.length > 0 ? { categories: [...input.categories] } : {}),
    ...(input.storageGroup !== undefined ? { storageGroup: input.storageGroup } : {}),
    ...(input.custom ? { custom: true } : {}),
    subresources: input.subresources ?? [],
    verbs: input.verbs ?? [...STANDARD_VERBS],
  };
}

/** `group/version`, or `version` for the core group: the apiVersion of the type's objects. */
export function apiVersionOf(rt: Pick<ResourceType, "group" | "version">): string {
  return rt.group ? `${rt.group}/${rt.version}` : rt.version;
}

/**
 * The storage id of a resource, shared by all its versions: `group/resource`, with the storage group when another
 * group's storage holds it (events.k8s.io Events live in core's).
 */
export function storageId(rt: Pick<ResourceType, "group" | "resource" | "storageGroup">): string {
  return `${rt.storageGroup ?? rt.group}/${rt.resource}`;
}
