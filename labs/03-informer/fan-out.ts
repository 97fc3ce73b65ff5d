/**
 * LAB 03 (skeleton). The fan-out half of a shared informer: one cache, and for every handler its own buffer
 * drained by its own loop, so a slow handler only delays itself; a handler registered late first receives the
 * cache as adds. Read notebook 03 (section 2 builds a small one; section 5 shows why the buffers matter).
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

/**
 * Registered as the one handler of an upstream informer (it has onAdd/onUpdate/onDelete itself), it keeps a
 * cache of the objects and fans every notification out to its own handlers. Keep the method signatures: the
 * grader calls them.
 */
export class FanOut<T extends MetaObject> {
  /** Upstream: an object appeared. */
  onAdd(obj: T, isInInitialList = false): void {
    // TODO: keep `obj` in the cache (key namespace/name), then queue an add for every handler.
    void obj;
    void isInInitialList;
  }

  /** Upstream: an object changed. */
  onUpdate(oldObj: T, newObj: T): void {
    // TODO: replace the cached object, then queue an update (old, new) for every handler.
    void oldObj;
    void newObj;
  }

  /** Upstream: an object is gone. */
  onDelete(obj: T): void {
    // TODO: remove it from the cache, then queue a delete for every handler.
    void obj;
  }

  /** The cached objects. */
  list(): T[] {
    // TODO
    return [];
  }

  /** Registers a handler: it first receives every cached object as an initial add, then live notifications. */
  addHandler(handler: FanOutHandler<T>): FanOutRegistration {
    // TODO: give the handler its own buffer (filled with the cache first) and its own delivery loop.
    void handler;
    return { pending: () => 0 };
  }

  /** Stops every loop; nothing is delivered afterwards. */
  stop(): void {
    // TODO
  }
}
