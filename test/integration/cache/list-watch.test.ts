import type { CoreV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExpiredError, StatusError } from "../../../src/apimachinery/errors.js";
import type { MetaObject } from "../../../src/apimachinery/object.js";
import { ListWatch, type ListWatchEvent } from "../../../src/client/list-watch.js";
import { BuiltinResources } from "../../../src/client/resource-descriptor.js";
import type { Cluster } from "../../../src/control-plane/cluster/index.js";
import { embedded, eventually } from "./helpers.js";

let cluster: Cluster;
let core: CoreV1Api;

beforeAll(async () => {
  ({ cluster, core } = await embedded());
  for (const ns of ["lw-a", "lw-b"]) await core.createNamespace({ body: { metadata: { name: ns } } });
  for (let i = 0; i < 5; i++) {
    await core.createNamespacedConfigMap({
      namespace: "lw-a",
      body: { metadata: { name: `a${i}`, labels: { i: `${i}` } } },
    });
  }
  await core.createNamespacedConfigMap({ namespace: "lw-b", body: { metadata: { name: "b0" } } });
});
afterAll(async () => {
  await cluster?.stop();
});

const lwIn = (namespace?: string) =>
  new ListWatch(cluster.kubeConfig, BuiltinResources.configMaps, { namespace });

describe("ListWatch against the embedded API server", () => {
  it("lists one namespace or all, pages with limit/continue, and returns plain JSON", async () => {
    const page1 = await lwIn("lw-a").list({ limit: 2 });
    expect(page1.items.map((o) => o.metadata?.name)).toEqual(["a0", "a1"]);
    expect(page1.metadata.continue).toBeTruthy();
    const page2 = await lwIn("lw-a").list({ limit: 10, continue: page1.metadata.continue });
    expect(page2.items.map((o) => o.metadata?.name)).toEqual(["a2", "a3", "a4"]);
    expect(page2.metadata.continue).toBeFalsy();
    expect(page2.metadata.resourceVersion).toBe(page1.metadata.resourceVersion);
    expect(
      typeof (page1.items[0] as { metadata: { creationTimestamp: unknown } }).metadata.creationTimestamp,
    ).toBe("string");
    expect(page1.items[0]).toMatchObject({ apiVersion: "v1", kind: "ConfigMap" });
    const all = await lwIn().list({ labelSelector: "i in (1,3)" });
    expect(all.items.map((o) => o.metadata?.name).sort()).toEqual(["a1", "a3"]);
    expect((await lwIn("lw-b").list({})).items.map((o) => o.metadata?.name)).toEqual(["b0"]);
  });

  it("turns HTTP errors into typed StatusErrors", async () => {
    cluster.instruments!.faults.failNext("list", 1, 503, "configmaps");
    const err = await lwIn("lw-a")
      .list({})
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StatusError);
    expect(err).toMatchObject({ code: 503, reason: "ServiceUnavailable" });
    const expired = await lwIn("lw-a")
      .list({ limit: 1, continue: "not-a-token" })
      .catch((e: unknown) => e);
    expect(expired).toMatchObject({ code: 400 });
  });

  it("streams watch events from a resourceVersion and resolves when aborted", async () => {
    const lw = lwIn("lw-b");
    const rv = (await lw.list({})).metadata.resourceVersion!;
    const events: ListWatchEvent<MetaObject>[] = [];
    const ac = new AbortController();
    const done = lw.watch({ resourceVersion: rv, timeoutSeconds: 300 }, (e) => events.push(e), ac.signal);
    await core.createNamespacedConfigMap({ namespace: "lw-b", body: { metadata: { name: "b1" } } });
    await core.deleteNamespacedConfigMap({ namespace: "lw-b", name: "b1" });
    expect(await eventually(() => events.length === 2)).toBe(true);
    expect(events.map((e) => `${e.type} ${e.object.metadata?.name}`)).toEqual(["ADDED b1", "DELETED b1"]);
    ac.abort();
    await expect(done).resolves.toBeUndefined();
    expect(await eventually(() => cluster.instruments!.metrics.snapshot().openWatches === 0)).toBe(true);
  });

  it("resolves when the server ends the stream normally", async () => {
    const lw = lwIn("lw-b");
    const rv = (await lw.list({})).metadata.resourceVersion!;
    const done = lw.watch({ resourceVersion: rv }, () => {}, new AbortController().signal);
    expect(await eventually(() => cluster.instruments!.metrics.snapshot().openWatches === 1)).toBe(true);
    cluster.instruments!.faults.dropWatches();
    await expect(done).resolves.toBeUndefined();
  });

  it("rejects with ExpiredError for an in-stream 410 ERROR event (compacted history)", async () => {
    const lw = lwIn("lw-b");
    const old = (await lw.list({})).metadata.resourceVersion!;
    await core.createNamespacedConfigMap({ namespace: "lw-b", body: { metadata: { name: "b2" } } });
    cluster.instruments!.faults.compactHistory();
    const err = await lw
      .watch({ resourceVersion: old }, () => {}, new AbortController().signal)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExpiredError);
    expect((err as ExpiredError).code).toBe(410);
  });

  it("rejects with a StatusError for an HTTP error on the watch request", async () => {
    cluster.instruments!.faults.failNext("watch", 1, 429, "configmaps");
    const err = await lwIn("lw-b")
      .watch({}, () => {}, new AbortController().signal)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StatusError);
    expect((err as StatusError).code).toBe(429);
  });

  it("refuses a namespace on a cluster-scoped resource", () => {
    expect(() => new ListWatch(cluster.kubeConfig, BuiltinResources.namespaces, { namespace: "x" })).toThrow(
      /cluster-scoped/,
    );
  });
});
