/**
 * client-go's `cache.WaitForCacheSync(stopCh, cacheSyncs...)`: polls every readiness function (an informer's
 * `hasSynced`) immediately and then every 100 ms (`syncedPollPeriod`) until all are true. Controllers call it
 * before starting workers, so a reconcile never reads a half-filled cache and mistakes "not listed yet" for
 * "does not exist".
 *
 * One shape everywhere: `waitForCacheSync(options?)` resolving `true` once synced, `false` when `signal` aborted
 * or `timeoutMs` passed first. This free function takes the readiness functions first;
 * `SharedIndexInformer.waitForCacheSync(options?)` waits for that informer and
 * `SharedInformerFactory.waitForCacheSync(options?)` for every informer the factory started.
 */
import { type Clock, realClock } from "../clock/clock.js";

/** A readiness check, typically `informer.hasSynced` (bound). */
export type InformerSynced = () => boolean;

/** Options of {@link waitForCacheSync} and of the informer's and factory's methods of the same name. */
export interface WaitForCacheSyncOptions {
  /** Clock of the polling (the informer's own clock for its method; default the real clock). */
  clock?: Clock;
  /** Stops waiting (resolves false) when aborted. */
  signal?: AbortSignal;
  /** Poll period (default 100 ms, as client-go). */
  pollIntervalMs?: number;
  /** Gives up (resolves false) after this long; default: wait forever (client-go has no timeout). */
  timeoutMs?: number;
}

/** Resolves true once every function returns true; false if aborted or timed out first. */
export async function waitForCacheSync(
  synced: ReadonlyArray<InformerSynced>,
  options: WaitForCacheSyncOptions = {},
): Promise<boolean> {
  const clock = options.clock ?? realClock;
  const period = options.pollIntervalMs ?? 100;
  if (!(period > 0)) throw new RangeError(`pollIntervalMs must be > 0, got ${period}`);
  for (const fn of synced) {
    if (typeof fn !== "function")
      throw new TypeError("waitForCacheSync: every entry must be a () => boolean");
  }
  const deadline = clock.now() + (options.timeoutMs ?? Number.POSITIVE_INFINITY);
  for (;;) {
    if (options.signal?.aborted) return false;
    if (synced.every((fn) => fn())) return true;
    const remaining = deadline - clock.now();
    if (remaining <= 0) return false;
    if (!(await clock.sleep(Math.min(period, remaining), options.signal))) return false;
  }
}
