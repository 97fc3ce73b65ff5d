/**
 * The `kind` backend: one kindest/node container started with Testcontainers and bootstrapped the way
 * `kind create cluster` does it, without the kind CLI. A real single-node cluster: kube-apiserver, etcd,
 * controller-manager, scheduler, kubelet, CNI, so Pods really run.
 *
 * Phases (each printed through `log`): check a container runtime answers → choose the node image → keep
 * Testcontainers' reaper or, where its image cannot be had, disable it and remove nodes orphaned by ended
 * processes → boot the node (privileged; on an engine that refuses privileged, with the capability set of
 * {@link KindNodeContainer}), wait for systemd in the raw log → `kubeadm init` → untaint, CNI, storage →
 * kubeconfig rewritten to the host port Docker mapped to 6443 → wait for the node Ready and the default
 * ServiceAccount. `stop()` removes the container and its `/var` volume. The time from start to ready is
 * printed.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StartedTestContainer } from "testcontainers";
import type { Clock } from "../../clock/index.js";
import type { BackendStartOptions, Cluster } from "./cluster-types.js";
import { bootstrapKindNode } from "./kind/bootstrap.js";
import { engineClient, engineImageStore } from "./kind/engine.js";
import { resolveKindImage } from "./kind/image.js";
import { chooseKindImage, type ImageStore } from "./kind/image-source.js";
import { rewriteKindKubeconfig } from "./kind/kubeconfig-rewrite.js";
import type { KindNodeMode } from "./kind/node-container.js";
import { chooseReaper, ownerLabels, removeOrphanedNodes } from "./kind/reaper.js";
import { type ContainerRuntimeProbe, requireContainerRuntime } from "./kind/runtime.js";
import { waitForKindReady } from "./kind/wait-ready.js";

/** Options of the kind backend (`startCluster({backend: "kind", kind: {...}})`). */
export interface KindOptions {
  /**
   * Node image (default: `WORKBOOK_KIND_IMAGE`, else the pinned kindest/node v1.34.0 when present or pullable,
   * else the image `workbook kind build-image` made on this machine).
   */
  image?: string;
  /** Where images are looked up and pulled (default: the engine Testcontainers finds). */
  imageStore?: ImageStore;
  /** Cluster name; the kubeconfig context is `kind-<name>` (default `workbook`). */
  clusterName?: string;
  /** Node (and container host) name (default `<clusterName>-control-plane`). */
  nodeName?: string;
  /** How long systemd may take to boot (default 120 s). */
  bootTimeoutMs?: number;
  /** How long the node may take to turn Ready after kubeadm (default 300 s). */
  readyTimeoutMs?: number;
  /** How to check for a container runtime (default: Testcontainers' detection). */
  probe?: ContainerRuntimeProbe;
  /** Time source for timeouts and polling (default the real clock; tests pass a FakeClock). */
  clock?: Clock;
  /** `privileged` or `capabilities` (default: privileged, falling back to capabilities when refused). */
  mode?: KindNodeMode;
}

/** A {@link Cluster} from the kind backend. */
export interface KindCluster extends Cluster<undefined> {
  readonly backend: "kind";
  readonly image: string;
  readonly kubernetesVersion: string;
  /** The node container's id. */
  readonly containerId: string;
  /** How the node got its rights (see {@link KindNodeMode}). */
  readonly mode: KindNodeMode;
  /** Milliseconds from the call to a Ready node with its default ServiceAccount. */
  readonly startToReadyMs: number;
}

/** Starts a kind node and returns a Cluster for it. Registered as the `kind` backend of `startCluster()`. */
export async function startKindCluster(
  options: BackendStartOptions & { kind?: KindOptions } = {},
): Promise<KindCluster> {
  const opts = options.kind ?? {};
  const log = options.log ?? (() => {});
  const started = Date.now();
  const clusterName = opts.clusterName ?? "workbook";
  const nodeName = opts.nodeName ?? `${clusterName}-control-plane`;
  // A malformed image name is the caller's mistake: say so before asking any engine.
  const requested = opts.image ?? process.env.WORKBOOK_KIND_IMAGE;
  if (requested) resolveKindImage(requested, {});
  await requireContainerRuntime(opts.probe);
  const store = opts.imageStore ?? engineImageStore();
  const { image } = await chooseKindImage(store, { requested, log });
  if ((await chooseReaper(store, { log })) === "explicit")
    await removeOrphanedNodes(await engineClient(), { log });

  const { KindNodeContainer, isPrivilegedRefused } = await import("./kind/node-container.js");
  const startNode = (mode: KindNodeMode): Promise<StartedTestContainer> => {
    log(`kind: booting the node from ${image} (${mode})`);
    return new KindNodeContainer(image, {
      nodeName,
      bootTimeoutMs: opts.bootTimeoutMs,
      clock: opts.clock,
      mode,
      labels: ownerLabels(),
    }).start();
  };
  let mode: KindNodeMode = opts.mode ?? "privileged";
  let node: StartedTestContainer;
  try {
    node = await startNode(mode);
  } catch (err) {
    if (opts.mode !== undefined || !isPrivilegedRefused(err)) throw err;
    log(
      "kind: the engine refused --privileged (unable to apply caps); retrying with all capabilities but " +
        "SYS_RESOURCE, unconfined seccomp/AppArmor/system paths and a read-write /sys/fs/cgroup",
    );
    await removeFailedNodes();
    mode = "capabilities";
    node = await startNode(mode);
  }
  log("kind: systemd is up in the node");

  let dir: string | undefined;
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      await node.stop({ removeVolumes: true });
      if (dir) await rm(dir, { recursive: true, force: true });
    })();
    return stopped;
  };
  try {
    const boot = await bootstrapKindNode(node, { nodeName, clusterName, certSans: [node.getHost()], log });
    const server = `https://${node.getHost()}:${node.getMappedPort(6443)}`;
    const kubeConfig = rewriteKindKubeconfig(boot.adminConf, server, clusterName);
    dir = await mkdtemp(join(tmpdir(), "workbook-kind-"));
    const kubeconfigPath = join(dir, "kubeconfig");
    await writeFile(kubeconfigPath, kubeConfig.exportConfig(), { mode: 0o600 });
    await waitForKindReady(kubeConfig, { timeoutMs: opts.readyTimeoutMs, clock: opts.clock, log });
    const startToReadyMs = Date.now() - started;
    log(
      `kind: ready (Kubernetes ${boot.kubernetesVersion} at ${server}) in ${(startToReadyMs / 1000).toFixed(1)} s`,
    );
    return {
      backend: "kind",
      kubeConfig,
      kubeconfigPath,
      instruments: undefined,
      image,
      kubernetesVersion: boot.kubernetesVersion,
      containerId: node.getId(),
      mode,
      startToReadyMs,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Removes this process's node containers that failed to start (a refused start leaves a created container). */
async function removeFailedNodes(): Promise<void> {
  const client = await engineClient();
  const labels = ownerLabels();
  const containers = await client.listContainers({
    all: true,
    filters: JSON.stringify({ label: Object.entries(labels).map(([k, v]) => `${k}=${v}`) }),
  });
  for (const info of containers) {
    if (info.State !== "running") await client.getContainer(info.Id).remove({ force: true, v: true });
  }
}
