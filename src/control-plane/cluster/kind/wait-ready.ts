/**
 * The last start-up step of the kind backend, through client-node: wait until the node reports `Ready=True`
 * (the CNI is up) and the `default` ServiceAccount exists in `default` (kube-controller-manager's ServiceAccount
 * controller has run). Without the second wait a lab that creates a Pod right away races it and gets
 * "serviceaccount default not found".
 */
import { CoreV1Api, type KubeConfig } from "@kubernetes/client-node";
import { type Clock, realClock } from "../../../clock/index.js";

/** Options of {@link waitForKindReady}. */
export interface KindReadyOptions {
  /** Give up after this long, per condition (default 300 s). */
  timeoutMs?: number;
  /** Pause between polls (default 500 ms). */
  intervalMs?: number;
  /** Time source for timeouts and polling (default the real clock; tests pass a FakeClock). */
  clock?: Clock;
  /** Progress lines. */
  log?: (line: string) => void;
}

async function pollUntil(
  what: string,
  condition: () => Promise<boolean>,
  clock: Clock,
  timeoutMs: number,
  intervalMs: number,
): Promise<void> {
  const deadline = clock.now() + timeoutMs;
  let lastError = "";
  for (;;) {
    try {
      if (await condition()) return;
    } catch (err) {
      lastError = err instanceof Error ? err.message : String(err);
    }
    if (clock.now() >= deadline) {
      throw new Error(
        `kind: ${what} did not happen within ${timeoutMs} ms${lastError ? ` (last error: ${lastError})` : ""}`,
      );
    }
    await clock.sleep(intervalMs);
  }
}

/** Resolves once a node is Ready and the default ServiceAccount exists. */
export async function waitForKindReady(
  kubeConfig: KubeConfig,
  options: KindReadyOptions = {},
): Promise<void> {
  const clock = options.clock ?? realClock;
  const timeoutMs = options.timeoutMs ?? 300_000;
  const intervalMs = options.intervalMs ?? 500;
  const core = kubeConfig.makeApiClient(CoreV1Api);
  options.log?.("kind: waiting for the node to be Ready");
  await pollUntil(
    "node Ready",
    async () => {
      const nodes = await core.listNode();
      return nodes.items.some((n) =>
        n.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True"),
      );
    },
    clock,
    timeoutMs,
    intervalMs,
  );
  options.log?.("kind: waiting for the default ServiceAccount");
  await pollUntil(
    "default ServiceAccount created",
    async () => Boolean(await core.readNamespacedServiceAccount({ name: "default", namespace: "default" })),
    clock,
    timeoutMs,
    intervalMs,
  );
}
