/**
 * LAB 13 (given): what your tests use besides the controller. The contract with the grader
 * ({@link ControllerTest}, {@link TestContext}), an in-memory fake of the controller's writes, and an interceptor
 * that injects 409s and latency in front of any writes. You do not change this file.
 */
import type { KubeConfig } from "@kubernetes/client-node";
import { errors, Indexer, Lister } from "kube-controller-workbook";
import type { ConfigSet } from "kube-controller-workbook/workbook";
import type { Child, ConfigSetWrites, ReconcileContext } from "./controller.js";

/** What the grader hands each test. */
export interface TestContext {
  /** A cluster with the workbook's CRDs installed and a garbage collector running. */
  kubeConfig: KubeConfig;
  /** A fresh namespace, only this test's. */
  namespace: string;
  /** Runs `cleanup` when the test ends, passed or failed (last registered, first run): stop what you start. */
  defer(cleanup: () => unknown): void;
}

/** One test: it passes when `run` resolves, and fails with what it throws. */
export interface ControllerTest {
  name: string;
  run(t: TestContext): Promise<void>;
}

/** Every write the fake received, in order: `create web-0`, `update web-0`, `delete web-1`, `finalizers web`. */
export type Action = `${"create" | "update" | "delete" | "finalizers"} ${string}`;

/** A copy, so a caller never holds the fake's own object. */
const copy = <T>(obj: T): T => structuredClone(obj);

/**
 * An in-memory API server for the controller's writes, like client-go's `fake.NewSimpleClientset()` (which
 * records `Actions()`) or controller-runtime's `fake.NewClientBuilder()`. It keeps ConfigMaps and ConfigSets in
 * two {@link Indexer}s and records every write in `actions`, in order, failed ones included. Like the API
 * server, it answers a create of an existing name with 409 AlreadyExists, an update carrying another
 * `resourceVersion` than the stored one with 409 Conflict, a write of a missing object with 404, and it removes
 * a ConfigSet that is being deleted (has a `deletionTimestamp`) once its last finalizer is gone.
 */
export class FakeWrites implements ConfigSetWrites {
  readonly configMaps = new Indexer<Child>();
  readonly configSets = new Indexer<ConfigSet>();
  readonly actions: Action[] = [];
  private revision = 0;

  /** Stores `obj` as if created (a uid and a resourceVersion are set when missing); returns the stored copy. */
  seed<T extends Child | ConfigSet>(obj: T): T {
    const stored = copy(obj);
    stored.metadata.uid ??= `uid-${stored.metadata.name}`;
    stored.metadata.resourceVersion = String(++this.revision);
    if ("spec" in stored) this.configSets.add(stored as ConfigSet);
    else this.configMaps.add(stored as Child);
    return copy(stored);
  }

  /** A reconcile context that reads from the fake itself (a cache that is never behind). */
  context(): ReconcileContext {
    return { writes: this, configSets: new Lister(this.configSets), children: new Lister(this.configMaps) };
  }

  async createConfigMap(namespace: string, body: Child): Promise<Child> {
    const name = body.metadata.name ?? "";
    this.actions.push(`create ${name}`);
    if (this.configMaps.getByKey(`${namespace}/${name}`))
      throw errors.alreadyExists(target("configmaps", name));
    const created = copy(body);
    created.metadata = { ...created.metadata, namespace, uid: `uid-${name}-${this.revision + 1}` };
    created.metadata.resourceVersion = String(++this.revision);
    this.configMaps.add(created);
    return copy(created);
  }

  async updateConfigMap(namespace: string, body: Child): Promise<Child> {
    const name = body.metadata.name ?? "";
    this.actions.push(`update ${name}`);
    const current = this.configMaps.getByKey(`${namespace}/${name}`);
    if (!current) throw errors.notFound(target("configmaps", name));
    if (body.metadata.resourceVersion !== current.metadata.resourceVersion)
      throw errors.conflict(target("configmaps", name));
    const updated = copy(body);
    updated.metadata.resourceVersion = String(++this.revision);
    this.configMaps.update(updated);
    return copy(updated);
  }

  async deleteConfigMap(namespace: string, name: string): Promise<void> {
    this.actions.push(`delete ${name}`);
    const current = this.configMaps.getByKey(`${namespace}/${name}`);
    if (!current) throw errors.notFound(target("configmaps", name));
    this.configMaps.delete(current);
  }

  async updateFinalizers(configSet: ConfigSet, finalizers: string[]): Promise<ConfigSet> {
    const namespace = configSet.metadata.namespace ?? "";
    const name = configSet.metadata.name ?? "";
    this.actions.push(`finalizers ${name}`);
    const current = this.configSets.getByKey(`${namespace}/${name}`);
    if (!current) throw errors.notFound(target("configsets", name));
    if (configSet.metadata.resourceVersion !== current.metadata.resourceVersion)
      throw errors.conflict(target("configsets", name));
    const updated = copy(current);
    updated.metadata.finalizers = [...finalizers];
    updated.metadata.resourceVersion = String(++this.revision);
    if (updated.metadata.deletionTimestamp && finalizers.length === 0) this.configSets.delete(current);
    else this.configSets.update(updated);
    return copy(updated);
  }
}

const target = (resource: string, name: string) => ({
  group: resource === "configsets" ? "workbook.dev" : "",
  resource,
  name,
});

/** The faults an {@link intercept}ed writer injects; change them at any time. */
export interface Faults {
  /** The next this-many updates (of a ConfigMap or of finalizers) fail with 409 Conflict without being sent. */
  conflicts: number;
  /** Every write waits this long before it is sent (a slow API server), ms. */
  latencyMs: number;
  /** How many 409s were injected so far. */
  injected: number;
}

/**
 * Wraps `inner` (the real API's writes or a {@link FakeWrites}) to inject faults, like controller-runtime's
 * `interceptor.NewClient(c, interceptor.Funcs{...})` or client-go's `fake.PrependReactor("update", ...)`.
 */
export function intercept(inner: ConfigSetWrites): { writes: ConfigSetWrites; faults: Faults } {
  const faults: Faults = { conflicts: 0, latencyMs: 0, injected: 0 };
  const before = async (update: boolean, resource: string, name: string): Promise<void> => {
    if (faults.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, faults.latencyMs));
    if (update && faults.conflicts > 0) {
      faults.conflicts--;
      faults.injected++;
      throw errors.conflict(target(resource, name));
    }
  };
  const writes: ConfigSetWrites = {
    async createConfigMap(namespace, body) {
      await before(false, "configmaps", body.metadata.name ?? "");
      return inner.createConfigMap(namespace, body);
    },
    async updateConfigMap(namespace, body) {
      await before(true, "configmaps", body.metadata.name ?? "");
      return inner.updateConfigMap(namespace, body);
    },
    async deleteConfigMap(namespace, name) {
      await before(false, "configmaps", name);
      return inner.deleteConfigMap(namespace, name);
    },
    async updateFinalizers(configSet, finalizers) {
      await before(true, "configsets", configSet.metadata.name ?? "");
      return inner.updateFinalizers(configSet, finalizers);
    },
  };
  return { writes, faults };
}
