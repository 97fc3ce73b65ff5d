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

/** A replica's proxy: start it, hand {@link ReplicaProxy.kubeConfig} to the replica, stop it afterwards. */
export class ReplicaProxy {
  private readonly counts = new Map<string, number>();
  private readonly sockets = new Set<Socket>();
  private leasesCut = false;

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
      if (proxy?.leasesCut && resource === "leases") {
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
        return;
      }
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
      const forward = (secure ? https : http).request(options, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on("error", () => res.destroy());
      // The replica went away mid-answer (a watch it stopped): end the upstream request too. A finished answer's
      // socket is back in the keep-alive pool and serves other requests: leave it alone.
      res.on("close", () => {
        if (!res.writableFinished) forward.destroy();
      });
      req.pipe(forward);
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

  /** From now on (or no longer) every Lease request of this replica fails with 503; all else goes through. */
  cutLeases(cut: boolean): void {
    this.leasesCut = cut;
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
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.agent.destroy();
  }

  private count(verb: string, resource: string): void {
    const key = `${verb} ${resource}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
}
