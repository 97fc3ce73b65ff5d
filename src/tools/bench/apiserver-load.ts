/**
 * The load side of the API server benchmark, run in a worker thread so the clients' TLS and parsing do not
 * share an event loop with the server they measure. Two jobs, chosen by `workerData.job`:
 * - `creates`: `count` ConfigMap creates from `clients` concurrent keep-alive connections; posts creates/s.
 *   With `perSecond`, the creates are paced at that rate and each carries its send time in `data.sent` (the
 *   write side of a watch fan-out measurement against any server);
 * - `list`: `lists` sequential LISTs of the namespace's ConfigMaps over one keep-alive connection; posts the
 *   client-side time of each (the embedded suite also times them inside the server);
 * - `watch`: opens `watchers` watch streams, posts `ready`, then records now - `data.sent` for every event
 *   line until `expected` arrived (or `stop`); posts the latency percentiles.
 */
import https from "node:https";
import { performance } from "node:perf_hooks";
import { parentPort, workerData } from "node:worker_threads";
import { lineSplitter } from "./lines.js";

/** What the benchmark passes to the worker. */
export interface LoadJob {
  job: "creates" | "watch" | "list";
  url: string;
  token: string;
  caPem: string;
  namespace: string;
  /** creates: how many and from how many concurrent clients. */
  count?: number;
  clients?: number;
  /** creates: the `data` of each ConfigMap. */
  data?: Record<string, string>;
  /** creates: pace at this many per second and stamp `data.sent` (wall-clock ms) on each. */
  perSecond?: number;
  /** creates: name prefix (default `cm-`). */
  prefix?: string;
  /** list: how many sequential LISTs of the namespace's ConfigMaps. */
  lists?: number;
  /** watch: how many streams and how many deliveries to wait for. */
  watchers?: number;
  expected?: number;
}

/** What the worker posts back. */
export type LoadResult =
  | { kind: "ready" }
  | { kind: "creates"; perSecond: number }
  | { kind: "list"; bytes: number; ms: number[] }
  | { kind: "watch"; delivered: number; p50: number; p99: number; max: number }
  | { kind: "error"; message: string };

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

async function creates(job: LoadJob): Promise<LoadResult> {
  const url = new URL(job.url);
  const agent = new https.Agent({ keepAlive: true, maxSockets: job.clients ?? 16 });
  const prefix = job.prefix ?? "cm-";
  const send = (i: number): Promise<number> =>
    new Promise((resolve, reject) => {
      const data = job.perSecond
        ? { ...job.data, sent: (performance.timeOrigin + performance.now()).toFixed(3) }
        : job.data;
      const body = JSON.stringify({ metadata: { name: `${prefix}${i}` }, data: data ?? {} });
      const req = https.request(
        {
          host: url.hostname,
          port: url.port,
          method: "POST",
          path: `/api/v1/namespaces/${job.namespace}/configmaps`,
          headers: {
            authorization: `Bearer ${job.token}`,
            "content-type": "application/json",
            "content-length": String(Buffer.byteLength(body)),
          },
          ca: job.caPem,
          agent,
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  const n = job.count ?? 1000;
  let next = 0;
  const start = performance.now();
  const worker = async () => {
    while (next < n) {
      const i = next++;
      if (job.perSecond) {
        const wait = start + (i * 1000) / job.perSecond - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
      const code = await send(i);
      if (code !== 201) throw new Error(`create ${prefix}${i}: HTTP ${code}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: job.clients ?? 16 }, worker));
  } finally {
    agent.destroy();
  }
  return { kind: "creates", perSecond: n / ((performance.now() - start) / 1000) };
}

async function watch(job: LoadJob): Promise<LoadResult> {
  const url = new URL(job.url);
  const expected = job.expected ?? 0;
  const latencies = new Float64Array(expected);
  let count = 0;
  const reqs: ReturnType<typeof https.request>[] = [];
  let finish: () => void = () => {};
  const done = new Promise<void>((r) => {
    finish = r;
  });
  const opened = Array.from(
    { length: job.watchers ?? 100 },
    () =>
      new Promise<void>((resolve, reject) => {
        const req = https.request(
          {
            host: url.hostname,
            port: url.port,
            path: `/api/v1/namespaces/${job.namespace}/configmaps?watch=true`,
            headers: { authorization: `Bearer ${job.token}` },
            ca: job.caPem,
            agent: false,
          },
          (res) => {
            resolve();
            // Every line of one chunk arrived at the same moment.
            let now = 0;
            const split = lineSplitter((line) => {
              const m = /"sent":"([\d.]+)"/.exec(line);
              if (m && count < expected) latencies[count++] = now - Number(m[1]);
            });
            res.setEncoding("utf8");
            res.on("data", (chunk: string) => {
              now = performance.timeOrigin + performance.now();
              split(chunk);
              if (count >= expected) finish();
            });
            res.on("error", () => {});
          },
        );
        req.on("error", reject);
        req.end();
        reqs.push(req);
      }),
  );
  await Promise.all(opened);
  parentPort?.postMessage({ kind: "ready" } satisfies LoadResult);
  parentPort?.on("message", (m) => {
    if (m === "stop") finish();
  });
  await done;
  for (const r of reqs) r.destroy();
  const sorted = latencies.subarray(0, count).sort();
  return {
    kind: "watch",
    delivered: count,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[count - 1] ?? Number.NaN,
  };
}

async function lists(job: LoadJob): Promise<LoadResult> {
  const url = new URL(job.url);
  const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
  let bytes = 0;
  const ms: number[] = [];
  try {
    for (let i = 0; i < (job.lists ?? 1); i++) {
      const t0 = performance.now();
      await new Promise<void>((resolve, reject) => {
        const req = https.get(
          {
            host: url.hostname,
            port: url.port,
            path: `/api/v1/namespaces/${job.namespace}/configmaps`,
            headers: { authorization: `Bearer ${job.token}` },
            ca: job.caPem,
            agent,
          },
          (res) => {
            res.on("data", (c: Buffer) => {
              bytes += c.length;
            });
            res.on("end", () =>
              res.statusCode === 200 ? resolve() : reject(new Error(`list: HTTP ${res.statusCode}`)),
            );
          },
        );
        req.on("error", reject);
      });
      ms.push(performance.now() - t0);
    }
  } finally {
    agent.destroy();
  }
  return { kind: "list", bytes, ms };
}

const JOBS = { creates, watch, list: lists } as const;

if (parentPort && workerData) {
  const job = workerData as LoadJob;
  JOBS[job.job](job).then(
    (r) => {
      parentPort?.postMessage(r);
      parentPort?.close();
    },
    (err: unknown) => {
      parentPort?.postMessage({ kind: "error", message: String(err) } satisfies LoadResult);
      parentPort?.close();
    },
  );
}
