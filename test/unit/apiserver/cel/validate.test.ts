/** CRD validation rules (`x-kubernetes-validations`) evaluated as apiextensions-apiserver's cel.Validator does. */
import { describe, expect, it } from "vitest";
import { validateSchemaRules } from "../../../../src/control-plane/apiserver/validation/cel/crd-rules.js";
import { RuleValidator } from "../../../../src/control-plane/apiserver/validation/cel/validate.js";
import { FieldErrors } from "../../../../src/control-plane/apiserver/validation/field-errors.js";
import type { SchemaProps } from "../../../../src/control-plane/apiserver/validation/openapi-schema.js";

const schema: SchemaProps = {
  type: "object",
  "x-kubernetes-validations": [
    { rule: "self.metadata.name.startsWith('w')", message: "name must start with w" },
  ],
  properties: {
    spec: {
      type: "object",
      "x-kubernetes-validations": [
        {
          rule: "self.min <= self.max",
          messageExpression: "'min ' + string(self.min) + ' > max ' + string(self.max)",
        },
        { rule: "self.mode == oldSelf.mode", message: "mode is immutable", reason: "FieldValueForbidden" },
        { rule: "!has(self.legacy)", reason: "FieldValueRequired", fieldPath: ".legacy" },
      ],
      properties: {
        min: { type: "integer" },
        max: { type: "integer" },
        mode: { type: "string" },
        legacy: { type: "string" },
        ratio: { type: "number", "x-kubernetes-validations": [{ rule: "self < 1.0" }] },
        when: {
          type: "string",
          format: "date-time",
          "x-kubernetes-validations": [{ rule: "self > timestamp('2020-01-01T00:00:00Z')" }],
        },
        timeout: {
          type: "string",
          format: "duration",
          "x-kubernetes-validations": [{ rule: "self <= duration('1h')" }],
        },
        port: {
          "x-kubernetes-int-or-string": true,
          "x-kubernetes-validations": [{ rule: "type(self) == int ? self > 0 : self.endsWith('%')" }],
        },
        tags: {
          type: "array",
          items: { type: "string" },
          "x-kubernetes-validations": [
            { rule: "self.isSorted()", message: "tags must be sorted" },
            { rule: "self.all(t, t.lowerAscii() == t)" },
          ],
        },
        ports: {
          type: "array",
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["name"],
          items: {
            type: "object",
            properties: { name: { type: "string" }, number: { type: "integer" } },
            "x-kubernetes-validations": [
              { rule: "self.number >= oldSelf.number", message: "port numbers only grow" },
            ],
          },
        },
        labels: {
          type: "object",
          additionalProperties: { type: "string", "x-kubernetes-validations": [{ rule: "size(self) < 5" }] },
        },
        extra: {
          type: "object",
          "x-kubernetes-preserve-unknown-fields": true,
          "x-kubernetes-validations": [{ rule: "self.n == 1" }],
        },
      },
    },
  },
};

const validator = new RuleValidator(schema);

function causes(obj: unknown, old?: unknown) {
  const errs = new FieldErrors();
  validator.validate(obj, old, errs);
  return errs.causes;
}

function widget(spec: Record<string, unknown>, name = "w1") {
  return { apiVersion: "x.example.com/v1", kind: "Widget", metadata: { name, uid: "u" }, spec };
}

describe("CEL validation rules", () => {
  it("passes a valid object and reports nothing", () => {
    expect(causes(widget({ min: 1, max: 2, mode: "a", tags: ["a", "b"], port: 80 }))).toEqual([]);
  });

  it("reports a failed rule at its node, with message, messageExpression, default message and reasons", () => {
    expect(causes(widget({ min: 3, max: 2, legacy: "x" }, "x1"))).toEqual([
      {
        reason: "FieldValueInvalid",
        field: "<nil>",
        message: 'Invalid value: "object": name must start with w',
      },
      { reason: "FieldValueInvalid", field: "spec", message: 'Invalid value: "object": min 3 > max 2' },
      {
        reason: "FieldValueRequired",
        field: "spec.legacy",
        message: "Required value: failed rule: !has(self.legacy)",
      },
    ]);
  });

  it("types values from the schema: double, timestamp, duration, int-or-string, lists, maps, dyn", () => {
    const bad = causes(
      widget({
        min: 1,
        max: 1,
        ratio: 1.5,
        when: "2019-01-01T00:00:00Z",
        timeout: "2h",
        port: "50",
        tags: ["b", "A"],
        labels: { k: "toolong" },
        extra: { n: 2 },
      }),
    );
    expect(bad.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'spec.ratio: Invalid value: "number": failed rule: self < 1.0',
      "spec.when: Invalid value: \"string\": failed rule: self > timestamp('2020-01-01T00:00:00Z')",
      "spec.timeout: Invalid value: \"string\": failed rule: self <= duration('1h')",
      "spec.port: Invalid value: \"\": failed rule: type(self) == int ? self > 0 : self.endsWith('%')",
      'spec.tags: Invalid value: "array": tags must be sorted',
      'spec.tags: Invalid value: "array": failed rule: self.all(t, t.lowerAscii() == t)',
      'spec.labels[k]: Invalid value: "string": failed rule: size(self) < 5',
      'spec.extra: Invalid value: "object": failed rule: self.n == 1',
    ]);
  });

  it("runs transition rules only on update, correlating map-list items by key", () => {
    const old = widget({ min: 1, max: 2, mode: "a", ports: [{ name: "http", number: 80 }] });
    expect(causes(widget({ min: 1, max: 2, mode: "b", ports: [{ name: "http", number: 80 }] }))).toEqual([]);
    expect(
      causes(
        widget({
          min: 1,
          max: 2,
          mode: "b",
          ports: [
            { name: "new", number: 1 },
            { name: "http", number: 79 },
          ],
        }),
        old,
      ),
    ).toEqual([
      { reason: "FieldValueForbidden", field: "spec", message: "Forbidden: mode is immutable" },
      {
        reason: "FieldValueInvalid",
        field: "spec.ports[1]",
        message: 'Invalid value: "object": port numbers only grow',
      },
    ]);
  });

  it("ratchets: an unchanged invalid value does not fail an update of another field", () => {
    const old = widget({ min: 1, max: 2, mode: "a", ratio: 5 });
    const warnings: string[] = [];
    const errs = new FieldErrors();
    validator.validate(
      widget({ min: 1, max: 2, mode: "a", ratio: 5, legacy: undefined }),
      old,
      errs,
      warnings,
    );
    expect([errs.causes, warnings]).toEqual([
      [],
      ['spec.ratio: Invalid value: "number": failed rule: self < 1.0'],
    ]);
    expect(causes(widget({ min: 1, max: 2, mode: "a", ratio: 6 }), old).map((c) => c.field)).toEqual([
      "spec.ratio",
    ]);
  });

  it("turns evaluation errors into causes: no such key, division by zero", () => {
    const v = new RuleValidator({
      type: "object",
      properties: {
        spec: {
          type: "object",
          properties: { a: { type: "integer" }, b: { type: "integer" } },
          "x-kubernetes-validations": [{ rule: "self.a > 0" }, { rule: "self.b / 0 == 1", message: "never" }],
        },
      },
    });
    const errs = new FieldErrors();
    v.validate({ spec: { b: 1 } }, undefined, errs);
    expect(errs.causes.map((c) => c.message)).toEqual([
      'Invalid value: "object": no such key: a evaluating rule: self.a > 0',
      'Invalid value: "object": division by zero evaluating rule: never',
    ]);
  });

  it("falls back to message (or the default) when messageExpression fails or is blank", () => {
    const v = new RuleValidator({
      type: "object",
      properties: {
        spec: {
          type: "object",
          "x-kubernetes-preserve-unknown-fields": true,
          "x-kubernetes-validations": [
            { rule: "false", message: "fallback", messageExpression: "'  '" },
            { rule: "false", messageExpression: "self.missing" },
            { rule: "false", messageExpression: "' trimmed '" },
          ],
        },
      },
    });
    const errs = new FieldErrors();
    v.validate({ spec: {} }, undefined, errs);
    expect(errs.causes.map((c) => c.message)).toEqual([
      'Invalid value: "object": fallback',
      'Invalid value: "object": failed rule: false',
      'Invalid value: "object": trimmed',
    ]);
  });

  it("reports a runtime overload error on a dyn value (int-or-string) in kube's words", () => {
    const v = new RuleValidator({
      type: "object",
      properties: {
        w: { "x-kubernetes-int-or-string": true, "x-kubernetes-validations": [{ rule: "self >= 0" }] },
      },
    });
    const errs = new FieldErrors();
    v.validate({ w: "heavy" }, undefined, errs);
    expect(errs.causes).toEqual([
      {
        reason: "FieldValueInvalid",
        field: "w",
        message:
          "Invalid value: \"\": 'no such overload': call arguments did not match a supported operator, function or macro signature for rule: self >= 0",
      },
    ]);
  });

  it("stops a rule that runs past the per-call cost limit instead of hanging", () => {
    const v = new RuleValidator({
      type: "object",
      properties: {
        spec: {
          type: "object",
          properties: { l: { type: "array", items: { type: "integer" } } },
          "x-kubernetes-validations": [
            { rule: "self.l.all(a, self.l.all(b, self.l.all(c, a + b + c >= 0)))" },
            { rule: "false", message: "not reached" },
          ],
        },
      },
    });
    const errs = new FieldErrors();
    const started = Date.now();
    v.validate({ spec: { l: Array.from({ length: 200 }, (_, i) => i) } }, undefined, errs);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(errs.causes.map((c) => c.message)).toEqual([
      "Invalid value: \"object\": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.l.all(a, self.l.all(b, self.l.all(c, a + b + c >= 0)))",
    ]);
  });
});

describe("CRD rule checks", () => {
  function check(s: SchemaProps) {
    const errs = new FieldErrors();
    validateSchemaRules(s, "spec.validation.openAPIV3Schema", errs);
    return errs.causes.map((c) => `${c.field}: ${c.message}`);
  }

  it("refuses rules that do not parse, name undeclared fields or functions, or are not bool", () => {
    const out = check({
      type: "object",
      properties: {
        spec: {
          type: "object",
          properties: { a: { type: "integer" } },
          "x-kubernetes-validations": [
            { rule: "self.a ==" },
            { rule: "self.nosuch > 0" },
            { rule: "self.a.frob()" },
            { rule: "self.a + 1" },
            { rule: "self.a > 0" },
          ],
        },
      },
    });
    expect(out).toHaveLength(4);
    const at = "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations";
    expect(out[0]).toMatch(
      new RegExp(
        `^${at.replace(/[[\]().]/g, "\\$&")}\\[0\\]\\.rule: Invalid value: \\{"Rule":"self\\.a ==".*compilation failed: ERROR: <input>:1:`,
      ),
    );
    expect(out[1]).toContain(
      "compilation failed: ERROR: <input>:1:5: undefined field 'nosuch'\n | self.nosuch > 0\n | ....^",
    );
    expect(out[2]).toContain("undeclared reference to 'frob' (in container '')");
    expect(out[3]).toContain('[3].rule: Invalid value: {"Rule":"self.a + 1"');
    expect(out[3]).toMatch(/: cel expression must evaluate to a bool$/);
  });

  it("refuses operators on statically mismatched types with cel-go's overload message", () => {
    const out = check({
      type: "object",
      properties: {
        spec: {
          type: "object",
          properties: { a: { type: "integer" }, t: { type: "string", format: "date-time" } },
          "x-kubernetes-validations": [
            { rule: "self.a + 'x' == 'y'" },
            { rule: "self.a < 1.5 && self.t - self.t < duration('1s') && -self.a < 0" },
            { rule: "self.t < 1" },
            { rule: "self.a == 1.0 || has(self.zz)" },
          ],
        },
      },
    });
    expect(out).toHaveLength(3);
    expect(out[2]).toContain(
      "ERROR: <input>:1:8: found no matching overload for '_==_' applied to '(int, double)'\n | self.a == 1.0 || has(self.zz)\n | .......^\nERROR: <input>:1:21: undefined field 'zz'",
    );
    expect(out[0]).toContain("[0].rule: Invalid value: {\"Rule\":\"self.a + 'x' == 'y'\"");
    expect(out[0]).toContain(
      "compilation failed: ERROR: <input>:1:8: found no matching overload for '_+_' applied to '(int, string)'",
    );
    expect(out[1]).toContain(
      "found no matching overload for '_<_' applied to '(google.protobuf.Timestamp, int)'",
    );
  });

  it("checks message, reason, fieldPath and oldSelf placement", () => {
    const out = check({
      type: "object",
      properties: {
        list: {
          type: "array",
          items: { type: "string", "x-kubernetes-validations": [{ rule: "self == oldSelf" }] },
        },
        spec: {
          type: "object",
          properties: { a: { type: "integer" } },
          "x-kubernetes-validations": [
            { rule: "true", message: " " },
            { rule: "true", reason: "Nope" },
            { rule: "true", fieldPath: ".b" },
          ],
        },
      },
    });
    expect(out).toEqual([
      'spec.validation.openAPIV3Schema.properties[list].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within spec.validation.openAPIV3Schema.properties[list]',
      'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].message: Invalid value: " ": must be non-empty if specified',
      'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].reason: Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"',
      'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[2].fieldPath: Invalid value: ".b": must be a valid path',
    ]);
  });
});
