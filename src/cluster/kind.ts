/**
 * The `kind` backend: one kindest/node container started with Testcontainers and bootstrapped the way
 * `kind create cluster` does it, without the kind CLI. A real single-node cluster: kube-apiserver, etcd,
 * controller-manager, scheduler, kubelet, CNI, so Pods really run.
 *
 * Phases (each printed through `log`): check a container runtime answers → pull and boot the node (wait for
 * systemd in the raw log) → `kubeadm init` → untaint, CNI, storage → kubeconfig rewritten to the host port
 * Docker mapped to 6443 → wait for the node Ready and the default ServiceAccount. `stop()` removes the container
 * and its `/var` volume.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StartedTestContainer } from "testcontainers";
import type { Clock } from "../clock/index.js";
import type { Cluster, StartClusterOptions } from "./cluster.js";
import { bootstrapKindNode } from "./kind/bootstrap.js";
import { engineImageStore } from "./kind/engine.js";
import { resolveKindImage } from "./kind/image.js";
import { chooseKindImage, type ImageStore } from "./kind/image-source.js";
import { rewriteKindKubeconfig } from "./kind/kubeconfig-rewrite.js";
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
}

/** A {@link Cluster} from the kind backend. */
export interface KindCluster extends Cluster<undefined> {
  readonly backend: "kind";
  readonly image: string;
  readonly kubernetesVersion: string;
  /** The node container's id. */
  readonly containerId: string;
}

/** Starts a kind node and returns a Cluster for it. Registered as the `kind` backend of `startCluster()`. */
export async function startKindCluster(options: StartClusterOptions = {}): Promise<KindCluster> {
  const opts = options.kind ?? {};
  const log = options.log ?? (() => {});
  const clusterName = opts.clusterName ?? "workbook";
  const nodeName = opts.nodeName ?? `${clusterName}-control-plane`;
  // A malformed image name is the caller's mistake: say so before asking any engine.
  const requested = opts.image ?? process.env.WORKBOOK_KIND_IMAGE;
  if (requested) resolveKindImage(requested, {});
  await requireContainerRuntime(opts.probe);
  const { image } = await chooseKindImage(opts.imageStore ?? engineImageStore(), { requested, log });

  log(`kind: booting the node from ${image}`);
  const { KindNodeContainer } = await import("./kind/node-container.js");
  const node: StartedTestContainer = await new KindNodeContainer(image, {
    nodeName,
    bootTimeoutMs: opts.bootTimeoutMs,
    clock: opts.clock,
  }).start();
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
    log(`kind: ready (Kubernetes ${boot.kubernetesVersion} at ${server})`);
    return {
      backend: "kind",
      kubeConfig,
      kubeconfigPath,
      instruments: undefined,
      image,
      kubernetesVersion: boot.kubernetesVersion,
      containerId: node.getId(),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
