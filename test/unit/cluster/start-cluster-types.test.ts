/**
 * Compile-time checks of `startCluster()`'s options and result (tsc runs over test/ in `npm test`): the body of
 * `typeChecks` is never executed, it only has to type-check, and each `@ts-expect-error` fails the build if the
 * line below it ever compiles.
 */
import { describe, expect, it } from "vitest";
import {
  type Cluster,
  type EmbeddedCluster,
  startCluster,
} from "../../../src/control-plane/cluster/index.js";

async function typeChecks(): Promise<void> {
  // Any backend: instruments typed without a type argument, possibly undefined.
  const cluster: Cluster = await startCluster();
  cluster.instruments?.metrics.snapshot();
  // @ts-expect-error instruments may be undefined (kind, envtest, kubeconfig)
  cluster.instruments.metrics.snapshot();

  // The embedded backend spelt out: an EmbeddedCluster, instruments always there.
  const embedded: EmbeddedCluster = await startCluster({ backend: "embedded", embedded: { port: 0 } });
  embedded.instruments.metrics.snapshot();
  // The embedded control plane's Lease holder and simulated nodes may be absent (options turn them off).
  embedded.controllerManager?.isLeader();
  embedded.nodes?.pause("workbook-node-1");
  // @ts-expect-error the controller manager may be off (`leaderElection: false`)
  embedded.controllerManager.isLeader();

  // Backend options are typed: a typo fails to compile.
  // @ts-expect-error `prot` is not an embedded option
  await startCluster({ embedded: { prot: 0 } });
  // @ts-expect-error `controllers.garbageCollector` is a boolean
  await startCluster({ embedded: { controllers: { garbageCollector: "off" } } });
  // @ts-expect-error `leaderElection` is `false` or the election's options, never `true`
  await startCluster({ embedded: { leaderElection: true } });
  // @ts-expect-error `nodes.leaseDurationSeconds` is a number
  await startCluster({ embedded: { nodes: { leaseDurationSeconds: "40" } } });
  // @ts-expect-error `kubeconfig.path` is a string
  await startCluster({ backend: "kubeconfig", kubeconfig: { path: 1 } });
}

describe("startCluster types", () => {
  it("compiles the checks above (tsc does the work)", () => {
    expect(typeof typeChecks).toBe("function");
  });
});
