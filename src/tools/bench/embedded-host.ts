/**
 * The embedded API server in its own process, for benchmarks that compare clients: the clients under test (ours,
 * client-node's, client-go's) then share neither an event loop nor a heap with the server, as they would not
 * with kube-apiserver. The parent forks this module with `--expose-gc` and talks to it over IPC:
 * - on start the host answers `{ ready, kubeconfigPath, url, token, caPem }`;
 * - `fill` creates a namespace's ConfigMaps straight into the backend (`cm-<i>`, an `index` and a payload);
 * - `update` rewrites `count` of them as fast as the backend takes writes, yielding every 100 (a burst of
 *   watch events), and answers the wall-clock start and end in milliseconds;
 * - `churn` rewrites one of `objects` ConfigMaps round-robin `perSecond` times a second for `durationMs`, each
 *   carrying its wall-clock write time in `data.sent` (what watchers and pollers measure their delay against):
 *   at most {@link churnWrites} writes, fewer when the host falls behind its schedule;
 * - `heap` collects garbage and answers the host's V8 heap in use;
 * - `stop` stops the server and exits.
 * {@link startEmbeddedHost} is the parent's side.
 */
import { type ChildProcess, fork } from "node:child_process";
import { createBackend } from "../../control-plane/apiserver/backend.js";
import { EmbeddedApiServer } from "../../control-plane/apiserver/server.js";
import type { ResourceType } from "../../control-plane/apiserver/types.js";

/** A request to the host. */
export type HostRequest =
  | { op: "fill"; namespace: string; count: number; payloadBytes?: number }
  | { op: "update"; namespace: string; count: number; objects: number }
  | { op: "churn"; namespace: string; objects: number; perSecond: number; durationMs: number }
  | { op: "heap" }
  | { op: "stop" };

/** The server's coordinates, as the host reports them once it listens. */
export interface HostReady {
  kubeconfigPath: string;
  url: string;
  token: string;
  caPem: string;
}

/** The parent's handle on a running host. */
export interface EmbeddedHost extends HostReady {
  /** Creates `count` ConfigMaps `cm-0..` in `namespace` (namespace included). */
  fill(namespace: string, count: number, payloadBytes?: number): Promise<void>;
  /** Updates `count` ConfigMaps round-robin over the first `objects`; wall-clock ms of the first and last write. */
  update(namespace: string, count: number, objects: number): Promise<{ startMs: number; endMs: number }>;
  /** Rewrites ConfigMaps at `perSecond` for `durationMs`, stamping `data.sent`; resolves with the writes made. */
  churn(namespace: string, objects: number, perSecond: number, durationMs: number): Promise<number>;
  /** The host's V8 heap in use after a full collection, in bytes. */
  heapUsed(): Promise<number>;
  /** Stops the server and waits for the process to exit. */
  stop(): Promise<void>;
}

const wallMs = () => performance.timeOrigin + performance.now();

/**
 * How many writes a churn of `perSecond` for `durationMs` makes when it keeps up: the writes due strictly inside
 * the window (the first at 0 ms). Counted, not timed: a timer may fire a millisecond before
 * `performance.now()` says it is due, and a time check alone then let one write more through (a 0.5 s churn at
 * 20/s made 11, and 20 watchers expecting 200 events read as 90.9% delivered).
 */
export function churnWrites(perSecond: number, durationMs: number): number {
  if (!(perSecond > 0) || !(durationMs >= 0))
    throw new RangeError(`bad churn: ${perSecond}/s for ${durationMs} ms`);
  return Math.max(0, Math.ceil((perSecond * durationMs) / 1000 - 1e-9));
}

/**
 * Starts the host process (this module, forked) and resolves once its server listens. With
 * `WORKBOOK_BENCH_HOST_PROF=<dir>` in the environment the host runs under `node --cpu-prof` and writes its CPU
 * profile into that directory when it stops (how the server side of a family is profiled).
 */
export function startEmbeddedHost(): Promise<EmbeddedHost> {
  const profileDir = process.env.WORKBOOK_BENCH_HOST_PROF;
  const profile = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  const child: ChildProcess = fork(new URL(import.meta.url), ["--embedded-host"], {
    execArgv: ["--expose-gc", "--max-old-space-size=8192", ...profile],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let nextId = 0;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const call = <T>(request: HostRequest): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.send({ id, ...request });
    });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise<EmbeddedHost>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => {
      const err = new Error(`embedded host exited (${code})`);
      reject(err);
      for (const w of waiting.values()) w.reject(err);
    });
    child.on("message", (m: { id?: number; ready?: HostReady; result?: unknown; error?: string }) => {
      if (m.ready) {
        resolve({
          ...m.ready,
          fill: (namespace, count, payloadBytes) => call({ op: "fill", namespace, count, payloadBytes }),
          update: (namespace, count, objects) => call({ op: "update", namespace, count, objects }),
          churn: (namespace, objects, perSecond, durationMs) =>
            call({ op: "churn", namespace, objects, perSecond, durationMs }),
          heapUsed: () => call({ op: "heap" }),
          stop: async () => {
            if (child.exitCode === null) child.send({ id: -1, op: "stop" });
            await exited;
          },
        });
        return;
      }
      const w = m.id === undefined ? undefined : waiting.get(m.id);
      if (!w) return;
      waiting.delete(m.id!);
      if (m.error) w.reject(new Error(m.error));
      else w.resolve(m.result);
    });
  });
}

/** The child's side: serve, then answer requests until `stop`. */
async function serve(): Promise<void> {
  const backend = createBackend();
  const server = new EmbeddedApiServer({ backend });
  await server.start();
  const namespaces = backend.findResource("", "v1", "namespaces") as ResourceType;
  const configMaps = backend.findResource("", "v1", "configmaps") as ResourceType;
  const gc = (globalThis as { gc?: () => void }).gc;
  let sequence = 0; // every update writes a new value: an unchanged object would be a no-op, with no event
  const handlers = {
    fill: async (r: Extract<HostRequest, { op: "fill" }>) => {
      try {
        backend.get(namespaces, undefined, r.namespace);
      } catch {
        backend.create(namespaces, undefined, { metadata: { name: r.namespace } });
      }
      const payload = "x".repeat(r.payloadBytes ?? 64);
      for (let i = 0; i < r.count; i++) {
        backend.create(configMaps, r.namespace, {
          metadata: { name: `cm-${i}`, labels: { app: "bench", shard: String(i % 10) } },
          data: { index: String(i), payload },
        });
        if (i % 5000 === 4999) await new Promise((res) => setImmediate(res));
      }
    },
    update: async (r: Extract<HostRequest, { op: "update" }>) => {
      const startMs = wallMs();
      for (let i = 0; i < r.count; i++) {
        const name = `cm-${i % r.objects}`;
        const current = backend.get(configMaps, r.namespace, name) as { data?: Record<string, string> };
        backend.update(configMaps, r.namespace, name, {
          ...current,
          data: { ...current.data, seq: String(sequence++) },
        });
        if (i % 100 === 99) await new Promise((res) => setImmediate(res));
      }
      return { startMs, endMs: wallMs() };
    },
    churn: async (r: Extract<HostRequest, { op: "churn" }>) => {
      const start = performance.now();
      const planned = churnWrites(r.perSecond, r.durationMs);
      let writes = 0;
      while (writes < planned) {
        const due = start + (writes * 1000) / r.perSecond;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((res) => setTimeout(res, wait));
        if (performance.now() - start >= r.durationMs) break; // behind schedule: the window is over
        const name = `cm-${writes % r.objects}`;
        const current = backend.get(configMaps, r.namespace, name) as { data?: Record<string, string> };
        const data = { ...current.data, sent: wallMs().toFixed(3) };
        backend.update(configMaps, r.namespace, name, { ...current, data });
        writes++;
      }
      return writes;
    },
    heap: async () => {
      gc?.();
      gc?.();
      return process.memoryUsage().heapUsed;
    },
  };
  process.on("message", async (m: HostRequest & { id: number }) => {
    if (m.op === "stop") {
      await server.stop();
      backend.stop?.();
      process.exit(0);
    }
    try {
      const result = await (handlers[m.op] as (r: HostRequest) => Promise<unknown>)(m);
      process.send?.({ id: m.id, result });
    } catch (err) {
      process.send?.({ id: m.id, error: String(err) });
    }
  });
  process.on("disconnect", () => process.exit(0));
  const ready: HostReady = {
    kubeconfigPath: server.kubeconfigPath,
    url: server.url,
    token: server.token,
    caPem: server.caPem,
  };
  process.send?.({ ready });
}

if (process.argv.includes("--embedded-host") && process.send) void serve();
