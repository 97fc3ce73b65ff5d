// THROWAWAY: a tiny in-memory ApiBackend until src/apiserver/backend.ts lands. Delete afterwards.
import { alreadyExists, conflict, expired, notFound } from "../../../src/apiserver/errors.js";
import type {
  ApiBackend,
  KubeList,
  KubeObject,
  ResourceType,
  WatchEvent,
  WatchSink,
} from "../../../src/apiserver/types.js";

const VERBS = ["get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"];
const TYPES: ResourceType[] = [
  {
    group: "",
    version: "v1",
    resource: "namespaces",
    kind: "Namespace",
    listKind: "NamespaceList",
    singular: "namespace",
    namespaced: false,
    shortNames: ["ns"],
    subresources: ["status", "finalize"],
    verbs: VERBS,
  },
  {
    group: "",
    version: "v1",
    resource: "configmaps",
    kind: "ConfigMap",
    listKind: "ConfigMapList",
    singular: "configmap",
    namespaced: true,
    shortNames: ["cm"],
    subresources: [],
    verbs: VERBS,
  },
];

export function stubBackend(): ApiBackend {
  let rev = 1;
  let compactedAt = 0;
  const objs = new Map<string, KubeObject>();
  const watchers = new Set<{ rt: ResourceType; ns?: string; sink: WatchSink }>();
  const key = (rt: ResourceType, ns: string | undefined, name: string) =>
    `${rt.resource}/${ns ?? ""}/${name}`;
  const emit = (rt: ResourceType, type: WatchEvent["type"], obj: KubeObject) => {
    const line = `${JSON.stringify({ type, object: obj })}\n`;
    for (const w of watchers)
      if (w.rt === rt && (!w.ns || w.ns === obj.metadata?.namespace))
        w.sink.event({ type, object: obj, line: () => line });
  };
  return {
    resourceTypes: () => TYPES,
    findResource: (g, v, r) => TYPES.find((t) => t.group === g && t.version === v && t.resource === r),
    onResourcesChanged: () => () => {},
    get(rt, ns, name) {
      const o = objs.get(key(rt, ns, name));
      if (!o) throw notFound({ group: rt.group, resource: rt.resource, name });
      return o;
    },
    list(rt, ns): KubeList {
      const items = [...objs.values()].filter(
        (o) => o.kind === rt.kind && (!ns || o.metadata?.namespace === ns),
      );
      return { apiVersion: "v1", kind: rt.listKind, metadata: { resourceVersion: String(rev) }, items };
    },
    watch(rt, ns, opts, sink) {
      if (opts.resourceVersion && Number(opts.resourceVersion) < compactedAt) {
        sink.event({
          type: "ERROR",
          object: expired("too old resource version").status as never,
          line: () => `${JSON.stringify({ type: "ERROR", object: expired("too old").status })}\n`,
        });
        sink.close();
        return { stop() {} };
      }
      const w = { rt, ns, sink };
      watchers.add(w);
      return { stop: () => watchers.delete(w) };
    },
    create(rt, ns, body) {
      const o = structuredClone(body) as KubeObject;
      const name = o.metadata?.name ?? "";
      if (objs.has(key(rt, ns, name))) throw alreadyExists({ group: rt.group, resource: rt.resource, name });
      o.metadata = { ...o.metadata, namespace: ns, resourceVersion: String(++rev), uid: `uid-${rev}` };
      objs.set(key(rt, ns, name), o);
      emit(rt, "ADDED", o);
      return o;
    },
    update(rt, ns, name, body) {
      const old = this.get(rt, ns, name);
      const o = structuredClone(body) as KubeObject;
      if (o.metadata?.resourceVersion && o.metadata.resourceVersion !== old.metadata?.resourceVersion)
        throw conflict({ group: rt.group, resource: rt.resource, name });
      o.metadata = { ...o.metadata, namespace: ns, resourceVersion: String(++rev) };
      objs.set(key(rt, ns, name), o);
      emit(rt, "MODIFIED", o);
      return o;
    },
    patch(rt, ns, name, _t, patch) {
      const old = this.get(rt, ns, name);
      return this.update(rt, ns, name, {
        ...old,
        ...(patch as object),
        metadata: { ...old.metadata, resourceVersion: undefined },
      });
    },
    delete(rt, ns, name) {
      const o = this.get(rt, ns, name);
      objs.delete(key(rt, ns, name));
      emit(rt, "DELETED", o);
      return o;
    },
    deleteCollection(rt, ns, l) {
      const list = this.list(rt, ns, l);
      for (const o of list.items) this.delete(rt, ns, o.metadata?.name ?? "");
      return list;
    },
    currentRevision: () => rev,
    compactHistory: () => {
      compactedAt = rev;
    },
  };
}
