import { KubeConfig } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import type { Cluster, StartClusterOptions } from "../../../src/control-plane/cluster/index.js";
import {
  START_BUDGET_MS,
  StartBudgetExceededError,
  withinStartBudget,
} from "../../../src/control-plane/cluster/start-budget.js";
import { startGradingRunCluster } from "../../../src/tools/cli/grade-cluster.js";

/** A stand-in cluster that records whether it was stopped. */
function fakeCluster(backend: Cluster["backend"]): Cluster & { stops: number } {
  const c = {
    backend,
    kubeConfig: new KubeConfig(),
    kubeconfigPath: `/tmp/${backend}-kubeconfig`,
    instruments: undefined,
    stops: 0,
    async stop() {
      c.stops++;
    },
  };
  return c;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a grading run's shared cluster", () => {
  it("starts nothing for embedded and envtest: their workers start their own, with the grader's options", async () => {
    const calls: StartClusterOptions[] = [];
    for (const backend of ["embedded", "envtest"] as const) {
      const shared = await startGradingRunCluster({
        env: { WORKBOOK_CLUSTER: backend },
        start: async (o) => {
          calls.push(o);
          return fakeCluster(backend);
        },
      });
      expect(shared).toBeUndefined();
    }
    expect(calls).toEqual([]);
  });

  it("starts kind once and points the workers at it through a kubeconfig", async () => {
    const started = fakeCluster("kind");
    const calls: StartClusterOptions[] = [];
    const shared = await startGradingRunCluster({
      env: { WORKBOOK_CLUSTER: "kind", HOME: "/home/learner" },
      start: async (o) => {
        calls.push(o);
        return started;
      },
    });
    expect(calls.map((o) => o.backend)).toEqual(["kind"]);
    expect(shared?.backend).toBe("kind");
    expect(shared?.env).toMatchObject({
      WORKBOOK_CLUSTER: "kubeconfig",
      KUBECONFIG: "/tmp/kind-kubeconfig",
      HOME: "/home/learner",
    });
    await shared?.stop();
    expect(started.stops).toBe(1);
  });

  it("passes the backend's own error on (the grade reports it for every lab)", async () => {
    await expect(
      startGradingRunCluster({
        env: { WORKBOOK_CLUSTER: "kind" },
        start: async () => {
          throw new Error("no node image: run `workbook kind build-image`");
        },
      }),
    ).rejects.toThrow(/no node image/);
  });

  it("gives up after the start budget, and stops a start that completes later", async () => {
    const late = fakeCluster("kind");
    let finish: (c: Cluster) => void = () => {};
    const pending = startGradingRunCluster({
      env: { WORKBOOK_CLUSTER: "kind" },
      budgetMs: 30,
      start: () => new Promise<Cluster>((resolve) => (finish = resolve)),
    });
    await expect(pending).rejects.toBeInstanceOf(StartBudgetExceededError);
    await expect(pending).rejects.toThrow(/kind cluster did not start within 0.03 s/);
    finish(late);
    await sleep(10);
    expect(late.stops).toBe(1);
  });
});

describe("start budgets", () => {
  it("gives kind more than any check's budget and settles with a start inside it", async () => {
    expect(START_BUDGET_MS.kind).toBeGreaterThan(60_000);
    const c = fakeCluster("envtest");
    await expect(withinStartBudget(Promise.resolve(c), "envtest", async () => {})).resolves.toBe(c);
    expect(c.stops).toBe(0);
  });
});
