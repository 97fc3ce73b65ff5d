import type { CoreV1Event } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../src/clock/index.js";
import { EventRecorder, type EventSink } from "../../../src/controller/index.js";

/** An in-memory stand-in for the two CoreV1Api calls, failing like the API server does. */
class FakeEvents implements EventSink {
  readonly store = new Map<string, CoreV1Event>();
  creates = 0;
  replaces = 0;
  private rv = 0;
  failNext: number | undefined;

  private fail(): void {
    if (this.failNext === undefined) return;
    const code = this.failNext;
    this.failNext = undefined;
    throw Object.assign(new Error(`HTTP ${code}`), { code });
  }

  async createNamespacedEvent(p: { namespace: string; body: CoreV1Event }): Promise<CoreV1Event> {
    await Promise.resolve();
    this.fail();
    this.creates++;
    const key = `${p.namespace}/${p.body.metadata.name}`;
    if (this.store.has(key)) throw Object.assign(new Error("exists"), { code: 409 });
    const stored = structuredClone({
      ...p.body,
      metadata: { ...p.body.metadata, resourceVersion: `${++this.rv}` },
    });
    this.store.set(key, stored);
    return structuredClone(stored);
  }

  async replaceNamespacedEvent(p: {
    name: string;
    namespace: string;
    body: CoreV1Event;
  }): Promise<CoreV1Event> {
    await Promise.resolve();
    this.fail();
    this.replaces++;
    const key = `${p.namespace}/${p.name}`;
    if (!this.store.has(key)) throw Object.assign(new Error("not found"), { code: 404 });
    const stored = structuredClone({
      ...p.body,
      metadata: { ...p.body.metadata, resourceVersion: `${++this.rv}` },
    });
    this.store.set(key, stored);
    return structuredClone(stored);
  }
}

const foo = {
  apiVersion: "example.com/v1",
  kind: "Foo",
  metadata: { name: "foo1", namespace: "ns", uid: "u-1", resourceVersion: "7" },
};

function setup(windowMs?: number) {
  const clock = new FakeClock(Date.UTC(2026, 0, 1));
  const api = new FakeEvents();
  const errors: unknown[] = [];
  const rec = new EventRecorder({
    api: api as unknown as EventSink,
    component: "foo-controller",
    clock,
    aggregationWindowMs: windowMs,
    onError: (e) => errors.push(e),
  });
  return { clock, api, rec, errors };
}

describe("EventRecorder", () => {
  it("creates a core/v1 Event with involvedObject, reason, message, type, source and count 1", async () => {
    const { api, rec } = setup();
    const ev = await rec.event(foo, "Normal", "Created", "created deployment foo1");
    expect(api.creates).toBe(1);
    expect(ev).toMatchObject({
      metadata: { namespace: "ns" },
      involvedObject: {
        kind: "Foo",
        apiVersion: "example.com/v1",
        name: "foo1",
        namespace: "ns",
        uid: "u-1",
      },
      type: "Normal",
      reason: "Created",
      message: "created deployment foo1",
      count: 1,
      source: { component: "foo-controller" },
      reportingComponent: "foo-controller",
    });
    expect(ev?.metadata.name).toMatch(/^foo1\.[0-9a-f]+$/);
  });

  it("aggregates identical events within the window into one object with a count", async () => {
    const { api, rec, clock } = setup();
    const first = await rec.event(foo, "Warning", "SyncFailed", "quota exceeded");
    await clock.advance(30_000);
    // Two concurrent identical events: serialised, never two objects.
    const [, third] = await Promise.all([
      rec.event(foo, "Warning", "SyncFailed", "quota exceeded"),
      rec.event(foo, "Warning", "SyncFailed", "quota exceeded"),
    ]);
    expect(api.creates).toBe(1);
    expect(api.replaces).toBe(2);
    expect(third?.metadata.name).toBe(first?.metadata.name);
    expect(third?.count).toBe(3);
    expect(third?.firstTimestamp).toEqual(first?.firstTimestamp);
    expect(new Date(third?.lastTimestamp as Date).getTime()).toBe(clock.now());
    // A different message is a different event.
    await rec.event(foo, "Warning", "SyncFailed", "other message");
    expect(api.creates).toBe(2);
  });

  it("starts a new object once the window has passed since the last occurrence", async () => {
    const { api, rec, clock } = setup(60_000);
    await rec.event(foo, "Normal", "Synced", "ok");
    await clock.advance(60_001);
    await rec.event(foo, "Normal", "Synced", "ok");
    expect(api.creates).toBe(2);
    expect(api.store.size).toBe(2);
  });

  it("creates a fresh Event when the aggregated one was deleted (404 on update)", async () => {
    const { api, rec } = setup();
    await rec.event(foo, "Normal", "Synced", "ok");
    api.store.clear();
    const ev = await rec.event(foo, "Normal", "Synced", "ok");
    expect(ev?.count).toBe(1);
    expect(api.store.size).toBe(1);
  });

  it("never throws: API errors and bad input go to onError and resolve undefined", async () => {
    const { api, rec, errors } = setup();
    api.failNext = 500;
    await expect(rec.event(foo, "Normal", "Synced", "ok")).resolves.toBeUndefined();
    await expect(rec.event({ metadata: {} }, "Normal", "Synced", "ok")).resolves.toBeUndefined();
    await expect(rec.event(foo, "Bogus" as "Normal", "Synced", "ok")).resolves.toBeUndefined();
    expect(errors).toHaveLength(3);
    // Cluster-scoped objects' events go to "default".
    const ev = await rec.event(
      { kind: "Node", apiVersion: "v1", metadata: { name: "n1" } },
      "Normal",
      "Up",
      "x",
    );
    expect(ev?.metadata.namespace).toBe("default");
  });
});
