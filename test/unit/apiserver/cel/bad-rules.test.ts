/** CRDs with malformed x-kubernetes-validations never crash the server: each write is refused with a Status. */
import { describe, expect, it } from "vitest";
import { apiError, setup } from "../helpers.js";

function crdWith(validations: unknown) {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "things.bad.example.com" },
    spec: {
      group: "bad.example.com",
      scope: "Namespaced",
      names: { plural: "things", kind: "Thing" },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: "object",
              properties: { spec: { type: "object", "x-kubernetes-validations": validations } },
            },
          },
        },
      ],
    },
  };
}

describe("malformed validation rules", () => {
  it.each([
    ["a number as rule", [{ rule: 5 }], 400],
    ["a string entry", ["self > 0"], 400],
    ["not a list", { rule: "true" }, 400],
    ["a number as message", [{ rule: "true", message: 3 }], 400],
    ["a null entry (an empty rule, as Go decodes it)", [null], 422],
    ["a deeply nested rule", [{ rule: `${"(".repeat(5000)}true${")".repeat(5000)}` }], 422],
  ])("%s is refused with a Status, not a crash", (_name, validations, code) => {
    const { backend, crds } = setup();
    const err = apiError(() => backend.create(crds, undefined, crdWith(validations)));
    expect(err.status.code).toBe(code);
  });
});

describe("where a CRD's rule errors are reported", () => {
  const schema = (rule: string) => ({
    openAPIV3Schema: {
      type: "object",
      properties: {
        spec: {
          type: "object",
          properties: { a: { type: "integer" } },
          "x-kubernetes-validations": [{ rule }],
        },
      },
    },
  });
  const crd = (rules: string[]) => {
    const base = crdWith([]);
    base.spec.versions = rules.map((rule, i) => ({
      name: `v${i + 1}`,
      served: true,
      storage: i === 0,
      schema: schema(rule) as never,
    }));
    return base;
  };

  it("at spec.validation when every version has the same schema, at spec.versions[i] otherwise", () => {
    const { backend, crds } = setup();
    const shared = apiError(() => backend.create(crds, undefined, crd(["self.b > 0", "self.b > 0"])));
    expect(shared.status.details?.causes?.map((c) => c.field)).toEqual([
      "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule",
    ]);
    const distinct = apiError(() => backend.create(crds, undefined, crd(["self.a > 0", "self.b > 0"])));
    expect(distinct.status.details?.causes?.map((c) => c.field)).toEqual([
      "spec.versions[1].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule",
    ]);
  });
});
