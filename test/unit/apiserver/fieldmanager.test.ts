import { describe, expect, it } from "vitest";
import type { StatusError } from "../../../src/apimachinery/errors.js";
import type { KubeObject } from "../../../src/apimachinery/object.js";
import { applyConfiguration } from "../../../src/control-plane/apiserver/fieldmanager/apply.js";
import { compareObjects } from "../../../src/control-plane/apiserver/fieldmanager/compare.js";
import { applyConflictError } from "../../../src/control-plane/apiserver/fieldmanager/conflicts.js";
import {
  type FieldManagerScope,
  recordUpdate,
} from "../../../src/control-plane/apiserver/fieldmanager/field-manager.js";
import { FieldSet } from "../../../src/control-plane/apiserver/fieldmanager/field-set.js";
import {
  decodeManagedFields,
  ManagedFieldsError,
} from "../../../src/control-plane/apiserver/fieldmanager/managed-fields.js";
import { managerFromUserAgent } from "../../../src/control-plane/apiserver/fieldmanager/manager-name.js";
import { mergeValues } from "../../../src/control-plane/apiserver/fieldmanager/merge.js";
import {
  builtinMergeType,
  crdMergeType,
} from "../../../src/control-plane/apiserver/fieldmanager/merge-schema.js";
import { pathString } from "../../../src/control-plane/apiserver/fieldmanager/path-element.js";
import { toFieldSet } from "../../../src/control-plane/apiserver/fieldmanager/to-field-set.js";

const DEPLOYMENT = builtinMergeType("apps/v1", "Deployment")!;
const CONFIGMAP = builtinMergeType("v1", "ConfigMap")!;

function scope(type = CONFIGMAP, apiVersion = "v1", hasStatus = false): FieldManagerScope {
  return { type, apiVersion, subresource: "", hasStatus, now: "2026-12-02T23:00:00Z" };
}

function thrown(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    return err as StatusError;
  }
  throw new Error("expected a throw");
}

describe("FieldSet", () => {
  it("reads and writes fieldsV1: `.` marks a member with children, keys sort fields, keys, values", () => {
    const json = {
      "f:spec": {
        "f:list": { 'v:"b"': {}, 'v:"a"': {} },
        "f:containers": { 'k:{"name":"x"}': { ".": {}, "f:image": {} } },
        "f:a": {},
      },
    };
    const set = FieldSet.fromFieldsV1(json);
    expect(set.has(["f:spec", "f:a"])).toBe(true);
    expect(set.has(["f:spec"])).toBe(false);
    expect(set.has(["f:spec", "f:containers", 'k:{"name":"x"}'])).toBe(true);
    expect(JSON.stringify(set.toFieldsV1())).toBe(
      JSON.stringify({
        "f:spec": {
          "f:a": {},
          "f:containers": { 'k:{"name":"x"}': { ".": {}, "f:image": {} } },
          "f:list": { 'v:"a"': {}, 'v:"b"': {} },
        },
      }),
    );
  });

  it("canonicalizes key elements (key fields sorted) and rejects what is not a path element", () => {
    const set = FieldSet.fromFieldsV1({ 'k:{"protocol":"TCP","containerPort":80}': {} });
    expect(set.has(['k:{"containerPort":80,"protocol":"TCP"}'])).toBe(true);
    expect(() => FieldSet.fromFieldsV1({ "x:nope": {} })).toThrow();
    expect(() => FieldSet.fromFieldsV1({ "k:{bad": {} })).toThrow();
    expect(() => FieldSet.fromFieldsV1([])).toThrow();
  });

  it("union, difference and intersection work on member paths, not whole subtrees", () => {
    const a = FieldSet.empty().insert(["f:a"]).insert(["f:a", "f:b"]).insert(["f:c"]);
    const b = FieldSet.empty().insert(["f:a", "f:b"]);
    expect(a.difference(b).paths()).toEqual([["f:a"], ["f:c"]]);
    expect(a.intersection(b).paths()).toEqual([["f:a", "f:b"]]);
    expect(b.union(FieldSet.empty().insert(["f:z"])).paths()).toEqual([["f:a", "f:b"], ["f:z"]]);
    expect(a.difference(a).isEmpty()).toBe(true);
  });

  it("prints paths as kube-apiserver's conflict messages do", () => {
    expect(pathString(["f:spec", "f:containers", 'k:{"name":"app"}', "f:image"])).toBe(
      '.spec.containers[name="app"].image',
    );
    expect(pathString(["f:spec", "f:ports", 'k:{"containerPort":80,"protocol":"TCP"}'])).toBe(
      '.spec.ports[containerPort=80,protocol="TCP"]',
    );
    expect(pathString(["f:metadata", "f:finalizers", 'v:"x"'])).toBe('.metadata.finalizers[="x"]');
  });
});

describe("merge schema and field sets of a configuration", () => {
  it("takes list types and keys from the generated k8s.io/api data, with key defaults", () => {
    const set = toFieldSet(
      {
        spec: {
          replicas: 1,
          selector: { matchLabels: { a: "b" } },
          template: { spec: { containers: [{ name: "c", ports: [{ containerPort: 80 }] }] } },
        },
      },
      DEPLOYMENT,
    );
    expect(set.toFieldsV1()).toEqual({
      "f:spec": {
        "f:replicas": {},
        "f:selector": {},
        "f:template": {
          "f:spec": {
            "f:containers": {
              'k:{"name":"c"}': {
                ".": {},
                "f:name": {},
                "f:ports": { 'k:{"containerPort":80,"protocol":"TCP"}': { ".": {}, "f:containerPort": {} } },
              },
            },
          },
        },
      },
    });
  });

  it("a list item without its keys or with a duplicate key cannot be applied", () => {
    expect(() =>
      toFieldSet({ spec: { template: { spec: { containers: [{ image: "x" }] } } } }, DEPLOYMENT),
    ).toThrow(/omits all key fields/);
    expect(() =>
      toFieldSet(
        { spec: { template: { spec: { containers: [{ name: "a" }, { name: "a" }] } } } },
        DEPLOYMENT,
      ),
    ).toThrow(/duplicate entries/);
  });

  it("reads a CRD's x-kubernetes-list-type and map keys; metadata is ObjectMeta's", () => {
    const t = crdMergeType({
      type: "object",
      properties: {
        spec: {
          type: "object",
          properties: {
            items: {
              type: "array",
              "x-kubernetes-list-type": "map",
              "x-kubernetes-list-map-keys": ["id"],
              items: { type: "object", properties: { id: { type: "integer" }, v: { type: "string" } } },
            },
            atomic: { type: "array", items: { type: "string" } },
          },
        },
      },
    } as never);
    const set = toFieldSet(
      { metadata: { labels: { a: "b" } }, spec: { items: [{ id: 1, v: "x" }], atomic: ["p"] } },
      t,
    );
    expect(set.toFieldsV1()).toEqual({
      "f:metadata": { "f:labels": { "f:a": {} } },
      "f:spec": { "f:atomic": {}, "f:items": { 'k:{"id":1}': { ".": {}, "f:id": {}, "f:v": {} } } },
    });
  });

  it("compares typed objects: a non-pointer struct is present when its parent is, a new map is added whole", () => {
    const c = compareObjects(
      { metadata: {} },
      { metadata: { labels: { a: "b" } }, spec: { strategy: { type: "Recreate" } } },
      DEPLOYMENT,
    );
    expect(c.changed.toFieldsV1()).toEqual({
      "f:metadata": { "f:labels": { ".": {}, "f:a": {} } },
      "f:spec": { "f:strategy": { "f:type": {} } },
    });
  });

  it("merges list-type maps by key, keeping the configuration's order for the items it names", () => {
    const t = builtinMergeType("v1", "Pod")!;
    const live = {
      spec: { containers: [{ name: "a", image: "1" }, { name: "b", image: "1" }, { name: "x" }] },
    };
    const merged = mergeValues(
      live,
      { spec: { containers: [{ name: "b", image: "2" }, { name: "a" }] } },
      t,
    ) as KubeObject;
    expect((merged.spec as { containers: unknown[] }).containers).toEqual([
      { name: "b", image: "2" },
      { name: "x" },
      { name: "a", image: "1" },
    ]);
  });
});

describe("managedFields", () => {
  it("decoding refuses bad operations, empty apiVersions and other fieldsTypes", () => {
    const entry = {
      manager: "m",
      operation: "Update",
      apiVersion: "v1",
      fieldsType: "FieldsV1",
      fieldsV1: {},
    };
    expect(decodeManagedFields([entry]).size).toBe(1);
    for (const bad of [{ operation: "Bogus" }, { apiVersion: "" }, { fieldsType: "FieldsV2" }]) {
      expect(() => decodeManagedFields([{ ...entry, ...bad }])).toThrow(ManagedFieldsError);
    }
  });

  it("an update takes the fields it changes from their owner; an empty manager is `unknown`", () => {
    const live: KubeObject = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "c" },
      data: { a: "1", b: "2" },
    };
    recordUpdate(undefined, live, "creator", scope());
    const next: KubeObject = { ...live, data: { a: "9", b: "2" } };
    recordUpdate(live, next, "", scope());
    expect(next.metadata?.managedFields?.map((e: any) => [e.manager, e.fieldsV1])).toEqual([
      ["creator", { "f:data": { ".": {}, "f:b": {} } }],
      ["unknown", { "f:data": { "f:a": {} } }],
    ]);
  });

  it("the manager of a write without fieldManager is the User-Agent's first token", () => {
    expect(managerFromUserAgent("kubectl/v1.34.0 (linux/amd64) kubernetes/abc")).toBe("kubectl");
    expect(managerFromUserAgent("main\u0007/v0")).toBe("main");
    expect(managerFromUserAgent(undefined)).toBe("");
    expect(managerFromUserAgent("x".repeat(200))).toHaveLength(128);
  });

  it("more than ten Update managers: the oldest are merged into ancient-changes", () => {
    let obj: KubeObject = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c" }, data: {} };
    recordUpdate(undefined, obj, "m0", scope());
    for (let i = 1; i <= 11; i++) {
      const next: KubeObject = { ...obj, data: { ...(obj.data as object), [`k${i}`]: "v" } };
      recordUpdate(obj, next, `m${i}`, {
        ...scope(),
        now: `2026-12-02T23:00:${String(i).padStart(2, "0")}Z`,
      });
      obj = next;
    }
    const managers = obj.metadata?.managedFields?.map((e: any) => e.manager) ?? [];
    expect(managers).toHaveLength(10);
    expect(managers).toContain("ancient-changes");
  });
});

describe("apply", () => {
  const cm = (data: Record<string, string>) => ({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "c" },
    data,
  });
  const run = (
    live: KubeObject | undefined,
    config: Record<string, unknown>,
    manager: string,
    force = false,
  ) => applyConfiguration({ live, config, manager, force, scope: scope(), kind: "ConfigMap" });

  it("conflicts name the owner and the field; force moves the field; a dropped field is removed", () => {
    const first = run(undefined, cm({ a: "1", b: "2" }), "one");
    const err = thrown(() => run(first, cm({ a: "2" }), "two"));
    expect(err.status.code).toBe(409);
    expect(err.status.message).toBe('Apply failed with 1 conflict: conflict with "one": .data.a');
    const forced = run(first, cm({ a: "2" }), "two", true);
    expect(forced.data).toEqual({ a: "2", b: "2" });
    const { data: _, ...withoutData } = cm({});
    const dropped = run(forced, withoutData, "one");
    expect(dropped.data).toEqual({ a: "2" });
    expect(dropped.metadata?.managedFields?.map((e: any) => e.manager)).toEqual(["two"]);
  });

  it("an apply to an object nobody tracked credits its fields to before-first-apply", () => {
    const live: KubeObject = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "c" },
      data: { a: "1" },
    };
    const err = thrown(() => run(live, cm({ a: "2" }), "one"));
    expect(err.status.message).toBe(
      'Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.a',
    );
  });

  it("several conflicts are grouped by manager, each with its own cause", () => {
    const e = applyConflictError([
      {
        id: "a",
        owner: { manager: "x", operation: "Apply", apiVersion: "v1", fields: FieldSet.empty() },
        path: ".a",
      },
      {
        id: "a",
        owner: { manager: "x", operation: "Apply", apiVersion: "v1", fields: FieldSet.empty() },
        path: ".b",
      },
      {
        id: "b",
        owner: {
          manager: "y",
          operation: "Update",
          apiVersion: "v1",
          subresource: "status",
          fields: FieldSet.empty(),
        },
        path: ".status.c",
      },
    ]);
    expect(e.status.message).toBe(
      'Apply failed with 3 conflicts: conflicts with "x":\n- .a\n- .b\nconflicts with "y" with subresource "status" using v1:\n- .status.c',
    );
    expect(e.status.details?.causes).toHaveLength(3);
  });
});
