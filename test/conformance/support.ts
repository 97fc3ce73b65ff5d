/**
 * Support for the API scenario suite. Scenarios talk to a `Cluster` from `startCluster()` (backend from
 * WORKBOOK_CLUSTER, default embedded) through @kubernetes/client-node only, so the same files run against a
 * real kube-apiserver (`workbook conformance`). Nothing here knows which backend answers, except
 * {@link faultsOf}, which returns the embedded server's fault injection when the backend has instruments.
 */
import { randomBytes } from "node:crypto";
import { request } from "node:https";
import {
  type ApiextensionsV1Api,
  CoreV1Api,
  type KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  Watch,
} from "@kubernetes/client-node";
import { afterAll, beforeAll } from "vitest";
import { type Cluster, startCluster } from "../../src/control-plane/cluster/index.js";

/** The fields of a Kubernetes Status the scenarios assert on. */
export interface Status {
  kind?: string;
  status?: string;
  reason?: string;
  message?: string;
  code?: number;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    causes?: Array<{ field?: string; reason?: string; message?: string }>;
  };
}

/** Starts the cluster for one test file. */
export function startSuiteCluster(): Promise<Cluster> {
  return startCluster({});
}

/** One test file's cluster: started before its tests, its namespaces deleted and the cluster stopped after. */
export interface SuiteCluster {
  readonly cluster: Cluster;
  readonly kubeConfig: KubeConfig;
  /** A fresh namespace for one test (deleted after the file). */
  namespace(prefix: string): Promise<string>;
}

/** Registers beforeAll/afterAll hooks that start and stop the file's cluster. */
export function useSuiteCluster(): SuiteCluster {
  let cluster: Cluster | undefined;
  const created: string[] = [];
  beforeAll(async () => {
    cluster = await startSuiteCluster();
  });
  afterAll(async () => {
    if (!cluster) return;
    await cleanupNamespaces(cluster.kubeConfig, created);
    await cluster.stop();
  });
  const get = (): Cluster => {
    if (!cluster) throw new Error("the suite cluster is not started (use it inside tests or hooks)");
    return cluster;
  };
  return {
    get cluster() {
      return get();
    },
    get kubeConfig() {
      return get().kubeConfig;
    },
    namespace: async (prefix) => {
      const name = await freshNamespace(get().kubeConfig, prefix, created);
      // A whole cluster's kube-controller-manager (kind, kubeconfig) publishes kube-root-ca.crt into every new
      // namespace; wait for it so scenarios see it from the start instead of in the middle of a watch.
      if (isWholeCluster(get())) await rootCaPublished(get().kubeConfig, name);
      return name;
    },
  };
}

/**
 * A whole cluster (kind, kubeconfig) runs all of kube-controller-manager: its Job, StatefulSet, DaemonSet,
 * Deployment, ResourceQuota and volume controllers write status right after a create. The embedded server and
 * envtest's control plane (garbage collector and namespace controller only) leave what a scenario wrote alone.
 */
export function isWholeCluster(cluster: Cluster): boolean {
  return cluster.backend === "kind" || cluster.backend === "kubeconfig";
}

/**
 * Whether the backend's API server is a process of this machine, so it can call a webhook that a test serves on
 * 127.0.0.1 (embedded, envtest). kind's kube-apiserver runs inside the node container, where 127.0.0.1 is the
 * container itself, and a kubeconfig cluster's is on another machine: scenarios that need such a call skip there.
 */
export function apiServerSharesLoopback(cluster: Cluster): boolean {
  return cluster.backend === "embedded" || cluster.backend === "envtest";
}

/**
 * ConfigMaps a whole cluster puts in every namespace by itself: kube-controller-manager's root CA publisher
 * writes `kube-root-ca.crt` (Pods mount it with their ServiceAccount token). The embedded server and envtest's
 * control plane run no such controller. Scenarios about the ConfigMaps they wrote leave these out.
 */
export const CLUSTER_CONFIGMAPS: readonly string[] = ["kube-root-ca.crt"];

/** Whether an object (or a Table row's object) is one of {@link CLUSTER_CONFIGMAPS}. */
export function isClusterConfigMap(object: { metadata?: { name?: string } } | undefined): boolean {
  return CLUSTER_CONFIGMAPS.includes(object?.metadata?.name ?? "");
}

/** The items a scenario wrote: drops {@link CLUSTER_CONFIGMAPS}. */
export function own<T extends { metadata?: { name?: string } }>(items: readonly T[]): T[] {
  return items.filter((item) => !isClusterConfigMap(item));
}

/** Waits (up to 30 s) until kube-controller-manager has published kube-root-ca.crt into `namespace`. */
async function rootCaPublished(kc: KubeConfig, namespace: string): Promise<void> {
  const api = kc.makeApiClient(CoreV1Api);
  await eventually(
    async () => {
      const found = await api
        .readNamespacedConfigMap({ name: "kube-root-ca.crt", namespace })
        .then(() => true)
        .catch(() => false);
      return found;
    },
    30_000,
    `kube-root-ca.crt in ${namespace}`,
  );
}

/** A unique namespace for one test: created now, deleted (best effort) by {@link cleanupNamespaces}. */
export async function freshNamespace(kc: KubeConfig, prefix: string, created: string[]): Promise<string> {
  const name = `${prefix}-${randomBytes(3).toString("hex")}`;
  await kc.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name } } });
  created.push(name);
  return name;
}

/** Deletes the namespaces a file created (a real cluster finishes it asynchronously). */
export async function cleanupNamespaces(kc: KubeConfig, created: string[]): Promise<void> {
  const api = kc.makeApiClient(CoreV1Api);
  for (const name of created.splice(0)) await api.deleteNamespace({ name }).catch(() => undefined);
}

/** The HTTP code and Status body of a failed client-node call (fails the test if it did not fail). */
export async function failure(call: Promise<unknown>): Promise<{ code: number; status: Status }> {
  try {
    await call;
  } catch (err) {
    const e = err as { code?: number; body?: unknown };
    if (typeof e.code !== "number") throw err;
    const body = typeof e.body === "string" ? safeParse(e.body) : e.body;
    return { code: e.code, status: (body ?? {}) as Status };
  }
  throw new Error("expected the call to fail, but it succeeded");
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { message: text };
  }
}

/** One event as client-node's Watch delivers it. */
export interface SeenEvent {
  type: string;
  object: any;
}

/** A running watch that collects events; `ended` resolves when the server closes it. */
export interface CollectingWatch {
  events: SeenEvent[];
  ended: Promise<unknown>;
  stop(): void;
}

/** Starts a watch through client-node's Watch and collects every event. */
export async function collect(
  kc: KubeConfig,
  path: string,
  params: Record<string, string | number | boolean>,
): Promise<CollectingWatch> {
  const events: SeenEvent[] = [];
  let resolveEnd: (v: unknown) => void = () => {};
  const ended = new Promise((r) => {
    resolveEnd = r;
  });
  const ctrl = await new Watch(kc).watch(
    path,
    params,
    (type, object) => events.push({ type, object }),
    (err) => resolveEnd(err ?? null),
  );
  return { events, ended, stop: () => ctrl.abort() };
}

/** Polls `cond` until it holds (real time: the suite also runs against real clusters). */
export async function eventually(
  cond: () => boolean | Promise<boolean>,
  ms = 10_000,
  what = "condition",
): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await cond()) return;
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Waits until the CRD `name` is Established (up to 20 s), as envtest's WaitForCRDs does: only then are its
 * custom resources served on every backend.
 */
export function crdEstablished(crds: ApiextensionsV1Api, name: string): Promise<void> {
  return eventually(
    async () => {
      const crd = await crds.readCustomResourceDefinition({ name });
      return (crd.status?.conditions ?? []).some((c) => c.type === "Established" && c.status === "True");
    },
    20_000,
    "CRD Established",
  );
}

/** The embedded server's fault injection, or undefined on backends without instruments. */
export function faultsOf(cluster: Cluster): { compactHistory(): void } | undefined {
  const inst = cluster.instruments as { faults?: { compactHistory(): void } } | undefined;
  return inst?.faults;
}

/** Request options that send a PATCH as a JSON merge patch (client-node defaults to JSON patch). */
export const mergePatch = setHeaderOptions("Content-Type", PatchStrategy.MergePatch);

/** Request options that send a PATCH as a JSON patch (an array of operations). */
export const jsonPatch = setHeaderOptions("Content-Type", PatchStrategy.JsonPatch);

/** One raw HTTPS exchange: status code, the body parsed as JSON (or the text), and the response headers. */
export interface RawReply {
  code: number;
  body: any;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * Sends one request with the kubeconfig's server, CA and credentials (no client-side rewriting), for what
 * client-node cannot express or hides: protobuf bodies, exact Status shapes, headers.
 */
export async function raw(
  kc: KubeConfig,
  method: string,
  path: string,
  body?: string | Uint8Array,
  contentType = "application/json",
  accept = "application/json",
): Promise<RawReply> {
  const server = kc.getCurrentCluster()?.server;
  if (!server) throw new Error("the kubeconfig has no current cluster");
  const opts: Record<string, any> = { method, headers: { accept } };
  await kc.applyToHTTPSOptions(opts);
  if (body !== undefined) {
    opts.headers["content-type"] = contentType;
    opts.headers["content-length"] = typeof body === "string" ? Buffer.byteLength(body) : body.length;
  }
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, server), opts, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: keep the text
        }
        resolve({ code: res.statusCode ?? 0, body: parsed, headers: res.headers });
      });
    });
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}
