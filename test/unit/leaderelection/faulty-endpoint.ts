import type { Clock } from "../../../src/clock/index.js";
import type { LeaseEndpoint, LeaseObject } from "../../../src/leaderelection/index.js";

/** How the network between one candidate and the Lease API behaves right now. */
export type LinkMode = "ok" | "fail" | "hang";

/**
 * A test double for the network between a candidate and the Lease store: per-call latency (request and
 * response), failures ("connection refused", the request never arrives), hangs (the request is held until
 * the link heals, then delivered late), and a log of when this candidate's writes landed at the store.
 */
export class FaultyEndpoint implements LeaseEndpoint {
  mode: LinkMode = "ok";
  /** Milliseconds added to each request and each response. */
  latency: () => number = () => 0;
  /** Store-side times and resourceVersions of this candidate's successful writes. */
  readonly writes: { at: number; rv: string }[] = [];
  /** Store-side time at which each read returned, with the resourceVersion it saw. */
  readonly reads: { at: number; rv: string | undefined }[] = [];
  private healed: Array<() => void> = [];

  constructor(
    private readonly inner: LeaseEndpoint,
    private readonly clock: Clock,
  ) {}

  setMode(mode: LinkMode): void {
    this.mode = mode;
    if (mode !== "hang") {
      const waiting = this.healed;
      this.healed = [];
      for (const wake of waiting) wake();
    }
  }

  read(namespace: string, name: string): Promise<LeaseObject | undefined> {
    return this.call(async () => {
      const lease = await this.inner.read(namespace, name);
      this.reads.push({ at: this.clock.now(), rv: lease?.metadata.resourceVersion });
      return lease;
    });
  }

  create(lease: LeaseObject): Promise<LeaseObject> {
    return this.call(() => this.recordWrite(this.inner.create(lease)));
  }

  replace(lease: LeaseObject): Promise<LeaseObject> {
    return this.call(() => this.recordWrite(this.inner.replace(lease)));
  }

  private async recordWrite(write: Promise<LeaseObject>): Promise<LeaseObject> {
    const saved = await write;
    this.writes.push({ at: this.clock.now(), rv: saved.metadata.resourceVersion ?? "" });
    return saved;
  }

  private isFailing(): boolean {
    return this.mode === "fail";
  }

  private async call<T>(op: () => Promise<T>): Promise<T> {
    await this.clock.sleep(this.latency());
    if (this.mode === "fail") throw new Error("connect ECONNREFUSED (injected)");
    if (this.mode === "hang") await new Promise<void>((wake) => this.healed.push(wake));
    const result = await op();
    await this.clock.sleep(this.latency());
    if (this.isFailing()) throw new Error("connection reset (injected; the request was applied)");
    return result;
  }
}
