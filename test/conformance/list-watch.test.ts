import { CoreV1Api, type V1ConfigMap } from "@kubernetes/client-node";
import { beforeAll, describe, expect, it } from "vitest";
import {
  collect,
  eventually,
  failure,
  faultsOf,
  isClusterConfigMap,
  mergePatch,
  own,
  useSuiteCluster,
} from "./support.js";

const suite = useSuiteCluster();
let api: CoreV1Api;
beforeAll(() => {
  api = suite.kubeConfig.makeApiClient(CoreV1Api);
});
const ns = (prefix: string) => suite.namespace(prefix);

function cm(
  name: string,
  labels: Record<string, string> = {},
  data: Record<string, string> = {},
): V1ConfigMap {
  return { metadata: { name, labels }, data };
}

describe("resourceVersion, list and watch", () => {
  it("hands out a new resourceVersion on every write and lists at a version not older than the writes", async () => {
    const namespace = await ns("rv");
    const a = await api.createNamespacedConfigMap({ namespace, body: cm("a") });
    const b = await api.replaceNamespacedConfigMap({
      name: "a",
      namespace,
      body: { ...a, data: { x: "1" } },
    });
    expect(a.metadata?.resourceVersion).toMatch(/^\d+$/);
    expect(b.metadata?.resourceVersion).not.toBe(a.metadata?.resourceVersion);
    const list = await api.listNamespacedConfigMap({ namespace });
    expect(list.metadata?.resourceVersion).toBeTruthy();
    expect(own(list.items).map((i) => i.metadata?.resourceVersion)).toEqual([b.metadata?.resourceVersion]);
  });

  it("a watch from the list's resourceVersion delivers exactly the later changes, in order", async () => {
    const namespace = await ns("watch");
    await api.createNamespacedConfigMap({ namespace, body: cm("before") });
    const list = await api.listNamespacedConfigMap({ namespace });
    const w = await collect(suite.kubeConfig, `/api/v1/namespaces/${namespace}/configmaps`, {
      resourceVersion: list.metadata?.resourceVersion ?? "",
    });
    try {
      const created = await api.createNamespacedConfigMap({ namespace, body: cm("after") });
      await api.patchNamespacedConfigMap(
        { name: "after", namespace, body: { data: { k: "v" } } },
        mergePatch,
      );
      await api.deleteNamespacedConfigMap({ name: "after", namespace });
      await eventually(() => w.events.length >= 3, 10_000, "three events");
      expect(w.events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual([
        "ADDED after",
        "MODIFIED after",
        "DELETED after",
      ]);
      expect(w.events[0]?.object.metadata.uid).toBe(created.metadata?.uid);
      const rvs = w.events.map((e) => BigInt(e.object.metadata.resourceVersion));
      expect([...rvs].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))).toEqual(rvs);
    } finally {
      w.stop();
    }
  });

  it("a watch without resourceVersion starts with synthetic ADDED events for existing objects", async () => {
    const namespace = await ns("initial");
    await api.createNamespacedConfigMap({ namespace, body: cm("x") });
    await api.createNamespacedConfigMap({ namespace, body: cm("y") });
    const w = await collect(suite.kubeConfig, `/api/v1/namespaces/${namespace}/configmaps`, {});
    const mine = () => w.events.filter((e) => !isClusterConfigMap(e.object));
    try {
      await eventually(() => mine().length >= 2, 10_000, "initial events");
      expect(mine().map((e) => e.type)).toEqual(["ADDED", "ADDED"]);
      expect(
        mine()
          .map((e) => e.object.metadata.name)
          .sort(),
      ).toEqual(["x", "y"]);
    } finally {
      w.stop();
    }
  });

  it("resuming a watch from a compacted resourceVersion gets a 410 Expired ERROR event", async (ctx) => {
    const faults = faultsOf(suite.cluster);
    if (!faults) {
      ctx.skip(
        true,
        "needs instruments.faults.compactHistory(); a real cluster compacts on its own schedule",
      );
      return;
    }
    const namespace = await ns("expired");
    const first = await api.createNamespacedConfigMap({ namespace, body: cm("old") });
    await api.patchNamespacedConfigMap({ name: "old", namespace, body: { data: { v: "2" } } }, mergePatch);
    faults.compactHistory();
    const w = await collect(suite.kubeConfig, `/api/v1/namespaces/${namespace}/configmaps`, {
      resourceVersion: first.metadata?.resourceVersion ?? "",
    });
    await w.ended;
    expect(w.events).toHaveLength(1);
    expect(w.events[0]?.type).toBe("ERROR");
    expect(w.events[0]?.object).toMatchObject({ kind: "Status", code: 410, reason: "Expired" });
  });
});

describe("bookmarks", () => {
  it("sendInitialEvents ends the initial ADDED events with a BOOKMARK annotated k8s.io/initial-events-end", async (ctx) => {
    const namespace = await ns("bookmark");
    await api.createNamespacedConfigMap({ namespace, body: cm("one") });
    const w = await collect(suite.kubeConfig, `/api/v1/namespaces/${namespace}/configmaps`, {
      sendInitialEvents: true,
      resourceVersionMatch: "NotOlderThan",
      allowWatchBookmarks: true,
    });
    try {
      await Promise.race([
        eventually(
          () => w.events.some((e) => e.type === "BOOKMARK"),
          10_000,
          "the initial-events-end bookmark",
        ),
        w.ended,
      ]);
      const first = w.events[0];
      if (first?.type === "ERROR" && /feature/i.test(String(first.object?.message))) {
        // envtest's etcd runs without the progress-notify support watch-list streaming needs.
        ctx.skip(true, `this backend does not serve watch-list streams: ${first.object.message}`);
        return;
      }
      const mine = w.events.filter((e) => e.type === "BOOKMARK" || !isClusterConfigMap(e.object));
      expect(mine.slice(0, 2).map((e) => e.type)).toEqual(["ADDED", "BOOKMARK"]);
      const bookmark = mine[1]?.object;
      expect(bookmark.metadata.annotations["k8s.io/initial-events-end"]).toBe("true");
      expect(bookmark.metadata.resourceVersion).toMatch(/^\d+$/);
      expect(bookmark.kind).toBe("ConfigMap");
    } finally {
      w.stop();
    }
  });
});

describe("label and field selectors", () => {
  it("filters lists by equality, set and existence label selectors and by metadata.name", async () => {
    const namespace = await ns("select");
    await api.createNamespacedConfigMap({ namespace, body: cm("a", { app: "web", tier: "front" }) });
    await api.createNamespacedConfigMap({ namespace, body: cm("b", { app: "db" }) });
    await api.createNamespacedConfigMap({ namespace, body: cm("c", {}) });
    const names = async (q: { labelSelector?: string; fieldSelector?: string }) =>
      own((await api.listNamespacedConfigMap({ namespace, ...q })).items)
        .map((i) => i.metadata?.name)
        .sort();
    expect(await names({ labelSelector: "app=web" })).toEqual(["a"]);
    expect(await names({ labelSelector: "app!=web" })).toEqual(["b", "c"]);
    expect(await names({ labelSelector: "app in (web,db)" })).toEqual(["a", "b"]);
    expect(await names({ labelSelector: "!app" })).toEqual(["c"]);
    expect(await names({ labelSelector: "app,tier=front" })).toEqual(["a"]);
    expect(await names({ fieldSelector: "metadata.name=b" })).toEqual(["b"]);
    expect(await names({ fieldSelector: "metadata.name!=b" })).toEqual(["a", "c"]);
  });

  it("rejects a malformed label selector with 400", async () => {
    const namespace = await ns("badsel");
    const { code, status } = await failure(
      api.listNamespacedConfigMap({ namespace, labelSelector: "app in (" }),
    );
    expect(code).toBe(400);
    expect(status).toMatchObject({ kind: "Status", reason: "BadRequest" });
  });

  it("a label-selected watch only sees matching objects", async () => {
    const namespace = await ns("selwatch");
    const w = await collect(suite.kubeConfig, `/api/v1/namespaces/${namespace}/configmaps`, {
      labelSelector: "app=web",
      resourceVersion: (await api.listNamespacedConfigMap({ namespace })).metadata?.resourceVersion ?? "",
    });
    try {
      await api.createNamespacedConfigMap({ namespace, body: cm("other", { app: "db" }) });
      await api.createNamespacedConfigMap({ namespace, body: cm("match", { app: "web" }) });
      await eventually(() => w.events.length >= 1, 10_000, "the matching event");
      await new Promise((r) => setTimeout(r, 100));
      expect(w.events.map((e) => e.object.metadata.name)).toEqual(["match"]);
    } finally {
      w.stop();
    }
  });
});

describe("pagination", () => {
  it("limit and continue walk the whole list once, in name order, at one resourceVersion", async () => {
    const namespace = await ns("pages");
    for (let i = 0; i < 7; i++) await api.createNamespacedConfigMap({ namespace, body: cm(`cm-${i}`) });
    // A whole cluster has put its own ConfigMap here too (see CLUSTER_CONFIGMAPS): 7 or 8 items, 3 pages.
    const total = (await api.listNamespacedConfigMap({ namespace })).items.length;
    expect(total - 7).toBeLessThanOrEqual(1);
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    let firstRv: string | undefined;
    do {
      const page = await api.listNamespacedConfigMap({
        namespace,
        limit: 3,
        ...(token ? { _continue: token } : {}),
      });
      pages++;
      firstRv ??= page.metadata?.resourceVersion;
      expect(page.metadata?.resourceVersion).toBe(firstRv);
      expect(page.items.length).toBeLessThanOrEqual(3);
      for (const item of page.items) seen.push(item.metadata?.name ?? "");
      token = page.metadata?._continue || undefined;
      if (token) expect(page.metadata?.remainingItemCount).toBe(total - seen.length);
    } while (token);
    expect(pages).toBe(3);
    expect(seen).toEqual([...seen].sort());
    expect(new Set(seen).size).toBe(total);
  });

  it("a continue token from a compacted snapshot fails with 410 Expired", async (ctx) => {
    const faults = faultsOf(suite.cluster);
    if (!faults) {
      ctx.skip(true, "needs instruments.faults.compactHistory() to expire the snapshot on demand");
      return;
    }
    const namespace = await ns("pages410");
    for (let i = 0; i < 4; i++) await api.createNamespacedConfigMap({ namespace, body: cm(`cm-${i}`) });
    const page = await api.listNamespacedConfigMap({ namespace, limit: 2 });
    await api.createNamespacedConfigMap({ namespace, body: cm("later") });
    faults.compactHistory();
    const { code, status } = await failure(
      api.listNamespacedConfigMap({ namespace, limit: 2, _continue: page.metadata?._continue ?? "" }),
    );
    expect(code).toBe(410);
    expect(status.reason).toBe("Expired");
  });
});
