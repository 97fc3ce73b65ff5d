/**
 * The one lifecycle and error contract (`src/apimachinery/lifecycle.ts`), checked once for every runnable of
 * the workbook against one embedded API server: the reflector, the shared informer and its factory, the
 * controller, the leader elector, the built-in controllers, the controller manager and the simulated nodes. Each row only says how to build its runnable
 * (and, where it is easy, how to make it report an error); the checks are shared.
 */
import { CoreV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AlreadyRunError,
  type ErrorContext,
  type ErrorHandler,
  type Runnable,
} from "../../src/apimachinery/lifecycle.js";
import { SharedInformerFactory } from "../../src/cache/factory.js";
import { Indexer } from "../../src/cache/indexer.js";
import { Reflector } from "../../src/cache/reflector.js";
import { SharedIndexInformer } from "../../src/cache/shared-index-informer.js";
import { ListWatch } from "../../src/client/list-watch.js";
import { BuiltinResources, type ResourceDescriptor } from "../../src/client/resource-descriptor.js";
import { ControllerManager } from "../../src/control-plane/builtin-controllers/controller-manager.js";
import { GarbageCollector } from "../../src/control-plane/builtin-controllers/garbage-collector/garbage-collector.js";
import { NamespaceController } from "../../src/control-plane/builtin-controllers/namespace/namespace-controller.js";
import { SimulatedNodes } from "../../src/control-plane/builtin-controllers/node-lease/simulated-nodes.js";
import { type EmbeddedCluster, startCluster } from "../../src/control-plane/cluster/index.js";
import { Controller } from "../../src/controller/controller.js";
import { LeaderElector } from "../../src/leaderelection/leader-elector.js";
import { LeaseLock } from "../../src/leaderelection/lease-lock.js";
import { eventually } from "../../src/workbook/grading/eventually.js";

let cluster: EmbeddedCluster;
const namespace = `lifecycle-${Date.now().toString(36)}`;

/** A resource nobody serves: listing it fails with 404, which the watchers must report and survive. */
const unserved: ResourceDescriptor = {
  group: "example.com",
  version: "v1",
  plural: "widgets",
  kind: "Widget",
  namespaced: true,
};

/** One runnable under test, built fresh for each check. */
interface Subject {
  runnable: Runnable;
  /** Makes the runnable report one error (when that is easy to provoke). */
  provoke?: () => void;
}

/** How to build one runnable: `onError` is the handler under test; `failing` asks for a subject that errs. */
interface Row {
  name: string;
  /** The `component` its own reports carry. */
  component: RegExp;
  /** True when a run opens watches on the server. */
  watches: boolean;
  make(onError: ErrorHandler, failing: boolean): Subject;
}

const kc = () => cluster.kubeConfig;
const lw = (failing: boolean) =>
  new ListWatch(kc(), failing ? unserved : BuiltinResources.configMaps, { namespace });

const rows: Row[] = [
  {
    name: "Reflector",
    watches: true,
    component: /^reflector lifecycle$/,
    make: (onError, failing) => ({
      runnable: new Reflector(lw(failing), new Indexer(), { name: "lifecycle", onError }),
    }),
  },
  {
    name: "SharedIndexInformer",
    watches: true,
    component: /^reflector lifecycle$/,
    make: (onError, failing) => ({
      runnable: new SharedIndexInformer(lw(failing), { name: "lifecycle", onError }),
    }),
  },
  {
    name: "SharedInformerFactory",
    watches: true,
    component: /^reflector /,
    make: (onError, failing) => {
      const factory = new SharedInformerFactory(kc(), { namespace, onError });
      factory.informerFor(failing ? unserved : BuiltinResources.configMaps);
      return { runnable: factory };
    },
  },
  {
    name: "Controller",
    watches: false,
    component: /^controller lifecycle$/,
    make: (onError) => {
      const controller = new Controller({
        name: "lifecycle",
        onError,
        reconcile: (key) => {
          if (key === "bad") throw new Error("reconcile failed on purpose");
        },
      });
      return { runnable: controller, provoke: () => controller.enqueue("bad") };
    },
  },
  {
    name: "LeaderElector",
    watches: false,
    component: /^leader-elector /,
    make: (onError, failing) => ({
      runnable: new LeaderElector({
        lock: new LeaseLock(kc(), {
          namespace,
          name: `lock-${Math.random().toString(36).slice(2)}`,
          identity: "a",
        }),
        leaseDurationMs: 4_000,
        renewDeadlineMs: 3_000,
        retryPeriodMs: 500,
        onError,
        callbacks: {
          onStartedLeading: () => {},
          onStoppedLeading: () => {},
          // The docs promise a throwing callback cannot take the elector down: it is reported instead.
          onNewLeader: () => {
            if (failing) throw new Error("onNewLeader failed on purpose");
          },
        },
      }),
    }),
  },
  {
    name: "GarbageCollector",
    watches: true,
    component: /^garbage-collector$|^controller garbage-collector|^(informer|reflector) garbage-collector/,
    make: (onError) => ({ runnable: new GarbageCollector({ kubeConfig: kc(), onError }) }),
  },
  {
    name: "NamespaceController",
    watches: true,
    component: /^(controller namespace|informer namespace-controller|reflector namespace-controller)$/,
    make: (onError) => ({ runnable: new NamespaceController({ kubeConfig: kc(), onError }) }),
  },
  {
    name: "ControllerManager",
    // Leading, it runs the garbage collector and the namespace controller, which watch.
    watches: true,
    component: /^kube-controller-manager$|garbage-collector|namespace/,
    make: (onError) => ({
      runnable: new ControllerManager(kc(), {
        onError,
        leaderElection: {
          namespace,
          name: `kcm-${Math.random().toString(36).slice(2)}`,
          leaseDurationMs: 4_000,
          renewDeadlineMs: 3_000,
          retryPeriodMs: 500,
        },
      }),
    }),
  },
  {
    name: "SimulatedNodes",
    watches: false,
    component: /^simulated nodes|node/,
    make: (onError) => ({
      runnable: new SimulatedNodes(kc(), { names: [`node-${Math.random().toString(36).slice(2)}`], onError }),
    }),
  },
];

const openWatches = () => cluster.instruments.metrics.snapshot().openWatches;
const quietly: ErrorHandler = () => {};

beforeAll(async () => {
  cluster = await startCluster({
    backend: "embedded",
    embedded: { controllers: { garbageCollector: false, namespace: false } },
  });
  await cluster.kubeConfig
    .makeApiClient(CoreV1Api)
    .createNamespace({ body: { metadata: { name: namespace } } });
});

afterAll(async () => {
  await cluster?.stop();
});

describe.each(rows)("lifecycle contract: $name", (row) => {
  it("run(signal) works until the signal aborts, then settles with nothing left running", async () => {
    const before = openWatches();
    const { runnable } = row.make(quietly, false);
    const ac = new AbortController();
    const done = runnable.run(ac.signal);
    if (row.watches) await eventually(() => openWatches() > before);
    else await new Promise((resolve) => setTimeout(resolve, 300));
    ac.abort();
    await done;
    expect(await eventually(() => openWatches() === before)).toBe(true);
  });

  it("runs once: a second run() rejects with AlreadyRunError, during the run and after it", async () => {
    const { runnable } = row.make(quietly, false);
    const first = runnable.run();
    await expect(runnable.run()).rejects.toBeInstanceOf(AlreadyRunError);
    await runnable.stop();
    await first;
    await expect(runnable.run()).rejects.toBeInstanceOf(AlreadyRunError);
  });

  it("stop() is idempotent and safe before run; run() after stop() rejects", async () => {
    const before = openWatches();
    const { runnable } = row.make(quietly, false);
    await Promise.all([runnable.stop(), runnable.stop()]);
    await runnable.stop();
    await expect(runnable.run()).rejects.toBeInstanceOf(AlreadyRunError);
    expect(openWatches()).toBe(before);
  });

  it("reports through onError(error, context), and a throwing onError takes nothing down", async () => {
    const reported: Array<{ error: unknown; context: ErrorContext }> = [];
    const onError: ErrorHandler = (error, context) => {
      reported.push({ error, context });
      throw new Error("a broken error handler");
    };
    const { runnable, provoke } = row.make(onError, true);
    const done = runnable.run();
    provoke?.();
    // These have no failure that is easy to provoke here: they only have to survive the throwing handler.
    const expectsReport = ![
      "GarbageCollector",
      "NamespaceController",
      "ControllerManager",
      "SimulatedNodes",
    ].includes(row.name);
    if (expectsReport) {
      expect(await eventually(() => reported.length > 0)).toBe(true);
      const [first] = reported;
      expect(first!.error).toBeInstanceOf(Error);
      expect(first!.context.component).toMatch(row.component);
      expect(typeof first!.context.operation).toBe("string");
    }
    await runnable.stop();
    await done;
    for (const { context } of reported) expect(context.component).toMatch(row.component);
  });
});
