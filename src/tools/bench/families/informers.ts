/**
 * The three informers the families compare, each driven the same way against one server: start, count the
 * handler's adds until every object arrived (sync time), keep running, count updates (event throughput).
 * - ours: {@link SharedIndexInformer} over a {@link ListWatch} (client-go's defaults: pages of 500);
 * - client-node: `makeInformer`, its documented usage with a typed list function;
 * - client-go: the Go peer's SharedIndexInformer (src/tools/bench/client-go-peer), in its own process.
 * Each returns a handle that keeps the informer alive until `stop`, so heap figures can be taken while the
 * cache is full.
 */
import { CoreV1Api, KubeConfig, makeInformer, type V1ConfigMap } from "@kubernetes/client-node";
import { SharedIndexInformer } from "../../../cache/shared-index-informer.js";
import { ListWatch } from "../../../client/list-watch.js";
import { BuiltinResources } from "../../../client/resource-descriptor.js";
import { collectGarbage, countTo, heapAfterGc, wallMs } from "../measure.js";
import { type ClientGoPeer, runClientGoPeer } from "../peers/client-go.js";

/** A synced informer still running. */
export interface SyncedInformer {
  /** Milliseconds from start to the last of `expect` adds. */
  ms: number;
  /** Resolves with the wall-clock time the `count`-th update reached the handler. */
  updates(count: number): Promise<number>;
  stop(): Promise<void>;
}

/** Loads a kubeconfig file into a client-node KubeConfig. */
export function kubeConfigFrom(path: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(path);
  return kc;
}

function updateCounter() {
  let seen = 0;
  let target = Number.POSITIVE_INFINITY;
  let reached: ((ms: number) => void) | undefined;
  return {
    onUpdate: () => {
      if (++seen === target) reached?.(wallMs());
    },
    updates: (count: number) =>
      new Promise<number>((resolve) => {
        seen = 0;
        target = count;
        reached = resolve;
      }),
  };
}

/** Starts our SharedIndexInformer and waits for `expect` adds. */
export async function syncOurs(kc: KubeConfig, namespace: string, expect: number): Promise<SyncedInformer> {
  const adds = countTo(expect);
  const counter = updateCounter();
  const listWatch = new ListWatch(kc, BuiltinResources.configMaps, { namespace });
  const informer = new SharedIndexInformer(listWatch);
  informer.addEventHandler({ onAdd: adds.tick, onUpdate: counter.onUpdate });
  const start = performance.now();
  informer.start();
  const stop = async () => {
    adds.stop();
    await informer.stop();
    await listWatch.close();
  };
  try {
    await adds.reached;
  } catch (err) {
    await stop();
    throw err;
  }
  const ms = performance.now() - start;
  if (informer.getIndexer().size !== expect) throw new Error(`our cache holds ${informer.getIndexer().size}`);
  return { ms, updates: counter.updates, stop };
}

/**
 * The time of one sync started on a collected heap, as a controller's first sync in a fresh process: the caches
 * of earlier syncs (now garbage) would otherwise be marked and copied by the timed sync's collections. The
 * informer is stopped and its handle dropped before this returns.
 */
export async function syncOnCollectedHeap(sync: () => Promise<SyncedInformer>): Promise<number> {
  collectGarbage();
  const synced = await sync();
  await synced.stop();
  return synced.ms;
}

/** Starts client-node's makeInformer and waits for `expect` adds. */
export async function syncClientNode(
  kc: KubeConfig,
  namespace: string,
  expect: number,
): Promise<SyncedInformer> {
  const adds = countTo(expect);
  const counter = updateCounter();
  const core = kc.makeApiClient(CoreV1Api);
  const informer = makeInformer<V1ConfigMap>(kc, `/api/v1/namespaces/${namespace}/configmaps`, () =>
    core.listNamespacedConfigMap({ namespace }),
  );
  informer.on("add", adds.tick);
  informer.on("update", counter.onUpdate);
  informer.on("error", () => {});
  const start = performance.now();
  await informer.start();
  try {
    await adds.reached;
  } catch (err) {
    adds.stop();
    await informer.stop();
    throw err;
  }
  const ms = performance.now() - start;
  if (informer.list(namespace).length !== expect) throw new Error("client-node cache is incomplete");
  return { ms, updates: counter.updates, stop: async () => void (await informer.stop()) };
}

/** What one peer informer run reported. */
export interface PeerSync {
  runsMs: number[];
  watchList: boolean;
  requests: Record<string, number>;
  bytes: number;
  heapInUsePerObject: number;
  heapAllocPerObject: number;
  /** Wall-clock time the last update arrived, when `updates` were asked for. */
  lastUpdateMs?: number;
  /** The peer process's CPU time (user + system) from "ready" to the last update, when `updates` were asked for. */
  updateCpuMs?: number;
}

/**
 * Runs the client-go peer's informer `runs` times (fresh informer each) on the namespace; with `onReady`, the
 * last informer stays up, `onReady` writes the updates, and the peer reports when the last one arrived.
 */
export async function syncClientGo(
  peer: ClientGoPeer,
  kubeconfigPath: string,
  namespace: string,
  expect: number,
  options: { runs: number; watchList: boolean; updates?: number; onReady?: () => Promise<void> },
): Promise<PeerSync> {
  const args = ["informer", "-kubeconfig", kubeconfigPath, "-namespace", namespace];
  args.push("-expect", String(expect), "-runs", String(options.runs));
  if (options.updates) args.push("-updates", String(options.updates));
  let writing: Promise<void> = Promise.resolve();
  const events = await runClientGoPeer(peer, args, {
    env: { KUBE_FEATURE_WatchListClient: String(options.watchList) },
    onEvent: (e) => {
      if (e.event === "ready" && options.onReady) writing = options.onReady();
    },
  }).done;
  await writing;
  const synced = events.filter((e) => e.event === "synced");
  const memory: Record<string, unknown> = events.find((e) => e.event === "memory") ?? {};
  const updates = events.find((e) => e.event === "updates");
  const last: Record<string, unknown> = synced.at(-1) ?? {};
  return {
    runsMs: synced.map((e) => e.ms as number),
    watchList: last.watchList === true,
    requests: (last.requests as Record<string, number>) ?? {},
    bytes: (last.bytes as number) ?? 0,
    heapInUsePerObject: (memory.heapInUsePerObject as number) ?? Number.NaN,
    heapAllocPerObject: (memory.heapAllocPerObject as number) ?? Number.NaN,
    ...(updates ? { lastUpdateMs: updates.lastMs as number, updateCpuMs: updates.cpuMs as number } : {}),
  };
}

/** Time for a stopped informer's sockets and loops to wind down: longer for bigger caches. */
const settle = (n: number) => new Promise((resolve) => setTimeout(resolve, 250 + n / 50));

/**
 * V8 heap bytes per object that a synced informer holds: the heap with the informer running, minus the heap
 * once it is stopped and its sockets have closed (both after forced collections). Measured this way round,
 * garbage left by an earlier informer cannot make the figure negative.
 */
export async function cachedBytesPerObject(sync: () => Promise<SyncedInformer>, n: number): Promise<number> {
  await settle(n);
  let s: SyncedInformer | undefined = await sync();
  const withCache = heapAfterGc();
  await s.stop();
  s = undefined; // the handle reaches the cache: drop it before the second measurement
  await settle(n);
  return (withCache - heapAfterGc()) / n;
}
