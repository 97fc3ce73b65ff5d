/**
 * Grader of lab 07-finalizers: the learner's Bucket controller keeps one bucket of a FakeCloud per Bucket object
 * and cleans it up behind a finalizer, on a cluster with the workbook's CRDs and a fresh namespace and cloud per
 * check, on either track (the TypeScript factory, or the Go program calling the cloud over HTTP). Outcomes only:
 * the cloud's buckets, the Bucket's finalizers and status, across restarts and failures, as a cloud provider's
 * controller is judged (delete the external resource exactly once, then let go).
 */
import { isNotFound } from "../../apimachinery/index.js";
import { FakeClock } from "../../clock/index.js";
import { FakeCloud, type FakeCloudOptions, FakeCloudServer } from "../fake-cloud/index.js";
import { consistently, defineLab, eventually } from "../grading/index.js";
import { BUCKET_FINALIZER, type Bucket, bucketClient } from "../workbook-api/index.js";
import {
  type GradedController,
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
 * What `labs/07-finalizers/controller.ts` must export (its README): a factory of the Bucket controller. The Go
 * track (`labs/07-finalizers/go/`) is a controller-runtime program instead, which reaches the same cloud over
 * HTTP (FakeCloudServer, at the address in WORKBOOK_CLOUD_URL) and is graded by the same checks.
 */
export interface ControllerModule {
  createBucketController(options: LabControllerOptions & { cloud: FakeCloud }): LabController;
}

/** One cluster for every check this worker runs, with the workbook's CRDs installed and served. */
const cluster = gradingCluster({ prefix: "lab07", workbookApi: true });

/** Another controller's finalizer, which the grader puts on a Bucket and removes itself. */
const OTHER_FINALIZER = "example.com/keep";

/**
 * How long a step may take that a correct controller finishes in well under a second here (a Bucket set up, a
 * cleanup finished, a call reaching the cloud): past it the step is judged not to happen. About ten times the
 * slowest correct run seen under load; a wrong answer is graded without waiting longer than that.
 */
const STEP_MS = 4000;

/** One check's world: a fresh namespace and cloud, and the lab's controller running against them. */
class Scenario extends TrackScenario {
  readonly cloud: FakeCloud;
  /** The cloud over HTTP, for the Go track's program (started with its first instance). */
  private server: FakeCloudServer | undefined;

  private constructor(place: TrackScenarioPlace, cloud: FakeCloudOptions) {
    super(place);
    this.cloud = new FakeCloud(cloud);
  }

  /** Opens a scenario with clean API faults (no fault of an earlier check leaks into this one). */
  static async open(dir: string, label: string, cloud: FakeCloudOptions = {}): Promise<Scenario> {
    // The factory's `cloud` option is handed over by startController (LaunchExtras.options).
    const track = openTrack<ControllerModule>(
      dir,
      (mod) => mod.createBucketController as (options: LabControllerOptions) => LabController,
    );
    return new Scenario(await openTrackScenario(cluster, track, label), cloud);
  }

  get buckets() {
    return bucketClient(this.cluster.kubeConfig);
  }

  /** Starts a new instance of the lab's controller (a new Pod of the operator), with this scenario's cloud. */
  override async startController(): Promise<GradedController> {
    if (this.track.language === "typescript")
      return super.startController({ options: { cloud: this.cloud } });
    this.server ??= await FakeCloudServer.start(this.cloud);
    return super.startController({ env: { WORKBOOK_CLOUD_URL: this.server.url } });
  }

  cloudName(name: string): string {
    return `${this.namespace}-${name}`;
  }

  async create(name: string, finalizers: string[] = []): Promise<void> {
    await this.buckets.create({
      metadata: { name, namespace: this.namespace, finalizers },
      spec: { region: "eu-west-1" },
    });
  }

  /** Changes an annotation of `name`: an update event, so the controller reconciles it again. */
  async touch(name: string): Promise<void> {
    await this.buckets.patch(this.namespace, name, {
      metadata: { annotations: { "grader.workbook.dev/touched": String(Date.now()) } },
    });
  }

  /** Removes the grader's own finalizer (best effort: the Bucket may be gone). */
  async releaseOther(name: string): Promise<void> {
    const b = await this.get(name);
    if (!b?.metadata.finalizers?.includes(OTHER_FINALIZER)) return;
    const finalizers = b.metadata.finalizers.filter((f) => f !== OTHER_FINALIZER);
    await this.buckets
      .patch(this.namespace, name, { metadata: { finalizers, resourceVersion: b.metadata.resourceVersion } })
      .catch(() => undefined);
  }

  /** Cloud buckets made for `name`: create calls that actually created one. */
  creates(name: string): number {
    return this.cloud.calls.count({ verb: "create", bucket: this.cloudName(name), effective: true });
  }

  async get(name: string): Promise<Bucket | undefined> {
    try {
      return await this.buckets.get(this.namespace, name);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** Why `name` is not set up yet (finalizer, cloud bucket, status.bucketId), or undefined once it is. */
  async notReady(name: string): Promise<string | undefined> {
    const b = await this.get(name);
    if (!b) return `Bucket ${name} not found`;
    if (!b.metadata.finalizers?.includes(BUCKET_FINALIZER))
      return `Bucket ${name} has finalizers ${JSON.stringify(b.metadata.finalizers ?? [])}, no ${BUCKET_FINALIZER}`;
    const inCloud = this.cloud.peek(this.cloudName(name));
    if (!inCloud) return `no cloud bucket ${this.cloudName(name)}`;
    if (b.status?.bucketId !== inCloud.id)
      return `status.bucketId is ${JSON.stringify(b.status?.bucketId)}, the cloud bucket's id is ${inCloud.id}`;
    return undefined;
  }

  /** Waits until `name` is set up; fails with the last reason. */
  async waitReady(name: string, timeout = STEP_MS): Promise<void> {
    let why: string | undefined = "not checked yet";
    try {
      await eventually(
        async () => {
          why = await this.notReady(name);
          return why === undefined;
        },
        { timeout, interval: 50 },
      );
    } catch {
      throw new Error(`after ${timeout} ms: ${why}`);
    }
  }

  /** Waits until the Bucket object is gone; fails saying what holds it. */
  async waitGone(name: string, timeout = STEP_MS): Promise<void> {
    try {
      await eventually(async () => (await this.get(name)) === undefined, { timeout, interval: 50 });
    } catch {
      const b = await this.get(name);
      throw new Error(
        `Bucket ${name} still there after ${timeout} ms, finalizers ${JSON.stringify(b?.metadata.finalizers)}`,
      );
    }
  }

  /** Effective deletes of `name`'s cloud bucket (calls that removed it), and all delete calls. */
  deletes(name: string): { effective: number; calls: number } {
    const bucket = this.cloudName(name);
    return {
      effective: this.cloud.calls.count({ verb: "delete", bucket, effective: true }),
      calls: this.cloud.calls.count({ verb: "delete", bucket }),
    };
  }

  expectDeletedOnce(name: string): void {
    const d = this.deletes(name);
    if (this.cloud.has(this.cloudName(name)))
      throw new Error(`cloud bucket ${this.cloudName(name)} still exists`);
    if (d.effective !== 1)
      throw new Error(
        `the cloud bucket was deleted ${d.effective} times (${d.calls} delete calls), want exactly 1`,
      );
  }

  /** Stops the instances, then the cloud and its HTTP front. */
  override async close(): Promise<void> {
    await super.close();
    this.cloud.stop();
    await this.server?.stop();
  }
}

/** Grader of labs/07-finalizers: a Bucket controller whose finalizer cleans the cloud bucket exactly once. */
export default defineLab({
  title: "finalizers: clean up the external resource exactly once",
  async checks(dir) {
    await prepareTrack(dir);
    return [
      {
        requirement: `a new Bucket gets the finalizer ${BUCKET_FINALIZER} and a cloud bucket, its id in status.bucketId`,
        hint: "add the finalizer first (and return), then getBucket/createBucket, then patch status.bucketId",
        timeout: 40_000, // the first check also starts the cluster
        run: () =>
          withScenario(Scenario.open(dir, "create"), async (s) => {
            await s.startController();
            await s.create("photos");
            await s.waitReady("photos");
          }),
      },
      {
        requirement:
          "a live Bucket's cloud bucket is checked, not trusted from status: one deleted out of band is created again at the next reconcile, its new id in status.bucketId",
        hint: "status.bucketId is your record, not the truth: on every reconcile of a live Bucket ask the cloud (getBucket), create the bucket when it answers NotFound, and write the new id",
        timeout: 15_000,
        run: () =>
          withScenario(Scenario.open(dir, "out-of-band"), async (s) => {
            await s.startController();
            await s.create("media");
            await s.waitReady("media");
            s.cloud.removeOutOfBand(s.cloudName("media"));
            await s.touch("media"); // an update event: the next reconcile
            await s.waitReady("media", 4000).catch((err: Error) => {
              throw new Error(
                `the cloud bucket was deleted out of band and the Bucket reconciled again (an annotation changed): ${err.message}`,
              );
            });
          }),
      },
      {
        requirement:
          "a failed status write is retried without a second create: the retry finds the cloud bucket it made and records its id",
        hint: 'after a failed status write the bucket already exists: look it up (getBucket) before creating, or create with ifExists: "return"; never let status.bucketId decide whether to create',
        timeout: 15_000,
        run: () =>
          withScenario(Scenario.open(dir, "status-fails"), async (s) => {
            // Embedded backend only: the first status write of the Bucket answers 500 (elsewhere none fails).
            s.cluster.instruments?.faults.failNext("*", 1, 500, "buckets/status");
            await s.startController();
            await s.create("docs");
            await s.waitReady("docs", 4000).catch((err: Error) => {
              throw new Error(`the first status write failed (500): ${err.message}`);
            });
            const made = s.creates("docs");
            if (made !== 1) throw new Error(`${made} cloud buckets were created for one Bucket`);
          }),
      },
      {
        requirement:
          "the finalizer is on the Bucket before any cloud bucket exists: a Bucket deleted while its cloud bucket is being made leaves no cloud bucket behind",
        hint: "add the finalizer first and return; touch the cloud only in a later reconcile that sees the finalizer on the Bucket (a Bucket deleted before that needs no cleanup)",
        timeout: 15_000,
        run: () => {
          const clock = new FakeClock();
          return withScenario(Scenario.open(dir, "early-delete", { clock }), async (s) => {
            s.cloud.setLatency(60_000); // every cloud call waits until the grader moves the cloud's clock
            await s.startController();
            await s.create("assets");
            await eventually(() => s.cloud.calls.total() > 0, { timeout: STEP_MS, interval: 10 }).catch(
              () => {
                throw new Error(`no cloud call within ${STEP_MS / 1000} s of creating the Bucket`);
              },
            );
            // The controller's first cloud call is under way: delete the Bucket now, then let the cloud answer.
            await s.buckets.delete(s.namespace, "assets");
            s.cloud.setLatency(0);
            await clock.advance(60_000);
            await s.waitGone("assets").catch((err: Error) => {
              throw new Error(
                `deleted during the first cloud call, the Bucket never finished its cleanup: ${err.message}`,
              );
            });
            await consistently(
              () => {
                if (s.cloud.has(s.cloudName("assets")))
                  throw new Error(
                    `cloud bucket ${s.cloudName("assets")} leaked: the Bucket was deleted while the bucket was being made and is gone, the bucket is not`,
                  );
              },
              { duration: 300, interval: 20 },
            );
          });
        },
      },
      {
        requirement: "deleting a Bucket deletes its cloud bucket exactly once, and then the Bucket is gone",
        hint: "on a Bucket with deletionTimestamp: deleteBucket, then remove the finalizer (not the other way round)",
        timeout: 15_000,
        run: () =>
          withScenario(Scenario.open(dir, "delete"), async (s) => {
            await s.startController();
            await s.create("photos");
            await s.waitReady("photos");
            await s.buckets.delete(s.namespace, "photos");
            await s.waitGone("photos");
            s.expectDeletedOnce("photos");
          }),
      },
      {
        requirement:
          "when the first cloud delete fails, cleanup is retried: the cloud bucket is deleted exactly once and the Bucket goes away afterwards",
        hint: "let a failed deleteBucket throw out of reconcile: the queue retries it; never remove the finalizer after a failure",
        timeout: 15_000,
        run: () =>
          withScenario(Scenario.open(dir, "retry"), async (s) => {
            await s.startController();
            await s.create("logs");
            await s.waitReady("logs");
            s.cloud.failNext("delete", 1);
            await s.buckets.delete(s.namespace, "logs");
            await s.waitGone("logs");
            s.expectDeletedOnce("logs");
            const { calls } = s.deletes("logs");
            if (calls < 2) throw new Error(`${calls} delete call(s): the failed one was never retried`);
          }),
      },
      {
        requirement:
          "the finalizer is removed only after cleanup: while the cloud is down, a deleted Bucket stays Terminating with its cloud bucket",
        hint: "remove the finalizer in the same reconcile, after deleteBucket succeeded; an error must leave it on",
        timeout: 15_000,
        run: () =>
          withScenario(Scenario.open(dir, "down"), async (s) => {
            await s.startController();
            await s.create("archive");
            await s.waitReady("archive");
            s.cloud.setDown(true);
            await s.buckets.delete(s.namespace, "archive");
            await eventually(() => s.deletes("archive").calls >= 1, { timeout: STEP_MS, interval: 20 }).catch(
              () => {
                throw new Error(`no delete call reached the cloud within ${STEP_MS / 1000} s of the DELETE`);
              },
            );
            await consistently(
              async () => {
                const b = await s.get("archive");
                if (!b) throw new Error("the Bucket went away while its cloud bucket could not be deleted");
                if (!b.metadata.finalizers?.includes(BUCKET_FINALIZER))
                  throw new Error("the finalizer was removed while the cloud was down");
              },
              { duration: 1000, interval: 50 },
            );
            s.cloud.setDown(false);
            await s.waitGone("archive");
            s.expectDeletedOnce("archive");
          }),
      },
      {
        requirement:
          "cleanup tolerates a cloud bucket that is already gone: the Bucket still goes away, and no cloud bucket is made for it again",
        hint: "a deleteBucket that answers NotFound (isCloudNotFound) means the bucket is gone: that is success; a Bucket with a deletionTimestamp only gets cleanup, never the create step",
        timeout: 15_000,
        run: () =>
          withScenario(Scenario.open(dir, "gone"), async (s) => {
            const first = await s.startController();
            await s.create("tmp");
            await s.waitReady("tmp");
            // Stopped, so no reconcile of the live Bucket is still under way: the next one sees it deleting.
            await first.stop();
            s.cloud.removeOutOfBand(s.cloudName("tmp"));
            await s.buckets.delete(s.namespace, "tmp");
            await s.startController();
            await s.waitGone("tmp");
            const made = s.creates("tmp");
            if (made !== 1)
              throw new Error(
                `the Bucket is gone, but ${made - 1} cloud bucket(s) were created for it while it was being deleted`,
              );
          }),
      },
      {
        requirement:
          "a Bucket deleted while the controller was stopped is cleaned up once the controller runs again",
        hint: "cleanup must not depend on seeing a DELETED event: the finalizer keeps the Bucket until a reconcile cleans up",
        timeout: 20_000,
        run: () =>
          withScenario(Scenario.open(dir, "restart"), async (s) => {
            const first = await s.startController();
            await s.create("videos");
            await s.waitReady("videos");
            await first.stop();
            await s.buckets.delete(s.namespace, "videos");
            await new Promise((r) => setTimeout(r, 300));
            if (!s.cloud.has(s.cloudName("videos")))
              throw new Error("the cloud bucket was deleted by a stopped controller");
            await s.startController();
            await s.waitGone("videos");
            s.expectDeletedOnce("videos");
          }),
      },
      {
        requirement:
          "cleanup removes only its own finalizer: another controller's finalizer stays on the Bucket and keeps it until that controller removes it",
        hint: `add and remove only ${BUCKET_FINALIZER}: write back the list you read with your name appended or filtered out (guarded by resourceVersion), never a list of your own`,
        timeout: 15_000,
        run: () =>
          withScenario(Scenario.open(dir, "shared"), async (s) => {
            try {
              await s.startController();
              await s.create("shared", [OTHER_FINALIZER]);
              await s.waitReady("shared");
              const live = await s.get("shared");
              if (!live?.metadata.finalizers?.includes(OTHER_FINALIZER))
                throw new Error(
                  `${OTHER_FINALIZER} was removed from the live Bucket when yours was added: finalizers ${JSON.stringify(live?.metadata.finalizers)}`,
                );
              await s.buckets.delete(s.namespace, "shared");
              let left: Bucket | undefined;
              await eventually(
                async () => {
                  left = await s.get("shared");
                  return !left?.metadata.finalizers?.includes(BUCKET_FINALIZER);
                },
                { timeout: STEP_MS, interval: 50 },
              ).catch(() => {
                throw new Error(`${BUCKET_FINALIZER} still on the deleted Bucket after ${STEP_MS / 1000} s`);
              });
              if (!left)
                throw new Error(
                  `the Bucket went away while ${OTHER_FINALIZER}, another controller's finalizer, was still on it`,
                );
              if (JSON.stringify(left.metadata.finalizers) !== JSON.stringify([OTHER_FINALIZER]))
                throw new Error(
                  `the deleted Bucket's finalizers are ${JSON.stringify(left.metadata.finalizers)}, want only ${OTHER_FINALIZER}`,
                );
              s.expectDeletedOnce("shared");
              await s.releaseOther("shared");
              await s.waitGone("shared");
            } finally {
              await s.releaseOther("shared");
            }
          }),
      },
    ];
  },
  teardown: () => cluster.stop(),
});
