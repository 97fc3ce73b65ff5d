/**
 * A bare HTTPS client that counts what crosses the wire (response bodies, in bytes), for the families that
 * compare request patterns rather than client libraries: a LIST as one request, and a watch as one long
 * response whose lines are events. Credentials come from the server's bearer token and CA, as in a kubeconfig.
 */
import https from "node:https";
import { lineSplitter } from "../lines.js";

/** Where a server is and how to authenticate. */
export interface ServerAddress {
  url: string;
  token: string;
  caPem: string;
}

/** Requests and body bytes, counted by a {@link CountingClient}. */
export interface WireCounts {
  requests: number;
  bytes: number;
}

/** A keep-alive HTTPS client with request and byte counters. */
export class CountingClient {
  readonly counts: WireCounts = { requests: 0, bytes: 0 };
  private readonly agent: https.Agent;
  private readonly url: URL;

  constructor(
    private readonly server: ServerAddress,
    maxSockets = 1,
  ) {
    this.url = new URL(server.url);
    this.agent = new https.Agent({ keepAlive: true, maxSockets });
  }

  /** GET `path` and parse the JSON body. */
  getJson<T>(path: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.counts.requests++;
      const req = https.get(this.options(path, this.agent), (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => {
          this.counts.bytes += c.length;
          chunks.push(c);
        });
        res.on("end", () => {
          if (res.statusCode !== 200) return reject(new Error(`GET ${path}: HTTP ${res.statusCode}`));
          resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")) as T);
        });
        res.on("error", reject);
      });
      req.on("error", reject);
    });
  }

  /** Opens a watch (`path` must carry `watch=true`); `onLine` gets every event line. Returns a stop function. */
  watch(path: string, onLine: (line: string) => void): Promise<() => void> {
    return new Promise((resolve, reject) => {
      this.counts.requests++;
      const req = https.get(this.options(path, false), (res) => {
        if (res.statusCode !== 200) return reject(new Error(`WATCH ${path}: HTTP ${res.statusCode}`));
        const split = lineSplitter(onLine);
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          this.counts.bytes += Buffer.byteLength(chunk);
          split(chunk);
        });
        res.on("error", () => {});
        resolve(() => req.destroy());
      });
      req.on("error", (err) => reject(err));
    });
  }

  /** Resets the counters (e.g. after the initial sync, to count the steady state only). */
  reset(): void {
    this.counts.requests = 0;
    this.counts.bytes = 0;
  }

  close(): void {
    this.agent.destroy();
  }

  private options(path: string, agent: https.Agent | false): https.RequestOptions {
    return {
      host: this.url.hostname,
      port: this.url.port,
      path,
      headers: { authorization: `Bearer ${this.server.token}` },
      ca: this.server.caPem,
      agent,
    };
  }
}
