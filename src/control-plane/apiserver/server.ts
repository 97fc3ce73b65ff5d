/**
 * `EmbeddedApiServer`: a real Kubernetes API server in this process. It listens with HTTPS on 127.0.0.1 (a
 * random port unless told otherwise), serves HTTP/2 and HTTP/1.1 on that port (ALPN, see ./http/transport.ts),
 * presents a certificate signed by a CA it minted at start, requires a
 * bearer token, speaks the Kubernetes REST and watch protocol over an {@link ApiBackend}, and writes a
 * kubeconfig that kubectl and client-node use without skipping TLS verification.
 *
 * Lifecycle: `start()` once, then `stop()` (idempotent) closes every watch and socket and removes the
 * kubeconfig's temporary directory. Nothing keeps running after `stop()` resolves.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KubeConfig } from "@kubernetes/client-node";
import { type Clock, realClock } from "../../clock/clock.js";
import { ApiHandler, type ApiHandlerOptions } from "./http/api-handler.js";
import { ApiTransport } from "./http/transport.js";
import { Instruments } from "./instruments/instruments.js";
import { kubeConfigFor, writeKubeconfig } from "./kubeconfig.js";
import { generateServingCertificates, randomToken } from "./tls.js";
import type { ApiBackend } from "./types.js";

/** Options of {@link EmbeddedApiServer}. */
export interface EmbeddedApiServerOptions {
  /** Storage and semantics behind the HTTP layer. */
  backend: ApiBackend;
  /** Address to bind (default `127.0.0.1`; only change it when you mean to expose the server). */
  host?: string;
  /** Port (default 0: a random free port). */
  port?: number;
  /** Clock for watch timeouts and injected latency (default the real clock). */
  clock?: Clock;
  /** Bearer token (default: 32 random bytes). */
  token?: string;
  /** Create metrics and fault injection (default true). */
  instruments?: boolean;
  /** Slow-client limit of a watch's unsent bytes (default 16 MiB). */
  maxWatchBufferedBytes?: number;
  /** How long a watch may stay over that limit before it is closed (default 10 s, server clock). */
  slowWatchGraceMs?: number;
  /** Random source for the default watch timeout (1800 s x U[1,2)). */
  random?: () => number;
  /** Observer of every finished request (server-side duration in ms). */
  onRequest?: ApiHandlerOptions["onRequest"];
  /**
   * Streams one HTTP/2 connection may carry at once (kube-apiserver's `--http2-max-streams-per-connection`;
   * default 250, Go's default, which kube-apiserver uses unless told otherwise).
   */
  http2MaxStreamsPerConnection?: number;
}

/** An HTTPS Kubernetes API server over an {@link ApiBackend}. */
export class EmbeddedApiServer {
  /** `https://127.0.0.1:<port>` once started. */
  url = "";
  /** PEM of the CA clients must trust. */
  caPem = "";
  /** The bearer token. */
  readonly token: string;
  /** Path of the kubeconfig written at start. */
  kubeconfigPath = "";
  /** Metrics and faults (undefined when disabled by options). */
  readonly instruments: Instruments | undefined;

  private transport: ApiTransport | undefined;
  private handler: ApiHandler | undefined;
  private tempDir: string | undefined;
  private starting: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  private readonly clock: Clock;

  constructor(private readonly options: EmbeddedApiServerOptions) {
    this.token = options.token ?? randomToken();
    this.clock = options.clock ?? realClock;
    this.instruments =
      options.instruments === false
        ? undefined
        : new Instruments(
            {
              closeAllWatches: () => this.handler?.closeAllWatches("dropped") ?? 0,
              compactHistory: () => options.backend.compactHistory(),
            },
            this.clock,
          );
  }

  /** The backend this server serves. */
  get backend(): ApiBackend {
    return this.options.backend;
  }

  /** Number of watch streams open now. */
  get openWatches(): number {
    return this.handler?.openWatches ?? 0;
  }

  /** Open TCP connections to the server (an HTTP/2 connection carries many requests and watches). */
  get openConnections(): number {
    return this.transport?.connections ?? 0;
  }

  /** Generates certificates, listens, writes the kubeconfig. Resolves when the server accepts requests. */
  start(): Promise<void> {
    if (this.stopping) return Promise.reject(new Error("EmbeddedApiServer: cannot start after stop()"));
    this.starting ??= this.doStart();
    return this.starting;
  }

  private async doStart(): Promise<void> {
    const certs = await generateServingCertificates();
    this.caPem = certs.caPem;
    const transport = new ApiTransport({
      certPem: certs.certPem,
      keyPem: certs.keyPem,
      ...(this.options.http2MaxStreamsPerConnection !== undefined
        ? { maxStreamsPerConnection: this.options.http2MaxStreamsPerConnection }
        : {}),
    });
    this.transport = transport;
    const host = this.options.host ?? "127.0.0.1";
    const { port } = await transport.listen(this.options.port ?? 0, host);
    const urlHost = host.includes(":") ? `[${host}]` : host;
    this.url = `https://${urlHost}:${port}`;
    this.handler = new ApiHandler({
      backend: this.options.backend,
      token: this.token,
      clock: this.clock,
      serverAddress: `${urlHost}:${port}`,
      ...(this.instruments ? { instruments: this.instruments } : {}),
      ...(this.options.maxWatchBufferedBytes !== undefined
        ? { maxWatchBufferedBytes: this.options.maxWatchBufferedBytes }
        : {}),
      ...(this.options.slowWatchGraceMs !== undefined
        ? { slowWatchGraceMs: this.options.slowWatchGraceMs }
        : {}),
      ...(this.options.random ? { random: this.options.random } : {}),
      ...(this.options.onRequest ? { onRequest: this.options.onRequest } : {}),
    });
    transport.serve(this.handler.handle);
    this.tempDir = await mkdtemp(join(tmpdir(), "workbook-apiserver-"));
    this.kubeconfigPath = join(this.tempDir, "kubeconfig");
    await writeKubeconfig(this.kubeconfigPath, this.kubeconfigParams());
  }

  private kubeconfigParams() {
    return { server: this.url, caPem: this.caPem, token: this.token };
  }

  /** A client-node KubeConfig for this server (CA data and token included). */
  kubeConfig(): KubeConfig {
    if (!this.url) throw new Error("EmbeddedApiServer: not started");
    return kubeConfigFor(this.kubeconfigParams());
  }

  /** Closes every watch and connection, stops listening, removes the temp directory. Idempotent. */
  stop(): Promise<void> {
    this.stopping ??= this.doStop();
    return this.stopping;
  }

  private async doStop(): Promise<void> {
    await this.starting?.catch(() => undefined);
    this.handler?.stop();
    await this.transport?.close();
    if (this.tempDir) await rm(this.tempDir, { recursive: true, force: true });
  }
}
