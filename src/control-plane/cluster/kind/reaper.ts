/**
 * Testcontainers' reaper (Ryuk) and what replaces it where it cannot run. Ryuk is a container Testcontainers
 * starts next to the first container of a process; it removes that process's containers once the process is
 * gone, even after a crash. On a machine with no image registry its image (`testcontainers/ryuk`) cannot be
 * pulled, and every `start()` would fail on that pull. Then the kind backend turns the reaper off
 * (`TESTCONTAINERS_RYUK_DISABLED=true`, the switch Testcontainers documents) and cleans up itself: `stop()`
 * removes the node container and its volume, and every start first removes the nodes of processes that ended
 * without calling `stop()` ({@link removeOrphanedNodes}).
 */
import { hostname } from "node:os";
import type { EngineClient } from "./engine.js";
import type { ImageStore } from "./image-source.js";

/** The reaper image Testcontainers 11 starts (or `RYUK_CONTAINER_IMAGE`). */
export function reaperImage(env: NodeJS.ProcessEnv = process.env): string {
  return env.RYUK_CONTAINER_IMAGE ?? "testcontainers/ryuk:0.14.0";
}

/** Label on node containers: the pid of the process that started them. */
export const OWNER_PID_LABEL = "io.kube-controller-workbook.owner-pid";
/** Label on node containers: the host name of that process's machine (pids mean nothing elsewhere). */
export const OWNER_HOST_LABEL = "io.kube-controller-workbook.owner-host";

/** The labels that let a later start recognise this process's node as an orphan. */
export function ownerLabels(pid: number = process.pid): Record<string, string> {
  return { [OWNER_PID_LABEL]: String(pid), [OWNER_HOST_LABEL]: hostname() };
}

/**
 * Keeps the reaper when its image is present or pullable; otherwise sets `TESTCONTAINERS_RYUK_DISABLED=true` in
 * `env` and says so. Returns who cleans up: `ryuk` or `explicit`. An explicit `TESTCONTAINERS_RYUK_DISABLED`
 * is respected as it is.
 */
export async function chooseReaper(
  store: ImageStore,
  options: { env?: NodeJS.ProcessEnv; log?: (line: string) => void } = {},
): Promise<"ryuk" | "explicit"> {
  const env = options.env ?? process.env;
  if (env.TESTCONTAINERS_RYUK_DISABLED === "true") return "explicit";
  if (env.TESTCONTAINERS_RYUK_DISABLED === "false") return "ryuk";
  const image = reaperImage(env);
  let reason = "";
  try {
    if (await store.exists(image)) return "ryuk";
    await store.pull(image);
    return "ryuk";
  } catch (err) {
    reason = (err instanceof Error ? err.message : String(err)).trim();
  }
  env.TESTCONTAINERS_RYUK_DISABLED = "true";
  options.log?.(
    `kind: Testcontainers' reaper ${image} cannot be had (${reason}); it is disabled ` +
      "(TESTCONTAINERS_RYUK_DISABLED=true): stop() removes the node, and the next start removes nodes left by ended processes",
  );
  return "explicit";
}

/** Is `pid` a live process on this machine? */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes (with their volumes) the node containers started on this host by processes that no longer run.
 * Returns the ids removed. Containers from other hosts, or without the labels, are never touched.
 */
export async function removeOrphanedNodes(
  client: EngineClient,
  options: { alive?: (pid: number) => boolean; log?: (line: string) => void } = {},
): Promise<string[]> {
  const alive = options.alive ?? processAlive;
  const here = hostname();
  const containers = await client.listContainers({
    all: true,
    filters: JSON.stringify({ label: [OWNER_PID_LABEL] }),
  });
  const removed: string[] = [];
  for (const info of containers) {
    const pid = Number(info.Labels?.[OWNER_PID_LABEL]);
    if (info.Labels?.[OWNER_HOST_LABEL] !== here || !Number.isInteger(pid) || pid <= 0 || alive(pid))
      continue;
    await client.getContainer(info.Id).remove({ force: true, v: true });
    options.log?.(`kind: removed node container ${info.Id.slice(0, 12)} left by ended process ${pid}`);
    removed.push(info.Id);
  }
  return removed;
}
