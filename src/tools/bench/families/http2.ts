/**
 * HTTP/1.1 against HTTP/2 for many watches: what multiplexing saves. A client that opens N watches over HTTP/1.1
 * (client-node) needs N TCP+TLS connections, because a watch holds its response open; over HTTP/2 (client-go,
 * kubectl) the watches are streams of one connection (of ceil(N / 250) when the server allows 250 streams per
 * connection, as kube-apiserver does by default; the client opens another once one is full, as Go's transport does).
 * For N = 10, 100, 1000 watches on one namespace, each protocol in turn, against the embedded server in its own
 * process:
 * - TCP connections the server holds (counted on the server's side, from /proc/net/tcp on Linux);
 * - the server's V8 heap growth while the watches are open (after a full collection);
 * - the time from the first connect to the last watch's response headers;
 * - event delivery delay p50/p99 at a fixed write rate: every write fans out to all N watches, and each event's
 *   `data.sent` stamp (written by the server's process, its clock offset measured first) is compared with the
 *   arrival time;
 * - CPU per write on the server (fanned out to N watches) and per delivered event on the client.
 * The HTTP/2 client uses Go's flow-control windows (what client-go runs with), not node's 64 KiB defaults.
 * Every figure is the HTTP/2 value with the HTTP/1.1 one as its peer, measured in the same run.
 */
import { readdir, readFile } from "node:fs/promises";
import http2, { type ClientHttp2Session, type ClientHttp2Stream } from "node:http2";
import { DEFAULT_MAX_STREAMS_PER_CONNECTION } from "../../../control-plane/apiserver/http/transport.js";
import { xyChart } from "../../../workbook/viz/xychart.js";
import { type EmbeddedHost, startEmbeddedHost } from "../embedded-host.js";
import { lineSplitter } from "../lines.js";
import { percentile, sorted, wallMs } from "../measure.js";
import {
  type BenchContext,
  type BenchFigure,
  type Benchmark,
  type BenchResult,
  judged,
  peerCost,
} from "../types.js";
import { CountingClient } from "./raw-client.js";

type Protocol = "HTTP/1.1" | "HTTP/2";

interface Sizes {
  watches: number[];
  /** ConfigMaps the writer rewrites round-robin. */
  objects: number;
  eventsPerSecond: number;
  churnMs: number;
}

const FULL: Sizes = { watches: [10, 100, 1000], objects: 10, eventsPerSecond: 20, churnMs: 3000 };
const TINY: Sizes = { watches: [2, 4, 8], objects: 3, eventsPerSecond: 20, churnMs: 300 };

/** What one protocol cost for one N. */
interface Outcome {
  /** Writes the server made in the churn window (below the set rate when fan-out saturates it). */
  writes: number;
  /** Server CPU time per write, fanned out to every watch (NaN without /proc). */
  serverCpuPerWriteMs: number;
  /** This (client) process's CPU time per event delivered. */
  clientCpuPerDeliveryUs: number;
  /** Established TCP connections on the server's port while the watches were open (NaN off Linux). */
  serverConnections: number;
  /** Connections the client opened. */
  clientConnections: number;
  /** Server V8 heap growth with the watches open, bytes. */
  serverHeapBytes: number;
  openMs: number;
  p50: number;
  p99: number;
  deliveries: number;
}

/** The open watches of one round; `close()` ends them all. */
interface OpenWatches {
  connections: number;
  close(): Promise<void>;
}

/** The pid of this process's child started with `--embedded-host` (the server's process), or undefined. */
async function hostPid(): Promise<number | undefined> {
  let entries: string[];
  try {
    entries = await readdir("/proc");
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid !== process.pid) continue;
      if ((await readFile(`/proc/${entry}/cmdline`, "utf8")).includes("--embedded-host"))
        return Number(entry);
    } catch {
      // the process ended meanwhile
    }
  }
  return undefined;
}

/** User + system CPU time of process `pid` in ms (clock ticks of 10 ms), NaN when unknown. */
async function cpuMsOf(pid: number | undefined): Promise<number> {
  if (pid === undefined) return Number.NaN;
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * How far the host's wall clock (which stamps `data.sent`) is ahead of ours, in ms: the host's time of a write
 * against the midpoint of our request for it, from the quickest of a few round trips. Two processes' clocks
 * (`timeOrigin + now()`) can disagree by milliseconds, as much as the delays measured. No watch may be open.
 */
async function hostClockOffset(host: EmbeddedHost, ns: string): Promise<number> {
  let best = { rtt: Number.POSITIVE_INFINITY, offset: 0 };
  for (let i = 0; i < 5; i++) {
    const before = wallMs();
    const { startMs } = await host.update(ns, 1, 1);
    const after = wallMs();
    if (after - before < best.rtt) best = { rtt: after - before, offset: startMs - (before + after) / 2 };
  }
  return best.offset;
}

/** Established TCP connections whose local port is `port` (the server's side), or NaN without /proc. */
async function serverSideConnections(port: number): Promise<number> {
  let count = 0;
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch {
      if (file === "/proc/net/tcp") return Number.NaN;
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      const local = cols[1];
      if (!local || cols[3] !== "01") continue; // 01: ESTABLISHED
      if (Number.parseInt(local.slice(local.lastIndexOf(":") + 1), 16) === port) count++;
    }
  }
  return count;
}

/** Extracts the writer's stamp of a MODIFIED event line (ADDED lines are the initial state, not a write). */
function sentStamp(line: string): number | undefined {
  if (!line.startsWith('{"type":"MODIFIED"')) return undefined;
  const m = /"sent":"([\d.]+)"/.exec(line);
  return m ? Number(m[1]) : undefined;
}

/** N watches over HTTP/1.1: one TLS connection each (no agent), as client-node opens them. */
async function openHttp1(host: EmbeddedHost, path: string, n: number, onLine: (l: string) => void) {
  const client = new CountingClient(host, 1);
  const stops = await Promise.all(Array.from({ length: n }, () => client.watch(path, onLine)));
  return {
    connections: n,
    close: async () => {
      for (const stop of stops.splice(0)) stop();
      client.close();
    },
  } satisfies OpenWatches;
}

/** Go's transport windows (what client-go runs with): 4 MiB per stream, 1 GiB per connection; node's are 64 KiB. */
const GO_STREAM_WINDOW = 4 << 20;
const GO_CONNECTION_WINDOW = 1 << 30;

function connect(host: EmbeddedHost): Promise<ClientHttp2Session> {
  const session = http2.connect(host.url, {
    ca: host.caPem,
    settings: { initialWindowSize: GO_STREAM_WINDOW },
  });
  return new Promise((resolve, reject) => {
    session.once("remoteSettings", () => {
      session.setLocalWindowSize(GO_CONNECTION_WINDOW);
      resolve(session);
    });
    session.once("error", reject);
  });
}

function h2Watch(session: ClientHttp2Session, host: EmbeddedHost, path: string, onLine: (l: string) => void) {
  return new Promise<ClientHttp2Stream>((resolve, reject) => {
    const stream = session.request({ ":path": path, authorization: `Bearer ${host.token}` });
    stream.end();
    stream.once("response", (headers) => {
      if (headers[":status"] !== 200) reject(new Error(`WATCH ${path}: HTTP ${headers[":status"]}`));
      else resolve(stream);
    });
    stream.once("error", reject);
    stream.setEncoding("utf8");
    stream.on("data", lineSplitter(onLine));
  });
}

/**
 * N watches over HTTP/2: streams of as few connections as the server's stream limit allows (a new connection
 * once one is full, as Go's transport does).
 */
async function openHttp2(host: EmbeddedHost, path: string, n: number, onLine: (l: string) => void) {
  const first = await connect(host);
  const perSession = first.remoteSettings.maxConcurrentStreams ?? n;
  const sessions = [first];
  while (sessions.length * perSession < n) sessions.push(await connect(host));
  const streams = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      h2Watch(sessions[Math.floor(i / perSession)] as ClientHttp2Session, host, path, onLine),
    ),
  );
  return {
    connections: sessions.length,
    close: async () => {
      for (const s of streams.splice(0)) s.close(http2.constants.NGHTTP2_CANCEL);
      const open = sessions.splice(0).filter((s) => !s.closed);
      await Promise.all(open.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  } satisfies OpenWatches;
}

async function round(
  host: EmbeddedHost,
  pid: number | undefined,
  sizes: Sizes,
  ns: string,
  n: number,
  protocol: Protocol,
): Promise<Outcome> {
  const port = Number(new URL(host.url).port);
  const path = `/api/v1/namespaces/${ns}/configmaps?watch=true`;
  const connectionsBefore = await serverSideConnections(port);
  const offset = await hostClockOffset(host, ns);
  const delays: number[] = [];
  const onLine = (line: string) => {
    const sent = sentStamp(line);
    if (sent !== undefined) delays.push(wallMs() - (sent - offset));
  };
  const started = performance.now();
  const open = await (protocol === "HTTP/1.1" ? openHttp1 : openHttp2)(host, path, n, onLine);
  const openMs = performance.now() - started;
  try {
    const serverConnections = (await serverSideConnections(port)) - connectionsBefore;
    const heapOpen = await host.heapUsed();
    const [serverCpu, clientCpu] = [await cpuMsOf(pid), process.cpuUsage()];
    const writes = await host.churn(ns, sizes.objects, sizes.eventsPerSecond, sizes.churnMs);
    // The last write's events may still be on their way.
    const deadline = performance.now() + 10_000;
    while (delays.length < writes * n && performance.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    if (delays.length < writes * n)
      throw new Error(`${protocol}, ${n} watches: ${delays.length} of ${writes * n} events`);
    const serverCpuPerWriteMs = ((await cpuMsOf(pid)) - serverCpu) / writes;
    const client = process.cpuUsage(clientCpu);
    const clientCpuPerDeliveryUs = (client.user + client.system) / delays.length;
    await closeAll(open, port, connectionsBefore);
    // What the watches held: the heap with them open minus the heap once they are gone (the round's own
    // baseline, so garbage left by the previous round cannot make it negative).
    const serverHeapBytes = heapOpen - (await host.heapUsed());
    const s = sorted(delays);
    return {
      writes,
      serverCpuPerWriteMs,
      clientCpuPerDeliveryUs,
      serverConnections,
      clientConnections: open.connections,
      serverHeapBytes,
      openMs,
      p50: percentile(s, 50),
      p99: percentile(s, 99),
      deliveries: delays.length,
    };
  } finally {
    await closeAll(open, port, connectionsBefore);
  }
}

/** Closes the watches (once) and waits until the server's side of their connections is gone too. */
async function closeAll(open: OpenWatches, port: number, connectionsBefore: number): Promise<void> {
  await open.close();
  const quiet = performance.now() + 5000;
  while ((await serverSideConnections(port)) > connectionsBefore && performance.now() < quiet) {
    await new Promise((r) => setTimeout(r, 20));
  }
}

const kib = (bytes: number) => bytes / 1024;

async function run(ctx: BenchContext): Promise<BenchResult> {
  const sizes = ctx.tiny ? TINY : FULL;
  const host = await startEmbeddedHost();
  const figures: BenchFigure[] = [];
  const charts: string[] = [];
  const missing: string[] = [];
  const results: Array<Record<Protocol, Outcome>> = [];
  try {
    const ns = "bench-http2";
    await host.fill(ns, sizes.objects);
    const pid = await hostPid();
    for (const n of sizes.watches) {
      const r = {} as Record<Protocol, Outcome>;
      for (const protocol of ["HTTP/1.1", "HTTP/2"] as const) {
        ctx.log(`  ${n} watches over ${protocol}...`);
        r[protocol] = await round(host, pid, sizes, ns, n, protocol);
      }
      results.push(r);
      const h1 = r["HTTP/1.1"];
      const h2 = r["HTTP/2"];
      const streamsNote = `client connections: HTTP/2 ${h2.clientConnections}, HTTP/1.1 ${h1.clientConnections}`;
      figures.push(
        judged({
          name: `${n} watches: server-side TCP connections over HTTP/2`,
          value: h2.serverConnections,
          unit: "connections",
          // kube-apiserver's default stream limit: at most one connection per 250 watches.
          target: `<= ${Math.ceil(n / DEFAULT_MAX_STREAMS_PER_CONNECTION)}`,
          peers: [peerCost("HTTP/1.1", h2.serverConnections, h1.serverConnections)],
          notes: `${streamsNote} (${DEFAULT_MAX_STREAMS_PER_CONNECTION} streams per connection)`,
        }),
        {
          name: `${n} watches: time to open them all over HTTP/2`,
          value: h2.openMs,
          unit: "ms",
          peers: [peerCost("HTTP/1.1", h2.openMs, h1.openMs)],
          notes: "from the first connect to the last watch's response headers",
        },
        {
          name: `${n} watches: server heap growth over HTTP/2`,
          value: kib(h2.serverHeapBytes),
          unit: "KiB",
          peers: [peerCost("HTTP/1.1", kib(h2.serverHeapBytes), kib(h1.serverHeapBytes))],
          notes:
            "V8 heap after a full collection with the watches open, minus after they closed; TLS buffers live outside it",
        },
        {
          name: `${n} watches: server CPU per write fanned out to them all, over HTTP/2`,
          value: h2.serverCpuPerWriteMs,
          unit: "ms",
          peers: [peerCost("HTTP/1.1", h2.serverCpuPerWriteMs, h1.serverCpuPerWriteMs)],
          notes: "the server process's user + system time in the churn window, per write (10 ms clock ticks)",
        },
        {
          name: `${n} watches: client CPU per event delivered, over HTTP/2`,
          value: h2.clientCpuPerDeliveryUs,
          unit: "us",
          peers: [peerCost("HTTP/1.1", h2.clientCpuPerDeliveryUs, h1.clientCpuPerDeliveryUs)],
          notes: "node:http2 streams against one https request per watch, line splitting included",
        },
        {
          name: `${n} watches, ${sizes.eventsPerSecond} writes/s: event delivery p50 over HTTP/2`,
          value: h2.p50,
          unit: "ms",
          peers: [peerCost("HTTP/1.1", h2.p50, h1.p50)],
          notes:
            `writes made in ${sizes.churnMs} ms: HTTP/2 ${h2.writes}, HTTP/1.1 ${h1.writes} (fewer than set when ` +
            `the fan-out saturates the server); ${h2.deliveries} and ${h1.deliveries} deliveries`,
        },
        {
          name: `${n} watches, ${sizes.eventsPerSecond} writes/s: event delivery p99 over HTTP/2`,
          value: h2.p99,
          unit: "ms",
          peers: [peerCost("HTTP/1.1", h2.p99, h1.p99)],
        },
      );
    }
    if (results.some((r) => Number.isNaN(r["HTTP/2"].serverConnections))) {
      missing.push("server-side connection counts: /proc/net/tcp is not readable on this platform");
    }
    if (pid === undefined) missing.push("server CPU per write: the server's process is not visible in /proc");
    const x = sizes.watches.map(String);
    const line = (values: number[]) => ({ kind: "line" as const, values });
    charts.push(
      xyChart({
        title: "time to open N watches (ms); lines: HTTP/1.1, HTTP/2",
        x,
        xLabel: "watches N",
        yLabel: "ms",
        series: [
          line(results.map((r) => r["HTTP/1.1"].openMs)),
          line(results.map((r) => r["HTTP/2"].openMs)),
        ],
      }),
      xyChart({
        title: "event delivery p99 (ms) at a fixed write rate; lines: HTTP/1.1, HTTP/2",
        x,
        xLabel: "watches N",
        yLabel: "ms",
        series: [line(results.map((r) => r["HTTP/1.1"].p99)), line(results.map((r) => r["HTTP/2"].p99))],
      }),
    );
  } finally {
    await host.stop();
  }
  return { figures, charts, missing };
}

/** The http2 family. */
export const benchmark: Benchmark = {
  name: "http2",
  title:
    "N watches over HTTP/1.1 (a connection each) against HTTP/2 (multiplexed): connections, heap, open time, delivery",
  run,
};
