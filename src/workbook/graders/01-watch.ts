/**
 * Grader of lab 01-watch: the learner's `ResumingWatcher` runs against the embedded API server (the lab is about
 * faults, so it needs the server's fault injection and request counters whatever WORKBOOK_CLUSTER says), on a
 * fresh namespace per check. Outcomes only: what reached the handler, and what the server counted.
 */
import { CoreV1Api } from "@kubernetes/client-node";
import type { MetaObject } from "../../apimachinery/index.js";
import { BuiltinResources, ListWatch } from "../../client/index.js";
import type { EmbeddedCluster } from "../../control-plane/cluster/index.js";
import { consistently, defineLab, eventually } from "../grading/index.js";
import { gradingCluster, importLab, sleep, withScenario } from "./support/index.js";

/** What `labs/01-watch/watcher.ts` must export (its README): a watcher on a ListWatch, reporting to a handler. */
export interface WatcherModule {
  ResumingWatcher: new (source: ListWatch, handler: Recorder) => Watcher;
}

/** The learner's watcher, as the grader drives it: `run()` until `stop()`. */
export interface Watcher {
  run(): Promise<void>;
  stop(): Promise<void>;
}

/** One embedded cluster per grading worker; its own controllers off, so the counters count only the lab. */
const cluster = gradingCluster(
  { prefix: "lab01" },
  {
    backend: "embedded",
    embedded: { controllers: { garbageCollector: false, namespace: false } },
  },
);

/** What the learner's watcher handed to its handler. */
export class Recorder {
  readonly lists: Array<{ names: string[]; resourceVersion: string }> = [];
  readonly events: string[] = [];

  onList(items: MetaObject[], resourceVersion: string): void {
    this.lists.push({ names: items.map((o) => o.metadata?.name ?? "").sort(), resourceVersion });
  }

  onEvent(type: string, object: MetaObject): void {
    this.events.push(`${type} ${object.metadata?.name}@${object.metadata?.resourceVersion}`);
  }
}

/** True when event line `e` is the `expected` one (`DELETED b@*` matches any resourceVersion). */
const matches = (e: string, expected: string) =>
  expected.endsWith("@*") ? e.startsWith(expected.slice(0, -1)) : e === expected;

/** Event lines for the same change seen more than once, and expected changes never seen. */
function compare(seen: string[], expected: string[]): { duplicates: string[]; missing: string[] } {
  return {
    duplicates: seen.filter((e, i) => seen.indexOf(e) !== i),
    missing: expected.filter((x) => !seen.some((e) => matches(e, x))),
  };
}

/** One check's world: a namespace, the learner's watcher on it, and helpers to write and to wait. */
class Scenario {
  runSettled = false;
  runError: unknown;
  /** Events before this index are not looked at by {@link expectExactly}. */
  private since = 0;

  private constructor(
    readonly c: EmbeddedCluster,
    readonly namespace: string,
    readonly recorder: Recorder,
    readonly watcher: Watcher,
    private readonly listWatch: ListWatch,
  ) {}

  static async open(dir: string, label: string): Promise<Scenario> {
    const mod = await importLab<WatcherModule>(dir, "watcher.js");
    const c = await cluster.get();
    c.instruments.faults.clear();
    const namespace = await cluster.newNamespace(label);
    const listWatch = new ListWatch(c.kubeConfig, BuiltinResources.configMaps, { namespace });
    const recorder = new Recorder();
    const watcher = new mod.ResumingWatcher(listWatch, recorder);
    return new Scenario(c, namespace, recorder, watcher, listWatch);
  }

  get core(): CoreV1Api {
    return this.c.kubeConfig.makeApiClient(CoreV1Api);
  }

  get faults() {
    return this.c.instruments.faults;
  }

  get metrics() {
    return this.c.instruments.metrics;
  }

  /** LIST requests for ConfigMaps the server answered since the last metrics reset. */
  lists(): number {
    return this.metrics.count({ verb: "list", resource: "configmaps" });
  }

  start(): void {
    void Promise.resolve()
      .then(() => this.watcher.run())
      .then(
        () => {
          this.runSettled = true;
        },
        (err) => {
          this.runSettled = true;
          this.runError = err;
        },
      );
  }

  /** Waits for the first onList; fails with a hint when it never comes. */
  async synced(timeout = 3000): Promise<void> {
    await eventually(() => this.recorder.lists.length >= 1, {
      timeout,
      interval: 20,
      description: "a first call of handler.onList",
    }).catch(() => {
      throw new Error(`handler.onList was not called within ${timeout} ms of run()`);
    });
  }

  async create(name: string): Promise<string> {
    const cm = await this.core.createNamespacedConfigMap({
      namespace: this.namespace,
      body: { metadata: { name }, data: { v: "0" } },
    });
    return `ADDED ${name}@${cm.metadata?.resourceVersion}`;
  }

  async update(name: string, v: string): Promise<string> {
    const cm = await this.core.replaceNamespacedConfigMap({
      name,
      namespace: this.namespace,
      body: { metadata: { name }, data: { v } },
    });
    return `MODIFIED ${name}@${cm.metadata?.resourceVersion}`;
  }

  async remove(name: string): Promise<void> {
    await this.core.deleteNamespacedConfigMap({ name, namespace: this.namespace });
  }

  /** Names of the ConfigMaps the server holds now, sorted. */
  async serverNames(): Promise<string[]> {
    const list = await this.core.listNamespacedConfigMap({ namespace: this.namespace });
    return list.items.map((cm) => cm.metadata?.name ?? "").sort();
  }

  /** From now on: {@link expectExactly} looks only at events delivered after this call. */
  mark(): void {
    this.since = this.recorder.events.length;
  }

  /**
   * Waits until every expected event line delivered since the last {@link mark} is there, then a while longer
   * for extras; fails saying what was missing, repeated or extra. Marks again at the end.
   */
  async expectExactly(expected: string[], timeout = 3000): Promise<void> {
    const since = this.since;
    const seen = () => this.recorder.events.slice(since);
    try {
      await eventually(() => compare(seen(), expected).missing.length === 0, { timeout, interval: 20 });
      await consistently(() => seen().length <= expected.length, { duration: 300, interval: 20 });
    } catch {
      // fall through to the precise message below
    }
    const { duplicates, missing } = compare(seen(), expected);
    if (missing.length > 0)
      throw new Error(
        `${missing.length} of ${expected.length} changes never reached onEvent: ${missing.join(", ")}`,
      );
    if (duplicates.length > 0) throw new Error(`changes delivered twice: ${duplicates.join(", ")}`);
    const again = seen().filter((e) => this.recorder.events.slice(0, since).includes(e));
    if (again.length > 0)
      throw new Error(`changes delivered a second time (after the drop): ${again.join(", ")}`);
    if (seen().length > expected.length)
      throw new Error(`${seen().length} events for ${expected.length} changes: ${seen().join(", ")}`);
    this.mark();
  }

  async close(): Promise<void> {
    this.faults.clear();
    const stopped = this.watcher.stop().catch(() => {});
    await Promise.race([stopped, new Promise((r) => setTimeout(r, 2000))]);
    await this.listWatch.close();
    await this.core.deleteNamespace({ name: this.namespace }).catch(() => {});
  }
}

export default defineLab({
  title: "a watcher that resumes, and relists only on 410",
  checks: (dir) => [
    {
      requirement:
        "onList receives every ConfigMap in the namespace, then each later change reaches onEvent exactly once",
      hint: "LIST first and call handler.onList(items, list.metadata.resourceVersion); then WATCH from that version",
      timeout: 15_000,
      run: () =>
        withScenario(Scenario.open(dir, "basic"), async (s) => {
          for (const n of ["a", "b", "c"]) await s.create(n);
          s.start();
          await s.synced();
          const first = s.recorder.lists[0]!;
          if (first.names.join(",") !== "a,b,c")
            throw new Error(`onList got [${first.names.join(", ")}], the namespace holds [a, b, c]`);
          s.mark();
          const expected = [await s.create("d"), await s.update("a", "1")];
          await s.remove("b");
          await s.expectExactly([...expected, "DELETED b@*"]);
        }),
    },
    {
      requirement:
        "after a dropped watch it resumes from its last resourceVersion: no new LIST, every change exactly once",
      hint: "a watch that ends cleanly is resumed with the resourceVersion of the last event, not with a LIST",
      timeout: 15_000,
      run: () =>
        withScenario(Scenario.open(dir, "drop"), async (s) => {
          for (let i = 0; i < 5; i++) await s.create(`x${i}`);
          s.start();
          await s.synced();
          s.metrics.reset();
          s.mark();
          const expected = [await s.update("x0", "1"), await s.update("x1", "1")];
          await s.expectExactly([...expected]);
          // Hold new watches back for a moment, drop the open one, and write while no watch is open.
          s.faults.latency(300, "watch");
          s.faults.dropWatches();
          const during = [await s.update("x2", "1"), await s.update("x3", "1"), await s.update("x4", "1")];
          await sleep(350);
          s.faults.latency(0, "watch");
          await s.expectExactly(during);
          const lists = s.lists();
          if (lists > 0)
            throw new Error(`${lists} LIST request(s) after the drop: a clean end needs a new WATCH only`);
        }),
    },
    {
      requirement:
        "after 410 Gone it lists again and hands onList the new state, without the object deleted meanwhile",
      hint: 'isExpired(err) on the watch means: LIST again (resourceVersion ""), call onList, watch from there',
      timeout: 15_000,
      run: () =>
        withScenario(Scenario.open(dir, "gone"), async (s) => {
          for (let i = 0; i < 4; i++) await s.create(`g${i}`);
          s.start();
          await s.synced();
          s.faults.latency(300, "watch");
          s.faults.dropWatches();
          await s.remove("g1");
          await s.update("g2", "while away");
          s.faults.compactHistory();
          await sleep(350);
          s.faults.latency(0, "watch");
          const truth = await s.serverNames();
          await eventually(() => s.recorder.lists.length >= 2, { timeout: 4000, interval: 20 }).catch(() => {
            throw new Error(
              `onList was called ${s.recorder.lists.length} time(s): after the 410 it must be called again`,
            );
          });
          const last = s.recorder.lists[s.recorder.lists.length - 1]!;
          if (last.names.join(",") !== truth.join(","))
            throw new Error(
              `the relist gave [${last.names.join(", ")}], the server holds [${truth.join(", ")}]`,
            );
          // And it watches again after the relist.
          s.mark();
          await s.expectExactly([await s.update("g3", "after")]);
        }),
    },
    {
      requirement:
        "when every watch is cut after 3 events it keeps reopening: no LIST, no change lost or repeated",
      hint: "remember the resourceVersion of every event you pass on; resume from the last one",
      timeout: 20_000,
      run: () =>
        withScenario(Scenario.open(dir, "cut"), async (s) => {
          await s.create("h");
          s.start();
          await s.synced();
          s.metrics.reset();
          s.faults.dropWatchesEvery(3);
          s.faults.dropWatches();
          s.mark();
          const expected: string[] = [];
          for (let i = 1; i <= 12; i++) expected.push(await s.update("h", String(i)));
          await s.expectExactly(expected, 5000);
          const lists = s.lists();
          if (lists > 0) throw new Error(`${lists} LIST request(s) while the watches were being cut`);
        }),
    },
    {
      requirement:
        "a LIST that fails is retried after a pause, not in a tight loop, and the watcher recovers",
      hint: "after a failure wait before retrying, longer each time (e.g. 200 ms doubling)",
      timeout: 15_000,
      run: () =>
        withScenario(Scenario.open(dir, "retry"), async (s) => {
          await s.create("r");
          s.metrics.reset();
          s.faults.failNext("list", 100_000, 500, "configmaps");
          s.start();
          await sleep(1000);
          const attempts = s.lists();
          s.faults.clear();
          await s.synced(4000);
          if (attempts > 10)
            throw new Error(`${attempts} LIST attempts in 1 s while the server failed them: a tight loop`);
          if (attempts < 2)
            throw new Error(`${attempts} LIST attempt(s) in 1 s: a failed LIST must be retried`);
        }),
    },
    {
      requirement: "stop() ends the watch: run() resolves and no event reaches the handler afterwards",
      hint: "give list/watch an AbortSignal and abort it in stop(); run() must then return",
      timeout: 15_000,
      run: () =>
        withScenario(Scenario.open(dir, "stop"), async (s) => {
          await s.create("s");
          s.start();
          await s.synced();
          s.mark();
          await s.expectExactly([await s.update("s", "1")]);
          await Promise.race([
            s.watcher.stop(),
            sleep(2000).then(() => {
              throw new Error("stop() did not resolve within 2 s");
            }),
          ]);
          await eventually(() => s.runSettled, { timeout: 2000 }).catch(() => {
            throw new Error("run() had not resolved 2 s after stop()");
          });
          if (s.runError) throw new Error(`run() rejected: ${String(s.runError)}`);
          const before = s.recorder.events.length;
          await s.update("s", "2");
          await consistently(() => s.recorder.events.length === before, {
            duration: 500,
            interval: 20,
          }).catch(() => {
            throw new Error("an event reached the handler after stop()");
          });
        }),
    },
  ],
  teardown: () => cluster.stop(),
});
