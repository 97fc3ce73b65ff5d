/**
 * Grader of lab 11-apply: the learner's ConfigSet controller writes its children with server-side apply. Graded on
 * what the API server records and answers, never on the code: each child's `managedFields` (one `Apply` entry of
 * the manager `configset-controller` holding exactly the fields the controller sets), the fields of another
 * manager surviving, a forced field taken back, a key removed by omission, resourceVersions that do not move when
 * nothing differs, and the requests the embedded server served (no GET, LIST, create or update of a ConfigMap).
 */
import { PatchStrategy, setHeaderOptions, type V1ConfigMap } from "@kubernetes/client-node";
import { SharedInformerFactory } from "../../cache/index.js";
import { BuiltinResources } from "../../client/index.js";
import { getControllerOf } from "../../meta/index.js";
import { consistently, defineLab, eventually } from "../grading/index.js";
import { ownedFields } from "../viz/field-ownership.js";
import { CONFIGSET_LABEL } from "../workbook-api/index.js";
import {
  ConfigSetScenario,
  countRequests,
  gradingCluster,
  type LabController,
  type LabControllerOptions,
  openTrack,
  openTrackScenario,
  prepareTrack,
  requestsByVerb,
  sleep,
  withScenario,
} from "./support/index.js";

/** What `labs/11-apply/controller.ts` exports (given complete; the lab is `reconcile.ts`). */
export interface ControllerModule {
  createApplyController(options: LabControllerOptions): LabController;
}

/** The field manager the lab's README names. */
const FIELD_MANAGER = "configset-controller";

const mergePatch = setHeaderOptions("Content-Type", PatchStrategy.MergePatch);
const applyPatch = setHeaderOptions("Content-Type", PatchStrategy.ServerSideApply);

/** One cluster for every check this worker runs, with the workbook's CRDs installed and served. */
const cluster = gradingCluster({ prefix: "lab11", workbookApi: true });

/** A scenario: a fresh namespace, the controller under test, and the API as the grader's own managers use it. */
class Scenario extends ConfigSetScenario {
  /** The grader's own watch of the children, once {@link watchChildren} started it: reads without requests. */
  private childInformer: SharedInformerFactory | undefined;

  static async open(dir: string, label: string): Promise<Scenario> {
    const track = openTrack<ControllerModule>(dir, (mod) => mod.createApplyController);
    return new Scenario(await openTrackScenario(cluster, track, label));
  }

  async createSet(name: string, replicas: number, data: Record<string, string>): Promise<void> {
    await this.sets.create({ metadata: { name, namespace: this.namespace }, spec: { replicas, data } });
  }

  /**
   * From now on, read the children from a watch of the grader's own instead of a LIST per look, so that the
   * server's request counts of ConfigMaps are the controller's alone.
   */
  async watchChildren(): Promise<void> {
    this.childInformer = new SharedInformerFactory(this.cluster.kubeConfig, {
      namespace: this.namespace,
      onError: () => {},
    });
    this.childInformer.informerFor<V1ConfigMap>(BuiltinResources.configMaps, {
      labelSelector: CONFIGSET_LABEL,
    });
    this.childInformer.start();
    await this.childInformer.waitForCacheSync();
  }

  /** The ConfigMaps labelled for `name`, by name. */
  async children(name: string): Promise<Map<string, V1ConfigMap>> {
    const items = this.childInformer
      ? this.childInformer
          .informerFor<V1ConfigMap>(BuiltinResources.configMaps, { labelSelector: CONFIGSET_LABEL })
          .getIndexer()
          .list()
          .filter((cm) => cm.metadata?.labels?.[CONFIGSET_LABEL] === name)
      : (
          await this.core.listNamespacedConfigMap({
            namespace: this.namespace,
            labelSelector: `${CONFIGSET_LABEL}=${name}`,
          })
        ).items;
    return new Map(items.map((cm) => [cm.metadata?.name ?? "", cm]));
  }

  override async close(): Promise<void> {
    await this.childInformer?.stop();
    await super.close();
  }

  /** Why the children of `name` are not (yet) what its spec asks for. */
  async notConverged(name: string): Promise<string | undefined> {
    const cs = await this.sets.get(this.namespace, name);
    const children = await this.children(name);
    const want = cs.spec.data ?? {};
    for (let i = 0; i < cs.spec.replicas; i++) {
      const cm = children.get(`${name}-${i}`);
      if (!cm) return `${name}-${i} does not exist (spec.replicas is ${cs.spec.replicas})`;
      if (getControllerOf(cm)?.uid !== cs.metadata.uid)
        return `${name}-${i} has no controller ownerReference to ConfigSet ${name}`;
      if (JSON.stringify(sorted(cm.data ?? {})) !== JSON.stringify(sorted(want)))
        return `${name}-${i} has data ${JSON.stringify(cm.data ?? {})}, spec.data is ${JSON.stringify(want)}`;
    }
    const extra = [...children.keys()].filter((n) => Number(n.slice(name.length + 1)) >= cs.spec.replicas);
    if (extra.length > 0) return `${extra.join(", ")} still exist (spec.replicas is ${cs.spec.replicas})`;
    return undefined;
  }

  /** Polls until {@link notConverged} finds nothing; gives up early once the controller is idle (QUIET_MS). */
  async waitConverged(name: string, timeout = 8000): Promise<void> {
    await this.waitFor({
      missing: () => this.notConverged(name),
      writes: () => countRequests(this.cluster, ["configmaps"], ["create", "update", "patch", "delete"]),
      state: "converged",
      writeKind: "write",
      timeout,
    });
  }

  /** A write of another manager: a JSON merge patch of one child, as `kubectl annotate` or a tool would send. */
  async patchChild(child: string, body: object, fieldManager: string): Promise<V1ConfigMap> {
    return this.core.patchNamespacedConfigMap(
      { namespace: this.namespace, name: child, body, fieldManager },
      mergePatch,
    );
  }
}

function sorted(data: Record<string, string>): [string, string][] {
  return Object.entries(data).sort(([a], [b]) => a.localeCompare(b));
}

/**
 * What is wrong with the fields `configset-controller` owns on `cm`, if anything: it must own them through one
 * `Apply` entry (no `Update` entry: no create, update or merge patch by it), holding the data keys of
 * `spec.data` and no other data key, the label, and its controller ownerReference. Labels and annotations of its
 * own beyond those are allowed: a controller may well stamp its children, and a stamp that changes on every
 * pass is what the no-write requirement catches.
 */
function ownershipProblem(
  cm: V1ConfigMap,
  dataKeys: string[],
  ownerUid: string | undefined,
): string | undefined {
  const name = cm.metadata?.name;
  const entries = (cm.metadata?.managedFields ?? []).filter((e) => e.manager === FIELD_MANAGER);
  const operations = entries.map((e) => `${e.operation}${e.subresource ? ` /${e.subresource}` : ""}`);
  if (!operations.includes("Apply"))
    return `${name}: managedFields has no Apply entry of manager ${FIELD_MANAGER} (its entries: ${operations.join(", ") || "none"}): the child was not written by server-side apply with fieldManager ${FIELD_MANAGER}`;
  if (operations.length > 1)
    return `${name}: manager ${FIELD_MANAGER} also has ${operations.filter((o) => o !== "Apply").join(", ")} entries: some write of the child was not an apply`;
  const owned = ownedFields(cm)
    .filter((f) => f.manager === FIELD_MANAGER)
    .map((f) => f.path);
  const label = `.metadata.labels.${CONFIGSET_LABEL}`;
  const ownerRef = `.metadata.ownerReferences[uid=${JSON.stringify(ownerUid)}]`;
  const expected = [...dataKeys.map((k) => `.data.${k}`), label];
  const missing = expected.filter((p) => !owned.includes(p));
  if (!owned.some((p) => p.startsWith(ownerRef))) missing.push(ownerRef);
  const ownStamp = (p: string) => p.startsWith(".metadata.labels.") || p.startsWith(".metadata.annotations.");
  const extra = owned.filter((p) => !expected.includes(p) && !p.startsWith(ownerRef) && !ownStamp(p));
  if (missing.length > 0) return `${name}: ${FIELD_MANAGER} does not own ${missing.join(", ")}`;
  if (extra.length > 0)
    return `${name}: ${FIELD_MANAGER} also owns ${extra.join(", ")}: an apply must send only the fields the controller sets`;
  return undefined;
}

/** The requirement every other one builds on. */
const APPLIES = `children are written by server-side apply: spec.replicas ConfigMaps <name>-<i> with the label, a controller ownerReference and spec.data, each owned through one Apply entry of manager ${FIELD_MANAGER} that holds those fields and nothing else but labels and annotations of its own; scaling down deletes the extra ones`;

/** Grader of labs/11-apply: a controller that writes its children with server-side apply. */
export default defineLab({
  title: "writing children with server-side apply",
  async checks(dir) {
    await prepareTrack(dir);
    return [
      {
        requirement: APPLIES,
        hint: `build the child with only the fields you set (apiVersion, kind, name, namespace, the label, the ownerReference, data) and send it with patchNamespacedConfigMap, Content-Type application/apply-patch+yaml and fieldManager "${FIELD_MANAGER}"; no GET, create or replace`,
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir, "applies"), async (s) => {
            await s.startController();
            await s.createSet("web", 3, { color: "blue", size: "m" });
            await s.waitConverged("web");
            const cs = await s.sets.get(s.namespace, "web");
            for (const cm of (await s.children("web")).values()) {
              const problem = ownershipProblem(cm, ["color", "size"], cs.metadata.uid);
              if (problem) throw new Error(problem);
            }
            await s.sets.patch(s.namespace, "web", { spec: { replicas: 1 } });
            await s.waitConverged("web");
          }),
      },
      {
        requirement:
          "another manager's fields survive: an annotation and a data key that manager team-tools adds to a child stay, and the controller writes nothing in answer",
        hint: "send only the fields the controller owns: an apply leaves every other manager's fields alone, and a child that already has your fields is not written again",
        needs: [APPLIES],
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir, "shares"), async (s) => {
            await s.startController();
            await s.createSet("web", 2, { color: "blue" });
            await s.waitConverged("web");
            const theirs = await s.patchChild(
              "web-0",
              { metadata: { annotations: { "team.example/owner": "alice" } }, data: { extra: "1" } },
              "team-tools",
            );
            await s.sets.patch(s.namespace, "web", { metadata: { labels: { reconcile: "please" } } });
            let seen = "";
            await consistently(
              async () => {
                const cm = await s.core.readNamespacedConfigMap({ namespace: s.namespace, name: "web-0" });
                seen = `web-0 data ${JSON.stringify(cm.data)}, annotations ${JSON.stringify(cm.metadata?.annotations ?? {})}, resourceVersion ${cm.metadata?.resourceVersion} (team-tools wrote ${theirs.metadata?.resourceVersion})`;
                return (
                  cm.data?.extra === "1" &&
                  cm.metadata?.annotations?.["team.example/owner"] === "alice" &&
                  cm.metadata?.resourceVersion === theirs.metadata?.resourceVersion
                );
              },
              { duration: 2000, interval: 50 },
            ).catch(() => {
              throw new Error(`within 2 s of team-tools' write: ${seen}`);
            });
          }),
      },
      {
        requirement: `a field the controller owns is taken back: after manager hotfix force-applies data.color=red to a child, the controller restores spec.data's value and owns .data.color again`,
        hint: "apply with force: the controller owns its fields by design, and without force every apply meets 409 Conflict naming hotfix (controller-runtime: client.ForceOwnership)",
        needs: [APPLIES],
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir, "force"), async (s) => {
            await s.startController();
            await s.createSet("web", 2, { color: "blue" });
            await s.waitConverged("web");
            await s.core.patchNamespacedConfigMap(
              {
                namespace: s.namespace,
                name: "web-0",
                body: {
                  apiVersion: "v1",
                  kind: "ConfigMap",
                  metadata: { name: "web-0" },
                  data: { color: "red" },
                },
                fieldManager: "hotfix",
                force: true,
              },
              applyPatch,
            );
            let seen = "";
            await eventually(
              async () => {
                const cm = await s.core.readNamespacedConfigMap({ namespace: s.namespace, name: "web-0" });
                const owners = ownedFields(cm)
                  .filter((f) => f.path === ".data.color")
                  .map((f) => `${f.manager} (${f.operation})`);
                seen = `web-0 data.color is ${cm.data?.color}, owned by ${owners.join(", ") || "nobody"}`;
                return cm.data?.color === "blue" && owners.join() === `${FIELD_MANAGER} (Apply)`;
              },
              { timeout: 6000, interval: 50 },
            ).catch(async () => {
              throw new Error(`6 s after hotfix's forced apply: ${seen} (${await s.describeReconciles()})`);
            });
          }),
      },
      {
        requirement:
          "a key removed from spec.data is removed from every child: the controller owned it and no longer sends it",
        hint: "an apply removes the fields its manager owned and stopped sending; a merge patch never removes a key (it needs an explicit null)",
        needs: [APPLIES],
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir, "removes"), async (s) => {
            await s.startController();
            await s.createSet("web", 2, { color: "blue", size: "m" });
            await s.waitConverged("web");
            await s.sets.patch(s.namespace, "web", { spec: { data: { size: null } } });
            await s.waitConverged("web");
          }),
      },
      {
        requirement:
          "no write when nothing differs: reconciles of a converged ConfigSet (three label changes) leave every child's resourceVersion as it was, and 2 s idle bring at most 2 reconciles",
        hint: "apply the same desired child every time and let the server find nothing to store; anything that differs on every pass (a time, a counter, a random value) makes every reconcile a write and an event",
        needs: [APPLIES],
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir, "no-write"), async (s) => {
            await s.startController();
            await s.createSet("web", 3, { color: "blue" });
            await s.waitConverged("web");
            await sleep(300);
            const versions = async () =>
              [...(await s.children("web")).values()].map(
                (cm) => `${cm.metadata?.name}@${cm.metadata?.resourceVersion}`,
              );
            const before = await versions();
            for (const n of [1, 2, 3]) {
              const counted = await s.reconciles();
              await s.sets.patch(s.namespace, "web", { metadata: { labels: { touch: String(n) } } });
              await eventually(async () => (await s.reconciles()) > counted, { timeout: 5000, interval: 20 });
            }
            await sleep(300);
            const after = await versions();
            if (JSON.stringify(after) !== JSON.stringify(before))
              throw new Error(
                `three reconciles with nothing to change moved the children: ${before.join(" ")} -> ${after.join(" ")}`,
              );
            const idle = await s.reconciles();
            await consistently(async () => (await s.reconciles()) - idle <= 2, {
              duration: 2000,
              interval: 50,
            }).catch(async () => {
              throw new Error(`${(await s.reconciles()) - idle} reconciles in 2 s while nothing changed`);
            });
          }),
      },
      {
        requirement:
          "no read-modify-write: while a data change and a scale-up converge, the controller reads no ConfigMap from the API server and writes them only by apply (no GET, LIST, create or update; request counts of the embedded server)",
        hint: "an apply needs no read first and creates a missing child itself: drop the GET and the create/replace branches, and read only from the caches",
        needs: [APPLIES],
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir, "no-reads"), async (s) => {
            await s.startController();
            await s.watchChildren();
            await s.createSet("web", 2, { color: "blue" });
            await s.waitConverged("web");
            await sleep(200);
            const before = requestsByVerb(s.cluster, "configmaps");
            await s.sets.patch(s.namespace, "web", { spec: { replicas: 4, data: { color: "green" } } });
            await s.waitConverged("web");
            await sleep(200);
            const after = requestsByVerb(s.cluster, "configmaps");
            if (!before || !after) return; // no request counts on this backend
            const grown = (verb: string) => (after.get(verb) ?? 0) - (before.get(verb) ?? 0);
            const sent = ["get", "list", "create", "update"]
              .filter((v) => grown(v) > 0)
              .map((v) => `${grown(v)} ${v}`);
            if (sent.length > 0)
              throw new Error(
                `while converging, the controller sent ${sent.join(", ")} of ConfigMaps: read them from the cache and write them by apply (PATCH) only`,
              );
          }),
      },
    ];
  },
  teardown: () => cluster.stop(),
});
