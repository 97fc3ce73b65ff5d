/**
 * LAB 03 (solution). The fan-out half of a shared informer: one cache, and for every handler its own buffer
 * drained by its own loop, so a slow handler only delays itself; a handler registered late first receives the
 * cache as adds. client-go's `sharedIndexInformer` + `processorListener` do this (notebook 03, section 2).
 */
import type { MetaObject } from "kube-controller-workbook";

/** What a handler may implement (client-go's `ResourceEventHandler`). Every method may be async. */
export interface FanOutHandler<T> {
  onAdd?(obj: T, isInInitialList: boolean): void | Promise<void>;
  onUpdate?(oldObj: T, newObj: T): void | Promise<void>;
  onDelete?(obj: T): void | Promise<void>;
}

/** What `addHandler` returns. */
export interface FanOutRegistration {
  /** Notifications queued for this handler and not yet started. */
  pending(): number;
}

type Notification<T> =
  | { type: "add"; obj: T; initial: boolean }
  | { type: "update"; oldObj: T; newObj: T }
  | { type: "delete"; obj: T };

/** One handler's lane: its buffer and a way to wake its loop. */
interface Lane<T> {
  handler: FanOutHandler<T>;
  buffer: Notification<T>[];
  wake?: () => void;
}

/** `namespace/name`, the cache key (client-go's `MetaNamespaceKeyFunc`). */
function keyOf(obj: MetaObject): string {
  const ns = obj.metadata?.namespace;
  return ns ? `${ns}/${obj.metadata?.name}` : `${obj.metadata?.name}`;
}

/**
 * Registered as the one handler of an upstream informer (it has onAdd/onUpdate/onDelete itself), it keeps a
 * cache of the objects and fans every notification out to its own handlers.
 */
export class FanOut<T extends MetaObject> {
  private readonly cache = new Map<string, T>();
  private readonly lanes: Lane<T>[] = [];
  private stopped = false;

  /** Upstream: an object appeared. */
  onAdd(obj: T, isInInitialList = false): void {
    this.cache.set(keyOf(obj), obj);
    this.distribute({ type: "add", obj, initial: isInInitialList });
  }

  /** Upstream: an object changed. */
  onUpdate(oldObj: T, newObj: T): void {
    this.cache.set(keyOf(newObj), newObj);
    this.distribute({ type: "update", oldObj, newObj });
  }

  /** Upstream: an object is gone. It leaves the cache, so a late handler never hears of it. */
  onDelete(obj: T): void {
    this.cache.delete(keyOf(obj));
    this.distribute({ type: "delete", obj });
  }

  /** The cached objects. */
  list(): T[] {
    return [...this.cache.values()];
  }

  /** Registers a handler: it first receives every cached object as an initial add, then live notifications. */
  addHandler(handler: FanOutHandler<T>): FanOutRegistration {
    const lane: Lane<T> = { handler, buffer: [] };
    // Snapshot and registration happen in one synchronous step: no notification can slip in between.
    for (const obj of this.cache.values()) lane.buffer.push({ type: "add", obj, initial: true });
    this.lanes.push(lane);
    void this.drain(lane);
    return { pending: () => lane.buffer.length };
  }

  /** Stops every loop; nothing is delivered afterwards. */
  stop(): void {
    this.stopped = true;
    for (const lane of this.lanes) {
      lane.buffer.length = 0;
      lane.wake?.();
    }
  }

  /** Appends to every lane and never waits for a handler: a slow one only grows its own buffer. */
  private distribute(n: Notification<T>): void {
    if (this.stopped) return;
    for (const lane of this.lanes) {
      lane.buffer.push(n);
      lane.wake?.();
    }
  }

  /** One lane's loop: one notification at a time, in order; a throwing handler is reported and skipped. */
  private async drain(lane: Lane<T>): Promise<void> {
    while (!this.stopped) {
      const n = lane.buffer.shift();
      if (n === undefined) {
        await new Promise<void>((resolve) => {
          lane.wake = resolve;
        });
        lane.wake = undefined;
        continue;
      }
      try {
        if (n.type === "add") await lane.handler.onAdd?.(n.obj, n.initial);
        else if (n.type === "update") await lane.handler.onUpdate?.(n.oldObj, n.newObj);
        else await lane.handler.onDelete?.(n.obj);
      } catch (err) {
        console.error(`fan-out: a handler failed on ${n.type}: ${String(err)}`);
      }
    }
  }
}
