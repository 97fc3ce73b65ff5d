/**
 * One replica's own path to the API server, for graders: a plain-HTTP proxy on 127.0.0.1 that forwards every
 * request (watches included) to the cluster with the grader's credentials, counts what the replica asked for
 * (verb and resource, as kube-apiserver's request metrics label them), and can cut this replica off from its
 * Leases alone while everything else still goes through: the partition a leader must survive without acting,
 * since it can still write children while it no longer knows it leads.
 */
import http from "node:http";
import https from "node:https";
import type { Socket } from "node:net";
import { KubeConfig } from "@kubernetes/client-node";

/** Verb of a request, as kube-apiserver names it (`get`, `list`, `watch`, `create`, `update`, `patch`, `delete`). */
function verbOf(method: string, named: boolean, watch: boolean): string {
  switch (method) {
    case "GET":
      return watch ? "watch" : named ? "get" : "list";
    case "POST":
      return "create";
    case "PUT":
      return "update";
    case "PATCH":
      return "patch";
    case "DELETE":
      return named ? "delete" : "deletecollection";
    default:
      return method.toLowerCase();
  }
}

/** Resource of a path: `/api/v1/namespaces/ns/configmaps/x` -> configmaps; `.../staticsites/x/status` -> staticsites/status. */
function resourceOf(path: string): { resource: string; named: boolean } {
  const parts = path.split("/").filter(Boolean);
  let rest = parts[0] === "api" ? parts.slice(2) : parts.slice(3);
  if (rest[0] === "namespaces" && rest.length > 2) rest = rest.slice(2);
  const [resource = "", name, sub] = rest;
  return { resource: sub ? `${resource}/${sub}` : resource, named: name !== undefined };
}

/** One Lease request that reached the cluster: its verb, when it arrived (CLOCK_MONOTONIC ms), the answer. */
export interface LeaseRequest {
  verb: string;
  arrivedAt: number;
  status: number;
}

/** CLOCK_MONOTONIC in ms, the clock every process of the machine shares (labkit's Go candidates report on it). */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** Answers a request of a replica cut off from its Lease. */
function refuse(res: http.ServerResponse): void {
  if (res.destroyed) return; // the replica is gone (killed while its request hung)
  res.writeHead(503, { "Content-Type": "application/json" });
  res.end(
    JSON.stringify({
      kind: "Status",
      apiVersion: "v1",
      status: "Failure",
      message: "the grader cut this replica off from its Lease",
      reason: "ServiceUnavailable",
      code: 503,
    }),
  );
}

/** A replica's proxy: start it, hand {@link ReplicaProxy.kubeConfig} to the replica, stop it afterwards. */
export class ReplicaProxy {
  private readonly counts = new Map<string, number>();
  private readonly sockets = new Set<Socket>();
  private leasesCut: false | "refuse" | "hang" = false;
  private hung: (() => void)[] = [];
  /** Every Lease request of this replica that went through to the cluster, in the order they were answered. */
  readonly leaseRequests: LeaseRequest[] = [];
  /**
   * Decides, Lease request by Lease request, when one goes through and when its answer comes back (a grader
   * holds some back to order a race, or makes an answer late): the request, then its answer, waits for the
   * promise of the stage. Unset, everything goes through at once.
   */
  leaseGate: ((verb: string, stage: "request" | "answer") => Promise<void>) | undefined;

  private constructor(
    private readonly server: http.Server,
    private readonly port: number,
    private readonly agent: http.Agent,
  ) {}

  /** Starts a proxy in front of the cluster `upstream` points at (its server, CA and user). */
  static async start(upstream: KubeConfig): Promise<ReplicaProxy> {
    const target = new URL(upstream.getCurrentCluster()!.server);
    const secure = target.protocol === "https:";
    // The grader's credentials and TLS settings, worked out once, on one keep-alive agent (client-node makes a
    // new agent, so a new TLS handshake, for every request).
    const template: https.RequestOptions = {};
    await upstream.applyToHTTPSOptions(template);
    const tls = {
      ca: template.ca,
      cert: template.cert,
      key: template.key,
      rejectUnauthorized: template.rejectUnauthorized,
    };
    const agent = secure ? new https.Agent({ ...tls, keepAlive: true }) : new http.Agent({ keepAlive: true });
    let proxy: ReplicaProxy | undefined;
    const server = http.createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://proxy");
      const { resource, named } = resourceOf(url.pathname);
      const watch = /^(true|1)$/.test(url.searchParams.get("watch") ?? "");
      const verb = verbOf(req.method ?? "GET", named, watch);
      proxy?.count(verb, resource);
      if (resource !== "leases" || !proxy) {
        forward();
        return;
      }
      const arrivedAt = monotonicMs();
      void proxy.admitLease(verb).then((admitted) => {
        if (!admitted) {
          refuse(res);
          return;
        }
        forward(async (status) => {
          proxy?.leaseRequests.push({ verb, arrivedAt, status });
          await proxy?.leaseGate?.(verb, "answer");
        });
      });
      /** Sends the request on to the cluster; `answered` gets its status and may hold the answer back. */
      function forward(answered?: (status: number) => Promise<void>): void {
        const options: https.RequestOptions = {
          protocol: target.protocol,
          hostname: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, ...template.headers, host: target.host },
          auth: template.auth,
          agent,
        };
        const upstream = (secure ? https : http).request(options, (answer) => {
          void Promise.resolve(answered?.(answer.statusCode ?? 502)).then(() => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          });
        });
        upstream.on("error", () => res.destroy());
        // The replica went away mid-answer (a watch it stopped): end the upstream request too. A finished
        // answer's socket is back in the keep-alive pool and serves other requests: leave it alone.
        res.on("close", () => {
          if (!res.writableFinished) upstream.destroy();
        });
        req.pipe(upstream);
      }
    });
    server.on("connection", (socket: Socket) => {
      proxy?.sockets.add(socket);
      socket.on("close", () => proxy?.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    proxy = new ReplicaProxy(server, (server.address() as { port: number }).port, agent);
    return proxy;
  }

  /** A kubeconfig that reaches the cluster through this proxy (which adds the credentials). */
  kubeConfig(): KubeConfig {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      // Plain HTTP on the loopback (client-node asks for skipTLSVerify to allow http:); TLS is the proxy's side.
      clusters: [{ name: "proxy", server: `http://127.0.0.1:${this.port}`, skipTLSVerify: true }],
      users: [{ name: "proxy" }],
      contexts: [{ name: "proxy", cluster: "proxy", user: "proxy" }],
      currentContext: "proxy",
    });
    return kc;
  }

  /**
   * From now on (or no longer) every Lease request of this replica fails with 503; all else goes through. With
   * `hang`, a request waits until the cut heals (or the proxy stops) and only then fails: an unreachable API.
   */
  cutLeases(cut: boolean, how: "refuse" | "hang" = "refuse"): void {
    this.leasesCut = cut ? how : false;
    if (!cut) this.releaseHung();
  }

  /** Requests so far whose verb is one of `verbs` and whose resource matches `resource`. */
  requests(verbs: readonly string[], resource: RegExp): number {
    let n = 0;
    for (const [key, count] of this.counts) {
      const [verb, res] = key.split(" ") as [string, string];
      if (verbs.includes(verb) && resource.test(res)) n += count;
    }
    return n;
  }

  /** Closes the listener and every open connection (watches included). */
  async stop(): Promise<void> {
    this.releaseHung();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.agent.destroy();
  }

  /** Whether a Lease request goes through: false when cut off (after the cut heals, if it hangs). */
  private async admitLease(verb: string): Promise<boolean> {
    if (this.leasesCut === "hang") {
      await new Promise<void>((resolve) => this.hung.push(resolve));
      return false;
    }
    if (this.leasesCut === false && this.leaseGate) await this.leaseGate(verb, "request");
    return this.leasesCut === false;
  }

  private releaseHung(): void {
    for (const release of this.hung.splice(0)) release();
  }

  private count(verb: string, resource: string): void {
    const key = `${verb} ${resource}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
}
