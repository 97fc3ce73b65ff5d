import { describe, expect, it } from "vitest";
import {
  apiVersionOf,
  BuiltinResources,
  collectionPath,
  descriptorKey,
  validateDescriptor,
} from "../../../src/client/resource-descriptor.js";

describe("ResourceDescriptor", () => {
  it("builds core and group collection paths, namespaced or not", () => {
    expect(collectionPath(BuiltinResources.configMaps)).toBe("/api/v1/configmaps");
    expect(collectionPath(BuiltinResources.configMaps, "demo")).toBe("/api/v1/namespaces/demo/configmaps");
    expect(collectionPath(BuiltinResources.deployments, "demo")).toBe(
      "/apis/apps/v1/namespaces/demo/deployments",
    );
    expect(collectionPath(BuiltinResources.namespaces)).toBe("/api/v1/namespaces");
    expect(() => collectionPath(BuiltinResources.nodes, "demo")).toThrow(/cluster-scoped/);
  });

  it("derives apiVersion and a stable key", () => {
    expect(apiVersionOf(BuiltinResources.pods)).toBe("v1");
    expect(apiVersionOf(BuiltinResources.leases)).toBe("coordination.k8s.io/v1");
    expect(descriptorKey(BuiltinResources.leases)).toBe("leases.coordination.k8s.io/v1");
    expect(descriptorKey(BuiltinResources.pods)).toBe("pods/v1");
  });

  it("rejects descriptors that cannot form a URL", () => {
    expect(() =>
      validateDescriptor({
        group: "",
        version: "v1",
        plural: "ConfigMaps",
        kind: "ConfigMap",
        namespaced: true,
      }),
    ).toThrow(/lower-case/);
    expect(() =>
      validateDescriptor({ group: "a/b", version: "v1", plural: "xs", kind: "X", namespaced: true }),
    ).toThrow(/invalid API group/);
    expect(() =>
      validateDescriptor({ group: "", version: "v1", plural: "xs", kind: "", namespaced: true }),
    ).toThrow(/no kind/);
  });
});
