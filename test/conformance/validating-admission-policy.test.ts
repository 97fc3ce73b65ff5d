/**
 * ValidatingAdmissionPolicy and its bindings, served as kube-apiserver 1.34 serves them: both kinds defaulted and
 * validated with kube's causes; a bound policy denies with its message, messageExpression or reason, warns with a
 * `Warning` header, applies failurePolicy to an expression that errors, and follows its binding's
 * namespaceSelector; a policy without a binding does nothing. kube-apiserver loads policies through informers, so
 * each scenario waits until its policy is in effect (a probe is denied or warned) before asserting. Each scenario
 * selects its own namespace by label, so one scenario's policy never sees another's writes. Raw HTTPS, so Status
 * bodies and Warning headers are compared exactly.
 */
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { eventually, type RawReply, raw, useSuiteCluster } from "./support.js";

const suite = useSuiteCluster();
const run = randomBytes(3).toString("hex");
const VAP = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies";
const VAPB = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings";
const created: string[] = [];
const namespaces: string[] = [];

afterAll(async () => {
  for (const path of created.reverse()) await raw(suite.kubeConfig, "DELETE", path);
  for (const ns of namespaces) await raw(suite.kubeConfig, "DELETE", `/api/v1/namespaces/${ns}`);
});

/** A namespace for one scenario, labelled so only that scenario's policies select it. */
async function scenarioNamespace(scenario: string, labels: Record<string, string> = {}): Promise<string> {
  const name = `${scenario}-${run}`;
  const body = { metadata: { name, labels: { "vap-scenario": name, ...labels } } };
  const reply = await raw(suite.kubeConfig, "POST", "/api/v1/namespaces", JSON.stringify(body));
  expect(reply.code).toBe(201);
  namespaces.push(name);
  return name;
}

async function create(path: string, body: Record<string, unknown>): Promise<RawReply> {
  const reply = await raw(suite.kubeConfig, "POST", path, JSON.stringify(body));
  const name = (body.metadata as { name: string }).name;
  if (reply.code === 201) created.push(`${path}/${name}`);
  return reply;
}

/** A policy on configmap creates and updates in the scenario's namespace. */
function policy(scenario: string, spec: Record<string, unknown>): Record<string, unknown> {
  return {
    metadata: { name: `${scenario}-${run}` },
    spec: {
      matchConstraints: {
        resourceRules: [
          {
            apiGroups: [""],
            apiVersions: ["v1"],
            operations: ["CREATE", "UPDATE"],
            resources: ["configmaps"],
          },
        ],
        namespaceSelector: { matchLabels: { "vap-scenario": `${scenario}-${run}` } },
      },
      ...spec,
    },
  };
}

function binding(scenario: string, actions: string[], extra: Record<string, unknown> = {}) {
  return {
    metadata: { name: `${scenario}-${run}` },
    spec: { policyName: `${scenario}-${run}`, validationActions: actions, ...extra },
  };
}

function configMap(name: string, data: Record<string, string>): string {
  return JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data });
}

let probes = 0;
/** Waits until a policy is in effect: a dry-run create of `data` is denied, or warned when `warned`. */
function inEffect(ns: string, data: Record<string, string>, warned = false): Promise<void> {
  return eventually(
    async () => {
      const reply = await raw(
        suite.kubeConfig,
        "POST",
        `/api/v1/namespaces/${ns}/configmaps?dryRun=All`,
        configMap(`probe-${probes++}`, data),
      );
      return warned ? reply.headers.warning !== undefined : reply.code !== 201;
    },
    20_000,
    "the policy in effect",
  );
}

function statusOf(reply: RawReply): unknown {
  const { code, reason, message, status, details } = reply.body ?? {};
  return { httpCode: reply.code, code, reason, status, message, details };
}

function causes(reply: RawReply): string[] {
  return (reply.body?.details?.causes ?? []).map(
    (c: { field: string; message: string }) => `${c.field}: ${c.message}`,
  );
}

describe("the policy kinds", () => {
  it("are defaulted as kube-apiserver defaults them", async () => {
    const p = await create(
      VAP,
      policy("vap-defaults", { validations: [{ expression: "true" }] }) as Record<string, unknown>,
    );
    expect(p.code).toBe(201);
    expect(p.body.metadata.generation).toBe(1);
    expect(p.body.spec).toEqual({
      failurePolicy: "Fail",
      matchConstraints: {
        matchPolicy: "Equivalent",
        namespaceSelector: { matchLabels: { "vap-scenario": `vap-defaults-${run}` } },
        objectSelector: {},
        resourceRules: [
          {
            apiGroups: [""],
            apiVersions: ["v1"],
            operations: ["CREATE", "UPDATE"],
            resources: ["configmaps"],
            scope: "*",
          },
        ],
      },
      validations: [{ expression: "true" }],
    });
    const b = await create(
      VAPB,
      binding("vap-defaults", ["Audit"], { matchResources: { resourceRules: [] } }),
    );
    expect(b.code).toBe(201);
    expect(b.body.spec).toEqual({
      policyName: `vap-defaults-${run}`,
      validationActions: ["Audit"],
      matchResources: { matchPolicy: "Equivalent", namespaceSelector: {}, objectSelector: {} },
    });
  });

  it("refuses a bad policy with 422 and kube's causes", async () => {
    const reply = await create(VAP, {
      metadata: { name: `vap-bad-${run}` },
      spec: {
        failurePolicy: "Maybe",
        matchConstraints: {
          resourceRules: [
            { apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE", "*"], resources: ["configmaps"] },
          ],
          matchPolicy: "Sometimes",
        },
        validations: [
          { expression: "object.data.size() > 0 && nope", reason: "Teapot" },
          { expression: "  ", message: "  " },
          { expression: "1 + 1", messageExpression: "'a' + 1" },
        ],
      },
    });
    expect([reply.code, reply.body.reason, reply.body.details?.kind]).toEqual([
      422,
      "Invalid",
      "ValidatingAdmissionPolicy",
    ]);
    expect(causes(reply)).toMatchInlineSnapshot(`
      [
        "spec.failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"",
        "spec.matchConstraints.matchPolicy: Unsupported value: "Sometimes": supported values: "Equivalent", "Exact"",
        "spec.matchConstraints.resourceRules[0].operations: Invalid value: ["CREATE","*"]: if '*' is present, must not specify other operations",
        "spec.validations[0].expression: Invalid value: "object.data.size() > 0 && nope": compilation failed: ERROR: <input>:1:27: undeclared reference to 'nope' (in container '')
       | object.data.size() > 0 && nope
       | ..........................^",
        "spec.validations[0].reason: Unsupported value: "Teapot": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"",
        "spec.validations[1].expression: Required value: expression is not specified",
        "spec.validations[1].message: Invalid value: "  ": must be non-empty if specified",
        "spec.validations[2].expression: Invalid value: "1 + 1": must evaluate to bool but got int",
        "spec.validations[2].messageExpression: Invalid value: "'a' + 1": compilation failed: ERROR: <input>:1:5: found no matching overload for '_+_' applied to '(string, int)'
       | 'a' + 1
       | ....^",
      ]
    `);
  });

  it("refuses a bad binding with 422 and kube's causes", async () => {
    const reply = await create(VAPB, {
      metadata: { name: `vap-bad-${run}` },
      spec: {
        validationActions: ["Deny", "Warn", "Deny", "Block"],
        matchResources: { namespaceSelector: { matchExpressions: [{ key: "a", operator: "In" }] } },
      },
    });
    expect([reply.code, reply.body.reason, reply.body.details?.kind]).toEqual([
      422,
      "Invalid",
      "ValidatingAdmissionPolicyBinding",
    ]);
    expect(causes(reply)).toMatchInlineSnapshot(`
      [
        "spec.policyName: Required value",
        "spec.matchResources.namespaceSelector.matchExpressions[0].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'",
        "spec.validationActions[2]: Duplicate value: "Deny"",
        "spec.validationActions[3]: Unsupported value: "Block": supported values: "Audit", "Deny", "Warn"",
        "spec.validationActions: Invalid value: ["Deny","Warn","Deny","Block"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)",
      ]
    `);
    const none = await create(VAPB, {
      metadata: { name: `vap-none-${run}` },
      spec: { policyName: "x" },
    });
    expect(causes(none)).toEqual([
      "spec.validationActions: Required value: at least one validation action is required",
    ]);
  });
});

describe("evaluating policies", () => {
  it("Deny refuses with the message, the messageExpression's value, or the expression, with the reason's code", async () => {
    const ns = await scenarioNamespace("vap-deny");
    expect(
      (
        await create(
          VAP,
          policy("vap-deny", {
            validations: [
              { expression: "object.data.a != 'one'", message: "a must not be one" },
              {
                expression: "object.data.a != 'two'",
                message: "not shown",
                messageExpression: "'a is ' + object.data.a + ' in ' + request.namespace",
                reason: "Forbidden",
              },
              { expression: "object.data.a != 'three'" },
            ],
          }),
        )
      ).code,
    ).toBe(201);
    expect((await create(VAPB, binding("vap-deny", ["Deny"]))).code).toBe(201);
    await inEffect(ns, { a: "one" });
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    const one = await raw(suite.kubeConfig, "POST", path, configMap("one", { a: "one" }));
    const why = `ValidatingAdmissionPolicy 'vap-deny-${run}' with binding 'vap-deny-${run}' denied request: a must not be one`;
    expect(statusOf(one)).toEqual({
      httpCode: 422,
      code: 422,
      reason: "Invalid",
      status: "Failure",
      message: `configmaps "one" is forbidden: ${why}`,
      details: { name: "one", kind: "configmaps", causes: [{ message: why }] },
    });
    const two = await raw(suite.kubeConfig, "POST", path, configMap("two", { a: "two" }));
    expect([two.code, two.body.reason, two.body.message]).toEqual([
      403,
      "Forbidden",
      `configmaps "two" is forbidden: ValidatingAdmissionPolicy 'vap-deny-${run}' with binding 'vap-deny-${run}' denied request: a is two in ${ns}`,
    ]);
    const three = await raw(suite.kubeConfig, "POST", path, configMap("three", { a: "three" }));
    expect([three.code, three.body.message]).toEqual([
      422,
      `configmaps "three" is forbidden: ValidatingAdmissionPolicy 'vap-deny-${run}' with binding 'vap-deny-${run}' denied request: failed expression: object.data.a != 'three'`,
    ]);
    const good = await raw(suite.kubeConfig, "POST", path, configMap("good", { a: "four" }));
    expect([good.code, good.headers.warning]).toEqual([201, undefined]);
    // An update is checked too, against the new object (oldObject is the stored one).
    const update = await raw(suite.kubeConfig, "PUT", `${path}/good`, configMap("good", { a: "one" }));
    expect([update.code, update.body.message]).toEqual([
      422,
      `configmaps "good" is forbidden: ValidatingAdmissionPolicy 'vap-deny-${run}' with binding 'vap-deny-${run}' denied request: a must not be one`,
    ]);
  });

  it("Warn lets the write through with kube's Warning header; Audit shows the client nothing", async () => {
    const ns = await scenarioNamespace("vap-warn");
    const spec = { validations: [{ expression: "object.data.a != 'one'", message: "a must not be one" }] };
    expect((await create(VAP, policy("vap-warn", spec))).code).toBe(201);
    expect((await create(VAPB, binding("vap-warn", ["Warn", "Audit"]))).code).toBe(201);
    await inEffect(ns, { a: "one" }, true);
    const reply = await raw(
      suite.kubeConfig,
      "POST",
      `/api/v1/namespaces/${ns}/configmaps`,
      configMap("one", { a: "one" }),
    );
    expect([reply.code, reply.headers.warning]).toEqual([
      201,
      `299 - "Validation failed for ValidatingAdmissionPolicy 'vap-warn-${run}' with binding 'vap-warn-${run}': a must not be one"`,
    ]);
  });

  it("failurePolicy decides what an expression that errors does: Fail denies, Ignore admits", async () => {
    const ns = await scenarioNamespace("vap-fail");
    const validations = [{ expression: "object.data.missing == 'x'" }];
    expect((await create(VAP, policy("vap-fail", { validations }))).code).toBe(201);
    expect((await create(VAPB, binding("vap-fail", ["Deny"]))).code).toBe(201);
    await inEffect(ns, { a: "1" });
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    const failed = await raw(suite.kubeConfig, "POST", path, configMap("one", { a: "1" }));
    expect([failed.code, failed.body.reason, failed.body.message]).toEqual([
      422,
      "Invalid",
      `configmaps "one" is forbidden: ValidatingAdmissionPolicy 'vap-fail-${run}' with binding 'vap-fail-${run}' denied request: expression 'object.data.missing == 'x'' resulted in error: no such key: missing`,
    ]);
    const nsIgnore = await scenarioNamespace("vap-ignore");
    const ignoring = policy("vap-ignore", { validations, failurePolicy: "Ignore" });
    expect((await create(VAP, ignoring)).code).toBe(201);
    // A second validation that denies shows when the policy is in effect.
    (ignoring.spec as { validations: unknown[] }).validations.push({ expression: "object.data.a != 'no'" });
    // On kind, kube-controller-manager's policy status controller writes status.typeChecking after the
    // create, so the read-modify-write retries on 409 as client-go's RetryOnConflict would.
    let updated = { code: 0, body: {} as { metadata?: { generation?: number } } };
    for (let attempt = 0; attempt < 5; attempt++) {
      const replaced = await raw(suite.kubeConfig, "GET", `${VAP}/vap-ignore-${run}`);
      updated = await raw(
        suite.kubeConfig,
        "PUT",
        `${VAP}/vap-ignore-${run}`,
        JSON.stringify({ ...ignoring, metadata: replaced.body.metadata }),
      );
      if (updated.code !== 409) break;
    }
    expect([updated.code, updated.body.metadata?.generation]).toEqual([200, 2]);
    expect((await create(VAPB, binding("vap-ignore", ["Deny"]))).code).toBe(201);
    await inEffect(nsIgnore, { a: "no" });
    const ok = await raw(
      suite.kubeConfig,
      "POST",
      `/api/v1/namespaces/${nsIgnore}/configmaps`,
      configMap("one", { a: "1" }),
    );
    expect(ok.code).toBe(201);
  });

  it("a policy without a binding does nothing; a binding's namespaceSelector narrows its policy", async () => {
    const nsA = await scenarioNamespace("vap-sel-a", { "vap-selected": `yes-${run}` });
    const nsB = await scenarioNamespace("vap-sel-b");
    const rules = [
      { apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["configmaps"] },
    ];
    // Unbound: would refuse every configmap in both namespaces.
    const unbound = {
      metadata: { name: `vap-unbound-${run}` },
      spec: { matchConstraints: { resourceRules: rules }, validations: [{ expression: "false" }] },
    };
    expect((await create(VAP, unbound)).code).toBe(201);
    // Bound, on every namespace; its binding selects only the labelled one.
    const bound = {
      metadata: { name: `vap-sel-${run}` },
      spec: {
        matchConstraints: { resourceRules: rules },
        validations: [{ expression: "object.data.a != 'no'", message: "no" }],
      },
    };
    expect((await create(VAP, bound)).code).toBe(201);
    const selector = { matchLabels: { "vap-selected": `yes-${run}` } };
    expect(
      (
        await create(VAPB, {
          metadata: { name: `vap-sel-${run}` },
          spec: {
            policyName: `vap-sel-${run}`,
            validationActions: ["Deny"],
            matchResources: { namespaceSelector: selector },
          },
        })
      ).code,
    ).toBe(201);
    await inEffect(nsA, { a: "no" });
    const inA = await raw(
      suite.kubeConfig,
      "POST",
      `/api/v1/namespaces/${nsA}/configmaps`,
      configMap("x", { a: "no" }),
    );
    expect([inA.code, inA.body.message]).toEqual([
      422,
      `configmaps "x" is forbidden: ValidatingAdmissionPolicy 'vap-sel-${run}' with binding 'vap-sel-${run}' denied request: no`,
    ]);
    const inB = await raw(
      suite.kubeConfig,
      "POST",
      `/api/v1/namespaces/${nsB}/configmaps`,
      configMap("x", { a: "no" }),
    );
    expect(inB.code).toBe(201);
    const fine = await raw(
      suite.kubeConfig,
      "POST",
      `/api/v1/namespaces/${nsA}/configmaps`,
      configMap("y", { a: "1" }),
    );
    expect(fine.code).toBe(201);
  });
  it("DELETE sees the stored object as oldObject, no object, and the namespace as namespaceObject", async () => {
    const ns = await scenarioNamespace("vap-del");
    const deleting = policy("vap-del", {
      validations: [
        {
          expression: "object != null || oldObject.data.keep != 'yes'",
          messageExpression:
            "request.operation + ' of ' + oldObject.metadata.name + ' in ' + namespaceObject.metadata.labels['vap-scenario'] + ' refused'",
        },
      ],
    });
    const rules = (deleting.spec as { matchConstraints: { resourceRules: Array<{ operations: string[] }> } })
      .matchConstraints.resourceRules;
    rules[0].operations = ["DELETE"];
    expect((await create(VAP, deleting)).code).toBe(201);
    expect((await create(VAPB, binding("vap-del", ["Deny"]))).code).toBe(201);
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    for (const [name, keep] of [
      ["kept", "yes"],
      ["gone", "no"],
    ]) {
      expect((await raw(suite.kubeConfig, "POST", path, configMap(name, { keep }))).code).toBe(201);
    }
    await eventually(
      async () => (await raw(suite.kubeConfig, "DELETE", `${path}/kept?dryRun=All`)).code !== 200,
      20_000,
      "the policy in effect",
    );
    const kept = await raw(suite.kubeConfig, "DELETE", `${path}/kept`);
    expect([kept.code, kept.body.message]).toEqual([
      422,
      `configmaps "kept" is forbidden: ValidatingAdmissionPolicy 'vap-del-${run}' with binding 'vap-del-${run}' denied request: DELETE of kept in ${ns} refused`,
    ]);
    expect((await raw(suite.kubeConfig, "DELETE", `${path}/gone`)).code).toBe(200);
  });
  it("params: the binding's paramRef passes an object of the policy's paramKind; none found with Deny refuses", async () => {
    const ns = await scenarioNamespace("vap-params");
    const source = await scenarioNamespace("vap-params-src");
    const withParams = policy("vap-params", {
      paramKind: { apiVersion: "v1", kind: "ConfigMap" },
      validations: [
        {
          expression: "object.data.a != params.data.forbidden",
          messageExpression: "'a must not be ' + params.data.forbidden + ' (' + params.kind + ')'",
        },
      ],
    });
    expect((await create(VAP, withParams)).code).toBe(201);
    const paramRef = { name: "limits", namespace: source, parameterNotFoundAction: "Deny" };
    expect((await create(VAPB, binding("vap-params", ["Deny"], { paramRef }))).code).toBe(201);
    await inEffect(ns, { a: "y" });
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    const missing = await raw(suite.kubeConfig, "POST", path, configMap("one", { a: "y" }));
    expect([missing.code, missing.body.reason, missing.body.message]).toEqual([
      422,
      "Invalid",
      `configmaps "one" is forbidden: ValidatingAdmissionPolicy 'vap-params-${run}' with binding 'vap-params-${run}' denied request: failed to configure binding: no params found for policy binding with \`Deny\` parameterNotFoundAction`,
    ]);
    const limits = configMap("limits", { forbidden: "x" });
    expect(
      (await raw(suite.kubeConfig, "POST", `/api/v1/namespaces/${source}/configmaps`, limits)).code,
    ).toBe(201);
    await eventually(
      async () =>
        (
          await raw(
            suite.kubeConfig,
            "POST",
            `${path}?dryRun=All`,
            configMap(`probe-${probes++}`, { a: "y" }),
          )
        ).code === 201,
      20_000,
      "the parameter object in use",
    );
    const denied = await raw(suite.kubeConfig, "POST", path, configMap("two", { a: "x" }));
    expect([denied.code, denied.body.message]).toEqual([
      422,
      `configmaps "two" is forbidden: ValidatingAdmissionPolicy 'vap-params-${run}' with binding 'vap-params-${run}' denied request: a must not be x (ConfigMap)`,
    ]);
    expect((await raw(suite.kubeConfig, "POST", path, configMap("three", { a: "y" }))).code).toBe(201);
  });
  it("matchConditions: a false one skips the policy, one that errors fails the request under Fail", async () => {
    const ns = await scenarioNamespace("vap-cond");
    const conditional = policy("vap-cond", {
      matchConditions: [
        { name: "labelled", expression: "has(object.metadata.labels) && 'check' in object.metadata.labels" },
        {
          name: "strict",
          expression: "object.metadata.labels.check != 'broken' || object.data.missing == 'x'",
        },
      ],
      validations: [{ expression: "object.data.a != 'no'", message: "no" }],
    });
    expect((await create(VAP, conditional)).code).toBe(201);
    expect((await create(VAPB, binding("vap-cond", ["Deny"]))).code).toBe(201);
    const labelled = (name: string, check: string, a: string) =>
      JSON.stringify({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name, labels: { check } },
        data: { a },
      });
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    await eventually(
      async () =>
        (await raw(suite.kubeConfig, "POST", `${path}?dryRun=All`, labelled("probe", "yes", "no"))).code !==
        201,
      20_000,
      "the policy in effect",
    );
    expect((await raw(suite.kubeConfig, "POST", path, configMap("unlabelled", { a: "no" }))).code).toBe(201);
    const checked = await raw(suite.kubeConfig, "POST", path, labelled("checked", "yes", "no"));
    expect([checked.code, checked.body.message]).toEqual([
      422,
      `configmaps "checked" is forbidden: ValidatingAdmissionPolicy 'vap-cond-${run}' with binding 'vap-cond-${run}' denied request: no`,
    ]);
    const broken = await raw(suite.kubeConfig, "POST", path, labelled("broken", "broken", "yes"));
    expect([broken.code, broken.body.reason]).toEqual([422, "Invalid"]);
    expect(broken.body.message).toBe(
      `configmaps "broken" is forbidden: ValidatingAdmissionPolicy 'vap-cond-${run}' with binding 'vap-cond-${run}' denied request: expression 'object.metadata.labels.check != 'broken' || object.data.missing == 'x'' resulted in error: no such key: missing`,
    );
  });
  it("policies see writes to webhook configurations, but never writes to the policy kinds themselves", async () => {
    const VWC = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations";
    const prefix = `vap-blocked-${run}`;
    const guard = {
      metadata: { name: `vap-guard-${run}` },
      spec: {
        matchConstraints: {
          resourceRules: [
            {
              apiGroups: ["admissionregistration.k8s.io"],
              apiVersions: ["v1"],
              operations: ["CREATE"],
              resources: ["validatingwebhookconfigurations", "validatingadmissionpolicies"],
            },
          ],
        },
        validations: [{ expression: `!object.metadata.name.startsWith('${prefix}')`, message: "blocked" }],
      },
    };
    expect((await create(VAP, guard)).code).toBe(201);
    expect((await create(VAPB, binding("vap-guard", ["Deny"]))).code).toBe(201);
    await eventually(
      async () =>
        (
          await raw(
            suite.kubeConfig,
            "POST",
            `${VWC}?dryRun=All`,
            JSON.stringify({ metadata: { name: `${prefix}-probe-${probes++}` }, webhooks: [] }),
          )
        ).code !== 201,
      20_000,
      "the policy in effect",
    );
    const webhooks = await raw(
      suite.kubeConfig,
      "POST",
      `${VWC}?dryRun=All`,
      JSON.stringify({ metadata: { name: `${prefix}-hooks` }, webhooks: [] }),
    );
    expect([webhooks.code, webhooks.body.message]).toEqual([
      422,
      `validatingwebhookconfigurations.admissionregistration.k8s.io "${prefix}-hooks" is forbidden: ValidatingAdmissionPolicy 'vap-guard-${run}' with binding 'vap-guard-${run}' denied request: blocked`,
    ]);
    const own = policy("vap-blocked", { validations: [{ expression: "true" }] });
    expect((await create(VAP, own)).code).toBe(201);
  });
  it("variables: composed in order, read as variables.<name>; bad ones refused", async () => {
    const ns = await scenarioNamespace("vap-vars");
    const composed = policy("vap-vars", {
      variables: [
        { name: "a", expression: "object.data.a" },
        { name: "isBad", expression: "variables.a == 'bad'" },
      ],
      validations: [{ expression: "!variables.isBad", messageExpression: "'a is ' + variables.a" }],
    });
    expect((await create(VAP, composed)).code).toBe(201);
    expect((await create(VAPB, binding("vap-vars", ["Deny"]))).code).toBe(201);
    await inEffect(ns, { a: "bad" });
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    const bad = await raw(suite.kubeConfig, "POST", path, configMap("one", { a: "bad" }));
    expect([bad.code, bad.body.message]).toEqual([
      422,
      `configmaps "one" is forbidden: ValidatingAdmissionPolicy 'vap-vars-${run}' with binding 'vap-vars-${run}' denied request: a is bad`,
    ]);
    expect((await raw(suite.kubeConfig, "POST", path, configMap("two", { a: "good" }))).code).toBe(201);
    const refused = await create(
      VAP,
      policy("vap-vars-bad", {
        variables: [
          { name: "1x", expression: "  " },
          { name: "ok", expression: "variables.a + foo" },
        ],
        validations: [{ expression: "variables.ok == true" }],
      }),
    );
    expect(causes(refused)).toMatchInlineSnapshot(`
      [
        "spec.variables[0].name: Invalid value: "1x": must be a valid CEL identifier",
        "spec.variables[0].expression: Required value: expression is not specified",
        "spec.variables[1].expression: Invalid value: "variables.a + foo": compilation failed: ERROR: <input>:1:10: undefined field 'a'
       | variables.a + foo
       | .........^
      ERROR: <input>:1:15: undeclared reference to 'foo' (in container '')
       | variables.a + foo
       | ..............^",
      ]
    `);
  });
});
