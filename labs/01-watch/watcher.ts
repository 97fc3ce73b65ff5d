/**
 * Lab 01: a watcher that lists once, then watches from the list's resourceVersion, resumes a watch that ends
 * from the last resourceVersion it handled, and lists again only after 410 Gone. The loop of client-go's
 * `Reflector.ListAndWatch`, without its store. Read `notebooks/01-watch-vs-poll.ipynb` (sections 3 and 7) and
 * `notebooks/02-reflector-and-cache.ipynb` (sections 2 and 5) first.
 *
 * `source` does the HTTP (the grader passes the package's `ListWatch`):
 * - `source.list({ resourceVersion, signal })` resolves to `{ items, metadata: { resourceVersion } }`;
 * - `source.watch({ resourceVersion, allowWatchBookmarks }, onEvent, signal)` calls `onEvent` for every event and
 *   resolves when the stream ends cleanly (or `signal` aborts); it rejects with an error for which
 *   `isExpired(err)` is true when the server answers 410 Gone, and with another error for other failures.
 */
// You will also need `isExpired` (and the `ListWatchEvent` type) from "kube-controller-workbook".
import type { ListerWatcher, MetaObject } from "kube-controller-workbook";

/** What the watcher reports to: the full state after every LIST, then each change. */
export interface WatchHandler<T extends MetaObject = MetaObject> {
  /** After each LIST (the first one and every relist): every object, and the list's resourceVersion. */
  onList(items: T[], resourceVersion: string): void;
  /** One change, in the order the server sent it. BOOKMARK events are not passed on. */
  onEvent(type: "ADDED" | "MODIFIED" | "DELETED", object: T): void;
}

/** Lists, then watches from the list's resourceVersion; resumes on a clean end, relists on 410 Gone. */
export class ResumingWatcher<T extends MetaObject = MetaObject> {
  constructor(
    readonly source: ListerWatcher<T>,
    readonly handler: WatchHandler<T>,
  ) {}

  /** The resourceVersion of the last LIST or event handled ("" before the first LIST). */
  lastResourceVersion(): string {
    // TODO: return the version you keep up to date in the loop.
    return "";
  }

  /** Runs until {@link stop}; resolves once it has stopped. */
  async run(): Promise<void> {
    // TODO: the loop, until stop() is called:
    //   1. LIST, hand the items and the list's resourceVersion to handler.onList;
    //   2. WATCH from the last resourceVersion; pass ADDED/MODIFIED/DELETED to handler.onEvent and remember the
    //      resourceVersion of every event (bookmarks included);
    //   3. the watch ended cleanly: watch again from where you stopped (no LIST);
    //   4. 410 Gone (isExpired): LIST again, then watch from the new list's version;
    //   5. any other failure: wait a little (longer each time) and retry the same step.
  }

  /** Stops the watch and waits for {@link run} to finish. */
  async stop(): Promise<void> {
    // TODO: abort the signal you gave to list/watch, and wait for run() to end.
  }
}
