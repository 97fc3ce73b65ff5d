import { StatusError } from "../../../src/apimachinery/errors.js";
import type { KubeObject } from "../../../src/apimachinery/object.js";
import { FakeClock } from "../../../src/clock/fake-clock.js";
import { type Backend, createBackend } from "../../../src/control-plane/apiserver/backend.js";
import type { ResourceType, WatchEvent, WatchSink } from "../../../src/control-plane/apiserver/types.js";

/** A backend on a fake clock with a seeded random source, plus shortcuts to its resource types. */
export function setup(options: { historySize?: number; bookmarkIntervalMs?: number } = {}) {
  const clock = new FakeClock();
  let seed = 42;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const backend: Backend = createBackend({ clock, random, ...options });
  const rt = (group: string, version: string, resource: string): ResourceType => {
    const t = backend.findResource(group, version, resource);
    if (!t) throw new Error(`not served: ${group}/${version}/${resource}`);
    return t;
  };
  return {
    clock,
    backend,
    rt,
    cm: rt("", "v1", "configmaps"),
    ns: rt("", "v1", "namespaces"),
    secrets: rt("", "v1", "secrets"),
    pods: rt("", "v1", "pods"),
    leases: rt("coordination.k8s.io", "v1", "leases"),
    deployments: rt("apps", "v1", "deployments"),
    crds: rt("apiextensions.k8s.io", "v1", "customresourcedefinitions"),
  };
}

/** A ConfigMap body. */
export function configMap(
  name: string,
  data: Record<string, string> = {},
  labels?: Record<string, string>,
): KubeObject {
  return { apiVersion: "v1", kind: "ConfigMap", metadata: { name, ...(labels ? { labels } : {}) }, data };
}

/** Runs `fn` and returns the StatusError it throws (fails the test if it does not throw one). */
export function apiError(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw new Error(`expected an StatusError, got ${String(err)}`);
  }
  throw new Error("expected an StatusError, but the call succeeded");
}

/** A WatchSink recording events and whether it was closed. */
export function recorder(): WatchSink & { events: WatchEvent[]; closed: boolean; summary(): string[] } {
  const sink = {
    events: [] as WatchEvent[],
    closed: false,
    event(ev: WatchEvent) {
      sink.events.push(ev);
    },
    close() {
      sink.closed = true;
    },
    summary(): string[] {
      return sink.events.map(
        (e) => `${e.type} ${e.object.metadata?.name ?? ""}@${e.object.metadata?.resourceVersion}`,
      );
    },
  };
  return sink;
}

/** A CRD body for `widgets.example.com` (kind Widget), optionally with a status subresource and a schema. */
export function widgetCrd(
  options: { scope?: "Namespaced" | "Cluster"; status?: boolean; schema?: unknown } = {},
) {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.example.com" },
    spec: {
      group: "example.com",
      scope: options.scope ?? "Namespaced",
      names: { plural: "widgets", singular: "widget", kind: "Widget", shortNames: ["wd"] },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          ...(options.schema ? { schema: { openAPIV3Schema: options.schema } } : {}),
          ...(options.status ? { subresources: { status: {} } } : {}),
        },
      ],
    },
  };
}
