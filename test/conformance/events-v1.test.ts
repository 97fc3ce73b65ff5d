/**
 * events.k8s.io/v1 Events over the storage of core/v1 Events, as kube-apiserver serves them: one object read
 * through either group with its fields converted (regarding <-> involvedObject, note <-> message,
 * reportingController <-> reportingComponent, the deprecated* fields), field selectors by the new names, watches
 * in the watched group's shape, and the new API's stricter create validation. Raw JSON over HTTPS, so the same
 * requests reach the embedded server and envtest's kube-apiserver.
 */
import { describe, expect, it } from "vitest";
import { raw, useSuiteCluster } from "./support.js";

const suite = useSuiteCluster();
const v1 = (ns: string, name = "") =>
  `/apis/events.k8s.io/v1/namespaces/${ns}/events${name ? `/${name}` : ""}`;
const core = (ns: string, name = "") => `/api/v1/namespaces/${ns}/events${name ? `/${name}` : ""}`;
const post = (path: string, body: unknown) => raw(suite.kubeConfig, "POST", path, JSON.stringify(body));
const patch = (path: string, body: unknown) =>
  raw(suite.kubeConfig, "PATCH", path, JSON.stringify(body), "application/merge-patch+json");

const newEvent = (ns: string, name: string, regarding: string) => ({
  apiVersion: "events.k8s.io/v1",
  kind: "Event",
  metadata: { name },
  regarding: { apiVersion: "v1", kind: "ConfigMap", namespace: ns, name: regarding },
  note: "checked the ConfigMap",
  reason: "Checked",
  type: "Normal",
  action: "Check",
  eventTime: "2026-12-02T10:00:00.000000Z",
  reportingController: "example.com/checker",
  reportingInstance: "checker-1",
});

describe("events.k8s.io/v1 over core/v1 Events", () => {
  it("an event created through events.k8s.io/v1 reads through core/v1 with its fields converted", async () => {
    const ns = await suite.namespace("ev1-create");
    const created = await post(v1(ns), newEvent(ns, "e1", "cm"));
    expect(created.code, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      apiVersion: "events.k8s.io/v1",
      regarding: { kind: "ConfigMap", name: "cm" },
      note: "checked the ConfigMap",
      reportingController: "example.com/checker",
      deprecatedSource: {},
      deprecatedFirstTimestamp: null,
      deprecatedLastTimestamp: null,
    });
    const asCore = await raw(suite.kubeConfig, "GET", core(ns, "e1"));
    expect(asCore.body).toMatchObject({
      apiVersion: "v1",
      kind: "Event",
      involvedObject: { kind: "ConfigMap", name: "cm" },
      message: "checked the ConfigMap",
      reason: "Checked",
      reportingComponent: "example.com/checker",
      reportingInstance: "checker-1",
      eventTime: "2026-12-02T10:00:00.000000Z",
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
    });
    expect(asCore.body.metadata.uid).toBe(created.body.metadata.uid);
    expect(asCore.body.metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);
    expect(asCore.body.regarding).toBeUndefined();
    expect(asCore.body.involvedObject.namespace).toBe(ns);
  });

  it("a core/v1 event reads through events.k8s.io/v1 with the deprecated fields", async () => {
    const ns = await suite.namespace("ev1-core");
    await post(core(ns), {
      metadata: { name: "old" },
      involvedObject: { kind: "Pod", namespace: ns, name: "p" },
      message: "pulled",
      reason: "Pulled",
      count: 3,
      firstTimestamp: "2026-12-02T10:00:00Z",
      source: { component: "kubelet" },
    });
    const got = await raw(suite.kubeConfig, "GET", v1(ns, "old"));
    expect(got.body).toMatchObject({
      apiVersion: "events.k8s.io/v1",
      regarding: { kind: "Pod", name: "p" },
      note: "pulled",
      reason: "Pulled",
      deprecatedCount: 3,
      deprecatedFirstTimestamp: "2026-12-02T10:00:00Z",
      deprecatedSource: { component: "kubelet" },
      eventTime: null,
    });
    expect(got.body.message).toBeUndefined();
  });

  it("field selectors use the new names; a series patch through v1 is seen through core, a new note is refused", async () => {
    const ns = await suite.namespace("ev1-select");
    await post(v1(ns), newEvent(ns, "a", "first"));
    await post(v1(ns), newEvent(ns, "b", "second"));
    const selected = await raw(suite.kubeConfig, "GET", `${v1(ns)}?fieldSelector=regarding.name%3Dsecond`);
    expect(selected.body.items.map((e: { metadata: { name: string } }) => e.metadata.name)).toEqual(["b"]);
    const byController = await raw(
      suite.kubeConfig,
      "GET",
      `${v1(ns)}?fieldSelector=reportingController%3Dexample.com%2Fchecker`,
    );
    expect(byController.body.items).toHaveLength(2);
    const series = { count: 2, lastObservedTime: "2026-12-02T10:05:00.000000Z" };
    const patched = await patch(v1(ns, "a"), { series });
    expect(patched.code, JSON.stringify(patched.body)).toBe(200);
    const asCore = await raw(suite.kubeConfig, "GET", core(ns, "a"));
    expect(asCore.body.series).toEqual(series);
    const renoted = await patch(v1(ns, "a"), { note: "checked again" });
    expect([renoted.code, renoted.body.details?.causes]).toEqual([
      422,
      [
        {
          reason: "FieldValueInvalid",
          field: "message",
          message: 'Invalid value: "checked again": field is immutable',
        },
      ],
    ]);
  });

  it("a watch through events.k8s.io/v1 sees events written through core/v1 in the v1 shape", async () => {
    const ns = await suite.namespace("ev1-watch");
    const list = await raw(suite.kubeConfig, "GET", v1(ns));
    const rv = list.body.metadata.resourceVersion;
    const watching = raw(suite.kubeConfig, "GET", `${v1(ns)}?watch=1&resourceVersion=${rv}&timeoutSeconds=2`);
    await new Promise((r) => setTimeout(r, 300));
    await post(core(ns), {
      metadata: { name: "w" },
      involvedObject: { kind: "Pod", namespace: ns, name: "p" },
      message: "m",
    });
    const text = (await watching).body as string | { type: string; object: unknown };
    const lines =
      typeof text === "string"
        ? text
            .trim()
            .split("\n")
            .map((l) => JSON.parse(l))
        : [text];
    const added = lines.find((l) => l.type === "ADDED");
    expect(added?.object).toMatchObject({
      apiVersion: "events.k8s.io/v1",
      regarding: { name: "p" },
      note: "m",
    });
  });

  it("a create through events.k8s.io/v1 is validated strictly (eventTime, type, no deprecated fields)", async () => {
    const ns = await suite.namespace("ev1-invalid");
    const res = await post(v1(ns), {
      metadata: { name: "bad" },
      note: "x",
      type: "Odd",
      deprecatedCount: 3,
    });
    expect(res.code).toBe(422);
    expect(res.body.reason).toBe("Invalid");
    const causes = res.body.details.causes.map(
      (c: { field: string; message: string }) => `${c.field}: ${c.message}`,
    );
    expect(causes).toEqual([
      'involvedObject.namespace: Invalid value: "": does not match event.namespace',
      "eventTime: Required value",
      'type: Invalid value: "": has invalid value: Odd',
      'count: Invalid value: "": needs to be unset',
    ]);
    const legacy = await post(core(ns), {
      metadata: { name: "fine" },
      involvedObject: { namespace: ns, name: "p" },
      type: "Odd",
    });
    expect(legacy.code).toBe(201);
  });

  it("an event regarding an object in another namespace is refused, through either group", async () => {
    const ns = await suite.namespace("ev1-elsewhere");
    const old = await post(core(ns), {
      metadata: { name: "x" },
      involvedObject: { namespace: "other", name: "p" },
    });
    expect([old.code, old.body.details?.causes?.[0]]).toEqual([
      422,
      {
        reason: "FieldValueInvalid",
        field: "involvedObject.namespace",
        message: 'Invalid value: "other": does not match event.namespace',
      },
    ]);
    const fresh = await post(v1(ns), { ...newEvent(ns, "y", "cm"), regarding: { name: "cm" }, action: "" });
    expect(fresh.code).toBe(422);
    expect(fresh.body.details.causes.map((c: { field: string }) => c.field)).toEqual([
      "involvedObject.namespace",
      "action",
    ]);
  });
});
