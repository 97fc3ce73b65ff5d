/**
 * Request metrics of the embedded API server, the teaching counterpart of kube-apiserver's
 * `apiserver_request_total{verb,resource,code}`, `apiserver_response_sizes` and
 * `apiserver_longrunning_requests{verb="WATCH"}`, with response bytes kept by verb and resource. A notebook reads them to *see* what an informer costs: one
 * LIST and one long WATCH, instead of a GET per reconcile.
 */

/** One row of {@link ApiMetricsSnapshot.requests}. */
export interface RequestCount {
  verb: string;
  /** Resource (with `/subresource`), or a non-resource label such as `discovery` or `health`. */
  resource: string;
  code: number;
  count: number;
}

/**
 * Response bytes of one verb and resource (a row of {@link ApiMetricsSnapshot.bytes}): the teaching view of
 * kube-apiserver's `apiserver_response_sizes{verb,resource}`, summed instead of bucketed. A watch's bytes are
 * counted as its events are written, so an open watch's row grows while it streams.
 */
export interface ByteCount {
  verb: string;
  resource: string;
  bytes: number;
}

/** A point-in-time copy of every counter. */
export interface ApiMetricsSnapshot {
  requests: RequestCount[];
  /** Sum of all request counts. */
  totalRequests: number;
  /** Response body bytes written, watch streams included. */
  bytesSent: number;
  /** The same bytes by verb and resource, sorted by verb then resource. */
  bytes: ByteCount[];
  /** Watches open right now. */
  openWatches: number;
  /** Watch events written to clients since the last reset. */
  watchEventsSent: number;
}

/** Filter of {@link ApiMetrics.count} and {@link ApiMetrics.bytesSent}; omitted fields match anything. */
export interface RequestFilter {
  verb?: string;
  resource?: string;
  code?: number;
}

/** How many request durations are kept per verb and resource for {@link ApiMetrics.durations}. */
const DURATION_SAMPLES = 1000;

/**
 * Counters of requests (by verb, resource and code), bytes sent and watches. Invariant: `openWatches` counts
 * streams currently open and is therefore never cleared by {@link ApiMetrics.reset}.
 */
export class ApiMetrics {
  private counts = new Map<string, RequestCount>();
  private samples = new Map<string, number[]>();
  private bytes = 0;
  private byteCounts = new Map<string, ByteCount>();
  private open = 0;
  private events = 0;

  /** Records one finished (or, for watches, started) request and how long the server took, in ms. */
  recordRequest(verb: string, resource: string, code: number, durationMs?: number): void {
    const key = `${verb} ${resource} ${code}`;
    const row = this.counts.get(key);
    if (row) row.count++;
    else this.counts.set(key, { verb, resource, code, count: 1 });
    if (durationMs === undefined) return;
    const sKey = `${verb} ${resource}`;
    let list = this.samples.get(sKey);
    if (!list) {
      list = [];
      this.samples.set(sKey, list);
    }
    list.push(durationMs);
    if (list.length > DURATION_SAMPLES) list.shift();
  }

  /** Adds response bytes, to the total and, when the verb and resource are given, to their row. */
  addBytes(n: number, verb?: string, resource?: string): void {
    this.bytes += n;
    if (verb === undefined || resource === undefined) return;
    const key = `${verb} ${resource}`;
    const row = this.byteCounts.get(key);
    if (row) row.bytes += n;
    else this.byteCounts.set(key, { verb, resource, bytes: n });
  }

  /** A watch stream opened. */
  watchOpened(): void {
    this.open++;
  }

  /** A watch stream closed. */
  watchClosed(): void {
    this.open = Math.max(0, this.open - 1);
  }

  /** A watch event was written to a client. */
  watchEventSent(): void {
    this.events++;
  }

  /** Number of requests matching `filter` (all requests when omitted). */
  count(filter: RequestFilter = {}): number {
    let n = 0;
    for (const row of this.counts.values()) {
      if (filter.verb !== undefined && row.verb !== filter.verb) continue;
      if (filter.resource !== undefined && row.resource !== filter.resource) continue;
      if (filter.code !== undefined && row.code !== filter.code) continue;
      n += row.count;
    }
    return n;
  }

  /**
   * Response bytes sent for requests matching `filter` (`code` is ignored: bytes are kept by verb and resource);
   * all bytes recorded with a verb and resource when omitted.
   */
  bytesSent(filter: RequestFilter = {}): number {
    let n = 0;
    for (const row of this.byteCounts.values()) {
      if (filter.verb !== undefined && row.verb !== filter.verb) continue;
      if (filter.resource !== undefined && row.resource !== filter.resource) continue;
      n += row.bytes;
    }
    return n;
  }

  /** The last server-side durations (ms, request parsed to response end) recorded for a verb and resource. */
  durations(verb: string, resource: string): number[] {
    return [...(this.samples.get(`${verb} ${resource}`) ?? [])];
  }

  /** A copy of every counter, requests sorted by verb, resource, code. */
  snapshot(): ApiMetricsSnapshot {
    const requests = [...this.counts.values()]
      .map((r) => ({ ...r }))
      .sort(
        (a, b) => a.verb.localeCompare(b.verb) || a.resource.localeCompare(b.resource) || a.code - b.code,
      );
    const bytes = [...this.byteCounts.values()]
      .map((r) => ({ ...r }))
      .sort((a, b) => a.verb.localeCompare(b.verb) || a.resource.localeCompare(b.resource));
    return {
      requests,
      totalRequests: requests.reduce((sum, r) => sum + r.count, 0),
      bytesSent: this.bytes,
      bytes,
      openWatches: this.open,
      watchEventsSent: this.events,
    };
  }

  /** Zeroes the counters (open watches stay: they are a gauge of what is open now). */
  reset(): void {
    this.counts.clear();
    this.samples.clear();
    this.bytes = 0;
    this.byteCounts.clear();
    this.events = 0;
  }
}
