import { describe, expect, it } from "vitest";
import { StatusError } from "../../../src/apimachinery/errors.js";
import { InMemoryLeaseStore, InMemoryLock } from "../../../src/leaderelection/index.js";

const record = (holder: string) => ({
  holderIdentity: holder,
  leaseDurationSeconds: 15,
  acquireTime: "2026-01-01T00:00:00.000000Z",
  renewTime: "2026-01-01T00:00:00.000000Z",
  leaderTransitions: 0,
});

describe("InMemoryLock (the Lease lock logic on an in-memory store)", () => {
  const config = (identity: string) => ({ namespace: "ns", name: "lock", identity });

  it("get returns undefined until the Lease exists; create then fails with 409 AlreadyExists", async () => {
    const store = new InMemoryLeaseStore();
    const a = new InMemoryLock(store, config("a"));
    expect(await a.get()).toBeUndefined();
    await a.create(record("a"));
    expect((await a.get())?.record.holderIdentity).toBe("a");
    const err = await new InMemoryLock(store, config("b")).create(record("b")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StatusError);
    expect((err as StatusError).reason).toBe("AlreadyExists");
  });

  it("update before any get/create is refused", async () => {
    const lock = new InMemoryLock(new InMemoryLeaseStore(), config("a"));
    await expect(lock.update(record("a"))).rejects.toThrow(/not initialized/);
  });

  it("of two candidates that read the same resourceVersion, exactly one update wins; the other gets 409", async () => {
    const store = new InMemoryLeaseStore();
    const a = new InMemoryLock(store, config("a"));
    const b = new InMemoryLock(store, config("b"));
    await a.create(record(""));
    await a.get();
    await b.get();
    await a.update(record("a"));
    const err = await b.update(record("b")).catch((e: unknown) => e);
    expect((err as StatusError).code).toBe(409);
    expect((err as StatusError).reason).toBe("Conflict");
    expect(store.peek("ns", "lock")?.spec.holderIdentity).toBe("a");
    // After re-reading, b's write carries the fresh resourceVersion and goes through.
    await b.get();
    await b.update(record("b"));
    expect(store.peek("ns", "lock")?.spec.holderIdentity).toBe("b");
  });

  it("rejects an empty identity", () => {
    expect(() => new InMemoryLock(new InMemoryLeaseStore(), config(""))).toThrow(/identity/);
  });
});
