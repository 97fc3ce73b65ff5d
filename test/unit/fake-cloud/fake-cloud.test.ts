import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../src/clock/index.js";
import {
  FakeCloud,
  FakeCloudError,
  isCloudAlreadyExists,
  isCloudNotFound,
  isCloudRetryable,
} from "../../../src/workbook/fake-cloud/index.js";
import * as workbook from "../../../src/workbook/index.js";

describe("FakeCloud: buckets", () => {
  it("creates, reads, lists and deletes buckets with deterministic ids and clock timestamps", async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const cloud = new FakeCloud({ clock });
    const a = await cloud.createBucket("b-a", { region: "eu-west-1", versioning: true, tags: { uid: "1" } });
    expect(a).toMatchObject({ name: "b-a", id: "bkt-000001", region: "eu-west-1", versioning: true });
    expect(a.createdAt).toBe("2026-01-01T00:00:00.000Z");
    await cloud.createBucket("b-0", { region: "us-east-1" });
    expect((await cloud.getBucket("b-0")).versioning).toBe(false);
    expect((await cloud.listBuckets()).map((b) => b.name)).toEqual(["b-0", "b-a"]);
    expect(await cloud.deleteBucket("b-a")).toBe(true);
    expect(cloud.bucketNames()).toEqual(["b-0"]);
  });

  it("returns copies: changing a returned bucket changes nothing in the cloud", async () => {
    const cloud = new FakeCloud({ clock: new FakeClock(0) });
    const b = await cloud.createBucket("x", { region: "r", tags: { k: "v" } });
    (b.tags as Record<string, string>).k = "changed";
    expect(cloud.peek("x")?.tags.k).toBe("v");
  });

  it("answers 409 on a taken name and 404 on a missing one, unless asked to be idempotent by name", async () => {
    const cloud = new FakeCloud({ clock: new FakeClock(0) });
    const first = await cloud.createBucket("x", { region: "r" });
    const err = await cloud.createBucket("x", { region: "r" }).catch((e) => e);
    expect(isCloudAlreadyExists(err)).toBe(true);
    expect(err).toMatchObject({ status: 409, retryable: false, verb: "create", bucket: "x" });
    expect((await cloud.createBucket("x", { region: "r" }, { ifExists: "return" })).id).toBe(first.id);
    expect(isCloudNotFound(await cloud.getBucket("nope").catch((e) => e))).toBe(true);
    expect(await cloud.deleteBucket("x")).toBe(true);
    const gone = await cloud.deleteBucket("x").catch((e) => e);
    expect(isCloudNotFound(gone)).toBe(true);
    expect(gone.status).toBe(404);
    expect(await cloud.deleteBucket("x", { ifMissing: "ignore" })).toBe(false);
  });
});

describe("FakeCloud: error predicates", () => {
  it("recognise the cloud's errors by class, or by name and code from another copy of the package", () => {
    const copy = Object.assign(new Error("bucket gone"), { name: "FakeCloudError", code: "NotFound" });
    expect(isCloudNotFound(copy)).toBe(true);
    expect(isCloudAlreadyExists(copy)).toBe(false);
    const down = Object.assign(new Error("down"), {
      name: "FakeCloudError",
      code: "Unavailable",
      retryable: true,
    });
    expect(isCloudRetryable(down)).toBe(true);
    expect(isCloudNotFound(Object.assign(new Error("x"), { code: "NotFound" }))).toBe(false);
    expect(isCloudNotFound({ name: "FakeCloudError", code: "Teapot" })).toBe(false);
    expect(isCloudNotFound(undefined)).toBe(false);
    expect(isCloudNotFound(new FakeCloudError("NotFound", "get", "b", "gone"))).toBe(true);
  });
});

describe("FakeCloud: counted calls", () => {
  it("counts every call by verb and records outcome and whether it changed the cloud", async () => {
    const cloud = new FakeCloud({ clock: new FakeClock(0) });
    await cloud.createBucket("x", { region: "r" });
    await cloud.getBucket("x");
    await cloud.listBuckets();
    await cloud.deleteBucket("x");
    await cloud.deleteBucket("x").catch(() => undefined);
    expect(cloud.calls.counts()).toEqual({ create: 1, get: 1, list: 1, delete: 2 });
    expect(cloud.calls.total()).toBe(5);
    expect(cloud.calls.count({ verb: "delete", bucket: "x", effective: true })).toBe(1);
    expect(cloud.calls.count({ verb: "delete", outcome: "NotFound" })).toBe(1);
    expect(cloud.calls.list().map((c) => c.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it("peeks and out-of-band removals are not counted", async () => {
    const cloud = new FakeCloud({ clock: new FakeClock(0) });
    await cloud.createBucket("x", { region: "r" });
    expect(cloud.has("x")).toBe(true);
    expect(cloud.peek("x")?.name).toBe("x");
    expect(cloud.removeOutOfBand("x")).toBe(true);
    expect(cloud.has("x")).toBe(false);
    expect(cloud.calls.total()).toBe(1);
  });

  it("tells listeners about every finished call and survives a throwing listener", async () => {
    const cloud = new FakeCloud({ clock: new FakeClock(0) });
    const seen: string[] = [];
    cloud.onCall(() => {
      throw new Error("broken picture");
    });
    const off = cloud.onCall((c) => seen.push(`${c.verb}:${c.outcome}`));
    await cloud.createBucket("x", { region: "r" });
    await cloud.getBucket("y").catch(() => undefined);
    off();
    await cloud.listBuckets();
    expect(seen).toEqual(["create:ok", "get:NotFound"]);
  });

  it("reset empties buckets, faults and counters", async () => {
    const cloud = new FakeCloud({ clock: new FakeClock(0) });
    await cloud.createBucket("x", { region: "r" });
    cloud.failNext("get", 2);
    cloud.setDown(true);
    cloud.reset();
    expect(cloud.bucketNames()).toEqual([]);
    expect(cloud.calls.total()).toBe(0);
    expect((await cloud.createBucket("y", { region: "r" })).id).toBe("bkt-000001");
    await expect(cloud.getBucket("y")).resolves.toMatchObject({ name: "y" });
  });
});

describe("FakeCloud: injected failures", () => {
  it("fails exactly the next N calls of one verb, leaving other verbs alone", async () => {
    const cloud = new FakeCloud({ clock: new FakeClock(0) });
    await cloud.createBucket("x", { region: "r" });
    cloud.failNext("delete", 2);
    expect(cloud.faults.failuresPlanned("delete")).toBe(2);
    await expect(cloud.getBucket("x")).resolves.toBeDefined();
    for (let i = 0; i < 2; i++) {
      const err = await cloud.deleteBucket("x").catch((e) => e);
      expect(err).toBeInstanceOf(FakeCloudError);
      expect(err).toMatchObject({ code: "InternalError", status: 500, retryable: true });
      expect(cloud.has("x")).toBe(true);
    }
    expect(await cloud.deleteBucket("x")).toBe(true);
    expect(cloud.calls.count({ verb: "delete", outcome: "InternalError", effective: false })).toBe(2);
  });

  it("a failure timed 'after' applies the effect and still answers 500 (the lost response)", async () => {
    const cloud = new FakeCloud({ clock: new FakeClock(0) });
    cloud.failNext("create", 1, { timing: "after", message: "connection reset" });
    const err = await cloud.createBucket("x", { region: "r" }).catch((e) => e);
    expect(err.message).toBe("connection reset");
    expect(isCloudRetryable(err)).toBe(true);
    expect(cloud.has("x")).toBe(true);
    expect(cloud.calls.list({ verb: "create" })[0]).toMatchObject({
      outcome: "InternalError",
      effective: true,
    });
    // The naive retry now meets 409; the idempotent one gets the bucket.
    expect(isCloudAlreadyExists(await cloud.createBucket("x", { region: "r" }).catch((e) => e))).toBe(true);
    await expect(cloud.createBucket("x", { region: "r" }, { ifExists: "return" })).resolves.toBeDefined();
  });

  it("down answers 503 to every call without consuming planned failures, until it is up again", async () => {
    const cloud = new FakeCloud({ clock: new FakeClock(0) });
    cloud.failNext("list", 1);
    cloud.setDown(true);
    const err = await cloud.listBuckets().catch((e) => e);
    expect(err).toMatchObject({ code: "Unavailable", status: 503, retryable: true });
    expect(cloud.faults.failuresPlanned("list")).toBe(1);
    cloud.setDown(false);
    await expect(cloud.listBuckets()).rejects.toMatchObject({ code: "InternalError" });
    await expect(cloud.listBuckets()).resolves.toEqual([]);
  });

  it("rejects invalid fault settings", () => {
    const cloud = new FakeCloud({ clock: new FakeClock(0) });
    expect(() => cloud.failNext("get", -1)).toThrow(/count/);
    expect(() => cloud.failNext("get", 1.5)).toThrow(/count/);
    expect(() => cloud.setLatency(-5)).toThrow(/ms/);
  });
});

describe("FakeCloud: latency on the injected clock, and stop()", () => {
  it("a slow call answers only once the clock has moved by its latency", async () => {
    const clock = new FakeClock(0);
    const cloud = new FakeCloud({ clock });
    cloud.setLatency(100);
    cloud.setLatency(1000, "delete");
    let created = false;
    const pending = cloud.createBucket("x", { region: "r" }).then(() => {
      created = true;
    });
    await clock.advance(99);
    expect(created).toBe(false);
    expect(cloud.has("x")).toBe(false);
    expect(cloud.calls.counts().create).toBe(1);
    await clock.advance(1);
    await pending;
    expect(created).toBe(true);
    const del = cloud.deleteBucket("x");
    await clock.advance(999);
    expect(cloud.has("x")).toBe(true);
    await clock.advance(1);
    await expect(del).resolves.toBe(true);
    expect(cloud.calls.list({ verb: "delete" })[0]).toMatchObject({ startedAt: 100, endedAt: 1100 });
  });

  it("stop ends waiting calls with 503, refuses later calls and leaves no timer behind", async () => {
    const clock = new FakeClock(0);
    const cloud = new FakeCloud({ clock });
    cloud.setLatency(5000);
    const waiting = cloud.getBucket("x").catch((e) => e);
    expect(clock.pendingTimers()).toBe(1);
    cloud.stop();
    cloud.stop();
    expect(await waiting).toMatchObject({ code: "Unavailable" });
    expect(clock.pendingTimers()).toBe(0);
    expect(cloud.stopped).toBe(true);
    await expect(cloud.listBuckets()).rejects.toMatchObject({ code: "Unavailable" });
  });
});

describe("the workbook entry point", () => {
  it("exports the fake cloud", () => {
    expect(workbook.FakeCloud).toBe(FakeCloud);
    expect(workbook.isCloudNotFound).toBe(isCloudNotFound);
    expect(workbook.CLOUD_VERBS).toEqual(["create", "get", "list", "delete"]);
  });
});
