/**
 * A kindest/node container configured the way `kind create cluster` runs one (kind's docker provider), through
 * Testcontainers instead of the kind CLI: privileged (it runs systemd, containerd and the kubelet), `/tmp` and
 * `/run` on tmpfs, `/var` on an anonymous volume that `stop()` removes, the host's kernel modules read-only, its
 * own cgroup namespace, no init shim in front of systemd, a TTY, and 6443 published on a random host port.
 *
 * Some engines refuse `--privileged` ("unable to apply caps: operation not permitted": the engine's own
 * capability bounding set lacks one that privileged asks for, e.g. CAP_SYS_RESOURCE in a nested container).
 * The `capabilities` mode asks for what a node needs one piece at a time instead: every capability but
 * SYS_RESOURCE, seccomp, AppArmor and the masked /proc and /sys paths unconfined, every device allowed by the
 * device cgroup, and `/sys/fs/cgroup` mounted read-write so systemd and the kubelet can create cgroups.
 */
import { GenericContainer } from "testcontainers";
import type { Clock } from "../../../clock/index.js";
import { SystemdReadyWaitStrategy } from "./systemd-wait.js";

/** Options of {@link KindNodeContainer}. */
export interface KindNodeContainerOptions {
  /** Hostname and node name (default `kind-control-plane`, kind's name for the first node). */
  nodeName?: string;
  /** How long systemd may take to come up (default 120 s). */
  bootTimeoutMs?: number;
  /** Time source for timeouts and polling (default the real clock; tests pass a FakeClock). */
  clock?: Clock;
  /** `privileged` (kind's way, the default) or `capabilities` (for engines that refuse privileged). */
  mode?: KindNodeMode;
  /** Extra labels (the owner labels that let a later start remove an orphaned node). */
  labels?: Record<string, string>;
}

/** How the node container gets the rights it needs; see the module comment. */
export type KindNodeMode = "privileged" | "capabilities";

/** Does this start error mean the engine refused `--privileged`? */
export function isPrivilegedRefused(err: unknown): boolean {
  const message = err instanceof Error ? err.message : String(err);
  return /unable to apply caps|apply caps.*operation not permitted/i.test(message);
}

/** The node container; `start()` returns once systemd is up, before any kubeadm step. */
export class KindNodeContainer extends GenericContainer {
  constructor(image: string, options: KindNodeContainerOptions = {}) {
    super(image);
    const nodeName = options.nodeName ?? "kind-control-plane";
    this.withHostname(nodeName)
      .withTmpFs({ "/tmp": "rw", "/run": "rw" })
      .withBindMounts([{ source: "/lib/modules", target: "/lib/modules", mode: "ro" }])
      .withEntrypoint(["/usr/local/bin/entrypoint", "/sbin/init"])
      .withEnvironment({ KUBECONFIG: "/etc/kubernetes/admin.conf" })
      .withLabels({ "io.x-k8s.kind.role": "control-plane", ...options.labels })
      .withExposedPorts(6443)
      .withWaitStrategy(
        new SystemdReadyWaitStrategy(options.clock).withStartupTimeout(options.bootTimeoutMs ?? 120_000),
      );
    // Settings Testcontainers has no builder method for.
    this.createOpts.Tty = true;
    this.createOpts.Volumes = { ...this.createOpts.Volumes, "/var": {} };
    this.hostConfig.SecurityOpt = ["seccomp=unconfined", "apparmor=unconfined"];
    this.hostConfig.Init = false;
    (this.hostConfig as { CgroupnsMode?: string }).CgroupnsMode = "private";
    if ((options.mode ?? "privileged") === "privileged") {
      this.withPrivilegedMode();
    } else {
      this.hostConfig.CapAdd = ["ALL"];
      this.hostConfig.CapDrop = ["SYS_RESOURCE"];
      // `--security-opt systempaths=unconfined` is a CLI spelling; the API takes the two lists, empty.
      Object.assign(this.hostConfig, { MaskedPaths: [], ReadonlyPaths: [] });
      this.hostConfig.DeviceCgroupRules = ["a *:* rwm"];
      this.hostConfig.Binds = [...(this.hostConfig.Binds ?? []), "/sys/fs/cgroup:/sys/fs/cgroup:rw"];
      this.withEnvironment({ container: "docker" });
    }
  }
}
