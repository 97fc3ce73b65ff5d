/**
 * Aggregated discovery (`apidiscovery.k8s.io/v2`): `/api` and `/apis` answer one `APIGroupDiscoveryList` when the
 * client asks for it, with the asked media type as Content-Type, and the legacy documents otherwise; a CRD's group
 * joins the list once it is established. Raw HTTPS, so the same requests reach the embedded server and envtest's
 * kube-apiserver.
 */
import { describe, expect, it } from "vitest";
import { eventually, raw, useSuiteCluster } from "./support.js";

const suite = useSuiteCluster();
const V2 = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
const V2BETA1 = "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList";
/** What client-go's discovery client sends. */
const CLIENT_GO = `${V2},${V2BETA1},application/json`;

interface Resource {
  resource: string;
  responseKind: { group: string; version: string; kind: string };
  scope: string;
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: Array<{ subresource: string; verbs: string[] }>;
}
interface Item {
  metadata: { name?: string };
  versions: Array<{ version: string; freshness: string; resources: Resource[] }>;
}

const get = (path: string, accept: string) =>
  raw(suite.kubeConfig, "GET", path, undefined, undefined, accept);
const find = (items: Item[], group: string, version: string, resource: string) =>
  items
    .find((i) => (i.metadata.name ?? "") === group)
    ?.versions.find((v) => v.version === version)
    ?.resources.find((r) => r.resource === resource);

describe("aggregated discovery", () => {
  it("/apis answers an APIGroupDiscoveryList with the asked media type; each resource as in legacy discovery", async () => {
    const res = await get("/apis", CLIENT_GO);
    expect(res.code).toBe(200);
    expect(res.headers["content-type"]).toBe(V2);
    expect(res.body).toMatchObject({ kind: "APIGroupDiscoveryList", apiVersion: "apidiscovery.k8s.io/v2" });
    const items = res.body.items as Item[];
    const apps = items.find((i) => i.metadata.name === "apps");
    expect(apps?.versions[0]).toMatchObject({ version: "v1", freshness: "Current" });
    const deployments = find(items, "apps", "v1", "deployments");
    expect(deployments).toMatchObject({
      responseKind: { group: "", version: "", kind: "Deployment" },
      scope: "Namespaced",
      singularResource: "deployment",
      shortNames: ["deploy"],
      categories: ["all"],
    });
    expect(deployments?.subresources?.find((s) => s.subresource === "status")?.verbs).toEqual([
      "get",
      "patch",
      "update",
    ]);
    expect(find(items, "rbac.authorization.k8s.io", "v1", "clusterroles")).toMatchObject({
      scope: "Cluster",
    });
    expect(find(items, "events.k8s.io", "v1", "events")).toMatchObject({ shortNames: ["ev"] });
    expect(items.some((i) => i.metadata.name === undefined || i.metadata.name === "")).toBe(false);
  });

  it("/api lists the core group as one unnamed item", async () => {
    const res = await get("/api", V2);
    expect(res.headers["content-type"]).toBe(V2);
    const items = res.body.items as Item[];
    expect(items).toHaveLength(1);
    expect(items[0]?.metadata).toEqual({});
    expect(find(items, "", "v1", "configmaps")).toMatchObject({ shortNames: ["cm"], scope: "Namespaced" });
    const namespaces = find(items, "", "v1", "namespaces");
    expect(namespaces?.scope).toBe("Cluster");
    expect(namespaces?.subresources?.map((s) => [s.subresource, s.verbs])).toEqual([
      ["finalize", ["update"]],
      ["status", ["get", "patch", "update"]],
    ]);
  });

  it("a client that does not ask for v2 (plain JSON, or v2beta1 only) gets the legacy documents", async () => {
    for (const accept of ["application/json", `${V2BETA1},application/json`]) {
      const apis = await get("/apis", accept);
      expect([apis.headers["content-type"], apis.body.kind], accept).toEqual([
        "application/json",
        "APIGroupList",
      ]);
      const api = await get("/api", accept);
      expect(api.body.kind, accept).toBe("APIVersions");
    }
    const group = await get("/apis/apps/v1", CLIENT_GO);
    expect([group.headers["content-type"], group.body.kind]).toEqual(["application/json", "APIResourceList"]);
  });

  it("an established CRD's group joins the aggregated list", async () => {
    const group = `agg${Math.random().toString(36).slice(2, 8)}.example.com`;
    const crd = {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: `gadgets.${group}` },
      spec: {
        group,
        scope: "Namespaced",
        names: {
          plural: "gadgets",
          singular: "gadget",
          kind: "Gadget",
          shortNames: ["gd"],
          categories: ["toys"],
        },
        versions: [
          {
            name: "v1",
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
            subresources: { status: {} },
          },
        ],
      },
    };
    const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    expect((await raw(suite.kubeConfig, "POST", crds, JSON.stringify(crd))).code).toBe(201);
    try {
      let gadgets: Resource | undefined;
      await eventually(
        async () => {
          gadgets = find((await get("/apis", V2)).body.items, group, "v1", "gadgets");
          return gadgets !== undefined;
        },
        15_000,
        "the CRD's group in aggregated discovery",
      );
      expect(gadgets).toMatchObject({
        responseKind: { group, version: "v1", kind: "Gadget" },
        scope: "Namespaced",
        singularResource: "gadget",
        verbs: ["delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"],
        shortNames: ["gd"],
        categories: ["toys"],
        subresources: [
          {
            subresource: "status",
            responseKind: { group, version: "v1", kind: "Gadget" },
            verbs: ["get", "patch", "update"],
          },
        ],
      });
    } finally {
      await raw(suite.kubeConfig, "DELETE", `${crds}/gadgets.${group}`);
    }
  });
});
