/**
 * Decoding with the generated schemas: every served kind and the meta types under any group version, Go's
 * encoding/json rules per field (omitempty, pointers, nil slices, inlined structs, omitzero), and the types with
 * their own JSON form (Time, Duration, FieldsV1, RawExtension, the JSON schema unions of a CRD).
 */
import { describe, expect, it } from "vitest";
import { GENERATED_MESSAGE_FLAGS } from "../../../src/control-plane/apiserver/schema/generated/kubernetes-schemas.js";
import {
  CUSTOM_JSON_MESSAGES,
  decodeKubernetesProtobuf,
  goDurationString,
  knownKinds,
} from "../../../src/control-plane/apiserver/serializer/protobuf/index.js";
import { bfield, entry, envelope, fields, key, sfield, varint, vfield } from "../../support/proto-encoder.js";

const decode = (apiVersion: string, kind: string, raw: Uint8Array) =>
  decodeKubernetesProtobuf(envelope(apiVersion, kind, raw));

/** A fixed64 field holding a double. */
function dfield(field: number, value: number): Uint8Array {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(value);
  return fields(key(field, 1), Uint8Array.from(b));
}

describe("the table covers what clients send", () => {
  it("knows the common kinds and renders every message with its own MarshalJSON", () => {
    const kinds = knownKinds();
    for (const k of ["v1/ServiceAccount", "batch/v1/Job", "rbac.authorization.k8s.io/v1/ClusterRole"]) {
      expect(kinds).toContain(k);
    }
    const custom = Object.entries(GENERATED_MESSAGE_FLAGS)
      .filter(([, flags]) => flags.split(" ").includes("customJSON"))
      .map(([name]) => name);
    expect(custom.sort()).toEqual([...CUSTOM_JSON_MESSAGES].sort());
  });

  it("DeleteOptions under any group version (what every typed Delete sends)", () => {
    const options = fields(
      vfield(1, 0),
      bfield(2, fields(sfield(1, "uid-1"))),
      sfield(4, "Foreground"),
      sfield(5, "All"),
    );
    for (const apiVersion of ["v1", "apps/v1", "batch/v1"]) {
      expect(decode(apiVersion, "DeleteOptions", options)).toStrictEqual({
        apiVersion,
        kind: "DeleteOptions",
        gracePeriodSeconds: 0,
        preconditions: { uid: "uid-1" },
        propagationPolicy: "Foreground",
        dryRun: ["All"],
      });
    }
  });
});

describe("Go's encoding/json rules", () => {
  it("a struct field without omitempty, a nil slice without omitempty, and a pointer's zero", () => {
    // ClusterRole: rules has no omitempty (nil -> null); aggregationRule is a pointer (absent -> left out).
    expect(decode("rbac.authorization.k8s.io/v1", "ClusterRole", bfield(1, sfield(1, "r")))).toStrictEqual({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRole",
      metadata: { name: "r" },
      rules: null,
    });
    // Job.spec.parallelism is a pointer: an explicit 0 is kept; template is a struct: always there.
    const job = decode("batch/v1", "Job", bfield(2, vfield(1, 0)));
    expect(job.spec).toStrictEqual({
      parallelism: 0,
      template: { metadata: {}, spec: { containers: null } },
    });
  });

  it("an inlined struct's fields join the parent (Volume's VolumeSource)", () => {
    const volume = fields(sfield(1, "data"), bfield(2, bfield(2, fields(sfield(1, "Memory")))));
    const pod = decode("v1", "Pod", bfield(2, fields(bfield(1, volume))));
    expect((pod.spec as { volumes: unknown[] }).volumes).toStrictEqual([
      { name: "data", emptyDir: { medium: "Memory" } },
    ]);
  });

  it("managedFields: FieldsV1 raw JSON and Time", () => {
    const entryBytes = fields(
      sfield(1, "kubectl"),
      sfield(2, "Update"),
      sfield(3, "v1"),
      bfield(4, fields(vfield(1, 1_700_000_000))),
      sfield(6, "FieldsV1"),
      bfield(7, bfield(1, Uint8Array.from(Buffer.from('{"f:data":{"f:a":{}}}')))),
    );
    const cm = decode("v1", "ConfigMap", bfield(1, fields(sfield(1, "c"), bfield(17, entryBytes))));
    expect((cm.metadata as { managedFields: unknown }).managedFields).toStrictEqual([
      {
        manager: "kubectl",
        operation: "Update",
        apiVersion: "v1",
        time: "2023-11-14T22:13:20Z",
        fieldsType: "FieldsV1",
        fieldsV1: { "f:data": { "f:a": {} } },
      },
    ]);
  });

  it("a raw JSON field that does not parse is 400", () => {
    const entryBytes = fields(sfield(1, "m"), bfield(7, bfield(1, Uint8Array.from(Buffer.from("{nope")))));
    expect(() => decode("v1", "ConfigMap", bfield(1, bfield(17, entryBytes)))).toThrow(/does not parse/);
  });

  it("a raw JSON field nested past 1,000 levels is 400 before it is parsed", () => {
    const raw = (levels: number) => Buffer.from(`${"[".repeat(levels)}${"]".repeat(levels)}`);
    const entryBytes = (levels: number) =>
      fields(sfield(1, "m"), bfield(7, bfield(1, Uint8Array.from(raw(levels)))));
    const cm = (levels: number) => decode("v1", "ConfigMap", bfield(1, bfield(17, entryBytes(levels))));
    expect(() => cm(1_000)).not.toThrow();
    expect(() => cm(1_001)).toThrow(/nested deeper than 1000 levels/);
    expect(() => cm(1_000_000)).toThrow(/nested deeper than 1000 levels/);
  });

  it("repeated numbers arrive packed or one by one", () => {
    // Job.spec.podFailurePolicy.rules[].onExitCodes.values is a repeated int32.
    const onExitCodes = (values: Uint8Array) => bfield(2, fields(sfield(2, "In"), values));
    const rule = (values: Uint8Array) => bfield(1, fields(sfield(1, "FailJob"), onExitCodes(values)));
    const job = (values: Uint8Array) => decode("batch/v1", "Job", bfield(2, bfield(11, rule(values))));
    const packed = bfield(3, fields(varint(1), varint(42)));
    const oneByOne = fields(vfield(3, 1), vfield(3, 42));
    const values = (j: Record<string, unknown>) =>
      (j.spec as { podFailurePolicy: { rules: { onExitCodes: { values: number[] } }[] } }).podFailurePolicy
        .rules[0]?.onExitCodes.values;
    expect(values(job(packed))).toEqual([1, 42]);
    expect(values(job(oneByOne))).toEqual([1, 42]);
  });
});

describe("a CustomResourceDefinition (the typed apiextensions clientset)", () => {
  it("decodes a structural schema: properties maps, doubles, bool-or-schema, items and JSON defaults", () => {
    const prop = (type: string, ...extra: Uint8Array[]) => fields(sfield(5, type), ...extra);
    const sizeSchema = prop(
      "integer",
      dfield(9, 10),
      dfield(11, 0.5),
      bfield(8, bfield(1, Uint8Array.from(Buffer.from("3")))),
    );
    const tags = prop("array", bfield(24, bfield(1, prop("string"))));
    const spec = prop(
      "object",
      bfield(29, fields(sfield(1, "size"), bfield(2, sizeSchema))),
      bfield(29, fields(sfield(1, "tags"), bfield(2, tags))),
      bfield(30, vfield(1, true)),
      sfield(42, "map"),
      sfield(41, "name"),
    );
    const version = fields(
      sfield(1, "v1"),
      vfield(2, true),
      vfield(3, true),
      bfield(4, bfield(1, prop("object", bfield(29, fields(sfield(1, "spec"), bfield(2, spec)))))),
    );
    const crdSpec = fields(
      sfield(1, "example.com"),
      bfield(
        3,
        fields(sfield(1, "widgets"), sfield(2, "widget"), sfield(4, "Widget"), sfield(5, "WidgetList")),
      ),
      sfield(4, "Namespaced"),
      bfield(7, version),
    );
    const crd = decode(
      "apiextensions.k8s.io/v1",
      "CustomResourceDefinition",
      fields(bfield(1, sfield(1, "widgets.example.com")), bfield(2, crdSpec)),
    );
    const versions = (crd.spec as { versions: { schema: { openAPIV3Schema: unknown } }[] }).versions;
    expect(versions[0]?.schema.openAPIV3Schema).toStrictEqual({
      type: "object",
      properties: {
        spec: {
          type: "object",
          properties: {
            size: { type: "integer", default: 3, maximum: 10, minimum: 0.5 },
            tags: { type: "array", items: { type: "string" } },
          },
          additionalProperties: true,
          "x-kubernetes-list-map-keys": ["name"],
          "x-kubernetes-list-type": "map",
        },
      },
    });
    expect(crd.spec).toMatchObject({
      group: "example.com",
      scope: "Namespaced",
      names: { plural: "widgets" },
    });
  });
});

describe("Go's time.Duration.String (metav1.Duration)", () => {
  it.each([
    [0n, "0s"],
    [999n, "999ns"],
    [1_500n, "1.5µs"],
    [2_000_000n, "2ms"],
    [1_500_000_000n, "1.5s"],
    [90_000_000_000n, "1m30s"],
    [3_600_000_000_000n, "1h0m0s"],
    [-5_000_000_000n, "-5s"],
  ])("%s ns is %s", (ns, text) => {
    expect(goDurationString(ns)).toBe(text);
  });
});

it("keeps map keys named __proto__ as data", () => {
  const cm = decode("v1", "ConfigMap", fields(bfield(1, sfield(1, "c")), entry(2, "__proto__", "x")));
  expect(Object.getPrototypeOf(cm.data)).toBe(Object.prototype);
  expect(Object.keys(cm.data as object)).toEqual(["__proto__"]);
});
