/**
 * Grader of lab 02-reflector: the package's Reflector writes into the learner's `IndexedStore` against the
 * embedded API server (the 410 check needs its fault injection, whatever WORKBOOK_CLUSTER says), one fresh
 * namespace per check. Outcomes only: what `get`, `list` and `byIndex` answer compared with the server's truth.
 */
import { CoreV1Api, type V1ConfigMap } from "@kubernetes/client-node";
import type { MetaObject } from "../../apimachinery/index.js";
import { Reflector } from "../../cache/index.js";
import type { ReflectorStore } from "../../cache/store.js";
import { BuiltinResources, ListWatch } from "../../client/index.js";
import type { EmbeddedCluster } from "../../control-plane/cluster/index.js";
import { defineLab, eventually } from "../grading/index.js";
import { gradingCluster, importLab, sleep, withScenario } from "./support/index.js";

/** What `labs/02-reflector/store.ts` must export (its README): a store with named index functions. */
export interface StoreModule {
  IndexedStore: new (indexers: Record<string, (obj: MetaObject) => string[]>) => Store;
}

/** The learner's store: what the Reflector writes into, and what a controller reads. */
export interface Store extends ReflectorStore<MetaObject> {
  get(key: string): MetaObject | undefined;
  list(): MetaObject[];
  byIndex(indexName: string, value: string): MetaObject[];
}

/** The annotation the grader's index reads: a comma-separated list of teams. */
const TEAMS = "workbook.dev/teams";
const teamsOf = (obj: MetaObject): string[] =>
  (obj.metadata?.annotations?.[TEAMS] ?? "").split(",").filter((t) => t !== "");

/** Calls of the index function the grader gave the store, so far (every scenario's store counts here). */
let indexCalls = 0;
const countedTeamsOf = (obj: MetaObject): string[] => {
  indexCalls++;
  return teamsOf(obj);
};

/** One cluster for every check this worker runs. */
const cluster = gradingCluster(
  { prefix: "lab02" },
  {
    backend: "embedded",
    embedded: { controllers: { garbageCollector: false, namespace: false } },
  },
);

/** One check's world: a namespace, the learner's store, the package's Reflector filling it. */
class Scenario {
  private constructor(
    readonly c: EmbeddedCluster,
    readonly namespace: string,
    readonly store: Store,
    readonly reflector: Reflector<MetaObject>,
    private readonly listWatch: ListWatch,
    private readonly running: Promise<void>,
  ) {}

  static async open(dir: string, label: string, seed: Record<string, string>): Promise<Scenario> {
    const mod = await importLab<StoreModule>(dir, "store.js");
    const c = await cluster.get();
    c.instruments.faults.clear();
    const namespace = await cluster.newNamespace(label);
    const core = c.kubeConfig.makeApiClient(CoreV1Api);
    for (const [name, teams] of Object.entries(seed)) {
      await core.createNamespacedConfigMap({ namespace, body: configMap(name, teams) });
    }
    const store = new mod.IndexedStore({ team: countedTeamsOf });
    const listWatch = new ListWatch(c.kubeConfig, BuiltinResources.configMaps, { namespace });
    const reflector = new Reflector<MetaObject>(listWatch, store, {
      name: `lab02-${label}`,
      backoff: { initialMs: 50 },
      onError: () => {},
    });
    const running = reflector.run();
    await eventually(() => reflector.lastSyncResourceVersion() !== "", { timeout: 5000, interval: 20 });
    return new Scenario(c, namespace, store, reflector, listWatch, running);
  }

  get core(): CoreV1Api {
    return this.c.kubeConfig.makeApiClient(CoreV1Api);
  }

  get faults() {
    return this.c.instruments.faults;
  }

  key(name: string): string {
    return `${this.namespace}/${name}`;
  }

  async create(name: string, teams: string): Promise<void> {
    await this.core.createNamespacedConfigMap({ namespace: this.namespace, body: configMap(name, teams) });
  }

  async update(name: string, teams: string): Promise<void> {
    await this.core.replaceNamespacedConfigMap({
      name,
      namespace: this.namespace,
      body: configMap(name, teams),
    });
  }

  async remove(name: string): Promise<void> {
    await this.core.deleteNamespacedConfigMap({ name, namespace: this.namespace });
  }

  /** `name@resourceVersion` of every ConfigMap on the server, sorted. */
  async truth(): Promise<string[]> {
    const list = await this.core.listNamespacedConfigMap({ namespace: this.namespace });
    return list.items.map((cm) => `${cm.metadata?.name}@${cm.metadata?.resourceVersion}`).sort();
  }

  /** The same, from the learner's store's `list()`. */
  cached(): string[] {
    return safe(() => this.store.list(), [] as MetaObject[])
      .map((o) => `${o.metadata?.name}@${o.metadata?.resourceVersion}`)
      .sort();
  }

  /** Names `byIndex("team", team)` returns, sorted. */
  team(team: string): string[] {
    return safe(() => this.store.byIndex("team", team), [] as MetaObject[])
      .map((o) => (o ? (o.metadata?.name ?? "") : "(undefined: a key whose object is gone)"))
      .sort();
  }

  /** Waits until the store's list() matches the server; fails with both, and what differs. */
  async expectInStep(what: string, timeout = 3000): Promise<void> {
    let truth: string[] = [];
    try {
      await eventually(
        async () => {
          truth = await this.truth();
          return this.cached().join(" ") === truth.join(" ");
        },
        { timeout, interval: 30 },
      );
    } catch {
      const cached = this.cached();
      const extra = cached.filter((c) => !truth.includes(c));
      const missing = truth.filter((t) => !cached.includes(t));
      throw new Error(
        `${what}: after ${timeout} ms list() ${extra.length ? `still holds [${extra.join(", ")}]` : ""}` +
          `${extra.length && missing.length ? " and " : ""}` +
          `${missing.length ? `lacks [${missing.join(", ")}]` : ""} (server: [${truth.join(", ")}])`,
      );
    }
  }

  /** Waits until byIndex("team", team) names exactly `names`. */
  async expectTeam(team: string, names: string[], timeout = 3000): Promise<void> {
    const want = [...names].sort().join(",");
    await eventually(() => this.team(team).join(",") === want, { timeout, interval: 30 }).catch(() => {
      const got = this.team(team).join(", ");
      throw new Error(
        `byIndex("team", "${team}") gives [${got}], expected [${[...names].sort().join(", ")}]`,
      );
    });
  }

  async close(): Promise<void> {
    this.faults.clear();
    await this.reflector.stop();
    await this.running;
    await this.listWatch.close();
    await this.core.deleteNamespace({ name: this.namespace }).catch(() => {});
  }
}

function configMap(name: string, teams: string): V1ConfigMap {
  return { metadata: { name, annotations: { [TEAMS]: teams } }, data: { teams } };
}

/** The learner's method's answer, or `fallback` when it throws (a failing check says so elsewhere). */
function safe<T>(read: () => T, fallback: T): T {
  try {
    return read() ?? fallback;
  } catch {
    return fallback;
  }
}

export default defineLab({
  title: "a store with an index, filled by a reflector",
  checks: (dir) => [
    {
      requirement:
        "after the first LIST, get(namespace/name) and list() return every ConfigMap of the namespace",
      hint: "replace(list) is the first thing the reflector calls: store each object under keyOf(obj)",
      timeout: 15_000,
      run: () =>
        withScenario(Scenario.open(dir, "list", { a: "red", b: "blue", c: "red" }), async (s) => {
          await s.expectInStep("after the first LIST");
          for (const name of ["a", "b", "c"]) {
            const got = safe(() => s.store.get(s.key(name)), undefined);
            if (got?.metadata?.name !== name)
              throw new Error(`get("${s.key(name)}") returned ${got?.metadata?.name}`);
          }
        }),
    },
    {
      requirement: "creates, updates and deletes from the watch keep list() equal to the server",
      hint: "add and update store the new object; delete removes it",
      timeout: 15_000,
      run: () =>
        withScenario(Scenario.open(dir, "watch", { a: "red" }), async (s) => {
          await s.create("b", "blue");
          await s.expectInStep("after a create");
          await s.update("a", "blue");
          await s.expectInStep("after an update");
          await s.remove("b");
          await s.expectInStep("after a delete");
          if (safe(() => s.store.get(s.key("b")), undefined) !== undefined)
            throw new Error(`get("${s.key("b")}") still returns the deleted object`);
        }),
    },
    {
      requirement: "a deleted object leaves the store and every index value it was filed under",
      hint: "delete must also take the key out of every index value the object was filed under (when the failure is from before the delete, the object was never filed under all its values)",
      timeout: 15_000,
      run: () =>
        withScenario(Scenario.open(dir, "delete", { a: "red,blue", b: "red" }), async (s) => {
          await s.expectTeam("blue", ["a"]).catch((err: Error) => {
            throw new Error(`before the delete: ${err.message}`);
          });
          await s.remove("a");
          await s.expectInStep("after deleting a");
          await s.expectTeam("red", ["b"]);
          await s.expectTeam("blue", []);
        }),
    },
    {
      requirement:
        "after a 410 relist, objects deleted while the watch was down are gone from list(), get() and the index",
      hint: "replace() sets the whole content: whatever the new LIST does not hold must go, index entries too",
      timeout: 20_000,
      run: () =>
        withScenario(Scenario.open(dir, "gone", { a: "red", b: "red", c: "blue" }), async (s) => {
          await s.expectTeam("red", ["a", "b"]);
          const relists = s.reflector.stats().lists;
          // Hold new watches back, drop the open one, delete while no watch is open, forget the history.
          s.faults.latency(300, "watch");
          s.faults.dropWatches();
          await s.remove("b");
          await s.update("c", "red");
          s.faults.compactHistory();
          await sleep(350);
          s.faults.latency(0, "watch");
          await eventually(() => s.reflector.stats().lists > relists, { timeout: 5000, interval: 30 }).catch(
            () => {
              throw new Error("the reflector did not relist (grader problem: the 410 was not forced)");
            },
          );
          await s.expectInStep("after the relist");
          if (safe(() => s.store.get(s.key("b")), undefined) !== undefined)
            throw new Error(`get("${s.key("b")}") still returns b, deleted while the watch was down`);
          await s.expectTeam("red", ["a", "c"]);
        }),
    },
    {
      requirement:
        "the index follows updates: an object whose teams change leaves its old values and joins the new",
      hint: "on update, remove the key from the values the OLD object had before adding the new ones",
      timeout: 15_000,
      run: () =>
        withScenario(Scenario.open(dir, "move", { a: "red", b: "red,green" }), async (s) => {
          await s.expectTeam("red", ["a", "b"]);
          await s.update("a", "blue");
          await s.expectTeam("blue", ["a"]);
          await s.expectTeam("red", ["b"]);
          await s.update("b", "blue");
          await s.expectTeam("blue", ["a", "b"]);
          await s.expectTeam("red", []);
          await s.expectTeam("green", []);
        }),
    },
    {
      requirement: "an object with several index values is found under each of them, once",
      hint: "an index function returns a list: file the key under every value in it",
      timeout: 15_000,
      run: () =>
        withScenario(Scenario.open(dir, "multi", { a: "red,blue,green", b: "blue" }), async (s) => {
          await s.expectTeam("red", ["a"]);
          await s.expectTeam("blue", ["a", "b"]);
          await s.expectTeam("green", ["a"]);
          await s.update("b", "blue,blue2");
          await s.expectTeam("blue2", ["b"]);
          await s.expectTeam("blue", ["a", "b"]);
        }),
    },
    {
      requirement:
        "byIndex reads the index: answering it calls no index function, however many objects the store holds",
      hint: "keep value -> set of keys up to date in add, update, delete and replace, and let byIndex look the value up there: scanning every object and calling the index function costs a pass over the whole cache per lookup",
      timeout: 15_000,
      run: () =>
        withScenario(
          Scenario.open(dir, "lookup", { a: "red", b: "blue", c: "red", d: "green", e: "red" }),
          async (s) => {
            await s.expectTeam("red", ["a", "c", "e"]);
            await s.expectTeam("blue", ["b"]);
            // byIndex is synchronous: the reflector cannot write in between, so every call counted is byIndex's.
            const before = indexCalls;
            for (const team of ["red", "blue", "green", "nobody"]) s.team(team);
            const calls = indexCalls - before;
            if (calls > 0)
              throw new Error(
                `four byIndex lookups called the index function ${calls} times (the store holds 5 objects): byIndex scans the objects instead of reading the index`,
              );
          },
        ),
    },
  ],
  teardown: () => cluster.stop(),
});
