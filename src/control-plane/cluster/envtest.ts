/**
 * The `envtest` backend: a real kube-apiserver and etcd (and kube-controller-manager when its binary is there)
 * started as local processes, controller-runtime's envtest in TypeScript. It answers exactly like the API server
 * of a production cluster, but has no scheduler and no kubelet: Pods are stored and never run.
 *
 * Start order: find the binaries → temporary folder → free loopback ports → credentials and kubeconfig → etcd →
 * kube-apiserver → wait for `/readyz` → kube-controller-manager (garbage collector and namespace controllers
 * only, so owned objects are collected and deleted namespaces finish, which plain envtest never does).
 * `stop()` stops the processes in reverse order and removes the folder.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Clock, realClock } from "../../clock/index.js";
import { kubeConfigFor, writeKubeconfig } from "../apiserver/kubeconfig.js";
import type { BackendStartOptions, Cluster } from "./cluster-types.js";
import { type EnvtestAssets, requireEnvtestAssets } from "./envtest/assets.js";
import { writeControlPlaneCredentials } from "./envtest/credentials.js";
import {
  type ControlPlaneLayout,
  etcdFlags,
  kubeApiserverFlags,
  kubeControllerManagerFlags,
  toArgs,
} from "./envtest/flags.js";
import { freeLoopbackPorts } from "./envtest/ports.js";
import { ControlPlaneProcess } from "./envtest/process.js";
import { waitForReadyz } from "./envtest/readiness.js";

/** Options of the envtest backend (`startCluster({backend: "envtest", envtest: {...}})`). */
export interface EnvtestOptions {
  /** Folder with the binaries (default: `KUBEBUILDER_ASSETS`, then the `workbook envtest build` cache). */
  assetsDir?: string;
  /** Extra or overriding kube-apiserver flags, without the leading `--`. */
  apiserverFlags?: Record<string, string>;
  /** Run kube-controller-manager when its binary exists (default true). */
  controllerManager?: boolean;
  /**
   * Extra or overriding kube-controller-manager flags, without the leading `--`, e.g.
   * `{controllers: "garbagecollector,namespace,deployment,replicaset"}` to run the workload controllers too.
   */
  controllerManagerFlags?: Record<string, string>;
  /** How long kube-apiserver may take to become ready (default 60 s). */
  startTimeoutMs?: number;
  /** Time source for timeouts and polling (default the real clock; tests pass a FakeClock). */
  clock?: Clock;
}

/** A {@link Cluster} from the envtest backend, plus what tests and tools may want to inspect. */
export interface EnvtestCluster extends Cluster<undefined> {
  readonly backend: "envtest";
  /** The binaries in use. */
  readonly assets: EnvtestAssets;
  /** Temporary folder with etcd data, certificates, logs and the kubeconfig; removed by `stop()`. */
  readonly dir: string;
  /** The running processes: etcd, kube-apiserver and, when present, kube-controller-manager. */
  readonly processes: readonly ControlPlaneProcess[];
  /** `https://127.0.0.1:<port>`. */
  readonly server: string;
}

function layoutIn(dir: string, ports: number[]): ControlPlaneLayout {
  const [etcdClientPort, etcdPeerPort, apiserverPort] = ports as [number, number, number];
  return {
    etcdDataDir: join(dir, "etcd"),
    etcdClientPort,
    etcdPeerPort,
    apiserverPort,
    certDir: join(dir, "certs"),
    servingCertFile: join(dir, "certs", "apiserver.crt"),
    servingKeyFile: join(dir, "certs", "apiserver.key"),
    tokenAuthFile: join(dir, "certs", "tokens.csv"),
    serviceAccountPublicKeyFile: join(dir, "certs", "sa.pub"),
    serviceAccountSigningKeyFile: join(dir, "certs", "sa.key"),
    kubeconfigFile: join(dir, "kubeconfig"),
  };
}

/** Throws with the log tail when a process that should be running has exited. */
function ensureRunning(proc: ControlPlaneProcess, name: string): void {
  if (!proc.running) throw new Error(`${name} exited during start-up. Last log lines:\n${proc.logTail()}`);
}

/** Starts an envtest control plane. Registered as the `envtest` backend of `startCluster()`. */
export async function startEnvtestCluster(
  options: BackendStartOptions & { envtest?: EnvtestOptions } = {},
): Promise<EnvtestCluster> {
  const opts = options.envtest ?? {};
  const log = options.log ?? (() => {});
  const clock = opts.clock ?? realClock;
  const assets = requireEnvtestAssets({ dir: opts.assetsDir });
  const dir = await mkdtemp(join(tmpdir(), "workbook-envtest-"));
  const processes: ControlPlaneProcess[] = [];
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      for (const proc of [...processes].reverse()) await proc.stop();
      await rm(dir, { recursive: true, force: true });
    })();
    return stopped;
  };

  try {
    const layout = layoutIn(dir, await freeLoopbackPorts(3));
    await mkdir(layout.certDir, { recursive: true });
    const credentials = await writeControlPlaneCredentials(layout);
    const server = `https://127.0.0.1:${layout.apiserverPort}`;
    const kubeconfig = { server, caPem: credentials.caPem, token: credentials.token, name: "envtest" };
    await writeKubeconfig(layout.kubeconfigFile, kubeconfig);

    const start = async (name: string, command: string, args: string[]) => {
      const proc = await ControlPlaneProcess.start({
        name,
        command,
        args,
        logFile: join(dir, `${name}.log`),
        clock,
      });
      processes.push(proc);
      return proc;
    };
    log(`envtest: starting etcd (${assets.etcd}) on 127.0.0.1:${layout.etcdClientPort}`);
    const etcd = await start("etcd", assets.etcd, toArgs(etcdFlags(layout)));
    log(`envtest: starting kube-apiserver (${assets.kubeApiserver}) on ${server}`);
    const apiserver = await start(
      "kube-apiserver",
      assets.kubeApiserver,
      toArgs(kubeApiserverFlags(layout, opts.apiserverFlags)),
    );
    await waitForReadyz({
      server,
      caPem: credentials.caPem,
      token: credentials.token,
      timeoutMs: opts.startTimeoutMs,
      clock,
      check: () => {
        ensureRunning(etcd, "etcd");
        ensureRunning(apiserver, "kube-apiserver");
      },
    });
    log("envtest: kube-apiserver is ready");
    if (assets.kubeControllerManager && opts.controllerManager !== false) {
      const kcmFlags = kubeControllerManagerFlags(layout, opts.controllerManagerFlags);
      log(`envtest: starting kube-controller-manager (${kcmFlags.controllers})`);
      await start("kube-controller-manager", assets.kubeControllerManager, toArgs(kcmFlags));
    } else {
      log(
        "envtest: no kube-controller-manager: owned objects are not garbage-collected, namespaces never finish deleting",
      );
    }
    return {
      backend: "envtest",
      kubeConfig: kubeConfigFor(kubeconfig),
      kubeconfigPath: layout.kubeconfigFile,
      instruments: undefined,
      assets,
      dir,
      processes,
      server,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
