import type { StartedTestContainer } from "testcontainers";
import { describe, expect, it } from "vitest";
import { bootstrapKindNode } from "../../../src/control-plane/cluster/kind/bootstrap.js";
import {
  isPrivilegedRefused,
  KindNodeContainer,
} from "../../../src/control-plane/cluster/kind/node-container.js";
import { SystemdReadyWaitStrategy } from "../../../src/control-plane/cluster/kind/systemd-wait.js";

describe("KindNodeContainer (configuration only; nothing is started)", () => {
  it("asks Docker for what kind's provider asks: privileged, tmpfs, /var volume, cgroupns, no init, a TTY", () => {
    const node = new KindNodeContainer("kindest/node:v1.34.0", {
      nodeName: "wb-control-plane",
      bootTimeoutMs: 5_000,
    });
    const { createOpts, hostConfig, waitStrategy } = node as unknown as {
      createOpts: Record<string, any>;
      hostConfig: Record<string, any>;
      waitStrategy: SystemdReadyWaitStrategy;
    };
    expect(hostConfig.Privileged).toBe(true);
    expect(hostConfig.Tmpfs).toEqual({ "/tmp": "rw", "/run": "rw" });
    expect(hostConfig.Binds).toEqual(["/lib/modules:/lib/modules:ro"]);
    expect(hostConfig.SecurityOpt).toEqual(["seccomp=unconfined", "apparmor=unconfined"]);
    expect(hostConfig.Init).toBe(false);
    expect(hostConfig.CgroupnsMode).toBe("private");
    expect(createOpts.Tty).toBe(true);
    expect(createOpts.Volumes).toEqual({ "/var": {} });
    expect(createOpts.Hostname).toBe("wb-control-plane");
    expect(createOpts.Entrypoint).toEqual(["/usr/local/bin/entrypoint", "/sbin/init"]);
    expect(Object.keys(createOpts.ExposedPorts ?? {})).toContain("6443/tcp");
    expect(waitStrategy).toBeInstanceOf(SystemdReadyWaitStrategy);
    expect(waitStrategy.getStartupTimeout()).toBe(5_000);
  });
});

/** A started node that answers exec from a script and records what it was asked. */
function scriptedNode(answers: Record<string, { exitCode?: number; stdout?: string }>) {
  const commands: string[] = [];
  const copied: Array<{ content: string; target: string }> = [];
  const node = {
    getNetworkNames: () => ["bridge"],
    getIpAddress: () => "172.17.0.5",
    exec: async (command: string[]) => {
      const line = command.join(" ");
      commands.push(line);
      const answer = Object.entries(answers).find(([prefix]) => line.startsWith(prefix))?.[1] ?? {};
      const stdout = answer.stdout ?? "";
      return { exitCode: answer.exitCode ?? 0, stdout, stderr: "", output: stdout };
    },
    copyContentToContainer: async (items: Array<{ content: string; target: string }>) => {
      copied.push(...items);
    },
  };
  return { node: node as unknown as StartedTestContainer, commands, copied };
}

const happy = {
  "cat /kind/version": { stdout: "v1.34.0\n" },
  "cat /kind/manifests/default-cni.yaml": { stdout: "cidr: {{ .PodSubnet }}\n" },
  "cat /etc/kubernetes/admin.conf": { stdout: "apiVersion: v1\nkind: Config\n" },
};

describe("bootstrapping the node with docker exec", () => {
  it("writes the kubeadm config, runs kubeadm init, untaints, installs CNI and storage, reads admin.conf", async () => {
    const { node, commands, copied } = scriptedNode(happy);
    const logs: string[] = [];
    const result = await bootstrapKindNode(node, {
      nodeName: "wb-control-plane",
      clusterName: "wb",
      certSans: ["localhost"],
      log: (l) => logs.push(l),
    });
    expect(result).toEqual({
      kubernetesVersion: "v1.34.0",
      nodeIp: "172.17.0.5",
      adminConf: "apiVersion: v1\nkind: Config\n",
    });
    expect(commands).toEqual([
      "cat /kind/version",
      "cat /kind/kubeadm-skip-phases",
      "kubeadm init --config=/kind/kubeadm.conf --skip-token-print --v=6",
      "kubectl taint nodes --all node-role.kubernetes.io/control-plane-",
      "kubectl label nodes --all node.kubernetes.io/exclude-from-external-load-balancers-",
      "cat /kind/manifests/default-cni.yaml",
      "kubectl apply -f /kind/cni.yaml",
      "kubectl apply -f /kind/manifests/default-storage.yaml",
      "cat /etc/kubernetes/admin.conf",
    ]);
    expect(copied.map((c) => c.target)).toEqual(["/kind/kubeadm.conf", "/kind/cni.yaml"]);
    expect(copied[0]?.content).toContain('"advertiseAddress": "172.17.0.5"');
    expect(copied[1]?.content).toBe("cidr: 10.244.0.0/16\n");
    expect(logs.some((l) => l.includes("kubeadm init"))).toBe(true);
  });

  it("reports a failed kubeadm init with the kubelet journal and containers", async () => {
    const { node } = scriptedNode({
      ...happy,
      "kubeadm init": { exitCode: 1, stdout: "[kubelet-check] It seems like the kubelet isn't running" },
      "sh -c journalctl": { stdout: "kubelet: failed to create cgroup" },
      "crictl ps": { stdout: "CONTAINER  IMAGE" },
    });
    const error = await bootstrapKindNode(node, {
      nodeName: "n",
      clusterName: "c",
      certSans: [],
      log: () => {},
    }).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/kubeadm init failed in the kind node \(exit 1\)/);
    expect((error as Error).message).toContain("kubelet isn't running");
    expect((error as Error).message).toContain("kubelet: failed to create cgroup");
    expect((error as Error).message).toContain("crictl ps -a");
  });

  it("stops with a clear error when a manifest cannot be applied", async () => {
    const { node, commands } = scriptedNode({ ...happy, "kubectl apply -f /kind/cni.yaml": { exitCode: 1 } });
    await expect(
      bootstrapKindNode(node, { nodeName: "n", clusterName: "c", certSans: [], log: () => {} }),
    ).rejects.toThrow(/applying the CNI manifest failed/);
    expect(commands).not.toContain("kubectl apply -f /kind/manifests/default-storage.yaml");
  });
});

describe("KindNodeContainer in capabilities mode (for engines that refuse --privileged)", () => {
  it("asks for every capability but SYS_RESOURCE, unconfined paths, all devices and a writable cgroup fs", () => {
    const node = new KindNodeContainer("kube-controller-workbook/node:v1.34.4", {
      mode: "capabilities",
      labels: { owner: "me" },
    });
    const { createOpts, hostConfig } = node as unknown as {
      createOpts: Record<string, any>;
      hostConfig: Record<string, any>;
    };
    expect(hostConfig.Privileged).toBeFalsy();
    expect(hostConfig.CapAdd).toEqual(["ALL"]);
    expect(hostConfig.CapDrop).toEqual(["SYS_RESOURCE"]);
    expect(hostConfig.SecurityOpt).toEqual(["seccomp=unconfined", "apparmor=unconfined"]);
    expect(hostConfig.MaskedPaths).toEqual([]);
    expect(hostConfig.ReadonlyPaths).toEqual([]);
    expect(hostConfig.DeviceCgroupRules).toEqual(["a *:* rwm"]);
    expect(hostConfig.Binds).toEqual(["/lib/modules:/lib/modules:ro", "/sys/fs/cgroup:/sys/fs/cgroup:rw"]);
    expect(createOpts.Env).toContain("container=docker");
    expect(createOpts.Labels).toMatchObject({ owner: "me", "io.x-k8s.kind.role": "control-plane" });
  });

  it("recognises the engine's refusal of --privileged and nothing else", () => {
    const refused = new Error(
      "(HTTP code 500) server error - failed to create shim task: OCI runtime create failed: runc create " +
        "failed: unable to start container process: unable to apply caps: operation not permitted: unknown",
    );
    expect(isPrivilegedRefused(refused)).toBe(true);
    expect(isPrivilegedRefused(new Error("no such image"))).toBe(false);
  });
});
