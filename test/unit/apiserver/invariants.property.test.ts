import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../../src/apimachinery/object.js";
import type { WatchEvent } from "../../../src/control-plane/apiserver/types.js";
import { apiError, recorder, setup } from "./helpers.js";

type Op =
  | { op: "create"; key: number; value: string; finalizer: boolean }
  | { op: "update"; key: number; value: string }
  | { op: "patch"; key: number; label: string }
  | { op: "delete"; key: number }
  | { op: "release"; key: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant("create" as const),
    key: fc.nat(5),
    value: fc.string({ maxLength: 4 }),
    finalizer: fc.boolean(),
  }),
  fc.record({ op: fc.constant("update" as const), key: fc.nat(5), value: fc.string({ maxLength: 4 }) }),
  fc.record({ op: fc.constant("patch" as const), key: fc.nat(5), label: fc.constantFrom("a", "b", "c") }),
  fc.record({ op: fc.constant("delete" as const), key: fc.nat(5) }),
  fc.record({ op: fc.constant("release" as const), key: fc.nat(5) }),
);

/** namespace and name of key i: keys 0-2 in default, 3-5 in kube-system. */
const where = (key: number) => ({ ns: key < 3 ? "default" : "kube-system", name: `obj-${key}` });

describe("backend invariants under random operation sequences", () => {
  it("revisions increase, lists at any retained revision equal the recorded state, watches replay exactly", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), fc.integer({ min: 3, max: 60 }), (ops, historySize) => {
        const { backend, cm } = setup({ historySize });
        const model = new Map<number, { deleting: boolean; finalizers: string[] }>();
        const snapshots = new Map<number, string>();
        const snapshot = () => JSON.stringify(backend.list(cm, undefined, {}).items);
        const start = backend.currentRevision();
        snapshots.set(start, snapshot());
        const full = recorder();
        backend.watch(cm, undefined, { resourceVersion: String(start) }, full);
        let lastRev = start;
        for (const o of ops) {
          const { ns, name } = where(o.key);
          const m = model.get(o.key);
          let result: KubeObject | undefined;
          switch (o.op) {
            case "create":
              if (m) {
                expect(apiError(() => backend.create(cm, ns, { metadata: { name } })).code).toBe(409);
                continue;
              }
              result = backend.create(cm, ns, {
                metadata: { name, ...(o.finalizer ? { finalizers: ["example.com/f"] } : {}) },
                data: { v: o.value },
              });
              model.set(o.key, { deleting: false, finalizers: o.finalizer ? ["example.com/f"] : [] });
              break;
            case "update": {
              if (!m) {
                expect(apiError(() => backend.update(cm, ns, name, { metadata: { name } })).code).toBe(404);
                continue;
              }
              const cur = backend.get(cm, ns, name);
              result = backend.update(cm, ns, name, { ...cur, data: { v: o.value } });
              break;
            }
            case "patch":
              if (!m) continue;
              result = backend.patch(cm, ns, name, "application/merge-patch+json", {
                metadata: { labels: { l: o.label } },
              });
              break;
            case "delete":
              if (!m) {
                expect(apiError(() => backend.delete(cm, ns, name)).code).toBe(404);
                continue;
              }
              result = backend.delete(cm, ns, name);
              if (m.finalizers.length > 0) m.deleting = true;
              else model.delete(o.key);
              break;
            case "release":
              if (!m || m.finalizers.length === 0) continue;
              result = backend.patch(cm, ns, name, "application/merge-patch+json", {
                metadata: { finalizers: null },
              });
              m.finalizers = [];
              if (m.deleting) model.delete(o.key);
              break;
          }
          const rev = backend.currentRevision();
          expect(rev).toBeGreaterThanOrEqual(lastRev);
          if (rev !== lastRev) {
            expect(rev).toBe(lastRev + 1);
            // Removing the last finalizer of a deleting object answers with the object as updated, at the
            // version it was removed from (as kube-apiserver does); every other write returns the new revision.
            const removed = o.op === "release" && !model.has(o.key);
            if (removed) expect(Number(result?.metadata?.resourceVersion)).toBeLessThan(rev);
            else expect(result?.metadata?.resourceVersion).toBe(String(rev));
          }
          lastRev = rev;
          snapshots.set(rev, snapshot());
          // the model agrees with what the server holds
          const live = backend.list(cm, undefined, {}).items.map((i) => i.metadata?.name);
          expect(live).toEqual([...model.keys()].sort((a, b) => a - b).map((k) => `obj-${k}`));
        }
        const events = full.events as WatchEvent[];
        const revs = events.map((e) => Number(e.object.metadata?.resourceVersion));
        expect(revs).toEqual([...revs].sort((a, b) => a - b));
        expect(new Set(revs).size).toBe(revs.length);
        const current = backend.currentRevision();
        const compacted = Math.max(0, current - historySize);
        for (const [rev, state] of snapshots) {
          if (rev === 0) continue;
          if (rev < compacted) {
            expect(
              apiError(() =>
                backend.list(cm, undefined, { resourceVersion: String(rev), resourceVersionMatch: "Exact" }),
              ).code,
            ).toBe(410);
            const w = recorder();
            backend.watch(cm, undefined, { resourceVersion: String(rev) }, w);
            expect(w.events.map((e) => e.type)).toEqual(["ERROR"]);
            continue;
          }
          const atRev = backend.list(cm, undefined, {
            resourceVersion: String(rev),
            resourceVersionMatch: "Exact",
          });
          expect(JSON.stringify(atRev.items)).toBe(state);
          const w = recorder();
          backend.watch(cm, undefined, { resourceVersion: String(rev) }, w);
          const expected = events
            .filter((e) => Number(e.object.metadata?.resourceVersion) > rev)
            .map((e) => e.line());
          expect(w.events.map((e) => e.line())).toEqual(expected);
        }
      }),
      { numRuns: 150, seed: 20260101 },
    );
  });
});
