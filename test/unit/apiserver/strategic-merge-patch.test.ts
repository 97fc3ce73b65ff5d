import { describe, expect, it } from "vitest";
import { applyStrategicMergePatch } from "../../../src/control-plane/apiserver/patch/strategic-merge-patch.js";
import { apiError, setup, widgetCrd } from "./helpers.js";

const pod = {
  metadata: { name: "p", finalizers: ["a/one"], ownerReferences: [{ uid: "u1", name: "o" }] },
  spec: {
    containers: [
      { name: "app", image: "app:1", env: [{ name: "A", value: "1" }], ports: [{ containerPort: 80 }] },
      { name: "side", image: "side:1" },
    ],
    tolerations: [{ key: "t1" }],
  },
  status: { conditions: [{ type: "Ready", status: "False" }] },
};

describe("strategic merge patch", () => {
  it("merges keyed lists element by element and replaces unkeyed ones", () => {
    const out = applyStrategicMergePatch(pod, {
      spec: {
        containers: [
          { name: "app", image: "app:2", env: [{ name: "B", value: "2" }] },
          { name: "new", image: "n" },
        ],
        tolerations: [{ key: "t2" }],
      },
      status: { conditions: [{ type: "Ready", status: "True" }] },
    }) as typeof pod;
    expect(out.spec.containers.map((c) => `${c.name}:${c.image}`)).toEqual([
      "app:app:2",
      "side:side:1",
      "new:n",
    ]);
    expect(out.spec.containers[0]!.env).toEqual([
      { name: "A", value: "1" },
      { name: "B", value: "2" },
    ]);
    expect(out.spec.containers[0]!.ports).toEqual([{ containerPort: 80 }]);
    expect(out.spec.tolerations).toEqual([{ key: "t2" }]);
    expect(out.status.conditions).toEqual([{ type: "Ready", status: "True" }]);
    expect(pod.spec.containers[0]!.image).toBe("app:1");
  });

  it("understands $patch delete/replace, $retainKeys, $deleteFromPrimitiveList and finalizer union", () => {
    const out = applyStrategicMergePatch(pod, {
      metadata: {
        finalizers: ["b/two"],
        ownerReferences: [{ uid: "u1", $patch: "delete" }],
        "$deleteFromPrimitiveList/finalizers": ["a/one"],
      },
      spec: {
        containers: [{ name: "side", $patch: "delete" }],
        "$setElementOrder/containers": [{ name: "app" }],
        tolerations: [{ $patch: "replace" }, { key: "only" }],
      },
      status: { $patch: "replace", phase: "Running" },
    }) as Record<string, Record<string, unknown>>;
    expect(out.metadata!.finalizers).toEqual(["b/two"]);
    expect(out.metadata!.ownerReferences).toEqual([]);
    expect((out.spec!.containers as { name: string }[]).map((c) => c.name)).toEqual(["app"]);
    expect(out.spec!.tolerations).toEqual([{ key: "only" }]);
    expect(out.status).toEqual({ phase: "Running" });
    expect(Object.keys(out.spec!)).not.toContain("$setElementOrder/containers");
    const retained = applyStrategicMergePatch({ a: 1, b: 2, c: 3 }, { $retainKeys: ["a", "c"], c: 4 });
    expect(retained).toEqual({ a: 1, c: 4 });
  });

  it("is applied by the backend to built-ins, and refused (415) for custom resources like the real server", () => {
    const { backend, pods, crds, rt } = setup();
    backend.create(pods, "default", { metadata: { name: "p" }, spec: pod.spec });
    const patched = backend.patch(pods, "default", "p", "application/strategic-merge-patch+json", {
      spec: { containers: [{ name: "app", image: "app:3" }] },
    });
    expect((patched.spec as typeof pod.spec).containers.map((c) => c.image)).toEqual(["app:3", "side:1"]);
    backend.create(crds, undefined, widgetCrd());
    const widgets = rt("example.com", "v1", "widgets");
    backend.create(widgets, "default", { metadata: { name: "w" } });
    const err = apiError(() =>
      backend.patch(widgets, "default", "w", "application/strategic-merge-patch+json", {}),
    );
    expect(err.code).toBe(415);
  });
});
