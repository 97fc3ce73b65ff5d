/**
 * Workqueue metrics: the seven series client-go's `util/workqueue/metrics.go` exports for every *named* queue
 * (`workqueue_depth`, `_adds_total`, `_queue_duration_seconds`, `_work_duration_seconds`,
 * `_unfinished_work_seconds`, `_longest_running_processor_seconds`, `_retries_total`).
 *
 * As in client-go, a queue records metrics only when it has a name, through a pluggable {@link MetricsProvider}.
 * Unlike client-go (whose default provider discards everything), the default here is an
 * {@link InMemoryMetricsProvider} whose {@link InMemoryMetricsProvider.snapshot} a notebook can print.
 * Durations are observed in seconds, as in the Prometheus series.
 */

/** An up/down gauge (`workqueue_depth`). */
export interface GaugeMetric {
  inc(): void;
  dec(): void;
}

/** A gauge that is overwritten (`unfinished_work_seconds`, `longest_running_processor_seconds`). */
export interface SettableGaugeMetric {
  set(value: number): void;
}

/** A monotonically increasing counter (`adds_total`, `retries_total`). */
export interface CounterMetric {
  inc(): void;
}

/** A distribution of observed values in seconds (`queue_duration_seconds`, `work_duration_seconds`). */
export interface HistogramMetric {
  observe(value: number): void;
}

/** Creates the metric series for a queue name: client-go's `MetricsProvider` interface. */
export interface MetricsProvider {
  newDepthMetric(name: string): GaugeMetric;
  newAddsMetric(name: string): CounterMetric;
  newLatencyMetric(name: string): HistogramMetric;
  newWorkDurationMetric(name: string): HistogramMetric;
  newUnfinishedWorkSecondsMetric(name: string): SettableGaugeMetric;
  newLongestRunningProcessorSecondsMetric(name: string): SettableGaugeMetric;
  newRetriesMetric(name: string): CounterMetric;
}

/** Summary of a histogram kept in memory: count, sum, min and max of the observed seconds. */
export interface HistogramSummary {
  count: number;
  sum: number;
  min: number;
  max: number;
}

/** Every series of one queue, as plain numbers. */
export interface QueueMetricsSnapshot {
  depth: number;
  adds: number;
  queueDuration: HistogramSummary;
  workDuration: HistogramSummary;
  unfinishedWorkSeconds: number;
  longestRunningProcessorSeconds: number;
  retries: number;
}

class MemoryHistogram implements HistogramMetric {
  summary: HistogramSummary = { count: 0, sum: 0, min: 0, max: 0 };
  observe(value: number): void {
    const s = this.summary;
    s.min = s.count === 0 ? value : Math.min(s.min, value);
    s.max = s.count === 0 ? value : Math.max(s.max, value);
    s.count++;
    s.sum += value;
  }
}

class MemorySeries {
  depth = 0;
  adds = 0;
  retries = 0;
  unfinishedWorkSeconds = 0;
  longestRunningProcessorSeconds = 0;
  readonly queueDuration = new MemoryHistogram();
  readonly workDuration = new MemoryHistogram();

  snapshot(): QueueMetricsSnapshot {
    return {
      depth: this.depth,
      adds: this.adds,
      queueDuration: { ...this.queueDuration.summary },
      workDuration: { ...this.workDuration.summary },
      unfinishedWorkSeconds: this.unfinishedWorkSeconds,
      longestRunningProcessorSeconds: this.longestRunningProcessorSeconds,
      retries: this.retries,
    };
  }
}

/**
 * Keeps every named queue's series in memory. Creating a queue with a name that is already known starts a fresh
 * series for it (so re-running a notebook cell starts from zero).
 */
export class InMemoryMetricsProvider implements MetricsProvider {
  private readonly series = new Map<string, MemorySeries>();

  private seriesFor(name: string, fresh: boolean): MemorySeries {
    let s = this.series.get(name);
    if (!s || fresh) {
      s = new MemorySeries();
      this.series.set(name, s);
    }
    return s;
  }

  // newDepthMetric is the first call a queue makes for its name: it starts the fresh series.
  newDepthMetric(name: string): GaugeMetric {
    const s = this.seriesFor(name, true);
    return { inc: () => s.depth++, dec: () => s.depth-- };
  }
  newAddsMetric(name: string): CounterMetric {
    const s = this.seriesFor(name, false);
    return { inc: () => s.adds++ };
  }
  newLatencyMetric(name: string): HistogramMetric {
    return this.seriesFor(name, false).queueDuration;
  }
  newWorkDurationMetric(name: string): HistogramMetric {
    return this.seriesFor(name, false).workDuration;
  }
  newUnfinishedWorkSecondsMetric(name: string): SettableGaugeMetric {
    const s = this.seriesFor(name, false);
    return { set: (v) => (s.unfinishedWorkSeconds = v) };
  }
  newLongestRunningProcessorSecondsMetric(name: string): SettableGaugeMetric {
    const s = this.seriesFor(name, false);
    return { set: (v) => (s.longestRunningProcessorSeconds = v) };
  }
  newRetriesMetric(name: string): CounterMetric {
    const s = this.seriesFor(name, false);
    return { inc: () => s.retries++ };
  }

  /** Names of the queues seen so far. */
  names(): string[] {
    return [...this.series.keys()];
  }

  /** The current values for one queue, or undefined if no queue of that name was created. */
  snapshot(name: string): QueueMetricsSnapshot | undefined {
    return this.series.get(name)?.snapshot();
  }
}

let globalProvider: MetricsProvider = new InMemoryMetricsProvider();

/** The provider named queues use when none is passed in their options (client-go's global provider). */
export function metricsProvider(): MetricsProvider {
  return globalProvider;
}

/** Replaces the global provider for queues created afterwards (client-go's `workqueue.SetProvider`). */
export function setMetricsProvider(provider: MetricsProvider): void {
  globalProvider = provider;
}

/**
 * The per-queue bookkeeping behind the series (client-go's `queueMetrics`): when each item was added (for queue
 * latency) and when each item started processing (for work duration, unfinished work and longest runner).
 * Invariant: an item is in `addTimes` from its first add until its get, and in `processingStartTimes` from get
 * until done.
 */
export class QueueMetrics<T> {
  private readonly depth: GaugeMetric;
  private readonly adds: CounterMetric;
  private readonly latency: HistogramMetric;
  private readonly workDuration: HistogramMetric;
  private readonly unfinishedWork: SettableGaugeMetric;
  private readonly longestRunning: SettableGaugeMetric;
  private readonly retries: CounterMetric;
  private readonly addTimes = new Map<T, number>();
  private readonly processingStartTimes = new Map<T, number>();

  constructor(
    name: string,
    provider: MetricsProvider,
    private readonly now: () => number,
  ) {
    this.depth = provider.newDepthMetric(name);
    this.adds = provider.newAddsMetric(name);
    this.latency = provider.newLatencyMetric(name);
    this.workDuration = provider.newWorkDurationMetric(name);
    this.unfinishedWork = provider.newUnfinishedWorkSecondsMetric(name);
    this.longestRunning = provider.newLongestRunningProcessorSecondsMetric(name);
    this.retries = provider.newRetriesMetric(name);
  }

  /** A new item entered the dirty set. */
  add(item: T): void {
    this.adds.inc();
    this.depth.inc();
    if (!this.addTimes.has(item)) this.addTimes.set(item, this.now());
  }

  /** A worker took the item. */
  get(item: T): void {
    const now = this.now();
    this.depth.dec();
    this.processingStartTimes.set(item, now);
    const added = this.addTimes.get(item);
    if (added !== undefined) {
      this.latency.observe((now - added) / 1000);
      this.addTimes.delete(item);
    }
  }

  /** A worker finished the item. */
  done(item: T): void {
    const started = this.processingStartTimes.get(item);
    if (started === undefined) return;
    this.workDuration.observe((this.now() - started) / 1000);
    this.processingStartTimes.delete(item);
  }

  /** An item was scheduled with a delay (`AddAfter`, hence `AddRateLimited`). */
  retry(): void {
    this.retries.inc();
  }

  /** Recomputes the two gauges about work in progress (client-go does it every 500 ms). */
  updateUnfinishedWork(): void {
    const now = this.now();
    let total = 0;
    let oldest = 0;
    for (const started of this.processingStartTimes.values()) {
      const age = (now - started) / 1000;
      total += age;
      if (age > oldest) oldest = age;
    }
    this.unfinishedWork.set(total);
    this.longestRunning.set(oldest);
  }
}
