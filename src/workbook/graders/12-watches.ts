/**
 * Grader of lab 12-watches: which events wake the learner's site TLS controller. Graded on what the controller
 * does in a cluster (children and status that follow a Secret, counted reconciles per key) and on what the
 * learner's map function reads from a cache the grader fills and watches, never on the code: a Secret change must
 * reach every site that names it and no other, a re-pointed site must follow its new Secret and leave the old
 * one, status writes must not wake anything, and a deleted Secret must be reported.
 */
import { CoreV1Api, type V1ConfigMap, type V1Secret } from "@kubernetes/client-node";
import { isNotFound } from "../../apimachinery/errors.js";
import type { MetaObject } from "../../apimachinery/object.js";
import { Indexer, type ReadonlyIndexer, type SharedIndexInformer } from "../../cache/index.js";
import type { MapFunc } from "../../controller/index.js";
import { defineLab } from "../grading/index.js";
import { type StaticSite, staticSiteClient } from "../workbook-api/index.js";
import {
  countRequests,
  gradingCluster,
  importLab,
  type LabController,
  type LabControllerOptions,
  openTrack,
  openTrackScenario,
  sleep,
  TrackScenario,
  type TrackScenarioPlace,
  withScenario,
} from "./support/index.js";

/** What `labs/12-watches/controller.ts` exports (given complete). */
export interface ControllerModule {
  createWatchesController(options: LabControllerOptions): LabController;
}

/** What `labs/12-watches/watches.ts` exports: the index and the map function are also asked directly. */
export interface WatchesModule {
  indexSitesBySecret(sites: SharedIndexInformer<StaticSite> | Indexer<StaticSite>): void;
  sitesReferencing(sites: ReadonlyIndexer<StaticSite>): MapFunc<V1Secret & MetaObject>;
}

/** The annotation a site names its Secret in (the lab's README). */
const TLS = "workbook.dev/tls-secret";

/** One cluster for every check this worker runs, with the workbook's CRDs installed and served. */
const cluster = gradingCluster({ prefix: "lab12", workbookApi: true });

/** How long the controller must stay without a reconcile to count as idle, and how long to wait for that. */
const IDLE_MS = 600;
const IDLE_TIMEOUT_MS = 8000;

/** A scenario: a fresh namespace, the controller under test, Secrets and sites written as a user would. */
class Scenario extends TrackScenario {
  readonly core: CoreV1Api;
  readonly sites: ReturnType<typeof staticSiteClient>;

  constructor(place: TrackScenarioPlace) {
    super(place);
    this.core = this.cluster.kubeConfig.makeApiClient(CoreV1Api);
    this.sites = staticSiteClient(this.cluster.kubeConfig);
  }

  static async open(dir: string, label: string): Promise<Scenario> {
    const track = openTrack<ControllerModule>(dir, (mod) => mod.createWatchesController);
    return new Scenario(await openTrackScenario(cluster, track, label));
  }

  /** Creates or replaces the Secret `name` with one data key; returns its new resourceVersion. */
  async writeSecret(name: string, cert: string): Promise<string> {
    const body = { metadata: { name }, stringData: { "tls.crt": cert } };
    const written = await this.core
      .replaceNamespacedSecret({ namespace: this.namespace, name, body })
      .catch((err) => {
        if (!isNotFound(err)) throw err;
        return this.core.createNamespacedSecret({ namespace: this.namespace, body });
      });
    return written.metadata?.resourceVersion ?? "";
  }

  /** Creates a site that names `secret` in its annotation (none: a site without TLS). */
  async createSite(name: string, secret?: string): Promise<void> {
    await this.sites.create({
      metadata: { name, namespace: this.namespace, annotations: secret ? { [TLS]: secret } : undefined },
      spec: { replicas: 1, content: "v1" },
    });
  }

  private async secret(name: string): Promise<V1Secret | undefined> {
    return this.core.readNamespacedSecret({ namespace: this.namespace, name }).catch((err) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
  }

  private async child(site: string): Promise<V1ConfigMap | undefined> {
    return this.core
      .readNamespacedConfigMap({ namespace: this.namespace, name: `${site}-tls` })
      .catch((err) => {
        if (isNotFound(err)) return undefined;
        throw err;
      });
  }

  /** Why site `name` does not (yet) show what the API server holds: its child, then its status. */
  async notConverged(name: string): Promise<string | undefined> {
    const site = await this.sites.get(this.namespace, name);
    const secretName = site.metadata.annotations?.[TLS] ?? "";
    const secret = secretName ? await this.secret(secretName) : undefined;
    const child = await this.child(name);
    if (!child) return `${name}-tls does not exist`;
    const want: Record<string, string> = {
      content: site.spec.content,
      secret: secretName,
      secretVersion: secret?.metadata?.resourceVersion ?? "",
    };
    for (const [key, value] of Object.entries(want))
      if ((child.data?.[key] ?? "") !== value)
        return `${name}-tls has ${key}=${JSON.stringify(child.data?.[key] ?? "")}, want ${JSON.stringify(value)}${key === "secretVersion" ? ` (the resourceVersion of Secret ${secretName}${secret ? "" : ", which does not exist"})` : ""}`;
    if (site.status?.observedGeneration !== site.metadata.generation)
      return `${name} reports observedGeneration ${site.status?.observedGeneration}, its generation is ${site.metadata.generation}`;
    const ready = site.status?.conditions?.find((c) => c.type === "Ready");
    const missing = secretName !== "" && !secret;
    if (ready?.status !== (missing ? "False" : "True") || (missing && ready.reason !== "SecretMissing"))
      return `${name} reports Ready=${ready?.status ?? "(none)"} (${ready?.reason ?? "no reason"}), want ${missing ? "False (SecretMissing)" : "True"}`;
    return undefined;
  }

  /** Waits until every site in `names` shows what the API server holds (gives up early on an idle controller). */
  async waitConverged(...names: string[]): Promise<void> {
    await this.waitFor({
      missing: async () => {
        for (const name of names) {
          const why = await this.notConverged(name);
          if (why) return why;
        }
        return undefined;
      },
      writes: () =>
        countRequests(this.cluster, ["configmaps", "staticsites/status"], ["create", "update", "patch"]),
      state: "converged",
      writeKind: "write",
    });
  }

  /**
   * Waits until no reconcile happened for {@link IDLE_MS}: the events of what came before (a child written, a
   * status written) have been handled, so the counts that follow belong to what the grader does next.
   */
  async idle(): Promise<void> {
    const started = Date.now();
    let last = await this.reconciles();
    for (;;) {
      await sleep(IDLE_MS);
      const now = await this.reconciles();
      if (now === last) return;
      if (Date.now() - started > IDLE_TIMEOUT_MS)
        throw new Error(
          `the controller never went quiet: ${now - last} reconciles in the last ${IDLE_MS} ms with nothing changing (${await this.describeReconciles()})`,
        );
      last = now;
    }
  }

  /** The reconciles of each site in `names` since `before` (a {@link reconcilesByKey} snapshot). */
  async reconcilesSince(before: Map<string, number>, names: string[]): Promise<Map<string, number>> {
    const now = await this.reconcilesByKey();
    const key = (name: string) => `${this.namespace}/${name}`;
    return new Map(names.map((name) => [name, (now.get(key(name)) ?? 0) - (before.get(key(name)) ?? 0)]));
  }
}

/** "a-0 (2), plain (1)": the sites that were reconciled, with how often. */
function woken(counts: Map<string, number>): string {
  return [...counts]
    .filter(([, n]) => n > 0)
    .map(([name, n]) => `${name} (${n})`)
    .join(", ");
}

/**
 * A view of `cache` that records every site it hands out, whichever method hands it out (`list`, `byIndex`,
 * `getByKey`, a `Lister` on top of it...): what a map function read to find its answer.
 */
function recordingReads(cache: Indexer<StaticSite>, read: Set<string>): ReadonlyIndexer<StaticSite> {
  const note = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) note(item);
    else if (value && typeof value === "object" && "metadata" in value)
      read.add(`${(value as StaticSite).metadata.namespace}/${(value as StaticSite).metadata.name}`);
  };
  return new Proxy(cache, {
    get(target, prop, receiver) {
      const member = Reflect.get(target, prop, receiver);
      if (typeof member !== "function") return member;
      return (...args: unknown[]) => {
        const result = member.apply(target, args);
        note(result);
        return result;
      };
    },
  });
}

/** The requirement every cluster check builds on. */
const CONVERGES = `a site converges: its child ConfigMap <site>-tls carries spec.content and the name and resourceVersion of the Secret its annotation ${TLS} names, and its status reports observedGeneration and Ready=True; a spec edit is followed`;

/** Grader of labs/12-watches: which events wake a site controller that reads a Secret. */
export default defineLab({
  title: "reconcile sites when their Secret changes, not on their own status",
  async checks(dir) {
    return [
      {
        requirement: CONVERGES,
        hint: "in watchSites, register enqueueHandler(queue) on the sites' informer, wrapped in a filter (withPredicates) that still lets a spec edit through",
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir, "converges"), async (s) => {
            await s.startController();
            await s.writeSecret("tls-a", "cert-1");
            await s.createSite("web", "tls-a");
            await s.createSite("plain");
            await s.waitConverged("web", "plain");
            await s.sites.patch(s.namespace, "web", { spec: { content: "v2" } });
            await s.waitConverged("web");
          }),
      },
      {
        requirement:
          "changing a Secret reconciles every site that names it and no other: after tls-a's data changes, the children of its three sites show its new resourceVersion, and the sites that name tls-b or no Secret are not reconciled",
        hint: "watch Secrets with enqueueRequestsFromMapFunc and a map function that returns only the sites naming that Secret; put no generation filter on that watch: a Secret's data change moves no generation",
        needs: [CONVERGES],
        timeout: 30_000,
        run: () =>
          withScenario(Scenario.open(dir, "fan-out"), async (s) => {
            await s.startController();
            await s.writeSecret("tls-a", "cert-1");
            await s.writeSecret("tls-b", "cert-1");
            const referrers = ["a-0", "a-1", "a-2"];
            const others = ["b-0", "plain"];
            for (const name of referrers) await s.createSite(name, "tls-a");
            await s.createSite("b-0", "tls-b");
            await s.createSite("plain");
            await s.waitConverged(...referrers, ...others);
            await s.idle();
            const before = await s.reconcilesByKey();
            await s.writeSecret("tls-a", "cert-2");
            await s.waitConverged(...referrers);
            await s.idle();
            const strangers = await s.reconcilesSince(before, others);
            if (woken(strangers))
              throw new Error(
                `changing tls-a also reconciled ${woken(strangers)}, which do not name it: map a Secret to its referrers only`,
              );
          }),
      },
      {
        requirement:
          "re-pointing a site takes effect: after its annotation names tls-b instead of tls-a, its child shows tls-b's resourceVersion, and a later change to tls-a no longer reconciles it",
        hint: "the reference lives in an annotation, which moves no generation: let annotation changes through the sites' filter too (predicate.or), and find referrers from the site's current annotation (an index follows every update), not from a list you keep yourself",
        needs: [CONVERGES],
        timeout: 30_000,
        run: () =>
          withScenario(Scenario.open(dir, "re-point"), async (s) => {
            await s.startController();
            await s.writeSecret("tls-a", "cert-1");
            await s.writeSecret("tls-b", "cert-1");
            await s.createSite("web", "tls-a");
            await s.createSite("stays", "tls-a");
            await s.waitConverged("web", "stays");
            await s.sites.patch(s.namespace, "web", { metadata: { annotations: { [TLS]: "tls-b" } } });
            await s.waitConverged("web");
            await s.idle();
            const before = await s.reconcilesByKey();
            await s.writeSecret("tls-a", "cert-2");
            // The site that still names tls-a is the witness that the change was delivered.
            await s.waitConverged("stays");
            await s.idle();
            const left = await s.reconcilesSince(before, ["web"]);
            if (woken(left))
              throw new Error(
                `web names tls-b now, and a change to tls-a still reconciled it: ${woken(left)}; the old reference was not forgotten`,
              );
          }),
      },
      {
        requirement:
          "status writes do not wake the controller: while a peer writes the status of three converged sites 20 times each, they are reconciled at most 4 times in all, the controller's answer to a spec edit made meanwhile included",
        hint: "filter the sites' events so that an update reaches the queue only when the generation or the annotations changed (predicate.or(predicate.generationChanged, predicate.annotationChanged)); a filter that hides only resyncs lets every status write through",
        needs: [CONVERGES],
        timeout: 30_000,
        run: () =>
          withScenario(Scenario.open(dir, "status"), async (s) => {
            await s.startController();
            await s.writeSecret("tls-a", "cert-1");
            const names = ["s-0", "s-1", "s-2"];
            for (const name of names) await s.createSite(name, "tls-a");
            await s.waitConverged(...names);
            await s.idle();
            const before = await s.reconcilesByKey();
            // The peer: a probe result in every site's status, 20 rounds (bucketId stands in for it).
            for (let round = 1; round <= 20; round++) {
              for (const name of names)
                await s.sites.patchStatus(s.namespace, name, { status: { bucketId: `probe-${round}` } });
              if (round === 10) await s.sites.patch(s.namespace, "s-0", { spec: { content: "v2" } });
              await sleep(50);
            }
            await s.waitConverged(...names);
            await s.idle();
            const counts = await s.reconcilesSince(before, names);
            const total = [...counts.values()].reduce((a, b) => a + b, 0);
            if (total > 4)
              throw new Error(
                `60 status writes of a peer and one spec edit brought ${total} reconciles (${woken(counts)}): the status writes woke the controller`,
              );
          }),
      },
      {
        requirement:
          "the map function asks the index: for a Secret named by 3 of 60 sites in its namespace (and by sites of another namespace), it returns exactly those 3 keys and reads no other site from the cache",
        hint: "in indexSitesBySecret register indexField(sites, field, site => [the Secret it names]), and answer with listByField(sites, field, secret name, secret namespace): list() and a filter reads every site on every Secret event",
        timeout: 10_000,
        run: async () => {
          const lab = await importLab<WatchesModule>(dir, "watches.js");
          const cache = new Indexer<StaticSite>();
          lab.indexSitesBySecret(cache);
          const site = (namespace: string, name: string, secret: string): StaticSite => ({
            metadata: { namespace, name, annotations: { [TLS]: secret } },
            spec: { replicas: 1, content: "v1" },
          });
          const want: string[] = [];
          for (let i = 0; i < 60; i++) {
            const secret = i % 20 === 0 ? "shared-tls" : `tls-${i}`;
            cache.add(site("team-a", `site-${i}`, secret));
            if (secret === "shared-tls") want.push(`team-a/site-${i}`);
          }
          for (let i = 0; i < 2; i++) cache.add(site("team-b", `site-${i}`, "shared-tls"));
          const read = new Set<string>();
          const keys = lab.sitesReferencing(recordingReads(cache, read))({
            metadata: { name: "shared-tls", namespace: "team-a" },
          });
          const got = [...new Set(keys)].sort();
          if (JSON.stringify(got) !== JSON.stringify(want.sort()))
            throw new Error(
              `for Secret team-a/shared-tls the map function returned ${JSON.stringify(got)}, want ${JSON.stringify(want)}`,
            );
          const extra = [...read].filter((k) => !want.includes(k));
          if (extra.length > 0)
            throw new Error(
              `to answer for Secret team-a/shared-tls the map function read ${extra.length} sites that do not name it (${extra.slice(0, 3).join(", ")}...): a scan of the cache, not an index lookup`,
            );
        },
      },
      {
        requirement:
          "a deleted Secret is reported: the sites that name it turn Ready=False with reason SecretMissing, and when it is created again they turn Ready=True and their children show its new resourceVersion",
        hint: "a Secret's delete and create must reach the map function too: enqueueRequestsFromMapFunc maps all three kinds of event (a delete by the last state it knew)",
        needs: [CONVERGES],
        timeout: 30_000,
        run: () =>
          withScenario(Scenario.open(dir, "deleted"), async (s) => {
            await s.startController();
            await s.writeSecret("tls-a", "cert-1");
            await s.createSite("a-0", "tls-a");
            await s.createSite("a-1", "tls-a");
            await s.waitConverged("a-0", "a-1");
            await s.core.deleteNamespacedSecret({ namespace: s.namespace, name: "tls-a" });
            await s.waitConverged("a-0", "a-1");
            await s.writeSecret("tls-a", "cert-2");
            await s.waitConverged("a-0", "a-1");
          }),
      },
    ];
  },
  teardown: () => cluster.stop(),
});
