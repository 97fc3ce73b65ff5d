import type { KubeConfig } from "@kubernetes/client-node";
import { type ErrorHandler, type Runnable, RunOnce } from "../apimachinery/lifecycle.js";
import type { MetaObject } from "../apimachinery/object.js";
import { whenAborted } from "../apimachinery/wait/until-aborted.js";
import { type ListerWatcher, ListWatch, type ListWatchScope } from "../client/list-watch.js";
import { descriptorKey, type ResourceDescriptor } from "../client/resource-descriptor.js";
import type { Clock } from "../clock/clock.js";
import { Lister } from "./lister.js";
import { SharedIndexInformer, type SharedIndexInformerOptions } from "./shared-index-informer.js";
import type { WaitForCacheSyncOptions } from "./wait-for-cache-sync.js";

/** Options of {@link SharedInformerFactory}. */
export interface SharedInformerFactoryOptions {
  /** Resync period of every informer (default 0: never). */
  defaultResyncMs?: number;
  /** Per-resource resync (client-go's `WithCustomResyncConfig`); return undefined to use the default. */
  customResyncMs?: (resource: ResourceDescriptor) => number | undefined;
  /** Default scope of every informer (client-go's `WithNamespace` / `WithTweakListOptions`). */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Transform installed on every informer (client-go's `WithTransform`). */
  transform?: (obj: MetaObject) => MetaObject;
  clock?: Clock;
  random?: () => number;
  /** Given to every informer (see `SharedIndexInformerOptions.onError`). */
  onError?: ErrorHandler;
  reflector?: SharedIndexInformerOptions<MetaObject>["reflector"];
  /** How to build the ListerWatcher of a resource; default a client-node {@link ListWatch} on the kubeConfig. */
  listWatchFor?: (resource: ResourceDescriptor, scope: ListWatchScope) => ListerWatcher<MetaObject>;
}

function scopeKey(resource: ResourceDescriptor, scope: ListWatchScope): string {
  return [
    descriptorKey(resource),
    scope.namespace ?? "",
    scope.labelSelector ?? "",
    scope.fieldSelector ?? "",
  ].join("|");
}

/**
 * Hands out one shared informer per resource (and scope), so every controller in a process shares one LIST+WATCH
 * and one cache per resource. Mirrors client-go's `informers.SharedInformerFactory` (which keys by Go type; here
 * the key is the resource descriptor plus namespace and selectors).
 *
 * - `informerFor` twice with the same resource and scope returns the same informer;
 * - `start()` starts the informers not started yet (call it again after asking for new ones);
 * - `waitForCacheSync()` waits for the started ones (true once all have synced);
 * - `shutdown()` (alias `stop()`) stops them all and waits; afterwards `start()` does nothing and
 *   `informerFor` throws.
 *
 * Lifecycle (`src/apimachinery/lifecycle.ts`): `run(signal)` once starts every informer (and, through
 * `start()`, those asked for later) and shuts them all down when `signal` aborts; a second `run()` rejects.
 * `start()` keeps client-go's meaning: each call starts the informers not started yet.
 */
export class SharedInformerFactory implements Runnable {
  private readonly informers = new Map<string, SharedIndexInformer<MetaObject>>();
  private readonly started = new Set<string>();
  private readonly ownedListWatches: ListWatch[] = [];
  private shuttingDown = false;
  private readonly lifecycle = new RunOnce("informer factory");

  constructor(
    private readonly kubeConfig: KubeConfig | undefined,
    private readonly options: SharedInformerFactoryOptions = {},
  ) {
    if (!kubeConfig && !options.listWatchFor) {
      throw new Error("SharedInformerFactory needs a KubeConfig or a listWatchFor option");
    }
  }

  /** The shared informer of `resource` in `scope` (default: the factory's scope), created on first use. */
  informerFor<T extends MetaObject = MetaObject>(
    resource: ResourceDescriptor,
    scope: ListWatchScope = {},
  ): SharedIndexInformer<T> {
    if (this.shuttingDown) throw new Error("the informer factory has been shut down");
    const full: ListWatchScope = {
      namespace: scope.namespace ?? this.options.namespace,
      labelSelector: scope.labelSelector ?? this.options.labelSelector,
      fieldSelector: scope.fieldSelector ?? this.options.fieldSelector,
    };
    if (!resource.namespaced) full.namespace = undefined;
    const key = scopeKey(resource, full);
    let informer = this.informers.get(key);
    if (!informer) {
      let listWatch: ListerWatcher<MetaObject>;
      if (this.options.listWatchFor) listWatch = this.options.listWatchFor(resource, full);
      else {
        const owned = new ListWatch(this.kubeConfig!, resource, full);
        this.ownedListWatches.push(owned);
        listWatch = owned;
      }
      informer = new SharedIndexInformer<MetaObject>(listWatch, {
        name: key,
        resyncPeriodMs: this.options.customResyncMs?.(resource) ?? this.options.defaultResyncMs ?? 0,
        clock: this.options.clock,
        random: this.options.random,
        onError: this.options.onError,
        reflector: this.options.reflector,
      });
      if (this.options.transform) informer.setTransform(this.options.transform);
      this.informers.set(key, informer);
    }
    return informer as unknown as SharedIndexInformer<T>;
  }

  /** A lister over the shared informer of `resource` (creating the informer if needed). */
  listerFor<T extends MetaObject = MetaObject>(
    resource: ResourceDescriptor,
    scope: ListWatchScope = {},
  ): Lister<T> {
    return new Lister<T>(this.informerFor<T>(resource, scope).getIndexer());
  }

  /**
   * Runs the factory until `signal` aborts (or {@link stop}): starts every informer now and every informer
   * started later, then shuts them all down; settles once all have stopped. Runs once.
   */
  run(signal?: AbortSignal): Promise<void> {
    return this.lifecycle.run(signal, async (until) => {
      this.start();
      await whenAborted(until);
      await this.shutdown();
    });
  }

  /** Same as {@link shutdown}: the contract's name. */
  stop(): Promise<void> {
    return this.shutdown();
  }

  /** Starts every informer not started yet; does nothing after shutdown. */
  start(): void {
    if (this.shuttingDown) return;
    for (const [key, informer] of this.informers) {
      if (this.started.has(key)) continue;
      this.started.add(key);
      informer.start();
    }
  }

  /**
   * Waits for every started informer to sync (client-go's `factory.WaitForCacheSync`): true once all have,
   * false if `signal` aborted or `timeoutMs` passed first. Ask an informer's `hasSynced()` to see which one lags.
   */
  async waitForCacheSync(options: WaitForCacheSyncOptions = {}): Promise<boolean> {
    const started = [...this.started].map((key) => this.informers.get(key)!);
    const results = await Promise.all(started.map((informer) => informer.waitForCacheSync(options)));
    return results.every((synced) => synced);
  }

  /** Stops every informer and waits until all of them have stopped (client-go's `Shutdown`). Idempotent. */
  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    void this.lifecycle.stop();
    await Promise.all([...this.informers.values()].map((i) => i.stop()));
    await Promise.all(this.ownedListWatches.map((lw) => lw.close()));
  }
}
