import { describe, expect, it } from "vitest";
import {
  acceptsAggregatedDiscovery,
  aggregatedDiscovery,
} from "../../../src/control-plane/apiserver/http/aggregated-discovery.js";
import { defineResourceType } from "../../../src/control-plane/apiserver/registry/resource-type.js";

describe("aggregated discovery", () => {
  it("recognises the v2 media type in any position and parameter order, and nothing else", () => {
    const v2 = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
    expect(acceptsAggregatedDiscovery(v2)).toBe(true);
    expect(acceptsAggregatedDiscovery(`application/json, ${v2}`)).toBe(true);
    expect(
      acceptsAggregatedDiscovery("application/json; as=APIGroupDiscoveryList; v=v2; g=apidiscovery.k8s.io"),
    ).toBe(true);
    expect(acceptsAggregatedDiscovery(v2.replace("v=v2", "v=v2beta1"))).toBe(false);
    expect(
      acceptsAggregatedDiscovery(v2.replace("application/json", "application/vnd.kubernetes.protobuf")),
    ).toBe(false);
    expect(acceptsAggregatedDiscovery("application/json")).toBe(false);
    expect(acceptsAggregatedDiscovery("")).toBe(false);
  });

  it("lists named groups for /apis and the unnamed core group for /api, resources sorted", () => {
    const t = (group: string, resource: string, kind: string) =>
      defineResourceType({ group, version: "v1", resource, kind, namespaced: true });
    const gvs = [
      { group: "", version: "v1", types: [t("", "pods", "Pod"), t("", "configmaps", "ConfigMap")] },
      { group: "apps", version: "v1", types: [t("apps", "deployments", "Deployment")] },
    ];
    const core = JSON.parse(aggregatedDiscovery(gvs, true));
    expect(core.items).toHaveLength(1);
    expect(core.items[0].metadata).toEqual({});
    expect(core.items[0].versions[0].resources.map((r: { resource: string }) => r.resource)).toEqual([
      "configmaps",
      "pods",
    ]);
    const named = JSON.parse(aggregatedDiscovery(gvs, false));
    expect(named.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(["apps"]);
    expect(named.items[0].versions[0].resources[0].responseKind).toEqual({
      group: "",
      version: "",
      kind: "Deployment",
    });
  });
});
