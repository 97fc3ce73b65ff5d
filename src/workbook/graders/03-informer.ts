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

/** How a log line shows a notification: `add cm-1 v0 (initial)`, `update cm-1 v0->v1`, `delete cm-1`. */
const v = (o: V1ConfigMap) => o.data?.v ?? "?";
const addLine = (o: V1ConfigMap, initial: boolean) =>
  `add ${o.metadata?.name} ${v(o)}${initial ? " (initial)" : ""}`;
const updateLine = (a: V1ConfigMap, b: V1ConfigMap) => `update ${b.metadata?.name} ${v(a)}->${v(b)}`;
const deleteLine = (o: V1ConfigMap) => `delete ${o.metadata?.name}`;

/** A handler that logs what it receives, one line per call (see {@link addLine}). */
function recorder(): Handler & { log: string[] } {
  const log: string[] = [];
  return {
    log,
    onAdd: (o: V1ConfigMap, initial: boolean) => {
      log.push(addLine(o, initial));
    },
    onUpdate: (a: V1ConfigMap, b: V1ConfigMap) => {
      log.push(updateLine(a, b));
    },
    onDelete: (o: V1ConfigMap) => {
      log.push(deleteLine(o));
    },
  };
}

/** A promise and the function that resolves it: a handler awaits it to stay busy until the grader says. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** A namespace, an upstream informer on its ConfigMaps, and the learner's FanOut as that informer's handler. */
class Scenario {
  readonly core: CoreV1Api;
  readonly fan: FanOut<V1ConfigMap>;
  /** What the upstream informer has told the fan-out so far, one {@link addLine}-style line per call. */
  readonly told: string[] = [];
  /** Called with each notification's line just before the fan-out hears it (to act at an exact moment). */
  beforeTell?: (line: string) => void;
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
    const tell = (line: string, deliver: () => void) => {
      this.beforeTell?.(line);
      try {
        deliver();
      } finally {
        this.told.push(line);
      }
    };
    this.informer.addEventHandler({
      onAdd: (o, initial) => tell(addLine(o, initial), () => fan.onAdd(o, initial)),
      onUpdate: (a, b) => tell(updateLine(a, b), () => fan.onUpdate(a, b)),
      onDelete: (d) => {
        const o = d instanceof DeletedFinalStateUnknown ? d.obj! : d;
        tell(deleteLine(o), () => fan.onDelete(o));
      },
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

  /** Waits until the upstream informer has told the fan-out each of `lines` (then its calls have returned). */
  async toldOf(...lines: string[]): Promise<void> {
    await eventually(() => lines.every((line) => this.told.includes(line)), {
      timeout: 5000,
      interval: 10,
      description: `the upstream informer telling the fan-out ${lines.join(", ")}`,
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
        requirement:
          "every handler receives every add, update and delete of every object, in order, each add with the isInInitialList it came with",
        hint: "queue each notification for every handler as it arrived: an add keeps the isInInitialList the upstream gave it (true for its first LIST)",
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir), async (s) => {
            const hs = [recorder(), recorder(), recorder()];
            for (const h of hs) s.fan.addHandler(h);
            // cm-0 and cm-1 arrive with the upstream's initial LIST (isInInitialList true), cm-2, cm-3 live.
            for (const n of names(2)) await s.create(n);
            await s.start();
            for (const n of names(4).slice(2)) await s.create(n);
            for (const n of names(4)) await s.update(n, "v1");
            for (const n of names(4)) await s.update(n, "v2");
            for (const n of names(2)) await s.remove(n);
            const expected = (n: string, deleted: boolean) => [
              `add ${n} v0${n === "cm-0" || n === "cm-1" ? " (initial)" : ""}`,
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
        hint: "give each handler its own buffer and its own loop, which awaits that handler's call before taking its next notification; never make one handler wait for another",
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
          "a handler registered late, even while notifications arrive, first receives every object cached at that moment as an add with isInInitialList true, then exactly the live events after it",
        hint: "in one synchronous step, copy the cache into the new handler's buffer (as initial adds) and add it to the fan-out; replay from that copy, never from the live cache or later",
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir), async (s) => {
            for (const n of names(6)) await s.create(n);
            await s.start();
            await s.toldOf(...names(6).map((n) => `add ${n} v0 (initial)`));
            // The late handler joins just before the fan-out hears cm-4's update, and stays busy with its first
            // replayed object until cm-6 has been created and cm-5 deleted: its replay must still be the cache
            // at registration (cm-4 at v0, cm-5 present, no cm-6), and each of those changes a live event.
            const late = recorder();
            const busy = gate();
            const lateHandler: Handler = {
              onAdd: async (o: V1ConfigMap, initial: boolean) => {
                await busy.opened;
                late.onAdd?.(o, initial);
              },
              onUpdate: late.onUpdate,
              onDelete: late.onDelete,
            };
            let registered = false;
            s.beforeTell = (line) => {
              if (registered || line !== "update cm-4 v0->v1") return;
              registered = true;
              s.fan.addHandler(lateHandler);
            };
            await s.update("cm-4", "v1");
            await s.toldOf("update cm-4 v0->v1");
            await s.create("cm-6");
            await s.remove("cm-5");
            await s.toldOf("add cm-6 v0", "delete cm-5");
            busy.open();
            const replay = names(6).map((n) => `add ${n} v0 (initial)`);
            const live = ["update cm-4 v0->v1", "add cm-6 v0", "delete cm-5"];
            await eventually(
              () => {
                const got = late.log;
                const replayed = [...got.slice(0, replay.length)].sort();
                if (
                  JSON.stringify(replayed) !== JSON.stringify(replay) ||
                  JSON.stringify(got.slice(replay.length)) !== JSON.stringify(live)
                )
                  throw new Error(
                    `the late handler received ${JSON.stringify(got)}; expected cm-0..cm-5 at v0 as initial adds (the cache at registration, any order), then ${live.join(", ")}`,
                  );
                return true;
              },
              { timeout: 3000, interval: 20, description: "the late handler's replay, then its live events" },
            );
          }),
      },
      {
        requirement:
          "the cache follows every notification: list() returns the newest version of each object and no deleted one, and a late handler's replay is exactly that",
        hint: "onUpdate stores the new object under its namespace/name key, onDelete removes that key",
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir), async (s) => {
            await s.start();
            for (const n of names(6)) await s.create(n);
            for (const n of ["cm-2", "cm-3"]) await s.update(n, "v1");
            for (const n of names(2)) await s.remove(n);
            await s.toldOf("update cm-2 v0->v1", "update cm-3 v0->v1", "delete cm-0", "delete cm-1");
            const cached = ["cm-2 v1", "cm-3 v1", "cm-4 v0", "cm-5 v0"];
            await eventually(
              () => {
                const listed = s.fan
                  .list()
                  .map((o) => `${o.metadata?.name} ${v(o as V1ConfigMap)}`)
                  .sort();
                if (listed.join(", ") !== cached.join(", "))
                  throw new Error(
                    `list() returns [${listed.join(", ")}] after cm-2, cm-3 were updated to v1 and cm-0, cm-1 deleted; expected [${cached.join(", ")}]`,
                  );
                return true;
              },
              {
                timeout: 3000,
                interval: 20,
                description: "the fan-out's cache following updates and deletes",
              },
            );
            const late = recorder();
            s.fan.addHandler(late);
            // A live event after the registration: once it arrives, the replay before it is complete.
            await s.update("cm-5", "v2");
            await eventually(() => late.log.includes("update cm-5 v0->v2"), {
              timeout: 3000,
              interval: 20,
              description: "the late handler receiving a live update after its replay",
            });
            const replay = late.log.slice(0, late.log.indexOf("update cm-5 v0->v2")).sort();
            const want = cached.map((c) => `add ${c} (initial)`);
            if (JSON.stringify(replay) !== JSON.stringify(want))
              throw new Error(
                `the late handler's replay was ${JSON.stringify(replay)}, expected ${JSON.stringify(want)}`,
              );
          }),
      },
      {
        requirement:
          "a handler that throws keeps receiving later notifications, and the other handlers are not affected",
        hint: "wrap each handler call in its own try/catch: report the error and go on with that handler's next notification",
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
        hint: "take a notification out of the handler's buffer when its call starts; pending() is what is left in that buffer",
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
        requirement: "after stop() no handler is called again, not even with notifications still buffered",
        hint: "stop() must end every handler's loop and drop what is still buffered",
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir), async (s) => {
            const calls: string[] = [];
            const busy = gate();
            s.fan.addHandler({
              onAdd: async (o: V1ConfigMap) => {
                calls.push(`add ${o.metadata?.name}`);
                await busy.opened;
              },
            });
            await s.start();
            for (const n of names(3)) await s.create(n);
            await s.toldOf(...names(3).map((n) => `add ${n} v0`));
            await eventually(() => calls.length > 0, {
              timeout: 3000,
              interval: 10,
              description: "the handler receiving its first add",
            });
            // The handler is busy with its first add; the other two wait in its buffer when stop() comes.
            s.fan.stop();
            const seen = calls.length;
            busy.open();
            await s.create("after");
            await s.toldOf("add after v0");
            await consistently(() => calls.length === seen, {
              duration: 300,
              interval: 10,
              description: `no handler call after stop() (calls so far: ${seen})`,
            }).catch((err) => {
              throw new Error(`${(err as Error).message}; calls: ${calls.join(", ")}`);
            });
          }),
      },
    ];
  },
  teardown: () => cluster.stop(),
});
