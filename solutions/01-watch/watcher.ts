/**
 * Lab 01 (reference answer): a watcher that lists once, then watches from the list's resourceVersion, resumes
 * a watch that ends from the last resourceVersion it handled, and lists again only after 410 Gone. The loop of
 * client-go's `Reflector.ListAndWatch`, without its store.
 */
import {
  isExpired,
  type ListerWatcher,
  type ListWatchEvent,
  type MetaObject,
} from "kube-controller-workbook";

/** What the watcher reports to: the full state after every LIST, then each change. */
export interface WatchHandler<T extends MetaObject = MetaObject> {
  /** After each LIST (the first one and every relist): every object, and the list's resourceVersion. */
  onList(items: T[], resourceVersion: string): void;
  /** One change, in the order the server sent it. BOOKMARK events are not passed on. */
  onEvent(type: "ADDED" | "MODIFIED" | "DELETED", object: T): void;
}

/** First pause after a failed request; it doubles up to {@link MAX_RETRY_MS}. */
const FIRST_RETRY_MS = 200;
const MAX_RETRY_MS = 2000;

/** Lists, then watches from the list's resourceVersion; resumes on a clean end, relists on 410 Gone. */
export class ResumingWatcher<T extends MetaObject = MetaObject> {
  private lastRV = "";
  private readonly abort = new AbortController();
  private running: Promise<void> | undefined;

  constructor(
    private readonly source: ListerWatcher<T>,
    private readonly handler: WatchHandler<T>,
  ) {}

  /** The resourceVersion of the last LIST or event handled ("" before the first LIST). */
  lastResourceVersion(): string {
    return this.lastRV;
  }

  /** Runs until {@link stop}; resolves once it has stopped. Calling it twice returns the same run. */
  run(): Promise<void> {
    this.running ??= this.loop(this.abort.signal);
    return this.running;
  }

  /** Stops the watch and waits for {@link run} to finish. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  private async loop(signal: AbortSignal): Promise<void> {
    let mustList = true;
    let retryMs = FIRST_RETRY_MS;
    while (!signal.aborted) {
      try {
        if (mustList) {
          await this.list(signal);
          mustList = false;
        }
        // Resolves when the stream ends cleanly: go round and watch again from the last resourceVersion.
        await this.source.watch(
          { resourceVersion: this.lastRV, allowWatchBookmarks: true, timeoutSeconds: 300 },
          (event) => this.handle(event),
          signal,
        );
        retryMs = FIRST_RETRY_MS;
      } catch (err) {
        if (signal.aborted) break;
        if (isExpired(err)) {
          // The history since lastRV is gone: only a new LIST gives a complete state again.
          mustList = true;
          continue;
        }
        // Anything else (a failed LIST, a refused WATCH): retry the same step after a growing pause.
        await pause(retryMs, signal);
        retryMs = Math.min(MAX_RETRY_MS, retryMs * 2);
      }
    }
  }

  private async list(signal: AbortSignal): Promise<void> {
    // "": the most recent state, simple and safe. client-go relists at its last synced version instead ("not
    // older than N" needs no history, so the watch's 410 does not refuse it) and falls back to "" only if that
    // LIST is refused too.
    const list = await this.source.list({ resourceVersion: "", signal });
    if (signal.aborted) return;
    this.lastRV = list.metadata.resourceVersion ?? "";
    this.handler.onList(list.items, this.lastRV);
  }

  private handle(event: ListWatchEvent<T>): void {
    const rv = event.object.metadata?.resourceVersion;
    if (event.type !== "BOOKMARK") this.handler.onEvent(event.type, event.object);
    if (rv) this.lastRV = rv;
  }
}

/** Waits `ms`, or less if `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
