/**
 * Kubernetes Events for a controller: client-go's `record.EventRecorder` writing core/v1 Events through
 * client-node's `CoreV1Api`, with the count aggregation of client-go's event correlator (`events_cache.go`
 * `eventLogger`): an event identical to a recent one (same source, involved object, type, reason and message)
 * does not create a new Event object; the existing one gets `count + 1` and a new `lastTimestamp`.
 *
 * Kept simple and correct:
 * - events with the same aggregation key are written one after the other (a per-key promise chain), so two
 *   identical events in quick succession give one object with count 2, never two objects;
 * - "recent" means within `aggregationWindowMs` (default 10 min, the correlator's window) of the last occurrence;
 * - if the update fails because the Event was deleted or changed meanwhile (404/409), a fresh Event is created
 *   (client-go does the same after a failed patch);
 * - the recorder never throws: failures go to `onError` and `event()` resolves undefined. It remembers at most
 *   4096 keys (client-go's LRU size), oldest dropped first.
 * Not modelled: the correlator's "similar events" combining and its per-object spam filter.
 */
import type { CoreV1Api, CoreV1Event } from "@kubernetes/client-node";
import { type ErrorHandler, guardErrorHandler } from "../apimachinery/lifecycle.js";
import { type Clock, realClock } from "../clock/index.js";

/** The two CoreV1Api calls the recorder uses (a real `CoreV1Api`, or a fake in tests). */
export type EventSink = Pick<CoreV1Api, "createNamespacedEvent" | "replaceNamespacedEvent">;

/** The object an event is about: a Kubernetes object with kind, apiVersion and metadata. */
export interface EventSubject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; uid?: string; resourceVersion?: string };
}

/** Event type: "Normal" for expected progress, "Warning" for anything a human may need to look at. */
export type EventType = "Normal" | "Warning";

/** Options of an {@link EventRecorder}. */
export interface EventRecorderOptions {
  api: EventSink;
  /** `source.component` and `reportingComponent`, e.g. "foo-controller". */
  component: string;
  /** `source.host` and `reportingInstance` (default: the component name). */
  host?: string;
  clock?: Clock;
  /** Identical events closer together than this are counted on one object (default 600 000 ms). */
  aggregationWindowMs?: number;
  /** Where write failures and bad input go (default: a line on stderr). */
  /** Failed or invalid events, as `(error, { component: "event-recorder <component>", operation })`. */
  onError?: ErrorHandler;
}

interface Seen {
  event: CoreV1Event;
  lastSeen: number;
}

const MAX_KEYS = 4096;

function statusCode(err: unknown): number | undefined {
  const code = (err as { code?: unknown })?.code;
  return typeof code === "number" ? code : undefined;
}

/** Records Events about objects, aggregating identical ones into a count (client-go's `EventRecorder`). */
export class EventRecorder {
  private readonly api: EventSink;
  private readonly component: string;
  private readonly host: string;
  private readonly clock: Clock;
  private readonly windowMs: number;
  private readonly onError: ErrorHandler;
  private readonly reporter: string;
  private readonly seen = new Map<string, Seen>();
  private readonly chains = new Map<string, Promise<unknown>>();
  private sequence = 0n;

  constructor(options: EventRecorderOptions) {
    if (!options?.api) throw new TypeError("EventRecorder needs an api (a CoreV1Api)");
    if (!options.component) throw new TypeError("EventRecorder needs a component name");
    this.api = options.api;
    this.component = options.component;
    this.host = options.host ?? options.component;
    this.clock = options.clock ?? realClock;
    this.windowMs = options.aggregationWindowMs ?? 600_000;
    this.onError = guardErrorHandler(options.onError);
    this.reporter = `event-recorder ${options.component}`;
  }

  /**
   * Records an event about `subject`. Resolves to the Event as written (created or count-updated), or undefined
   * if the input was invalid or the API call failed (reported to `onError`).
   */
  event(
    subject: EventSubject,
    type: EventType,
    reason: string,
    message: string,
  ): Promise<CoreV1Event | undefined> {
    const name = subject?.metadata?.name;
    if (!name || (type !== "Normal" && type !== "Warning") || !reason) {
      this.onError(
        new TypeError(`invalid event: subject needs metadata.name, type Normal|Warning, a reason`),
        { component: this.reporter, operation: "record event" },
      );
      return Promise.resolve(undefined);
    }
    const meta = subject.metadata ?? {};
    const key = [
      this.component,
      this.host,
      subject.kind,
      subject.apiVersion,
      meta.namespace,
      name,
      meta.uid,
      type,
    ]
      .concat([reason, message])
      .join("\u0000");
    const previous = this.chains.get(key) ?? Promise.resolve();
    const next = previous.then(() => this.write(key, subject, type, reason, message));
    this.chains.set(key, next);
    void next.then(() => {
      if (this.chains.get(key) === next) this.chains.delete(key);
    });
    return next;
  }

  /** How many aggregation keys the recorder currently remembers. */
  cachedKeys(): number {
    return this.seen.size;
  }

  private async write(
    key: string,
    subject: EventSubject,
    type: EventType,
    reason: string,
    message: string,
  ): Promise<CoreV1Event | undefined> {
    const now = this.clock.now();
    const prior = this.seen.get(key);
    try {
      if (prior && now - prior.lastSeen <= this.windowMs) {
        const updated = await this.update(prior.event, now);
        if (updated) return this.remember(key, updated, now);
      }
      const created = await this.create(subject, type, reason, message, now);
      return this.remember(key, created, now);
    } catch (err) {
      this.onError(err, { component: this.reporter, operation: `record event ${reason}` });
      return undefined;
    }
  }

  private remember(key: string, event: CoreV1Event, now: number): CoreV1Event {
    this.seen.delete(key);
    this.seen.set(key, { event, lastSeen: now });
    if (this.seen.size > MAX_KEYS) this.seen.delete(this.seen.keys().next().value as string);
    return event;
  }

  // Bumps count and lastTimestamp; undefined if the Event is gone or changed (then a new one is created).
  private async update(event: CoreV1Event, now: number): Promise<CoreV1Event | undefined> {
    const body: CoreV1Event = { ...event, count: (event.count ?? 1) + 1, lastTimestamp: new Date(now) };
    try {
      return await this.api.replaceNamespacedEvent({
        name: event.metadata.name!,
        namespace: event.metadata.namespace!,
        body,
      });
    } catch (err) {
      const code = statusCode(err);
      if (code === 404 || code === 409) return undefined;
      throw err;
    }
  }

  private create(
    subject: EventSubject,
    type: EventType,
    reason: string,
    message: string,
    now: number,
  ): Promise<CoreV1Event> {
    const meta = subject.metadata ?? {};
    // Cluster-scoped objects get their events in "default", as client-go does.
    const namespace = meta.namespace || "default";
    // client-go names events "<object>.<unix nanoseconds in hex>"; a sequence number keeps them unique here.
    const nanos = BigInt(Math.floor(now)) * 1_000_000n + (this.sequence++ % 1_000_000n);
    const when = new Date(now);
    const body: CoreV1Event = {
      apiVersion: "v1",
      kind: "Event",
      metadata: { name: `${meta.name}.${nanos.toString(16)}`, namespace },
      involvedObject: {
        apiVersion: subject.apiVersion,
        kind: subject.kind,
        name: meta.name,
        namespace: meta.namespace,
        uid: meta.uid,
        resourceVersion: meta.resourceVersion,
      },
      type,
      reason,
      message,
      count: 1,
      firstTimestamp: when,
      lastTimestamp: when,
      source: { component: this.component, host: this.host },
      reportingComponent: this.component,
      reportingInstance: this.host,
    };
    return this.api.createNamespacedEvent({ namespace, body });
  }
}
