/**
 * CRD validation rules (`x-kubernetes-validations`, CEL), served as kube-apiserver serves them: rules run on create,
 * update and `/status` writes with `self`; transition rules with `oldSelf` only where an old value exists
 * (list-type=map items by key); `message`, `messageExpression`, `fieldPath` and `reason` shape the 422 causes; a
 * CRD whose rule does not compile is refused; a rule past the cost limit fails the write with kube's wording.
 * Raw HTTPS, so the Status bodies are compared exactly.
 */
import { randomBytes } from "node:crypto";
import { ApiextensionsV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crdEstablished, eventually, raw, useSuiteCluster } from "./support.js";

const suite = useSuiteCluster();
const group = `r${randomBytes(3).toString("hex")}.conformance.workbook.example.com`;
const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const crdName = `gizmos.${group}`;
const kind = "Gizmo";

const specSchema = {
  type: "object",
  "x-kubernetes-validations": [
    {
      rule: "!has(self.max) || self.min <= self.max",
      // No string() of a number: kube estimates its cost as unbounded and refuses the CRD.
      messageExpression: "'min ' + (self.min > self.max + 10 ? 'far ' : '') + 'exceeds max'",
    },
    { rule: "self.mode == oldSelf.mode", message: "mode is immutable", reason: "FieldValueForbidden" },
    {
      rule: "!has(self.legacy)",
      reason: "FieldValueRequired",
      fieldPath: ".legacy",
      message: "legacy is gone",
    },
    {
      rule: "!has(self.tags) || self.tags.all(t, self.tags.exists_one(u, u == t))",
      reason: "FieldValueDuplicate",
    },
  ],
  properties: {
    min: { type: "integer" },
    max: { type: "integer" },
    mode: { type: "string", "x-kubernetes-validations": [{ rule: "self in ['fast', 'slow']" }] },
    legacy: { type: "string" },
    tags: {
      type: "array",
      maxItems: 8,
      items: { type: "string", maxLength: 16 },
      "x-kubernetes-validations": [
        { rule: "self.isSorted()", message: "tags must be sorted" },
        { rule: "self.all(t, t.matches('^[a-z]+$'))", message: "tags are lowercase letters" },
      ],
    },
    timeout: {
      type: "string",
      format: "duration",
      "x-kubernetes-validations": [{ rule: "self <= duration('1h')" }],
    },
    ratio: { type: "number", "x-kubernetes-validations": [{ rule: "self < 1.0" }] },
    weight: { "x-kubernetes-int-or-string": true, "x-kubernetes-validations": [{ rule: "self >= 0" }] },
    when: {
      type: "string",
      format: "date-time",
      "x-kubernetes-validations": [{ rule: "self > timestamp('2020-01-01T00:00:00Z')" }],
    },
    scores: {
      type: "array",
      maxItems: 8,
      items: { type: "integer" },
      "x-kubernetes-validations": [
        { rule: "self.sum() <= 100 && self.min() >= 0 && self.max() < 50", message: "scores" },
        { rule: "self.indexOf(13) == -1 && self.lastIndexOf(13) == -1", message: "no 13" },
      ],
    },
    code: {
      type: "string",
      maxLength: 32,
      "x-kubernetes-validations": [
        { rule: "self.find('[0-9]+') != '666' && self.findAll('[a-z]').size() <= 3", message: "code" },
        // split() and join() are estimated unbounded by kube (the CRD would be refused), so not here.
        { rule: "self.lowerAscii().trim() != 'a-b' && self.upperAscii() != 'X-Y'", message: "not ab" },
      ],
    },
    port: {
      "x-kubernetes-int-or-string": true,
      "x-kubernetes-validations": [{ rule: "type(self) == int ? self > 0 : self.endsWith('%')" }],
    },
    ports: {
      type: "array",
      maxItems: 8,
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["name"],
      items: {
        type: "object",
        required: ["name"],
        properties: { name: { type: "string", maxLength: 16 }, number: { type: "integer" } },
        "x-kubernetes-validations": [
          { rule: "self.number >= oldSelf.number", message: "port numbers only grow" },
        ],
      },
    },
    labels: {
      type: "object",
      maxProperties: 8,
      additionalProperties: {
        type: "string",
        maxLength: 32,
        "x-kubernetes-validations": [{ rule: "self.size() <= 5" }],
      },
    },
    grid: {
      type: "array",
      maxItems: 60,
      items: { type: "integer" },
      "x-kubernetes-validations": [
        { rule: "self.all(a, self.all(b, self.all(c, a + b + c >= 0)))", message: "grid" },
      ],
    },
  },
};

/** The CRD; `extra` overrides keys of the spec schema, `ratioRule` replaces the rule on spec.ratio. */
function crd(extra?: Record<string, unknown>, ratioRule = "self < 1.0") {
  const spec = { ...specSchema, ...extra };
  spec.properties = {
    ...specSchema.properties,
    ratio: { type: "number", "x-kubernetes-validations": [{ rule: ratioRule }] },
  };
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: crdName },
    spec: {
      group,
      scope: "Namespaced",
      names: { plural: "gizmos", singular: "gizmo", kind, listKind: "GizmoList" },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: {
            openAPIV3Schema: {
              type: "object",
              "x-kubernetes-validations": [
                { rule: "self.metadata.name.startsWith('g')", message: "names start with g" },
              ],
              properties: {
                spec,
                status: {
                  type: "object",
                  properties: {
                    ready: { type: "integer", "x-kubernetes-validations": [{ rule: "self >= 0" }] },
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
}

let path = "";

function gizmo(name: string, spec: unknown, resourceVersion?: string) {
  return JSON.stringify({
    apiVersion: `${group}/v1`,
    kind,
    metadata: { name, ...(resourceVersion ? { resourceVersion } : {}) },
    spec,
  });
}

/** The 422 Status a write got: reason, message and causes, as compared across backends. */
function invalid(reply: { code: number; body: any }) {
  return {
    code: reply.code,
    reason: reply.body?.reason,
    message: reply.body?.message,
    causes: reply.body?.details?.causes,
  };
}

const qualified = `${kind}.${group}`;

describe("CRD validation rules (CEL)", () => {
  beforeAll(async () => {
    const kc = suite.kubeConfig;
    const created = await raw(kc, "POST", crdPath, JSON.stringify(crd()));
    expect(created.code, JSON.stringify(created.body)).toBe(201);
    await crdEstablished(kc.makeApiClient(ApiextensionsV1Api), crdName);
    const ns = await suite.namespace("rules");
    path = `/apis/${group}/v1/namespaces/${ns}/gizmos`;
    // The new kind is served a moment after Established on a real cluster.
    for (let i = 0; i < 100; i++) {
      const probe = await raw(kc, "GET", path);
      if (probe.code === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 60_000);

  afterAll(async () => {
    await raw(suite.kubeConfig, "DELETE", `${crdPath}/${crdName}`);
  });

  it("accepts an object every rule holds for", async () => {
    const reply = await raw(
      suite.kubeConfig,
      "POST",
      path,
      gizmo("g-valid", {
        min: 1,
        max: 2,
        mode: "fast",
        tags: ["a", "b"],
        timeout: "30m",
        ratio: 0.5,
        port: "50%",
        ports: [{ name: "http", number: 80 }],
        labels: { k: "v" },
        grid: [1, 2, 3],
        when: "2024-05-06T07:08:09Z",
        scores: [10, 20],
        code: "ab12",
      }),
    );
    expect([reply.code, reply.body?.spec?.min]).toEqual([201, 1]);
  });

  it("reports failed rules of one node in order, with messageExpression, message, reason and fieldPath", async () => {
    const reply = await raw(
      suite.kubeConfig,
      "POST",
      path,
      gizmo("g-bad-spec", { min: 3, max: 2, mode: "fast", legacy: "x", tags: ["a", "A"] }),
    );
    // The tags rules report at spec.tags, after spec's own rules (a node's rules run before its children's).
    expect(invalid(reply)).toEqual({
      code: 422,
      reason: "Invalid",
      message: `${qualified} "g-bad-spec" is invalid: [spec: Invalid value: "object": min exceeds max, spec.legacy: Required value: legacy is gone, spec.tags: Invalid value: "array": tags must be sorted, spec.tags: Invalid value: "array": tags are lowercase letters]`,
      causes: [
        {
          reason: "FieldValueInvalid",
          message: 'Invalid value: "object": min exceeds max',
          field: "spec",
        },
        { reason: "FieldValueRequired", message: "Required value: legacy is gone", field: "spec.legacy" },
        {
          reason: "FieldValueInvalid",
          message: 'Invalid value: "array": tags must be sorted',
          field: "spec.tags",
        },
        {
          reason: "FieldValueInvalid",
          message: 'Invalid value: "array": tags are lowercase letters',
          field: "spec.tags",
        },
      ],
    });
  });

  it("reports a root rule at <nil>, and the default message 'failed rule: <rule>'", async () => {
    const reply = await raw(suite.kubeConfig, "POST", path, gizmo("x-root", { mode: "medium" }));
    expect(invalid(reply).causes).toEqual([
      { reason: "FieldValueInvalid", message: 'Invalid value: "object": names start with g', field: "<nil>" },
      {
        reason: "FieldValueInvalid",
        message: "Invalid value: \"string\": failed rule: self in ['fast', 'slow']",
        field: "spec.mode",
      },
    ]);
  });

  it("types values from the schema (duration, timestamp, double, int-or-string, map values) and runs the libraries", async () => {
    const intOrString = "Invalid value: \"\": failed rule: type(self) == int ? self > 0 : self.endsWith('%')";
    const cases: Array<[unknown, string, string, string]> = [
      [
        { timeout: "2h" },
        "spec.timeout",
        "FieldValueInvalid",
        "Invalid value: \"string\": failed rule: self <= duration('1h')",
      ],
      [{ ratio: 1.5 }, "spec.ratio", "FieldValueInvalid", 'Invalid value: "number": failed rule: self < 1.0'],
      [{ port: 0 }, "spec.port", "FieldValueInvalid", intOrString],
      [{ port: "50" }, "spec.port", "FieldValueInvalid", intOrString],
      [
        { labels: { a: "toolong" } },
        "spec.labels[a]",
        "FieldValueInvalid",
        'Invalid value: "string": failed rule: self.size() <= 5',
      ],
      [{ tags: ["a", "a"] }, "spec", "FieldValueDuplicate", 'Duplicate value: "object"'],
      [
        { when: "2019-06-01T00:00:00Z" },
        "spec.when",
        "FieldValueInvalid",
        "Invalid value: \"string\": failed rule: self > timestamp('2020-01-01T00:00:00Z')",
      ],
      [{ scores: [60, 1] }, "spec.scores", "FieldValueInvalid", 'Invalid value: "array": scores'],
      [{ scores: [1, 13] }, "spec.scores", "FieldValueInvalid", 'Invalid value: "array": no 13'],
      [{ code: "x666y" }, "spec.code", "FieldValueInvalid", 'Invalid value: "string": code'],
      [{ code: "abcd" }, "spec.code", "FieldValueInvalid", 'Invalid value: "string": code'],
      [{ code: " A-B" }, "spec.code", "FieldValueInvalid", 'Invalid value: "string": not ab'],
    ];
    const got = [];
    for (const [i, [spec]] of cases.entries()) {
      got.push(invalid(await raw(suite.kubeConfig, "POST", path, gizmo(`g-type-${i}`, spec))).causes);
    }
    expect(got).toEqual(cases.map(([, field, reason, message]) => [{ reason, message, field }]));
  });

  it("runs transition rules only on update, correlating list-type=map items by key", async () => {
    const kc = suite.kubeConfig;
    const spec = { mode: "fast", ports: [{ name: "http", number: 80 }] };
    const created = await raw(kc, "POST", path, gizmo("g-transition", spec));
    expect(created.code, JSON.stringify(created.body)).toBe(201);
    const rv = created.body.metadata.resourceVersion;
    const updated = await raw(
      kc,
      "PUT",
      `${path}/g-transition`,
      gizmo(
        "g-transition",
        {
          mode: "slow",
          ports: [
            { name: "new", number: 1 },
            { name: "http", number: 79 },
          ],
        },
        rv,
      ),
    );
    expect(invalid(updated)).toEqual({
      code: 422,
      reason: "Invalid",
      message: `${qualified} "g-transition" is invalid: [spec: Forbidden: mode is immutable, spec.ports[1]: Invalid value: "object": port numbers only grow]`,
      causes: [
        { reason: "FieldValueForbidden", message: "Forbidden: mode is immutable", field: "spec" },
        {
          reason: "FieldValueInvalid",
          message: 'Invalid value: "object": port numbers only grow',
          field: "spec.ports[1]",
        },
      ],
    });
    const grown = await raw(
      kc,
      "PUT",
      `${path}/g-transition`,
      gizmo("g-transition", { mode: "fast", ports: [{ name: "http", number: 81 }] }, rv),
    );
    expect(grown.code, JSON.stringify(grown.body)).toBe(200);
  });

  it("checks the status subresource's rules on /status writes", async () => {
    const kc = suite.kubeConfig;
    const created = await raw(kc, "POST", path, gizmo("g-status", { mode: "fast" }));
    expect(created.code, JSON.stringify(created.body)).toBe(201);
    const bad = await raw(
      kc,
      "PUT",
      `${path}/g-status/status`,
      JSON.stringify({ ...created.body, status: { ready: -1 } }),
    );
    expect(invalid(bad)).toEqual({
      code: 422,
      reason: "Invalid",
      message: `${qualified} "g-status" is invalid: status.ready: Invalid value: "integer": failed rule: self >= 0`,
      causes: [
        {
          reason: "FieldValueInvalid",
          message: 'Invalid value: "integer": failed rule: self >= 0',
          field: "status.ready",
        },
      ],
    });
    const good = await raw(
      kc,
      "PUT",
      `${path}/g-status/status`,
      JSON.stringify({ ...created.body, status: { ready: 1 } }),
    );
    expect([good.code, good.body?.status]).toEqual([200, { ready: 1 }]);
  });

  it("reports an evaluation error with the rule, and a schema error blocks the rules", async () => {
    const kc = suite.kubeConfig;
    const missing = await raw(kc, "POST", path, gizmo("g-nokey", { max: 1, mode: "fast" }));
    expect(invalid(missing).causes).toEqual([
      {
        reason: "FieldValueInvalid",
        message:
          'Invalid value: "object": no such key: min evaluating rule: !has(self.max) || self.min <= self.max',
        field: "spec",
      },
    ]);
    const overload = await raw(kc, "POST", path, gizmo("g-overload", { weight: "heavy", mode: "fast" }));
    expect(invalid(overload).causes).toEqual([
      {
        reason: "FieldValueInvalid",
        message:
          "Invalid value: \"\": 'no such overload': call arguments did not match a supported operator, function or macro signature for rule: self >= 0",
        field: "spec.weight",
      },
    ]);
    const blocked = await raw(kc, "POST", path, gizmo("g-blocked", { ports: [{ number: 1 }], mode: "x" }));
    expect(invalid(blocked).causes).toEqual([
      { reason: "FieldValueRequired", message: "Required value", field: "spec.ports[0].name" },
      {
        reason: "FieldValueInvalid",
        message:
          "Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
        field: "<nil>",
      },
    ]);
  });

  it("stops a rule past the per-call cost limit with kube-apiserver's message", async () => {
    const grid = Array.from({ length: 60 }, (_, i) => i);
    const reply = await raw(suite.kubeConfig, "POST", path, gizmo("g-cost", { mode: "fast", grid }));
    expect(invalid(reply).causes).toEqual([
      {
        reason: "FieldValueInvalid",
        message:
          "Invalid value: \"array\": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: grid",
        field: "spec.grid",
      },
    ]);
  });

  it("refuses a CRD whose rule does not compile or reads an undeclared field", async () => {
    const kc = suite.kubeConfig;
    const current = await raw(kc, "GET", `${crdPath}/${crdName}`);
    const send = (rules: unknown) =>
      raw(
        kc,
        "PUT",
        `${crdPath}/${crdName}`,
        JSON.stringify({
          ...crd({ "x-kubernetes-validations": rules }),
          metadata: { name: crdName, resourceVersion: current.body.metadata.resourceVersion },
        }),
      );
    const at = "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule";
    // The text after the position is the parser's own: cel-go's ANTLR message and column differ from
    // @bufbuild/cel's (FIDELITY.md), so only the shape is compared.
    const syntax = await send([{ rule: "self.min <" }]);
    expect([
      syntax.code,
      syntax.body?.reason,
      syntax.body?.details?.causes?.map((c: any) => c.field),
    ]).toEqual([422, "Invalid", [at]]);
    expect(syntax.body.details.causes[0].message).toMatch(
      /^Invalid value: \{"Rule":"self\.min \\u003c","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null\}: compilation failed: ERROR: <input>:1:\d+: Syntax error: /,
    );
    const undefinedField = await send([{ rule: "self.nosuch > 0" }]);
    expect(invalid(undefinedField).causes).toEqual([
      {
        reason: "FieldValueInvalid",
        message:
          'Invalid value: {"Rule":"self.nosuch \\u003e 0","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: compilation failed: ERROR: <input>:1:5: undefined field \'nosuch\'\n | self.nosuch > 0\n | ....^',
        field: at,
      },
    ]);
    const notBool = await send([{ rule: "self.min + 1" }]);
    expect(invalid(notBool).causes?.[0]?.message).toMatch(/: cel expression must evaluate to a bool$/);
    // Every error of a rule is listed, each at its position (a call's at its parenthesis).
    const rule = "self.min.frob() || self.min + 'x' == 'y'";
    const several = await send([{ rule }]);
    expect(invalid(several).causes?.[0]?.message).toBe(
      `Invalid value: {"Rule":"self.min.frob() || self.min + 'x' == 'y'","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: compilation failed: ` +
        `ERROR: <input>:1:14: undeclared reference to 'frob' (in container '')\n | ${rule}\n | ${".".repeat(13)}^\n` +
        `ERROR: <input>:1:29: found no matching overload for '_+_' applied to '(int, string)'\n | ${rule}\n | ${".".repeat(28)}^`,
    );
  });

  it("words type-check errors as cel-go does, each at its column", async () => {
    const kc = suite.kubeConfig;
    const at = "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0]";
    const cases: Array<[string, number, string]> = [
      ["self.mode.foo == 1", 10, "type 'string' does not support field selection"],
      ["self.tags.all(t, t.y > 0)", 19, "type 'string' does not support field selection"],
      ["nosuch > 0", 1, "undeclared reference to 'nosuch' (in container '')"],
      ["has(self.zz)", 4, "undefined field 'zz'"],
      ["self.tags.exists(t, t == 1)", 23, "found no matching overload for '_==_' applied to '(string, int)'"],
      ["self.min == 1.0", 10, "found no matching overload for '_==_' applied to '(int, double)'"],
    ];
    const got = [];
    for (const [rule] of cases) {
      const current = await raw(kc, "GET", `${crdPath}/${crdName}`);
      const reply = await raw(
        kc,
        "PUT",
        `${crdPath}/${crdName}`,
        JSON.stringify({
          ...crd({ "x-kubernetes-validations": [{ rule }] }),
          metadata: { name: crdName, resourceVersion: current.body.metadata.resourceVersion },
        }),
      );
      got.push([reply.code, invalid(reply).causes]);
    }
    const value = (rule: string, messageExpression = "") =>
      JSON.stringify({
        Rule: rule,
        Message: "",
        MessageExpression: messageExpression,
        Reason: null,
        FieldPath: "",
        OptionalOldSelf: null,
      })
        .replaceAll("<", "\\u003c")
        .replaceAll(">", "\\u003e")
        .replaceAll("&", "\\u0026");
    expect(got).toEqual(
      cases.map(([rule, column, message]) => [
        422,
        [
          {
            reason: "FieldValueInvalid",
            message: `Invalid value: ${value(rule)}: compilation failed: ERROR: <input>:1:${column}: ${message}\n | ${rule}\n | ${".".repeat(column - 1)}^`,
            field: `${at}.rule`,
          },
        ],
      ]),
    );
    const current = await raw(kc, "GET", `${crdPath}/${crdName}`);
    const notString = await raw(
      kc,
      "PUT",
      `${crdPath}/${crdName}`,
      JSON.stringify({
        ...crd({ "x-kubernetes-validations": [{ rule: "self.min > 0", messageExpression: "self.min" }] }),
        metadata: { name: crdName, resourceVersion: current.body.metadata.resourceVersion },
      }),
    );
    expect(invalid(notString).causes).toEqual([
      {
        reason: "FieldValueInvalid",
        message: `Invalid value: ${value("self.min > 0", "self.min")}: messageExpression must evaluate to a string`,
        field: `${at}.messageExpression`,
      },
    ]);
  });

  it("refuses a CRD whose rules have a bad message, reason or fieldPath, or read oldSelf below an atomic list", async () => {
    const kc = suite.kubeConfig;
    const current = await raw(kc, "GET", `${crdPath}/${crdName}`);
    const next = structuredClone(
      crd({
        "x-kubernetes-validations": [
          { rule: "true", message: " " },
          { rule: "true", reason: "Nope" },
          { rule: "true", fieldPath: ".nope" },
        ],
      }),
    );
    const tags = next.spec.versions[0]?.schema.openAPIV3Schema.properties.spec.properties.tags as Record<
      string,
      any
    >;
    tags.items = { ...tags.items, "x-kubernetes-validations": [{ rule: "self == oldSelf" }] };
    const reply = await raw(
      kc,
      "PUT",
      `${crdPath}/${crdName}`,
      JSON.stringify({
        ...next,
        metadata: { name: crdName, resourceVersion: current.body.metadata.resourceVersion },
      }),
    );
    const at = "spec.validation.openAPIV3Schema.properties[spec]";
    // Properties are visited in Go's map order: compare the causes sorted.
    const causes = [...(invalid(reply).causes ?? [])].sort((a: any, b: any) =>
      `${a.field}${a.message}`.localeCompare(`${b.field}${b.message}`),
    );
    expect([reply.code, causes]).toEqual([
      422,
      [
        {
          reason: "FieldValueInvalid",
          message: `Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${at}.properties[tags]`,
          field: `${at}.properties[tags].items.x-kubernetes-validations[0].rule`,
        },
        {
          reason: "FieldValueInvalid",
          message: 'Invalid value: " ": must be non-empty if specified',
          field: `${at}.x-kubernetes-validations[0].message`,
        },
        {
          reason: "FieldValueNotSupported",
          message:
            'Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"',
          field: `${at}.x-kubernetes-validations[1].reason`,
        },
        {
          reason: "FieldValueInvalid",
          message: 'Invalid value: ".nope": must be a valid path',
          field: `${at}.x-kubernetes-validations[2].fieldPath`,
        },
      ],
    ]);
  });

  it("ratchets: an unchanged value that breaks a newer rule does not fail an update of other fields", async () => {
    const kc = suite.kubeConfig;
    const created = await raw(kc, "POST", path, gizmo("g-ratchet", { mode: "fast", ratio: 0.5, min: 1 }));
    expect(created.code, JSON.stringify(created.body)).toBe(201);
    const current = await raw(kc, "GET", `${crdPath}/${crdName}`);
    const stricter = crd(undefined, "self < 0.1");
    const replaced = await raw(
      kc,
      "PUT",
      `${crdPath}/${crdName}`,
      JSON.stringify({
        ...stricter,
        metadata: { name: crdName, resourceVersion: current.body.metadata.resourceVersion },
      }),
    );
    expect(replaced.code, JSON.stringify(replaced.body)).toBe(200);
    // A real cluster serves the new schema a moment later: wait until a new object meets the new rule.
    let probes = 0;
    await eventually(
      async () =>
        (await raw(kc, "POST", path, gizmo(`g-probe-${probes++}`, { mode: "fast", ratio: 0.5 }))).code ===
        422,
      20_000,
      "the stricter rule",
    );
    const live = await raw(kc, "GET", `${path}/g-ratchet`);
    const rv = live.body.metadata.resourceVersion;
    const other = await raw(
      kc,
      "PUT",
      `${path}/g-ratchet`,
      gizmo("g-ratchet", { mode: "fast", ratio: 0.5, min: 2 }, rv),
    );
    expect(other.code, JSON.stringify(other.body)).toBe(200);
    // The ratcheted failure comes back as a warning.
    expect([other.headers.warning ?? []].flat().join(", ")).toContain(
      '299 - "spec.ratio: Invalid value: \\"number\\": failed rule: self < 0.1"',
    );
    const changed = await raw(
      kc,
      "PUT",
      `${path}/g-ratchet`,
      gizmo("g-ratchet", { mode: "fast", ratio: 0.4, min: 2 }, other.body.metadata.resourceVersion),
    );
    expect(invalid(changed).causes).toEqual([
      {
        reason: "FieldValueInvalid",
        message: 'Invalid value: "number": failed rule: self < 0.1',
        field: "spec.ratio",
      },
    ]);
  });
});
