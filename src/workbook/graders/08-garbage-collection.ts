/**
 * Grader of lab 08-garbage-collection: the learner's collector is the only garbage collector of the cluster
 * (embedded with its own off, or envtest without kube-controller-manager), a fresh namespace per check, on either
 * track (the TypeScript factory or the Go program, support/tracks.ts).
 * Outcomes only: which ConfigMaps outlive their ConfigSet under background, foreground and orphan deletion, as
 * kube-controller-manager's garbage collector decides it from ownerReferences and finalizers.
 */
import { CoreV1Api, PatchStrategy, setHeaderOptions, type V1ConfigMap } from "@kubernetes/client-node";
import { isNotFound } from "../../apimachinery/index.js";
import type { Cluster } from "../../control-plane/cluster/index.js";
import { ownerReferenceTo } from "../../meta/index.js";
import { consistently, defineLab, eventually } from "../grading/index.js";
import { type ConfigSet, configSetClient, WORKBOOK_API_VERSION } from "../workbook-api/index.js";
import {
  gradingCluster,
  type LabController,
  type LabControllerOptions,
  openTrack,
  openTrackScenario,
  prepareTrack,
  TrackScenario,
  type TrackScenarioPlace,
  withScenario,
} from "./support/index.js";

/**
 * What `labs/08-garbage-collection/collector.ts` must export (its README): a factory of the collector. The Go
 * track (`labs/08-garbage-collection/go/`) is a controller-runtime program instead, graded by the same checks.
 */
export interface CollectorModule {
  createCollector(options: Omit<LabControllerOptions, "onReconcile">): LabController;
}

const HOLD = "example.com/hold";

/** The first requirement: the foreground and orphan checks use it to know the collector's cache is current. */
const BACKGROUND =
  "background: when a ConfigSet is deleted, its children are deleted after it, and the children of another ConfigSet stay";
const merge = setHeaderOptions("Content-Type", PatchStrategy.MergePatch);

/**
 * One cluster for every check this worker runs, with no garbage collector but the learner's (the embedded
 * control plane's switched off, envtest without kube-controller-manager), with the workbook's CRDs installed.
 */
const cluster = gradingCluster(
  { prefix: "lab08", workbookApi: true },
  { embedded: { controllers: { garbageCollector: false } }, envtest: { controllerManager: false } },
);

/**
 * A whole cluster (kind, or any through kubeconfig, which is how a kind grading run reaches its workers) runs
 * kube-controller-manager's collector, which would do the lab's work and pass its checks for any code.
 */
function refuseWholeCluster(c: Cluster): void {
  if (c.backend === "kind" || c.backend === "kubeconfig") {
    throw new Error(
      "lab 08 grades a garbage collector of your own, and this cluster runs kube-controller-manager's: grade " +
        "it on embedded (the default) or envtest",
    );
  }
}

interface ChildSpec {
  /** Keep the child Terminating with a finalizer of the grader's until released. */
  hold?: boolean;
  /** blockOwnerDeletion of its reference (default true, as setControllerReference writes it). */
  block?: boolean;
}

/** One check's world: a fresh namespace with the lab's collector running in it. */
class Scenario extends TrackScenario {
  private probes = 0;

  static async open(dir: string, label: string): Promise<Scenario> {
    const track = openTrack<CollectorModule>(dir, (mod) => mod.createCollector, "collector.js");
    const place: TrackScenarioPlace = await openTrackScenario(cluster, track, label);
    refuseWholeCluster(place.cluster);
    const s = new Scenario(place);
    await s.startController();
    return s;
  }

  get core(): CoreV1Api {
    return this.cluster.kubeConfig.makeApiClient(CoreV1Api);
  }

  get sets() {
    return configSetClient(this.cluster.kubeConfig);
  }

  /** A ConfigSet and its children `<name>-<i>`, each with a controller reference (plus `extraOwners`). */
  async family(name: string, children: ChildSpec[], extraOwners: ConfigSet[] = []): Promise<ConfigSet> {
    const owner = await this.sets.create({
      metadata: { name, namespace: this.namespace },
      spec: { replicas: children.length },
    });
    for (const [i, child] of children.entries()) {
      const ref = ownerReferenceTo(owner, { controller: true, blockOwnerDeletion: child.block ?? true });
      const others = extraOwners.map((o) => ownerReferenceTo(o, { blockOwnerDeletion: true }));
      await this.core.createNamespacedConfigMap({
        namespace: this.namespace,
        body: {
          metadata: {
            name: `${name}-${i}`,
            ownerReferences: [ref, ...others],
            finalizers: child.hold ? [HOLD] : [],
          },
        },
      });
    }
    return owner;
  }

  /**
   * Returns once the collector's ConfigMap cache holds every ConfigMap created so far. A probe ConfigMap whose
   * only owner never existed is created; its watch event comes after those of the ConfigMaps created before it
   * (one watch delivers in resourceVersion order), so the collector deleting it means it has seen them all.
   * Without this, deleting an owner straight after creating its children races the children's watch events:
   * a cached list can miss a child, as kube's collector's graph can.
   */
  async caughtUp(): Promise<void> {
    const name = `probe-${++this.probes}`;
    const neverCreated = {
      apiVersion: WORKBOOK_API_VERSION,
      kind: "ConfigSet",
      metadata: { name: "never-created", uid: "00000000-0000-4000-8000-00000000000f" },
    };
    await this.core.createNamespacedConfigMap({
      namespace: this.namespace,
      body: { metadata: { name, ownerReferences: [ownerReferenceTo(neverCreated, { controller: true })] } },
    });
    await this.until(
      `${name} (owned only by a ConfigSet that never existed) collected, so the collector has seen the children`,
      async () => ((await this.child(name)) ? `${name} still exists` : undefined),
    );
  }

  async child(name: string): Promise<V1ConfigMap | undefined> {
    try {
      return await this.core.readNamespacedConfigMap({ name, namespace: this.namespace });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async owner(name: string): Promise<ConfigSet | undefined> {
    try {
      return await this.sets.get(this.namespace, name);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** Names of the ConfigMaps left in the namespace (the root CA ConfigMap of real clusters excluded). */
  async childNames(): Promise<string[]> {
    const list = await this.core.listNamespacedConfigMap({ namespace: this.namespace });
    return list.items
      .map((cm) => cm.metadata?.name ?? "")
      .filter((n) => n !== "kube-root-ca.crt")
      .sort();
  }

  async release(name: string): Promise<void> {
    await this.core.patchNamespacedConfigMap(
      { name, namespace: this.namespace, body: { metadata: { finalizers: null } } },
      merge,
    );
  }

  /** Polls `condition` (a reason while unmet, undefined once met); fails with the last reason. */
  async until(what: string, condition: () => Promise<string | undefined>, timeout = 5000): Promise<void> {
    let why: string | undefined = "not checked yet";
    try {
      await eventually(
        async () => {
          why = await condition();
          return why === undefined;
        },
        { timeout, interval: 50 },
      );
    } catch {
      throw new Error(`${what}: still not the case after ${timeout} ms: ${why}`);
    }
  }

  override async close(): Promise<void> {
    await super.close();
    // Let everything go so the namespace can be deleted later: drop the grader's own holds.
    for (const name of await this.childNames()) {
      const cm = await this.child(name);
      if (cm?.metadata?.finalizers?.includes(HOLD)) await this.release(name).catch(() => undefined);
    }
  }
}

/** Grader of labs/08-garbage-collection: background, foreground and orphan for ConfigSets, collector off. */
export default defineLab({
  title: "a garbage collector for ConfigSets",
  async checks(dir) {
    await prepareTrack(dir);
    return [
      {
        requirement: BACKGROUND,
        hint: "in reconcileChild, GET each ConfigSet the child references; when none exists, delete the child",
        timeout: 15_000,
        run: () =>
          withScenario(Scenario.open(dir, "background"), async (s) => {
            await s.family("web", [{}, {}]);
            await s.family("api", [{}]);
            await s.sets.delete(s.namespace, "web", { propagationPolicy: "Background" });
            await s.until("web's children deleted", async () => {
              const left = await s.childNames();
              return left.join(",") === "api-0" ? undefined : `ConfigMaps left: ${left.join(", ")}`;
            });
            if (!(await s.owner("api"))) throw new Error("ConfigSet api was deleted too");
          }),
      },
      {
        requirement:
          "background keeps a child whose second owner lives: deleting its controller owner leaves it in place",
        hint: "a child is garbage only when none of the ConfigSets it references exists (by uid): check every ownerReference, not only the controller one (kube's collector then just drops the dangling reference)",
        timeout: 15_000,
        run: () =>
          withScenario(Scenario.open(dir, "shared-child"), async (s) => {
            const keeper = await s.sets.create({
              metadata: { name: "keeper", namespace: s.namespace },
              spec: { replicas: 0 },
            });
            await s.family("job", [{}], [keeper]); // job-0: controller owner job, second owner keeper
            const owner = (await s.owner("job"))!;
            await s.core.createNamespacedConfigMap({
              namespace: s.namespace,
              body: {
                metadata: {
                  name: "only-job",
                  ownerReferences: [ownerReferenceTo(owner, { controller: true })],
                },
              },
            });
            await s.sets.delete(s.namespace, "job", { propagationPolicy: "Background" });
            // only-job has no other owner: once it is gone, the collector has acted on job's deletion.
            await s.until("only-job deleted", async () =>
              (await s.child("only-job")) ? "only-job (owned by job alone) still exists" : undefined,
            );
            await consistently(
              async () => {
                if (!(await s.child("job-0")))
                  throw new Error("job-0 was deleted although its second owner keeper still exists");
              },
              { duration: 500, interval: 50 },
            );
          }),
      },
      {
        requirement:
          "owners are matched by uid: a child that references an existing ConfigSet by name but with an old uid is deleted",
        hint: "compare the uid of the ConfigSet you GET with the uid in the reference: same name, other uid = gone",
        timeout: 15_000,
        run: () =>
          withScenario(Scenario.open(dir, "uid"), async (s) => {
            const live = await s.sets.create({
              metadata: { name: "web", namespace: s.namespace },
              spec: { replicas: 0 },
            });
            const stale = {
              ...ownerReferenceTo(live, { controller: true }),
              uid: "00000000-0000-4000-8000-000000000000",
            };
            await s.core.createNamespacedConfigMap({
              namespace: s.namespace,
              body: { metadata: { name: "stale-child", ownerReferences: [stale] } },
            });
            await s.core.createNamespacedConfigMap({
              namespace: s.namespace,
              body: {
                metadata: {
                  name: "live-child",
                  ownerReferences: [ownerReferenceTo(live, { controller: true })],
                },
              },
            });
            await s.until("stale-child deleted", async () =>
              (await s.child("stale-child")) ? "stale-child still exists" : undefined,
            );
            if (!(await s.child("live-child")))
              throw new Error("live-child, owned by the live ConfigSet, was deleted");
          }),
      },
      {
        requirement:
          "foreground: the ConfigSet stays with foregroundDeletion until its blocking children are gone, and goes afterwards",
        hint: "delete the children first; remove foregroundDeletion only when no child with blockOwnerDeletion is left",
        needs: [BACKGROUND],
        timeout: 15_000,
        run: () =>
          withScenario(Scenario.open(dir, "foreground"), async (s) => {
            await s.family("db", [{ hold: true }, {}]);
            await s.caughtUp();
            await s.sets.delete(s.namespace, "db", { propagationPolicy: "Foreground" });
            await s.until("db-1 deleted and db-0 Terminating", async () => {
              const held = await s.child("db-0");
              if (!held?.metadata?.deletionTimestamp) return "db-0 has no deletionTimestamp";
              return (await s.child("db-1")) ? "db-1 still exists" : undefined;
            });
            await new Promise((r) => setTimeout(r, 300));
            const waiting = await s.owner("db");
            if (!waiting) throw new Error("db went away while its blocking child db-0 was still there");
            if (!waiting.metadata.finalizers?.includes("foregroundDeletion"))
              throw new Error(`db's finalizers are ${JSON.stringify(waiting.metadata.finalizers)}`);
            await s.release("db-0");
            await s.until("db gone after its last blocking child", async () =>
              (await s.owner("db")) ? "db still exists" : undefined,
            );
          }),
      },
      {
        requirement:
          "foreground waits only for blocking children: a held child without blockOwnerDeletion does not keep the ConfigSet",
        hint: "only references with blockOwnerDeletion: true hold the owner; others are deleted but not waited for",
        needs: [BACKGROUND],
        timeout: 15_000,
        run: () =>
          withScenario(Scenario.open(dir, "nonblocking"), async (s) => {
            await s.family("cache", [{ hold: true, block: false }]);
            await s.caughtUp();
            await s.sets.delete(s.namespace, "cache", { propagationPolicy: "Foreground" });
            await s.until("cache gone", async () =>
              (await s.owner("cache")) ? "cache still exists" : undefined,
            );
            const held = await s.child("cache-0");
            if (!held?.metadata?.deletionTimestamp) throw new Error("cache-0 was never deleted");
          }),
      },
      {
        requirement:
          "orphan: the children survive with the same uids and no reference to the ConfigSet, and the ConfigSet is gone",
        hint: "remove the owner's reference from each child first, then the orphan finalizer from the owner",
        needs: [BACKGROUND],
        timeout: 15_000,
        run: () =>
          withScenario(Scenario.open(dir, "orphan"), async (s) => {
            const owner = await s.family("logs", [{}, {}]);
            await s.caughtUp();
            const before = (await Promise.all(["logs-0", "logs-1"].map((n) => s.child(n)))).map(
              (c) => c?.metadata?.uid,
            );
            await s.sets.delete(s.namespace, "logs", { propagationPolicy: "Orphan" });
            await s.until("logs gone", async () =>
              (await s.owner("logs")) ? "logs still exists" : undefined,
            );
            await new Promise((r) => setTimeout(r, 300));
            for (const [i, name] of ["logs-0", "logs-1"].entries()) {
              const child = await s.child(name);
              if (!child) throw new Error(`${name} was deleted`);
              if (child.metadata?.uid !== before[i]) throw new Error(`${name} was recreated (new uid)`);
              if (child.metadata?.ownerReferences?.some((r) => r.uid === owner.metadata.uid))
                throw new Error(`${name} still references logs`);
            }
          }),
      },
      {
        requirement: "orphan keeps other owners: a child's reference to a second ConfigSet survives",
        hint: "filter out only the references whose uid is the deleted owner's",
        needs: [BACKGROUND],
        timeout: 15_000,
        run: () =>
          withScenario(Scenario.open(dir, "second-owner"), async (s) => {
            const keeper = await s.sets.create({
              metadata: { name: "keeper", namespace: s.namespace },
              spec: { replicas: 0 },
            });
            await s.family("tmp", [{}], [keeper]);
            await s.caughtUp();
            await s.sets.delete(s.namespace, "tmp", { propagationPolicy: "Orphan" });
            await s.until("tmp gone", async () => ((await s.owner("tmp")) ? "tmp still exists" : undefined));
            await new Promise((r) => setTimeout(r, 300));
            const child = await s.child("tmp-0");
            if (!child) throw new Error("tmp-0 was deleted");
            const uids = (child.metadata?.ownerReferences ?? []).map((r) => r.uid);
            if (uids.join(",") !== keeper.metadata.uid)
              throw new Error(`tmp-0's owners are ${JSON.stringify(uids)}, want only keeper's uid`);
          }),
      },
    ];
  },
  teardown: () => cluster.stop(),
});
