/**
 * A kindest/node container configured the way `kind create cluster` runs one (kind's docker provider), through
 * Testcontainers instead of the kind CLI: privileged (it runs systemd, containerd and the kubelet), `/tmp` and
 * `/run` on tmpfs, `/var` on an anonymous volume that `stop()` removes, the host's kernel modules read-only, its
 * own cgroup namespace, no init shim in front of systemd, a TTY, and 6443 published on a random host port.
 */
import { GenericContainer } from "testcontainers";
import type { Clock } from "../../clock/index.js";
import { SystemdReadyWaitStrategy } from "./systemd-wait.js";

/** Options of {@link KindNodeContainer}. */
export interface KindNodeContainerOptions {
  /** Hostname and node name (default `kind-control-plane`, kind's name for the first node). */
  nodeName?: string;
  /** How long systemd may take to come up (default 120 s). */
  bootTimeoutMs?: number;
  /** Time source for timeouts and polling (default the real clock; tests pass a FakeClock). */
  clock?: Clock;
}

/** The node container; `start()` returns once systemd is up, before any kubeadm step. */
export class KindNodeContainer extends GenericContainer {
  constructor(image: string, options: KindNodeContainerOptions = {}) {
    super(image);
    const nodeName = options.nodeName ?? "kind-control-plane";
    this.withPrivilegedMode()
      .withHostname(nodeName)
      .withTmpFs({ "/tmp": "rw", "/run": "rw" })
      .withBindMounts([{ source: "/lib/modules", target: "/lib/modules", mode: "ro" }])
      .withEntrypoint(["/usr/local/bin/entrypoint", "/sbin/init"])
      .withEnvironment({ KUBECONFIG: "/etc/kubernetes/admin.conf" })
      .withLabels({ "io.x-k8s.kind.role": "control-plane" })
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
  }
}
