/**
 * Grader of lab 03-informer: the learner's `FanOut` is the one handler of the package's SharedIndexInformer on a
 * fresh namespace per check (any backend), and fans out to the grader's recording handlers. Outcomes only: what
 * each handler received and in what order, whether a slow or stuck handler held up the others, what `pending()`
 * says. It mirrors client-go's `sharedIndexInformer` and `processorListener` (one buffer and one loop a handler).
 */
import { CoreV1Api, PatchStrategy, setHeaderOptions, type V1ConfigMap } from "@kubernetes/client-node";
import type { MetaObject } from "../../apimachinery/index.js";
import { SharedIndexInformer } from "../../cache/index.js";
import { DeletedFinalStateUnknown } from "../../cache/tombstone.js";
import { BuiltinResources, ListWatch } from "../../client/index.js";
import type { Cluster } from "../../control-plane/cluster/index.js";
import { consistently, defineLab, eventually } from "../grading/index.js";
import { gradingCluster, importLab, sleep, withScenario } from "./support/index.js";

/** What `labs/03-informer/fan-out.ts` must export (its README): the fan-out half of a shared informer. */
export interface FanOutModule {
  FanOut: new <T extends MetaObject>() => FanOut<T>;
}

/** The learner's fan-out: an upstream informer's handler that keeps a cache and notifies its own handlers. */
export interface FanOut<T> {
  onAdd(obj: T, isInInitialList: boolean): void;
  onUpdate(oldObj: T, newObj: T): void;
  onDelete(obj: T): void;
  /** The cached objects. */
  list(): T[];
  addHandler(handler: Handler<T>): { pending(): number };
  stop(): void;
}

/** A handler of the fan-out (client-go's `ResourceEventHandler`); every method may be async. */
export interface Handler<T = V1ConfigMap> {
  onAdd?(obj: T, isInInitialList: boolean): void | Promise<void>;
  onUpdate?(oldObj: T, newObj: T): void | Promise<void>;
  onDelete?(obj: T): void | Promise<void>;
}

/** One cluster for every check this worker runs. */
const cluster = gradingCluster({ prefix: "lab03" });

/** A handler that logs `add cm-1 v0 (initial)`, `update cm-1 v0->v1`, `delete cm-1`. */
function recorder(): Handler & { log: string[] } {
  const log: string[] = [];
  const v = (o: V1ConfigMap) => o.data?.v ?? "?";
  return {
    log,
    onAdd: (o: V1ConfigMap, initial: boolean) => {
      log.push(`add ${o.metadata?.name} ${v(o)}${initial ? " (initial)" : ""}`);
    },
    onUpdate: (a: V1ConfigMap, b: V1ConfigMap) => {
      log.push(`update ${b.metadata?.name} ${v(a)}->${v(b)}`);
    },
    onDelete: (o: V1ConfigMap) => {
      log.push(`delete ${o.metadata?.name}`);
    },
  };
}

/** A namespace, an upstream informer on its ConfigMaps, and the learner's FanOut as that informer's handler. */
class Scenario {
  readonly core: CoreV1Api;
  readonly fan: FanOut<V1ConfigMap>;
  private readonly informer: SharedIndexInformer<V1ConfigMap>;

  private constructor(
    c: Cluster,
    readonly namespace: string,
    mod: FanOutModule,
  ) {
    this.core = c.kubeConfig.makeApiClient(CoreV1Api);
    this.fan = new mod.FanOut<V1ConfigMap>();
    this.informer = new SharedIndexInformer<V1ConfigMap>(
      new ListWatch<V1ConfigMap>(c.kubeConfig, BuiltinResources.configMaps, { namespace }),
    );
    const fan = this.fan;
    this.informer.addEventHandler({
      onAdd: (o, initial) => fan.onAdd(o, initial),
      onUpdate: (a, b) => fan.onUpdate(a, b),
      onDelete: (o) => fan.onDelete(o instanceof DeletedFinalStateUnknown ? o.obj! : o),
    });
  }

  static async open(dir: string): Promise<Scenario> {
    const mod = await importLab<FanOutModule>(dir, "fan-out.js");
    const c = await cluster.get();
    const namespace = await cluster.newNamespace("fanout");
    return new Scenario(c, namespace, mod);
  }

  async start(): Promise<void> {
    this.informer.start();
    if (!(await this.informer.waitForCacheSync({ timeoutMs: 10_000 })))
      throw new Error("upstream never synced");
  }

  async close(): Promise<void> {
    this.fan.stop();
    await this.informer.stop();
  }

  async create(name: string): Promise<void> {
    await this.core.createNamespacedConfigMap({
      namespace: this.namespace,
      body: { metadata: { name }, data: { v: "v0" } },
    });
  }

  async update(name: string, v: string): Promise<void> {
    await this.core.patchNamespacedConfigMap(
      { name, namespace: this.namespace, body: { data: { v } } },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
    );
  }

  async remove(name: string): Promise<void> {
    await this.core.deleteNamespacedConfigMap({ name, namespace: this.namespace });
  }

  /** Waits until the upstream informer's cache holds `n` objects (then the fan-out has been told of them). */
  async upstreamHas(n: number): Promise<void> {
    await eventually(() => this.informer.getIndexer().list().length === n, {
      timeout: 5000,
      interval: 20,
      description: `the upstream cache holding ${n} ConfigMaps`,
    });
  }
}

const names = (n: number, prefix = "cm") => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

/** Grader of labs/03-informer: a shared informer's fan-out, graded on what handlers receive from a real watch. */
export default defineLab({
  title: "a shared informer's fan-out",
  async checks(dir) {
    return [
      {
        requirement: "every handler receives every add, update and delete of every object, in order",
        hint: "queue each notification for every handler; update the cache before you queue",
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir), async (s) => {
            const hs = [recorder(), recorder(), recorder()];
            for (const h of hs) s.fan.addHandler(h);
            await s.start();
            for (const n of names(4)) await s.create(n);
            for (const n of names(4)) await s.update(n, "v1");
            for (const n of names(4)) await s.update(n, "v2");
            for (const n of names(2)) await s.remove(n);
            const expected = (n: string, deleted: boolean) => [
              `add ${n} v0`,
              `update ${n} v0->v1`,
              `update ${n} v1->v2`,
              ...(deleted ? [`delete ${n}`] : []),
            ];
            await eventually(
              () => {
                for (const [i, h] of hs.entries()) {
                  for (const [j, n] of names(4).entries()) {
                    const got = h.log.filter((line) => line.split(" ")[1] === n);
                    const want = expected(n, j < 2);
                    if (JSON.stringify(got) !== JSON.stringify(want)) {
                      throw new Error(
                        `handler ${i + 1} saw ${JSON.stringify(got)} for ${n}, expected ${JSON.stringify(want)}`,
                      );
                    }
                  }
                }
                return true;
              },
              { timeout: 5000, interval: 50, description: "every handler seeing every notification" },
            );
          }),
      },
      {
        requirement:
          "a slow or stuck handler does not delay the others, and a slow handler gets its notifications one at a time, in order",
        hint: "each handler needs its own buffer and its own loop; never await one handler before notifying the next",
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir), async (s) => {
            const fast = recorder();
            let slowActive = 0;
            let slowOverlap = 0;
            const slowSeen: string[] = [];
            s.fan.addHandler({ onUpdate: () => new Promise<void>(() => {}) }); // stuck forever
            s.fan.addHandler({
              onUpdate: async (_a: V1ConfigMap, b: V1ConfigMap) => {
                slowActive++;
                if (slowActive > 1) slowOverlap++;
                await sleep(100);
                slowSeen.push(`${b.metadata?.name} ${b.data?.v}`);
                slowActive--;
              },
            });
            s.fan.addHandler(fast);
            for (const n of names(5)) await s.create(n);
            await s.start();
            const started = Date.now();
            await Promise.all(names(5).map((n) => s.update(n, "v1")));
            await Promise.all(names(5).map((n) => s.update(n, "v2")));
            await eventually(
              () => {
                const n = fast.log.filter((l) => l.startsWith("update")).length;
                if (n !== 10) throw new Error(`the fast handler has received ${n} of 10 updates`);
                return true;
              },
              {
                timeout: 4000,
                interval: 10,
                description: "the fast handler receiving all 10 updates while another handler is stuck",
              },
            );
            const fastMs = Date.now() - started;
            await eventually(() => slowSeen.length === 10, {
              timeout: 5000,
              interval: 20,
              description: "the slow handler (100 ms each) receiving all 10 updates",
            });
            if (slowOverlap > 0)
              throw new Error(`the slow handler ran ${slowOverlap} times while already running`);
            for (const n of names(5)) {
              const order = slowSeen.filter((l) => l.startsWith(`${n} `));
              if (order.join(",") !== `${n} v1,${n} v2`)
                throw new Error(`the slow handler saw ${order.join(", ")} for ${n}, expected v1 then v2`);
            }
            if (fastMs > 4000) throw new Error(`the fast handler needed ${fastMs} ms`);
          }),
      },
      {
        requirement:
          "a handler registered late first receives every cached object as an add with isInInitialList true, then live events",
        hint: "when a handler is added, fill its buffer with the cache before it joins the fan-out",
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir), async (s) => {
            for (const n of names(6)) await s.create(n);
            await s.start();
            await s.upstreamHas(6);
            const late = recorder();
            s.fan.addHandler(late);
            await eventually(() => late.log.length >= 6, {
              timeout: 3000,
              interval: 20,
              description: "the late handler receiving the 6 cached objects",
            });
            const want = names(6).map((n) => `add ${n} v0 (initial)`);
            if (JSON.stringify([...late.log].sort()) !== JSON.stringify(want.sort()))
              throw new Error(`the late handler received ${JSON.stringify(late.log)}`);
            await s.update("cm-3", "v1");
            await eventually(() => late.log.includes("update cm-3 v0->v1"), {
              timeout: 3000,
              interval: 20,
              description: "the late handler receiving a live update after the replay",
            });
          }),
      },
      {
        requirement:
          "a deleted object leaves the cache: list() no longer returns it and a late handler never receives it",
        hint: "onDelete must remove the object from the cache, by namespace/name",
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir), async (s) => {
            await s.start();
            for (const n of names(6)) await s.create(n);
            await s.upstreamHas(6);
            for (const n of names(2)) await s.remove(n);
            await s.upstreamHas(4);
            await eventually(
              () => {
                const listed = s.fan
                  .list()
                  .map((o) => o.metadata?.name)
                  .sort();
                if (listed.join(",") !== names(6).slice(2).join(","))
                  throw new Error(`list() returns [${listed.join(", ")}] after cm-0 and cm-1 were deleted`);
                return true;
              },
              {
                timeout: 3000,
                interval: 20,
                description: "the fan-out's cache dropping the deleted objects",
              },
            );
            const late = recorder();
            s.fan.addHandler(late);
            await sleep(300);
            const got = [...late.log].sort();
            const want = names(6)
              .slice(2)
              .map((n) => `add ${n} v0 (initial)`);
            if (JSON.stringify(got) !== JSON.stringify(want))
              throw new Error(
                `the late handler received ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`,
              );
          }),
      },
      {
        requirement:
          "a handler that throws keeps receiving later notifications, and the other handlers are not affected",
        hint: "catch what a handler throws, report it, and go on with its next notification",
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir), async (s) => {
            let thrown = 0;
            s.fan.addHandler({
              onAdd: () => {
                thrown++;
                throw new Error("handler bug (thrown on purpose by the grader)");
              },
            });
            const other = recorder();
            s.fan.addHandler(other);
            await s.start();
            for (const n of names(5)) await s.create(n);
            await eventually(() => thrown === 5 && other.log.length === 5, {
              timeout: 3000,
              interval: 20,
              description: "5 adds reaching the throwing handler and the other one",
            }).catch((err) => {
              throw new Error(
                `${(err as Error).message} (throwing handler called ${thrown} times, other handler ${other.log.length})`,
              );
            });
          }),
      },
      {
        requirement:
          "pending() counts the notifications waiting for a stuck handler, and is 0 for a handler that has caught up",
        hint: "pending() is the length of that handler's own buffer",
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir), async (s) => {
            let stuckCalls = 0;
            const stuck = s.fan.addHandler({
              onAdd: () => {
                stuckCalls++;
                return new Promise<void>(() => {});
              },
            });
            const ok = recorder();
            const okReg = s.fan.addHandler(ok);
            await s.start();
            for (const n of names(6)) await s.create(n);
            await eventually(() => ok.log.length === 6 && stuck.pending() === 5 && okReg.pending() === 0, {
              timeout: 3000,
              interval: 20,
              description: "pending() of 5 for the stuck handler (1 in flight) and 0 for the other",
            }).catch((err) => {
              throw new Error(
                `${(err as Error).message}: stuck pending ${stuck.pending()} (called ${stuckCalls} times), other pending ${okReg.pending()}, other saw ${ok.log.length}`,
              );
            });
          }),
      },
      {
        requirement: "after stop() no handler is called again",
        hint: "stop() must end every handler's loop and drop what is still buffered",
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir), async (s) => {
            const h = recorder();
            s.fan.addHandler(h);
            await s.start();
            await s.create("before");
            await eventually(() => h.log.includes("add before v0"), {
              timeout: 3000,
              interval: 20,
              description: "the handler receiving an add before stop()",
            });
            s.fan.stop();
            const seen = h.log.length;
            for (const n of names(3, "after")) await s.create(n);
            await consistently(() => h.log.length === seen, {
              duration: 600,
              interval: 20,
              description: "no handler call after stop()",
            });
          }),
      },
    ];
  },
  teardown: () => cluster.stop(),
});
