/**
 * Chaos: random creates, updates and deletes of ConfigMaps while the embedded server drops watches, compacts its
 * history (410 Expired) and fails LIST/WATCH requests. After the faults stop, the informer's cache and a handler's
 * view built only from notifications must both equal the server's state exactly: same keys, same
 * resourceVersions. Every trial is seeded (CHAOS_SEED, CHAOS_TRIALS); a failure prints its seed.
 */
import type { CoreV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MetaObject } from "../../src/apimachinery/object.js";
import { seededRandom } from "../../src/apimachinery/wait/random.js";
import { SharedIndexInformer } from "../../src/cache/shared-index-informer.js";
import { DeletedFinalStateUnknown } from "../../src/cache/tombstone.js";
import { ListWatch } from "../../src/client/list-watch.js";
import { BuiltinResources } from "../../src/client/resource-descriptor.js";
import type { Cluster } from "../../src/control-plane/cluster/index.js";
import {
  cachedConfigMaps,
  embedded,
  eventually,
  lines,
  serverConfigMaps,
} from "../integration/cache/helpers.js";

const TRIALS = Number(process.env.CHAOS_TRIALS ?? 200);
const BASE_SEED = Number(process.env.CHAOS_SEED ?? 20261202);
const NAMES = Array.from({ length: 8 }, (_, i) => `cm-${i}`);

let cluster: Cluster;
let core: CoreV1Api;

beforeAll(async () => {
  ({ cluster, core } = await embedded());
});
afterAll(async () => {
  await cluster?.stop();
});

const ignore = (codes: number[]) => (err: unknown) => {
  const code = (err as { code?: number }).code;
  if (code === undefined || !codes.includes(code)) throw err;
};

/** A handler that rebuilds the server state from notifications alone and checks their consistency. */
function viewKeeper(violations: string[]) {
  const view = new Map<string, string>();
  const rv = (o: MetaObject) => o.metadata?.resourceVersion ?? "";
  return {
    view,
    handler: {
      onAdd: (o: MetaObject) => {
        if (view.has(o.metadata!.name!)) violations.push(`add of ${o.metadata!.name} already in view`);
        view.set(o.metadata!.name!, rv(o));
      },
      onUpdate: (old: MetaObject, neu: MetaObject) => {
        const name = neu.metadata!.name!;
        if (view.get(name) !== rv(old))
          violations.push(`update of ${name}: old@${rv(old)} but view@${view.get(name)}`);
        view.set(name, rv(neu));
      },
      onDelete: (o: MetaObject | DeletedFinalStateUnknown<MetaObject>) => {
        const name = o instanceof DeletedFinalStateUnknown ? o.key.split("/")[1]! : o.metadata!.name!;
        if (!view.has(name)) violations.push(`delete of ${name} not in view`);
        view.delete(name);
      },
    },
  };
}

async function trial(seed: number): Promise<{ ops: number; lists: number; tombstones: number }> {
  const rng = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
  const faults = cluster.instruments!.faults;
  const namespace = `chaos-${seed}`;
  await core.createNamespace({ body: { metadata: { name: namespace } } });
  for (const name of NAMES.slice(0, Math.floor(rng() * 4))) {
    await core.createNamespacedConfigMap({ namespace, body: { metadata: { name }, data: { v: "0" } } });
  }
  const violations: string[] = [];
  const errors: unknown[] = [];
  let tombstones = 0;
  const informer = new SharedIndexInformer<MetaObject>(
    new ListWatch(cluster.kubeConfig, BuiltinResources.configMaps, { namespace }),
    {
      random: seededRandom(seed ^ 0x5eed),
      onError: (e) => errors.push(e),
      reflector: { pageSize: 3, backoff: { initialMs: 2, capMs: 20 } },
    },
  );
  const keeper = viewKeeper(violations);
  informer.addEventHandler({
    ...keeper.handler,
    onDelete: (o) => {
      if (o instanceof DeletedFinalStateUnknown) tombstones++;
      keeper.handler.onDelete(o);
    },
  });
  informer.start();
  try {
    if (!(await informer.waitForCacheSync({ signal: AbortSignal.timeout(10_000) })))
      throw new Error("initial sync timed out");
    const ops = 8 + Math.floor(rng() * 16);
    for (let i = 0; i < ops; i++) {
      const r = rng();
      const name = pick(NAMES);
      const data = { v: `${seed}-${i}` };
      if (r < 0.35) {
        await core
          .createNamespacedConfigMap({ namespace, body: { metadata: { name }, data } })
          .catch(ignore([409]));
      } else if (r < 0.6) {
        await core
          .replaceNamespacedConfigMap({ namespace, name, body: { metadata: { name }, data } })
          .catch(ignore([404]));
      } else if (r < 0.8) {
        await core.deleteNamespacedConfigMap({ namespace, name }).catch(ignore([404]));
      } else if (r < 0.86) {
        faults.dropWatches();
      } else if (r < 0.92) {
        faults.compactHistory();
        if (rng() < 0.5) faults.dropWatches();
      } else if (r < 0.97) {
        const verb = pick(["list", "watch"] as const);
        faults.failNext(verb, 1 + Math.floor(rng() * 2), pick([500, 503, 429, 410]), "configmaps");
      } else {
        await new Promise((resolve) => setTimeout(resolve, Math.floor(rng() * 5)));
      }
    }
    faults.clear();
    let server = new Map<string, string>();
    const converged = await eventually(async () => {
      server = await serverConfigMaps(core, namespace);
      const want = lines(server).join();
      return lines(cachedConfigMaps(informer)).join() === want && lines(keeper.view).join() === want;
    }, 10_000);
    if (!converged) {
      throw new Error(
        `no convergence: server ${lines(server)} cache ${lines(cachedConfigMaps(informer))} view ${lines(keeper.view)}`,
      );
    }
    if (violations.length > 0) throw new Error(`notification order violated: ${violations.join("; ")}`);
    return { ops, lists: informer.reflectorStats()!.lists, tombstones };
  } finally {
    faults.clear();
    await informer.stop();
  }
}

describe("informer chaos against the embedded API server", () => {
  it(`converges to the server's exact state in ${TRIALS} seeded trials with dropped watches, 410s and failed requests`, async () => {
    const failures: string[] = [];
    let relists = 0;
    let tombstones = 0;
    for (let t = 0; t < TRIALS; t++) {
      const seed = BASE_SEED + t;
      try {
        const r = await trial(seed);
        relists += r.lists - 1;
        tombstones += r.tombstones;
      } catch (err) {
        const line = `chaos trial failed: CHAOS_SEED=${seed} CHAOS_TRIALS=1: ${err instanceof Error ? err.message : err}`;
        console.error(line);
        failures.push(line);
        if (failures.length >= 3) break;
      }
    }
    expect(failures).toEqual([]);
    expect(await eventually(() => cluster.instruments!.metrics.snapshot().openWatches === 0)).toBe(true);
    // The faults must actually have bitten: relists (after 410s and failures) and tombstones happened.
    expect(relists).toBeGreaterThan(TRIALS / 4);
    console.log(`chaos: ${TRIALS} trials, ${relists} relists, ${tombstones} tombstones`);
  }, 600_000);
});
