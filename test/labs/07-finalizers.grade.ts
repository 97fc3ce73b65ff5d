import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { isNotFound } from "../../src/apimachinery/index.js";
import type { Cluster } from "../../src/control-plane/cluster/index.js";
import { FakeCloud } from "../../src/workbook/fake-cloud/index.js";
import { consistently, defineLab, eventually } from "../../src/workbook/grading/index.js";
import { BUCKET_FINALIZER, type Bucket, bucketClient } from "../../src/workbook/workbook-api/index.js";
import { gradingCluster } from "./support/grading-cluster.js";

type ControllerModule = typeof import("../../solutions/07-finalizers/controller.js");
type BucketController = ReturnType<ControllerModule["createBucketController"]>;

/** One cluster for every check this worker runs, with the workbook's CRDs installed and served. */
const cluster = gradingCluster({ prefix: "lab07", workbookApi: true });

/** One check's world: a fresh namespace and cloud, and the lab's controller running against them. */
class Scenario {
  readonly cloud = new FakeCloud();
  private controllers: BucketController[] = [];

  private constructor(
    private readonly c: Cluster,
    readonly namespace: string,
    private readonly mod: ControllerModule,
  ) {}

  static async open(dir: string, label: string): Promise<Scenario> {
    const mod = (await import(pathToFileURL(join(dir, "controller.js")).href)) as ControllerModule;
    const c = await cluster.get();
    const namespace = await cluster.newNamespace(label);
    return new Scenario(c, namespace, mod);
  }

  get buckets() {
    return bucketClient(this.c.kubeConfig);
  }

  /** Starts a new instance of the lab's controller (a new Pod of the operator). */
  async startController(): Promise<BucketController> {
    const controller = this.mod.createBucketController({
      kubeConfig: this.c.kubeConfig,
      namespace: this.namespace,
      cloud: this.cloud,
    });
    this.controllers.push(controller);
    await controller.start();
    return controller;
  }

  cloudName(name: string): string {
    return `${this.namespace}-${name}`;
  }

  async create(name: string): Promise<void> {
    await this.buckets.create({
      metadata: { name, namespace: this.namespace },
      spec: { region: "eu-west-1" },
    });
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
  async waitReady(name: string, timeout = 5000): Promise<void> {
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
  async waitGone(name: string, timeout = 8000): Promise<void> {
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

  async close(): Promise<void> {
    for (const c of this.controllers) await c.stop();
    this.cloud.stop();
  }
}

async function withScenario(dir: string, label: string, body: (s: Scenario) => Promise<void>): Promise<void> {
  const s = await Scenario.open(dir, label);
  try {
    await body(s);
  } finally {
    await s.close();
  }
}

/** Grader of labs/07-finalizers: a Bucket controller whose finalizer cleans the cloud bucket exactly once. */
export default defineLab({
  title: "finalizers: clean up the external resource exactly once",
  async checks(dir) {
    return [
      {
        requirement: `a new Bucket gets the finalizer ${BUCKET_FINALIZER} and a cloud bucket, its id in status.bucketId`,
        hint: "add the finalizer first (and return), then getBucket/createBucket, then patch status.bucketId",
        timeout: 15_000,
        run: () =>
          withScenario(dir, "create", async (s) => {
            await s.startController();
            await s.create("photos");
            await s.waitReady("photos");
          }),
      },
      {
        requirement: "deleting a Bucket deletes its cloud bucket exactly once, and then the Bucket is gone",
        hint: "on a Bucket with deletionTimestamp: deleteBucket, then remove the finalizer (not the other way round)",
        timeout: 15_000,
        run: () =>
          withScenario(dir, "delete", async (s) => {
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
          withScenario(dir, "retry", async (s) => {
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
          withScenario(dir, "down", async (s) => {
            await s.startController();
            await s.create("archive");
            await s.waitReady("archive");
            s.cloud.setDown(true);
            await s.buckets.delete(s.namespace, "archive");
            await eventually(() => s.deletes("archive").calls >= 1, { timeout: 5000, interval: 20 }).catch(
              () => {
                throw new Error("no delete call reached the cloud within 5 s of the DELETE");
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
        requirement: "cleanup tolerates a cloud bucket that is already gone: the Bucket still goes away",
        hint: "a deleteBucket that answers NotFound (isCloudNotFound) means the bucket is gone: that is success",
        timeout: 15_000,
        run: () =>
          withScenario(dir, "gone", async (s) => {
            await s.startController();
            await s.create("tmp");
            await s.waitReady("tmp");
            s.cloud.removeOutOfBand(s.cloudName("tmp"));
            await s.buckets.delete(s.namespace, "tmp");
            await s.waitGone("tmp");
          }),
      },
      {
        requirement:
          "a Bucket deleted while the controller was stopped is cleaned up once the controller runs again",
        hint: "cleanup must not depend on seeing a DELETED event: the finalizer keeps the Bucket until a reconcile cleans up",
        timeout: 20_000,
        run: () =>
          withScenario(dir, "restart", async (s) => {
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
    ];
  },
  teardown: () => cluster.stop(),
});
