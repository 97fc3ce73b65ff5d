/**
 * LAB 13 solution: tests of the ConfigSet controller in three layers. Unit tests call `reconcileConfigSet` on a
 * fake (every write recorded, in order); integration tests run the whole controller on the grader's cluster and
 * poll with `eventually`, never a sleep; fault tests put an interceptor in front of the writes.
 */
import { CoreV1Api } from "@kubernetes/client-node";
import { errors, getControllerOf, Indexer, Lister } from "kube-controller-workbook";
import { consistently, eventually, expectEqual, expectTrue } from "kube-controller-workbook/grading";
import { CONFIGSET_LABEL, type ConfigSet, configSetClient } from "kube-controller-workbook/workbook";
import {
  apiWrites,
  type Child,
  FINALIZER,
  reconcileConfigSet,
  startConfigSetController,
} from "./controller.js";
import { type ControllerTest, FakeWrites, intercept, type TestContext } from "./testing.js";

const NS = "unit";
const KEY = `${NS}/web`;

/** A fake holding the ConfigSet web (3 children of colour blue), and what a test reads from it. */
function unitWorld(extra: Partial<ConfigSet["metadata"]> = {}) {
  const fake = new FakeWrites();
  fake.seed<ConfigSet>({
    metadata: { name: "web", namespace: NS, uid: "uid-web", ...extra },
    spec: { replicas: 3, data: { colour: "blue" } },
  });
  const children = () =>
    fake.configMaps.list().filter((cm) => cm.metadata.labels?.[CONFIGSET_LABEL] === "web");
  const web = () => fake.configSets.getByKey(KEY);
  const edit = (spec: ConfigSet["spec"]) => {
    const current = web();
    if (current) fake.configSets.update({ ...current, spec });
  };
  return { fake, ctx: fake.context(), children, web, edit };
}

/** The names of the children, sorted. */
const names = (children: Child[]) => children.map((cm) => cm.metadata.name ?? "").sort();

/** Throws unless every child is controlled by web (uid `uid`) and carries `colour`. */
function expectChildrenOf(children: Child[], uid: string, colour: string, count: number): void {
  expectEqual("number of children", children.length, count);
  for (const cm of children) {
    expectEqual(`${cm.metadata.name}'s controller`, getControllerOf(cm)?.uid, uid);
    expectEqual(`${cm.metadata.name}'s colour`, cm.data?.colour, colour);
  }
}

const unitTests: ControllerTest[] = [
  {
    name: "unit: from nothing, the finalizer first, then three children with the data and an owner",
    run: async () => {
      const w = unitWorld();
      await reconcileConfigSet(w.ctx, KEY);
      expectEqual("writes", w.fake.actions, [
        "finalizers web",
        "create web-0",
        "create web-1",
        "create web-2",
      ]);
      expectEqual("finalizers of web", w.web()?.metadata.finalizers, [FINALIZER]);
      expectChildrenOf(w.children(), "uid-web", "blue", 3);
    },
  },
  {
    name: "unit: converged, a second pass writes nothing",
    run: async () => {
      const w = unitWorld();
      await reconcileConfigSet(w.ctx, KEY);
      const before = w.fake.actions.length;
      await reconcileConfigSet(w.ctx, KEY);
      await reconcileConfigSet(w.ctx, KEY);
      expectEqual("writes of the later passes", w.fake.actions.slice(before), []);
    },
  },
  {
    name: "unit: a labelled orphan is adopted, not duplicated",
    run: async () => {
      const w = unitWorld();
      w.fake.seed<Child>({
        metadata: { name: "web-0", namespace: NS, labels: { [CONFIGSET_LABEL]: "web" } },
        data: { colour: "red" },
      });
      await reconcileConfigSet(w.ctx, KEY);
      expectEqual("children", names(w.children()), ["web-0", "web-1", "web-2"]);
      expectChildrenOf(w.children(), "uid-web", "blue", 3);
    },
  },
  {
    name: "unit: a spec edit reaches the existing children, and extras are deleted",
    run: async () => {
      const w = unitWorld();
      await reconcileConfigSet(w.ctx, KEY);
      w.edit({ replicas: 2, data: { colour: "green" } });
      await reconcileConfigSet(w.ctx, KEY);
      expectEqual("children", names(w.children()), ["web-0", "web-1"]);
      expectChildrenOf(w.children(), "uid-web", "green", 2);
    },
  },
  {
    name: "unit: a cache that has not seen its own creates makes no duplicate",
    run: async () => {
      const w = unitWorld();
      // The children's cache stays empty: every pass believes nothing exists yet.
      const lagging = { ...w.ctx, children: new Lister(new Indexer<Child>()) };
      for (let pass = 0; pass < 2; pass++)
        await reconcileConfigSet(lagging, KEY).catch((err) => {
          if (!errors.isAlreadyExists(err)) throw err; // the API's answer to a repeated create: fine
        });
      expectEqual("children in the API", names(w.children()), ["web-0", "web-1", "web-2"]);
    },
  },
  {
    name: "unit: a 409 on an update is returned, and the next pass lands the edit",
    run: async () => {
      const w = unitWorld();
      await reconcileConfigSet(w.ctx, KEY);
      const faulty = intercept(w.fake);
      faulty.faults.conflicts = 1;
      w.edit({ replicas: 3, data: { colour: "green" } });
      const outcome = await reconcileConfigSet({ ...w.ctx, writes: faulty.writes }, KEY).then(
        () => "resolved",
        (err) => (errors.isConflict(err) ? "409" : `failed: ${err}`),
      );
      expectEqual("the reconcile that met a 409", outcome, "409");
      await reconcileConfigSet({ ...w.ctx, writes: faulty.writes }, KEY);
      expectChildrenOf(w.children(), "uid-web", "green", 3);
    },
  },
  {
    name: "unit: a deleted ConfigSet's children are deleted before its finalizer is removed",
    run: async () => {
      const w = unitWorld({ finalizers: [FINALIZER] });
      await reconcileConfigSet(w.ctx, KEY);
      const web = w.web();
      if (!web) throw new Error("web is missing from the fake");
      w.fake.configSets.update({
        ...web,
        metadata: { ...web.metadata, deletionTimestamp: new Date().toISOString() },
      });
      const before = w.fake.actions.length;
      await reconcileConfigSet(w.ctx, KEY);
      expectEqual("writes after the deletion", w.fake.actions.slice(before), [
        "delete web-0",
        "delete web-1",
        "delete web-2",
        "finalizers web",
      ]);
      expectEqual("web is gone", w.web(), undefined);
    },
  },
];

/** Polling for the cluster tests: generous, a busy machine or a slow API server must not fail them. */
const WAIT = { timeout: 20_000, interval: 100 };
/** Polling for the repair of a converged ConfigSet: one reconcile and a write or two. */
const REPAIR = { timeout: 10_000, interval: 100 };

/** A running controller in `t.namespace`, stopped when the test ends, and the clients a test needs. */
async function clusterWorld(t: TestContext, writes = apiWrites(t.kubeConfig)) {
  const controller = await startConfigSetController({
    kubeConfig: t.kubeConfig,
    namespace: t.namespace,
    writes,
  });
  t.defer(() => controller.stop());
  const core = t.kubeConfig.makeApiClient(CoreV1Api);
  const configSets = configSetClient(t.kubeConfig);
  const children = async (name: string): Promise<Child[]> =>
    (
      await core.listNamespacedConfigMap({
        namespace: t.namespace,
        labelSelector: `${CONFIGSET_LABEL}=${name}`,
      })
    ).items.filter((cm) => !cm.metadata?.deletionTimestamp) as Child[];
  const converged = async (name: string, count: number, colour: string): Promise<Child[]> => {
    const cs = await configSets.get(t.namespace, name);
    const got = await children(name);
    expectChildrenOf(got, cs.metadata.uid ?? "", colour, count);
    return got;
  };
  const create = (name: string, replicas: number, colour: string) =>
    configSets.create({ metadata: { name, namespace: t.namespace }, spec: { replicas, data: { colour } } });
  return { core, configSets, children, converged, create };
}

const integrationTests: ControllerTest[] = [
  {
    name: "cluster: converges, and a child deleted or edited by someone else is put back",
    run: async (t) => {
      const c = await clusterWorld(t);
      await c.create("app", 3, "blue");
      const [victim, edited] = await eventually(() => c.converged("app", 3, "blue"), WAIT);
      await c.core.deleteNamespacedConfigMap({ namespace: t.namespace, name: victim?.metadata.name ?? "" });
      await eventually(async () => {
        const now = await c.converged("app", 3, "blue");
        expectTrue(
          "the deleted child is replaced",
          !now.some((cm) => cm.metadata.uid === victim?.metadata.uid),
        );
      }, REPAIR);
      const name = edited?.metadata.name ?? "";
      const current = await c.core.readNamespacedConfigMap({ namespace: t.namespace, name });
      await c.core.replaceNamespacedConfigMap({
        namespace: t.namespace,
        name,
        body: { ...current, data: { colour: "red" } },
      });
      await eventually(() => c.converged("app", 3, "blue"), REPAIR);
    },
  },
  {
    name: "cluster: a deleted ConfigSet carries the finalizer until its children are gone",
    run: async (t) => {
      const c = await clusterWorld(t);
      await c.create("gone", 2, "blue");
      await eventually(async () => {
        await c.converged("gone", 2, "blue");
        const cs = await c.configSets.get(t.namespace, "gone");
        expectTrue(`gone carries ${FINALIZER}`, cs.metadata.finalizers?.includes(FINALIZER) ?? false);
      }, WAIT);
      await c.configSets.delete(t.namespace, "gone");
      await eventually(async () => {
        expectEqual("children of gone", (await c.children("gone")).length, 0);
        const left = (await c.configSets.list(t.namespace)).items.map((cs) => cs.metadata.name);
        expectEqual("ConfigSets left", left, []);
      }, WAIT);
    },
  },
  {
    name: "faults: two 409s on updates, the edit still lands; then exactly 3 children stay",
    run: async (t) => {
      const faulty = intercept(apiWrites(t.kubeConfig));
      const c = await clusterWorld(t, faulty.writes);
      await c.create("app", 3, "blue");
      await eventually(() => c.converged("app", 3, "blue"), WAIT);
      faulty.faults.conflicts = 2;
      await c.configSets.patch(t.namespace, "app", { spec: { data: { colour: "green" } } });
      await eventually(() => c.converged("app", 3, "green"), WAIT);
      expectEqual("409s injected", faulty.faults.injected, 2);
      await consistently(async () => expectEqual("children", (await c.children("app")).length, 3), {
        duration: 1000,
        interval: 200,
      });
    },
  },
];

/** Unit tests first: they are fast and name the broken decision; the cluster tests then check the wiring. */
export const tests: ControllerTest[] = [...unitTests, ...integrationTests];
