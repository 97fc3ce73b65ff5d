import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StatusError } from "../../../src/apimachinery/errors.js";
import type { DeleteOptions, PatchType } from "../../../src/control-plane/apiserver/types.js";
import { configMap, setup, widgetCrd } from "./helpers.js";

const PATCH_TYPES: PatchType[] = [
  "application/merge-patch+json",
  "application/json-patch+json",
  "application/strategic-merge-patch+json",
  "application/apply-patch+yaml",
];

/** JSON-ish bodies biased toward Kubernetes shapes (metadata, names, labels, finalizers, __proto__). */
const bodyArb = fc.oneof(
  fc.jsonValue(),
  fc.record(
    {
      apiVersion: fc.oneof(fc.constant("v1"), fc.string()),
      kind: fc.oneof(fc.constant("ConfigMap"), fc.constant("Widget"), fc.string()),
      metadata: fc.oneof(
        fc.jsonValue(),
        fc.record(
          {
            name: fc.oneof(fc.constantFrom("a", "b", "w", "__proto__", "A", ""), fc.string()),
            namespace: fc.oneof(fc.constant("default"), fc.jsonValue()),
            resourceVersion: fc.oneof(fc.constant("1"), fc.jsonValue()),
            labels: fc.oneof(fc.dictionary(fc.string(), fc.string()), fc.jsonValue()),
            finalizers: fc.oneof(fc.array(fc.string()), fc.jsonValue()),
            ownerReferences: fc.jsonValue(),
            generateName: fc.string(),
          },
          { requiredKeys: [] },
        ),
      ),
      data: fc.oneof(fc.dictionary(fc.string(), fc.string()), fc.jsonValue()),
      spec: fc.jsonValue(),
      status: fc.jsonValue(),
      ["__proto__"]: fc.jsonValue(),
    },
    { requiredKeys: [] },
  ),
);

const KUBE_500 =
  /^(resourceVersion: Invalid value: |strconv\.ParseUint: parsing |resourceVersion should not be set on objects to be created$)/;

describe("backend input fuzz", () => {
  it("any body, patch or option yields a result or a non-500 StatusError, and never corrupts stored objects", () => {
    const { backend, cm, crds, rt } = setup();
    backend.create(
      crds,
      undefined,
      widgetCrd({ status: true, schema: { type: "object", properties: { spec: { type: "object" } } } }),
    );
    const widgets = rt("example.com", "v1", "widgets");
    const keeper = JSON.stringify(backend.create(cm, "kube-public", configMap("keeper", { k: "v" })));
    fc.assert(
      fc.property(
        fc.constantFrom("create", "update", "status", "patch", "delete", "list", "watch"),
        fc.constantFrom(cm, widgets),
        fc.constantFrom("a", "b", "w", "x/y", ""),
        bodyArb,
        fc.constantFrom(...PATCH_TYPES),
        fc.record(
          {
            labelSelector: fc.oneof(fc.constantFrom("a=b", "a in (b,c)", "!a"), fc.string()),
            fieldSelector: fc.oneof(fc.constantFrom("metadata.name=a", "x=y"), fc.string()),
            resourceVersion: fc.oneof(fc.constantFrom("", "0", "1", "999999"), fc.string()),
            limit: fc.integer({ min: -2, max: 5 }),
            continue: fc.string(),
          },
          { requiredKeys: [] },
        ),
        fc.record(
          {
            propagationPolicy: fc.oneof(
              fc.constantFrom("Orphan", "Foreground", "Background"),
              fc.jsonValue(),
            ),
            orphanDependents: fc.jsonValue(),
            gracePeriodSeconds: fc.jsonValue(),
            dryRun: fc.oneof(fc.constant(["All"]), fc.jsonValue()),
            preconditions: fc.oneof(
              fc.record({ uid: fc.string(), resourceVersion: fc.string() }),
              fc.jsonValue(),
            ),
          },
          { requiredKeys: [] },
        ),
        (op, type, name, body, patchType, listOpts, deleteOpts) => {
          try {
            switch (op) {
              case "create":
                backend.create(type, "default", body);
                break;
              case "update":
                backend.update(type, "default", name, body);
                break;
              case "status":
                backend.update(type, "default", name, body, { subresource: "status" });
                break;
              case "patch":
                backend.patch(type, "default", name, patchType, body);
                break;
              case "delete":
                backend.delete(type, "default", name, deleteOpts as DeleteOptions);
                break;
              case "list":
                backend.list(type, "default", listOpts);
                break;
              case "watch":
                backend.watch(type, "default", listOpts, { event() {}, close() {} }).stop();
                break;
            }
          } catch (err) {
            expect(err).toBeInstanceOf(StatusError);
            // The only 500s are the ones kube-apiserver itself answers for bad input: a malformed
            // resourceVersion on GET/WATCH/PUT, or a resourceVersion set on a create.
            const e = err as StatusError;
            if (e.code === 500) expect(e.message).toMatch(KUBE_500);
          }
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
          expect(Object.keys(Object.prototype)).toEqual([]);
        },
      ),
      { numRuns: 3000, seed: 424242 },
    );
    expect(JSON.stringify(backend.get(cm, "kube-public", "keeper"))).toBe(keeper);
    expect(backend.watchCount()).toBe(0);
  });
});
