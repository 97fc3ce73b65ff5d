/**
 * Waiting for kube-apiserver to be ready: poll `GET /readyz` until it answers 200, the way envtest's
 * `HealthCheck` polls. `/readyz` turns 200 only after etcd answers and every post-start hook (RBAC bootstrap
 * roles, priority-and-fairness defaults, the `default` namespace...) has finished, so the first request a test
 * sends after this is served like on any settled cluster.
 */
import { request } from "node:https";
import { type Clock, realClock } from "../../../clock/index.js";

/** Options of {@link waitForReadyz}. */
export interface ReadyzOptions {
  /** `https://127.0.0.1:<port>`. */
  server: string;
  /** CA that signed the serving certificate. */
  caPem: string;
  /** Bearer token of a user allowed to read `/readyz`. */
  token: string;
  /** Give up after this long (default 60 s, envtest's StartTimeout). */
  timeoutMs?: number;
  /** Pause between probes (default 200 ms). */
  intervalMs?: number;
  /** Called before each probe; throw to stop waiting (e.g. the process died). */
  check?: () => void;
  /** Time source for timeouts and polling (default the real clock; tests pass a FakeClock). */
  clock?: Clock;
}

/** One probe: resolves the HTTP status, or 0 when the connection fails. */
export function probeReadyz(server: string, caPem: string, token: string): Promise<number> {
  return new Promise<number>((resolve) => {
    const req = request(
      new URL("/readyz", server),
      { method: "GET", ca: caPem, headers: { authorization: `Bearer ${token}` }, timeout: 5_000 },
      (res) => {
        res.resume();
        res.once("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.once("timeout", () => req.destroy());
    req.once("error", () => resolve(0));
    req.end();
  });
}

/** Resolves once `/readyz` answers 200; rejects on timeout or when `check` throws. */
export async function waitForReadyz(options: ReadyzOptions): Promise<void> {
  const clock = options.clock ?? realClock;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const deadline = clock.now() + timeoutMs;
  let last = 0;
  for (;;) {
    options.check?.();
    last = await probeReadyz(options.server, options.caPem, options.token);
    if (last === 200) return;
    if (clock.now() >= deadline) {
      throw new Error(
        `kube-apiserver at ${options.server} was not ready after ${timeoutMs} ms (last /readyz status: ${last || "no connection"}).`,
      );
    }
    await clock.sleep(options.intervalMs ?? 200);
  }
}
