import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../../src/apimachinery/object.js";
import { ownershipTree, ownershipTreeSpec, stateClassDef } from "../../../src/workbook/viz/index.js";
import { mermaidParseError } from "../../docs/mermaid-parser.js";

const owner: KubeObject = {
  apiVersion: "workbook.dev/v1alpha1",
  kind: "ConfigSet",
  metadata: { name: "web", namespace: "demo", uid: "u-owner" },
};

function child(name: string, uid: string, extra: Partial<KubeObject["metadata"]> = {}): KubeObject {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: {
      name,
      namespace: "demo",
      uid,
      ownerReferences: [
        {
          apiVersion: "workbook.dev/v1alpha1",
          kind: "ConfigSet",
          name: "web",
          uid: "u-owner",
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
      ...extra,
    },
  };
}

describe("ownershipTree", () => {
  it("draws one box per object and an arrow from owner to each dependent, labelled by the reference", () => {
    const spec = ownershipTreeSpec([owner, child("web-0", "u-0"), child("web-1", "u-1")]);
    expect(spec.direction).toBe("TD");
    expect(spec.nodes.map((n) => n.label)).toEqual([
      "ConfigSet\nweb",
      "ConfigMap\nweb-0",
      "ConfigMap\nweb-1",
    ]);
    expect(spec.edges).toEqual([
      { from: "uid_u-owner", to: "uid_u-0", label: "controller, blocks", dashed: false },
      { from: "uid_u-owner", to: "uid_u-1", label: "controller, blocks", dashed: false },
    ]);
  });

  it("greys and dashes deleting objects with their pending finalizers, from the palette", () => {
    const deleting: KubeObject = {
      ...owner,
      metadata: {
        ...owner.metadata,
        deletionTimestamp: "2026-01-01T00:00:00Z",
        finalizers: ["foregroundDeletion"],
      },
    };
    const spec = ownershipTreeSpec([deleting, child("web-0", "u-0")], { state: () => "converged" });
    expect(spec.nodes[0]).toMatchObject({
      state: "deleting",
      label: "ConfigSet\nweb\ndeleting, waits for:\nforegroundDeletion",
    });
    expect(spec.nodes[1]!.state).toBe("converged");
    const src = ownershipTree([deleting, child("web-0", "u-0")]);
    expect(src).toContain(stateClassDef("deleting"));
    expect(stateClassDef("deleting")).toContain("stroke-dasharray");
    expect(src).toContain("class uid_u_owner deleting");
  });

  it("draws an owner that is not among the objects as an absent box with a dashed arrow", () => {
    const spec = ownershipTreeSpec([child("web-0", "u-0"), child("web-1", "u-1")]);
    expect(spec.nodes[2]).toMatchObject({ id: "uid_u-owner", label: "ConfigSet\nweb\n(absent)" });
    expect(spec.nodes).toHaveLength(3);
    expect(spec.edges.every((e) => e.dashed)).toBe(true);
  });

  it("labels plain owner references and namespaces when asked, and skips objects without a uid", () => {
    const plain = child("x", "u-x");
    plain.metadata!.ownerReferences = [{ apiVersion: "v1", kind: "ConfigMap", name: "web-0", uid: "u-0" }];
    const spec = ownershipTreeSpec([child("web-0", "u-0"), plain, { kind: "Pod", metadata: { name: "n" } }], {
      showNamespace: true,
      direction: "LR",
    });
    expect(spec.direction).toBe("LR");
    expect(spec.nodes.map((n) => n.label)).toContain("ConfigMap\ndemo/x");
    expect(spec.nodes.some((n) => n.label?.includes("Pod"))).toBe(false);
    expect(spec.edges.find((e) => e.to === "uid_u-x")?.label).toBe("owner");
  });

  it("produces mermaid that parses, including absent owners, deleting objects and hostile names", async () => {
    const hostile = child('we"b <1>', "1-end", { deletionTimestamp: "2026-01-01T00:00:00Z" });
    const sources = [
      ownershipTree([owner, child("web-0", "u-0"), hostile], { state: () => "created" }),
      ownershipTree([child("orphan-to-be", "u-9")]),
      ownershipTree([]),
    ];
    for (const src of sources) expect(await mermaidParseError(src)).toBeUndefined();
    expect(await mermaidParseError(`${sources[0]}\n  uid_u_0 -->`)).toBeDefined();
  });
});
