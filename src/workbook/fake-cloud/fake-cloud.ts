/**
 * FakeCloud: a small in-memory cloud with a bucket API, standing in for the external system (S3, GCS, a DNS
 * provider, a database service) that a controller manages on behalf of a custom resource. It exists so the
 * finalizer story can be told honestly: the external resource lives outside the cluster, calls to it fail and
 * take time, and the only proof that cleanup happened exactly once is the cloud's own record of calls.
 *
 * - Buckets: create, get, list, delete, by unique name; create and delete have idempotent-by-name options
 *   (`ifExists: "return"`, `ifMissing: "ignore"`), the two choices a real SDK leaves to the caller.
 * - Every call is counted by verb and recorded with its outcome ({@link FakeCloud.calls}).
 * - Faults ({@link FakeCloud.faults}): fail the next N calls of a verb (before or after the effect), latency on
 *   the injected {@link Clock} (a FakeClock holds slow calls until advanced), and "down" (503 on everything).
 * - Peeks ({@link FakeCloud.has}, {@link FakeCloud.peek}, {@link FakeCloud.bucketNames}) read the truth without
 *   counting a call: for pictures, checks and graders, never for the controller under test.
 *
 * It starts no timer of its own; latency waits are timers on the injected clock, and {@link FakeCloud.stop}
 * ends them (those calls answer 503) and refuses every later call.
 */
import { type Clock, realClock } from "../../clock/index.js";
import { CloudCallLog } from "./call-log.js";
import { FakeCloudError } from "./errors.js";
import { CloudFaults, type FailNextOptions } from "./faults.js";
import type { CloudBucket, CloudBucketSpec, CloudCall, CloudCallOutcome, CloudVerb } from "./types.js";

/** Options of {@link FakeCloud}. */
export interface FakeCloudOptions {
  /** Time source for latency and timestamps; default the real clock. Pass a FakeClock in tests. */
  clock?: Clock;
  /** Prefix of bucket ids (default `bkt-`), e.g. to tell two clouds apart in one notebook. */
  idPrefix?: string;
}

/** Options of {@link FakeCloud.createBucket}. */
export interface CreateBucketOptions {
  /**
   * What to do when a bucket with the name exists: `error` (default) answers 409 AlreadyExists; `return`
   * answers the existing bucket, so a retried create after a lost response succeeds (idempotent by name).
   */
  ifExists?: "error" | "return";
}

/** Options of {@link FakeCloud.deleteBucket}. */
export interface DeleteBucketOptions {
  /**
   * What to do when no bucket has the name: `error` (default) answers 404 NotFound; `ignore` resolves
   * `false`, so a cleanup that runs twice succeeds twice (idempotent by name).
   */
  ifMissing?: "error" | "ignore";
}

/** Receives every finished call (for live pictures). */
export type CloudCallListener = (call: CloudCall) => void;

/** The in-memory cloud. One instance per notebook or test; see the file comment for what it models. */
export class FakeCloud {
  /** The call record: counts by verb, and every finished call with its outcome. */
  readonly calls: CloudCallLog = new CloudCallLog();
  /** The fault plan: planned failures, latency, down. */
  readonly faults: CloudFaults = new CloudFaults();
  readonly clock: Clock;
  private readonly idPrefix: string;
  private readonly buckets = new Map<string, CloudBucket>();
  private readonly listeners = new Set<CloudCallListener>();
  private readonly abort = new AbortController();
  private nextId = 1;

  constructor(options: FakeCloudOptions = {}) {
    this.clock = options.clock ?? realClock;
    this.idPrefix = options.idPrefix ?? "bkt-";
  }

  // --- The API a controller calls (counted). ---

  /** Creates a bucket; 409 AlreadyExists if the name is taken, unless `ifExists: "return"`. */
  createBucket(name: string, spec: CloudBucketSpec, options: CreateBucketOptions = {}): Promise<CloudBucket> {
    return this.call("create", name, () => {
      const existing = this.buckets.get(name);
      if (existing) {
        if (options.ifExists === "return") return { value: copy(existing), effective: false };
        throw new FakeCloudError("AlreadyExists", "create", name, `bucket "${name}" already exists`);
      }
      const bucket: CloudBucket = {
        name,
        id: `${this.idPrefix}${String(this.nextId++).padStart(6, "0")}`,
        region: spec.region,
        versioning: spec.versioning ?? false,
        tags: { ...(spec.tags ?? {}) },
        createdAt: new Date(this.clock.now()).toISOString(),
      };
      this.buckets.set(name, bucket);
      return { value: copy(bucket), effective: true };
    });
  }

  /** Reads a bucket; 404 NotFound if there is none with that name. */
  getBucket(name: string): Promise<CloudBucket> {
    return this.call("get", name, () => {
      const bucket = this.buckets.get(name);
      if (!bucket) throw new FakeCloudError("NotFound", "get", name, `bucket "${name}" not found`);
      return { value: copy(bucket), effective: false };
    });
  }

  /** Lists every bucket, sorted by name. */
  listBuckets(): Promise<CloudBucket[]> {
    return this.call("list", undefined, () => ({
      value: [...this.buckets.values()].sort((a, b) => a.name.localeCompare(b.name)).map(copy),
      effective: false,
    }));
  }

  /**
   * Deletes a bucket. Resolves `true` when it deleted one; with no such bucket, 404 NotFound, or `false`
   * under `ifMissing: "ignore"`.
   */
  deleteBucket(name: string, options: DeleteBucketOptions = {}): Promise<boolean> {
    return this.call("delete", name, () => {
      if (!this.buckets.delete(name)) {
        if (options.ifMissing === "ignore") return { value: false, effective: false };
        throw new FakeCloudError("NotFound", "delete", name, `bucket "${name}" not found`);
      }
      return { value: true, effective: true };
    });
  }

  // --- Fault injection (shortcuts to {@link FakeCloud.faults}). ---

  /** Makes the next `count` calls of `verb` answer 500 (see {@link CloudFaults.failNext}). */
  failNext(verb: CloudVerb, count = 1, options: FailNextOptions = {}): void {
    this.faults.failNext(verb, count, options);
  }

  /** Sets the latency in ms (on the injected clock) of every call, or of one verb. */
  setLatency(ms: number, verb?: CloudVerb): void {
    this.faults.setLatency(ms, verb);
  }

  /** Takes the cloud down (every call answers 503 Unavailable) or brings it back up. */
  setDown(down: boolean): void {
    this.faults.down = down;
  }

  // --- Peeks and out-of-band changes (not counted: for pictures, checks and graders). ---

  /** True if a bucket with that name exists. Not counted as a call. */
  has(name: string): boolean {
    return this.buckets.has(name);
  }

  /** The bucket with that name, or undefined. Not counted as a call. */
  peek(name: string): CloudBucket | undefined {
    const bucket = this.buckets.get(name);
    return bucket ? copy(bucket) : undefined;
  }

  /** Names of every bucket, sorted. Not counted as a call. */
  bucketNames(): string[] {
    return [...this.buckets.keys()].sort();
  }

  /**
   * Removes a bucket behind every controller's back, as someone clicking "delete" in the cloud console does.
   * Returns whether it existed. Not counted as a call: cleanup code must then cope with 404.
   */
  removeOutOfBand(name: string): boolean {
    return this.buckets.delete(name);
  }

  /** Calls `listener` with every finished call; returns the function that unsubscribes it. */
  onCall(listener: CloudCallListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Empties the cloud: no buckets, no faults, no recorded calls, ids from 1 again. Listeners stay. */
  reset(): void {
    this.buckets.clear();
    this.faults.clear();
    this.calls.reset();
    this.nextId = 1;
  }

  /** True once {@link FakeCloud.stop} was called. */
  get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  /** Ends every latency wait (those calls answer 503) and makes every later call answer 503. Idempotent. */
  stop(): void {
    this.abort.abort();
    this.listeners.clear();
  }

  // --- One path for every call: count, wait, faults, effect, record. ---

  private async call<T>(
    verb: CloudVerb,
    bucket: string | undefined,
    effect: () => { value: T; effective: boolean },
  ): Promise<T> {
    const seq = this.calls.start(verb);
    const startedAt = this.clock.now();
    const finish = (outcome: CloudCallOutcome, effective: boolean) => {
      const call: CloudCall = { seq, verb, bucket, startedAt, endedAt: this.clock.now(), outcome, effective };
      this.calls.record(call);
      for (const listener of this.listeners) {
        try {
          listener(call);
        } catch {
          // A broken picture must not break the cloud.
        }
      }
    };
    const fail = (error: FakeCloudError, effective = false): never => {
      finish(error.code, effective);
      throw error;
    };
    if (this.stopped) fail(new FakeCloudError("Unavailable", verb, bucket, "the fake cloud was stopped"));
    const delay = this.faults.latency(verb);
    if (delay > 0 && !(await this.clock.sleep(delay, this.abort.signal))) {
      fail(new FakeCloudError("Unavailable", verb, bucket, "the fake cloud was stopped during the call"));
    }
    if (this.faults.down) fail(new FakeCloudError("Unavailable", verb, bucket, "the fake cloud is down"));
    const injected = this.faults.take(verb);
    if (injected?.timing === "before")
      fail(new FakeCloudError("InternalError", verb, bucket, injected.message));
    let result: { value: T; effective: boolean };
    try {
      result = effect();
    } catch (err) {
      if (err instanceof FakeCloudError) fail(err);
      throw err;
    }
    if (injected) fail(new FakeCloudError("InternalError", verb, bucket, injected.message), result.effective);
    finish("ok", result.effective);
    return result.value;
  }
}

function copy(bucket: CloudBucket): CloudBucket {
  return { ...bucket, tags: { ...bucket.tags } };
}
