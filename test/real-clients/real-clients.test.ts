/**
 * Unmodified real clients against the cluster: the Go program in ./go drives the server with client-go v0.37 and
 * controller-runtime v0.25 at their default content types (protobuf for built-in kinds) and reports one result
 * per check; each check is one test here. Backend from WORKBOOK_CLUSTER (default embedded), so CI also runs it
 * against envtest's kube-apiserver (`workbook conformance --dir test/real-clients`). Skipped, with the reason,
 * when Go (1.26 or newer) is not installed. The first run builds the program (minutes); later runs reuse it.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Cluster, startCluster } from "../../src/control-plane/cluster/index.js";
import { cleanupNamespaces, freshNamespace } from "../conformance/support.js";
import { buildRealClients, goUnavailableReason } from "./build.js";

const exec = promisify(execFile);

/** One line of the program's output. */
interface CheckResult {
  check: string;
  ok: boolean;
  ms: number;
  error?: string;
  note?: string;
}

/**
 * Checks the embedded server is known to fail, each with the reason. A listed check that passes fails the
 * test too, so this list shrinks as the server catches up and never hides a regression.
 */
const KNOWN_EMBEDDED_FAILURES: Record<string, string> = {};

const skipReason = await goUnavailableReason();
const backend = process.env.WORKBOOK_CLUSTER || "embedded";
// Built at collection time (vitest does not time out module evaluation) so each check is its own test.
const binary = skipReason === undefined ? await buildRealClients() : undefined;
const names = binary ? (await exec(binary, ["--list"])).stdout.split("\n").filter(Boolean) : [];

describe.skipIf(binary === undefined)(
  `client-go and controller-runtime, unmodified${skipReason ? ` (skipped: ${skipReason})` : ""}`,
  () => {
    let cluster: Cluster | undefined;
    const created: string[] = [];
    const results = new Map<string, CheckResult>();

    beforeAll(async () => {
      cluster = await startCluster({});
      const namespace = await freshNamespace(cluster.kubeConfig, "real-clients", created);
      const run = await exec(binary as string, ["--namespace", namespace, "--timeout", "20s"], {
        env: { ...process.env, KUBECONFIG: cluster.kubeconfigPath },
        maxBuffer: 16 * 1024 * 1024,
        timeout: 15 * 60_000,
      }).catch((err: { stderr?: string; message: string }) => {
        throw new Error(`real-clients failed: ${err.message}\n${err.stderr?.slice(-4000) ?? ""}`);
      });
      for (const line of run.stdout.split("\n")) {
        if (!line.trim()) continue;
        const result = JSON.parse(line) as CheckResult;
        results.set(result.check, result);
      }
    }, 20 * 60_000);

    afterAll(async () => {
      if (!cluster) return;
      await cleanupNamespaces(cluster.kubeConfig, created);
      await cluster.stop();
    });

    it("lists only known failures that exist", () => {
      expect(names.length).toBeGreaterThan(40);
      for (const name of Object.keys(KNOWN_EMBEDDED_FAILURES)) expect(names).toContain(name);
    });

    it.each(names)("%s", (name) => {
      const r = results.get(name);
      expect(r, `${name} reported no result`).toBeDefined();
      const known = backend === "embedded" ? KNOWN_EMBEDDED_FAILURES[name] : undefined;
      if (known === undefined) {
        expect(r?.error ?? "", name).toBe("");
        expect(r?.ok).toBe(true);
      } else {
        expect(r?.ok, `${name} passes now: remove it from KNOWN_EMBEDDED_FAILURES (${known})`).toBe(false);
      }
    });
  },
);
