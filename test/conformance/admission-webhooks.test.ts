/**
 * Admission webhooks, served as kube-apiserver serves them: the two configuration kinds with their defaults and
 * validation errors; mutating webhooks (JSON Patch, reinvocation) before validation, validating webhooks after;
 * denials, warnings, failurePolicy on an unreachable and a slow webhook, namespace and object selectors, a rule
 * on the status subresource, DELETE with oldObject. The webhooks run in this process (`startWebhookServer`),
 * reached by URL on 127.0.0.1 by the embedded server and by envtest's kube-apiserver alike; on kind (whose
 * kube-apiserver runs in a container) and a kubeconfig cluster the scenarios that call webhooks skip. Each scenario
 * selects its own namespace by label, so one scenario's webhook never sees another's writes. Raw HTTPS, so
 * Status bodies and Warning headers are compared exactly.
 */
import { randomBytes } from "node:crypto";
import { createServer, request } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type AdmissionRequest,
  allowed,
  denied,
  patchResponseFromRaw,
  startWebhookServer,
  type WebhookServer,
} from "../../src/control-plane/admission/webhook-server.js";
import { generateServingCertificates } from "../../src/control-plane/apiserver/tls.js";
import { apiServerSharesLoopback, eventually, type RawReply, raw, useSuiteCluster } from "./support.js";

const suite = useSuiteCluster();
const run = randomBytes(3).toString("hex");
const VWC = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations";
const MWC = "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations";
const configs: string[] = [];
const namespaces: string[] = [];

let server: WebhookServer;
/** What the validating handler decides, per scenario namespace. */
const validators = new Map<string, (r: AdmissionRequest) => ReturnType<typeof allowed>>();
const mutators = new Map<string, (r: AdmissionRequest) => ReturnType<typeof allowed>>();

function scenarioOf(r: AdmissionRequest): string {
  const ns = r.namespace ?? r.name ?? "";
  return ns.replace(/-[0-9a-f]{6}$/, "");
}

beforeAll(async () => {
  server = await startWebhookServer({
    validate: async (r) => {
      const f = validators.get(scenarioOf(r));
      if (f === undefined) return allowed();
      if (scenarioOf(r) === "wh-slow") await new Promise((res) => setTimeout(res, 2500));
      return f(r);
    },
    mutate: (r) => mutators.get(scenarioOf(r))?.(r) ?? allowed(),
  });
});

afterAll(async () => {
  for (const path of configs) await raw(suite.kubeConfig, "DELETE", path);
  for (const ns of namespaces) await raw(suite.kubeConfig, "DELETE", `/api/v1/namespaces/${ns}`);
  await server?.stop();
});

/** A namespace for one scenario, labelled so only that scenario's webhooks select it. */
async function scenarioNamespace(scenario: string): Promise<string> {
  const name = `${scenario}-${run}`;
  const reply = await raw(
    suite.kubeConfig,
    "POST",
    "/api/v1/namespaces",
    JSON.stringify({ metadata: { name, labels: { "webhook-scenario": `${scenario}-${run}` } } }),
  );
  expect(reply.code).toBe(201);
  namespaces.push(name);
  return name;
}

interface HookSpec {
  name: string;
  url?: string;
  resources?: string[];
  operations?: string[];
  failurePolicy?: string;
  timeoutSeconds?: number;
  objectSelector?: unknown;
  reinvocationPolicy?: string;
  scope?: string;
}

function hook(scenario: string, spec: HookSpec): Record<string, unknown> {
  const h: Record<string, unknown> = {
    name: spec.name,
    clientConfig: { url: spec.url ?? server.validateUrl, caBundle: server.caBundle },
    rules: [
      {
        operations: spec.operations ?? ["CREATE"],
        apiGroups: [""],
        apiVersions: ["v1"],
        resources: spec.resources ?? ["configmaps"],
      },
    ],
    namespaceSelector: { matchLabels: { "webhook-scenario": `${scenario}-${run}` } },
    sideEffects: "None",
    admissionReviewVersions: ["v1"],
  };
  for (const k of ["failurePolicy", "timeoutSeconds", "objectSelector", "reinvocationPolicy"] as const) {
    if (spec[k] !== undefined) h[k] = spec[k];
  }
  return h;
}

async function createConfig(
  kind: "Validating" | "Mutating",
  name: string,
  webhooks: unknown[],
): Promise<RawReply> {
  const path = kind === "Validating" ? VWC : MWC;
  const reply = await raw(
    suite.kubeConfig,
    "POST",
    path,
    JSON.stringify({ metadata: { name: `${name}-${run}` }, webhooks }),
  );
  if (reply.code === 201) configs.push(`${path}/${name}-${run}`);
  return reply;
}

function configMap(name: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, ...extra },
    data: { a: "1" },
  });
}

/** Waits until kube-apiserver's configuration informer serves a new configuration: `probe` sees its effect. */
function active(probe: () => Promise<boolean>): Promise<void> {
  return eventually(probe, 15_000, "the webhook configuration in effect");
}

/** A POST with a User-Agent header (raw() sends none). */
async function postWithUserAgent(path: string, body: string, userAgent: string): Promise<{ code: number }> {
  const kc = suite.kubeConfig;
  const opts: Record<string, any> = {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "user-agent": userAgent,
      "content-length": Buffer.byteLength(body),
    },
  };
  await kc.applyToHTTPSOptions(opts);
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, kc.getCurrentCluster()!.server), opts, (res) => {
      res.resume();
      res.on("end", () => resolve({ code: res.statusCode ?? 0 }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

function statusOf(reply: RawReply): unknown {
  const { code, reason, message, status } = reply.body ?? {};
  return { httpCode: reply.code, code, reason, status, message };
}

describe("webhook configurations", () => {
  it("are defaulted as kube-apiserver defaults them", async () => {
    const v = await createConfig("Validating", "defaults", [
      {
        name: "defaults.workbook.example.com",
        clientConfig: { url: "https://127.0.0.1:1/never" },
        rules: [
          { operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["nothing-here"] },
        ],
        sideEffects: "None",
        admissionReviewVersions: ["v1"],
      },
    ]);
    expect(v.code).toBe(201);
    const h = v.body.webhooks[0];
    expect({
      failurePolicy: h.failurePolicy,
      matchPolicy: h.matchPolicy,
      namespaceSelector: h.namespaceSelector,
      objectSelector: h.objectSelector,
      timeoutSeconds: h.timeoutSeconds,
      scope: h.rules[0].scope,
      generation: v.body.metadata.generation,
    }).toEqual({
      failurePolicy: "Fail",
      matchPolicy: "Equivalent",
      namespaceSelector: {},
      objectSelector: {},
      timeoutSeconds: 10,
      scope: "*",
      generation: 1,
    });
    // generation follows the webhooks only (the strategy's PrepareForUpdate), not labels.
    const vPath = `${VWC}/defaults-${run}`;
    const merge = "application/merge-patch+json";
    const labelled = await raw(
      suite.kubeConfig,
      "PATCH",
      vPath,
      JSON.stringify({ metadata: { labels: { a: "b" } } }),
      merge,
    );
    expect([labelled.code, labelled.body.metadata.generation]).toEqual([200, 1]);
    const changed = await raw(
      suite.kubeConfig,
      "PATCH",
      vPath,
      JSON.stringify([{ op: "replace", path: "/webhooks/0/timeoutSeconds", value: 5 }]),
      "application/json-patch+json",
    );
    expect([changed.code, changed.body.metadata.generation]).toEqual([200, 2]);
    const m = await createConfig("Mutating", "defaults", [
      {
        name: "defaults.workbook.example.com",
        clientConfig: { service: { namespace: "default", name: "nowhere" } },
        rules: [
          { operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["nothing-here"] },
        ],
        sideEffects: "None",
        admissionReviewVersions: ["v1"],
      },
    ]);
    expect(m.code).toBe(201);
    expect([m.body.webhooks[0].reinvocationPolicy, m.body.webhooks[0].clientConfig.service.port]).toEqual([
      "Never",
      443,
    ]);
  });

  it("refuses a bad configuration with 422 and kube's causes", async () => {
    const reply = await createConfig("Validating", "bad", [
      {
        name: "short",
        clientConfig: { url: "http://127.0.0.1:1/x" },
        rules: [
          { operations: ["CREATE", "*"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"] },
        ],
        timeoutSeconds: 31,
        admissionReviewVersions: ["v1"],
      },
      {
        name: "short",
        clientConfig: {},
        rules: [],
        sideEffects: "Some",
        failurePolicy: "Maybe",
        admissionReviewVersions: [],
      },
    ]);
    expect([reply.code, reply.body.reason, reply.body.details?.kind]).toEqual([
      422,
      "Invalid",
      "ValidatingWebhookConfiguration",
    ]);
    expect(
      reply.body.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`),
    ).toMatchInlineSnapshot(`
      [
        "webhooks[0].name: Invalid value: "short": should be a domain with at least three segments separated by dots",
        "webhooks[0].rules[0].operations: Invalid value: ["CREATE","*"]: if '*' is present, must not specify other operations",
        "webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun",
        "webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds",
        "webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
        "webhooks[1].name: Invalid value: "short": should be a domain with at least three segments separated by dots",
        "webhooks[1].failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"",
        "webhooks[1].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"",
        "webhooks[1].clientConfig: Required value: exactly one of url or service is required",
        "webhooks[1].admissionReviewVersions: Required value: must specify one of v1, v1beta1",
        "webhooks[1].name: Duplicate value: "short"",
      ]
    `);
  });
});

describe("calling webhooks", () => {
  beforeEach((context) => {
    // The webhooks listen on this machine's 127.0.0.1 only: a kube-apiserver elsewhere cannot call them.
    if (!apiServerSharesLoopback(suite.cluster)) context.skip();
  });
  it("a validating webhook denies with its message, and allows with a warning", async () => {
    const ns = await scenarioNamespace("wh-deny");
    validators.set("wh-deny", (r) =>
      (r.object?.data as Record<string, string> | undefined)?.bad
        ? denied("bad data is not allowed")
        : allowed("configmaps are watched"),
    );
    expect(
      (await createConfig("Validating", "deny", [hook("wh-deny", { name: "deny.workbook.example.com" })]))
        .code,
    ).toBe(201);
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    await active(
      async () =>
        (await raw(suite.kubeConfig, "POST", `${path}?dryRun=All`, configMap("probe"))).headers.warning !==
        undefined,
    );
    const bad = await raw(
      suite.kubeConfig,
      "POST",
      path,
      JSON.stringify({ metadata: { name: "bad" }, data: { bad: "yes" } }),
    );
    expect(statusOf(bad)).toEqual({
      httpCode: 403,
      code: 403,
      reason: "Forbidden",
      status: "Failure",
      message: 'admission webhook "deny.workbook.example.com" denied the request: bad data is not allowed',
    });
    const good = await raw(suite.kubeConfig, "POST", path, configMap("good"));
    expect([good.code, good.headers.warning]).toEqual([201, '299 - "configmaps are watched"']);
    const seen = server.received.find((r) => r.namespace === ns && r.name === "good");
    expect(seen).toMatchObject({
      kind: { group: "", version: "v1", kind: "ConfigMap" },
      resource: { group: "", version: "v1", resource: "configmaps" },
      requestKind: { group: "", version: "v1", kind: "ConfigMap" },
      operation: "CREATE",
      dryRun: false,
      oldObject: null,
      options: { kind: "CreateOptions", apiVersion: "meta.k8s.io/v1" },
    });
    // The options as the client sent them: no fieldManager filled in from the User-Agent.
    expect(seen?.options).toEqual({ kind: "CreateOptions", apiVersion: "meta.k8s.io/v1" });
    // Nor from a User-Agent (kube-apiserver names the manager after it, but leaves the options alone).
    expect((await postWithUserAgent(path, configMap("agent"), "kubectl/v1.34.0 (linux/amd64)")).code).toBe(
      201,
    );
    const agent = server.received.find((r) => r.namespace === ns && r.name === "agent");
    expect(agent?.options).toEqual({ kind: "CreateOptions", apiVersion: "meta.k8s.io/v1" });
    const probe = server.received.find((r) => r.namespace === ns && r.name === "probe");
    expect([probe?.dryRun, probe?.options]).toEqual([
      true,
      { kind: "CreateOptions", apiVersion: "meta.k8s.io/v1", dryRun: ["All"] },
    ]);
  });

  it("a mutating webhook's JSON Patch is applied before validation, and validating webhooks see the result", async () => {
    const ns = await scenarioNamespace("wh-mutate");
    mutators.set("wh-mutate", (r) => {
      const obj = structuredClone(r.object!);
      obj.metadata = { ...obj.metadata, labels: { ...obj.metadata?.labels, stamped: "yes" } };
      obj.data = { ...(obj.data as Record<string, string>), added: "by-webhook" };
      return patchResponseFromRaw(r.object, obj);
    });
    validators.set("wh-mutate", (r) =>
      r.object?.metadata?.labels?.stamped === "yes" ? allowed("checked") : denied("not stamped"),
    );
    const m = await createConfig("Mutating", "mutate", [
      hook("wh-mutate", { name: "stamp.workbook.example.com", url: server.mutateUrl }),
    ]);
    expect(m.code).toBe(201);
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    await active(async () => {
      const r = await raw(suite.kubeConfig, "POST", `${path}?dryRun=All`, configMap("probe"));
      return r.body?.metadata?.labels?.stamped === "yes";
    });
    expect(
      (
        await createConfig("Validating", "mutate", [
          hook("wh-mutate", { name: "check.workbook.example.com" }),
        ])
      ).code,
    ).toBe(201);
    await active(
      async () =>
        (await raw(suite.kubeConfig, "POST", `${path}?dryRun=All`, configMap("probe"))).headers.warning !==
        undefined,
    );
    const created = await raw(suite.kubeConfig, "POST", path, configMap("one"));
    expect([created.code, created.body.metadata.labels, created.body.data]).toEqual([
      201,
      { stamped: "yes" },
      { a: "1", added: "by-webhook" },
    ]);
    // A server-side apply that creates is a CREATE for the webhooks, and still answers 201.
    const applied = await raw(
      suite.kubeConfig,
      "PATCH",
      `${path}/applied?fieldManager=conformance`,
      JSON.stringify({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "applied" },
        data: { a: "2" },
      }),
      "application/apply-patch+yaml",
    );
    expect([applied.code, applied.body.metadata.labels, applied.body.data]).toEqual([
      201,
      { stamped: "yes" },
      { a: "2", added: "by-webhook" },
    ]);
    expect(server.received.find((r) => r.namespace === ns && r.name === "applied")?.operation).toBe("CREATE");
  });

  it("reinvokes an IfNeeded webhook once when a later webhook changed the object", async () => {
    const ns = await scenarioNamespace("wh-reinvoke");
    // The first webhook records whether it saw the second one's label: only a reinvocation can see it.
    mutators.set("wh-reinvoke", (r) => {
      const obj = structuredClone(r.object!);
      const sawB = obj.metadata?.labels?.b === "yes" ? "yes" : "no";
      obj.metadata = { ...obj.metadata, annotations: { ...obj.metadata?.annotations, "a-saw-b": sawB } };
      return patchResponseFromRaw(r.object, obj);
    });
    const second = await startWebhookServer({
      mutate: (r) => {
        const obj = structuredClone(r.object!);
        obj.metadata = { ...obj.metadata, labels: { ...obj.metadata?.labels, b: "yes" } };
        return patchResponseFromRaw(r.object, obj);
      },
    });
    try {
      const reply = await createConfig("Mutating", "reinvoke", [
        hook("wh-reinvoke", {
          name: "a.workbook.example.com",
          url: server.mutateUrl,
          reinvocationPolicy: "IfNeeded",
        }),
        {
          ...hook("wh-reinvoke", { name: "b.workbook.example.com" }),
          clientConfig: { url: second.mutateUrl, caBundle: second.caBundle },
        },
      ]);
      expect(reply.code).toBe(201);
      const path = `/api/v1/namespaces/${ns}/configmaps`;
      await active(async () => {
        const r = await raw(suite.kubeConfig, "POST", `${path}?dryRun=All`, configMap("probe"));
        return r.body?.metadata?.labels?.b === "yes";
      });
      const created = await raw(suite.kubeConfig, "POST", path, configMap("one"));
      expect([created.code, created.body.metadata.annotations, created.body.metadata.labels]).toEqual([
        201,
        { "a-saw-b": "yes" },
        { b: "yes" },
      ]);
    } finally {
      await second.stop();
    }
  });

  it("failurePolicy Fail refuses with 500 when the webhook is unreachable; Ignore lets the write through", async () => {
    const ns = await scenarioNamespace("wh-unreachable");
    const reply = await createConfig("Validating", "unreachable", [
      hook("wh-unreachable", {
        name: "fail.workbook.example.com",
        url: "https://127.0.0.1:1/refused",
        objectSelector: { matchLabels: { policy: "fail" } },
      }),
      hook("wh-unreachable", {
        name: "ignore.workbook.example.com",
        url: "https://127.0.0.1:1/refused",
        failurePolicy: "Ignore",
      }),
    ]);
    expect(reply.code).toBe(201);
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    const failing = configMap("failing", { labels: { policy: "fail" } });
    await active(
      async () => (await raw(suite.kubeConfig, "POST", `${path}?dryRun=All`, failing)).code === 500,
    );
    const refused = await raw(suite.kubeConfig, "POST", path, failing);
    expect(statusOf(refused)).toEqual({
      httpCode: 500,
      code: 500,
      reason: "InternalError",
      status: "Failure",
      message:
        'Internal error occurred: failed calling webhook "fail.workbook.example.com": failed to call webhook: Post "https://127.0.0.1:1/refused?timeout=10s": dial tcp 127.0.0.1:1: connect: connection refused',
    });
    expect((await raw(suite.kubeConfig, "POST", path, configMap("ignored"))).code).toBe(201);
  });

  it("a webhook slower than timeoutSeconds fails the write under Fail and is skipped under Ignore", async () => {
    const ns = await scenarioNamespace("wh-slow");
    validators.set("wh-slow", () => denied("too late to matter"));
    const reply = await createConfig("Validating", "slow", [
      hook("wh-slow", {
        name: "slow-fail.workbook.example.com",
        timeoutSeconds: 1,
        objectSelector: { matchLabels: { policy: "fail" } },
      }),
      hook("wh-slow", {
        name: "slow-ignore.workbook.example.com",
        timeoutSeconds: 1,
        failurePolicy: "Ignore",
        objectSelector: { matchLabels: { policy: "ignore" } },
      }),
    ]);
    expect(reply.code).toBe(201);
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    const failing = configMap("failing", { labels: { policy: "fail" } });
    await active(
      async () => (await raw(suite.kubeConfig, "POST", `${path}?dryRun=All`, failing)).code !== 201,
    );
    const refused = await raw(suite.kubeConfig, "POST", path, failing);
    expect([refused.code, refused.body.reason]).toEqual([500, "InternalError"]);
    expect(refused.body.message).toMatch(
      /^Internal error occurred: failed calling webhook "slow-fail.workbook.example.com": failed to call webhook: Post "https:\/\/127.0.0.1:\d+\/validate\?timeout=1s": context deadline exceeded/,
    );
    const ignored = await raw(
      suite.kubeConfig,
      "POST",
      path,
      configMap("ignored", { labels: { policy: "ignore" } }),
    );
    expect(ignored.code).toBe(201);
  }, 30_000);

  it("namespaceSelector and objectSelector choose what a webhook sees", async () => {
    const ns = await scenarioNamespace("wh-select");
    validators.set("wh-select", () => denied("selected"));
    const reply = await createConfig("Validating", "select", [
      hook("wh-select", {
        name: "select.workbook.example.com",
        objectSelector: { matchLabels: { check: "yes" } },
      }),
    ]);
    expect(reply.code).toBe(201);
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    const checked = configMap("checked", { labels: { check: "yes" } });
    await active(
      async () => (await raw(suite.kubeConfig, "POST", `${path}?dryRun=All`, checked)).code === 403,
    );
    expect((await raw(suite.kubeConfig, "POST", path, configMap("unchecked"))).code).toBe(201);
    // Another namespace (not selected) is never sent to the webhook.
    const other = await scenarioNamespace("wh-select-other");
    expect(
      (await raw(suite.kubeConfig, "POST", `/api/v1/namespaces/${other}/configmaps`, checked)).code,
    ).toBe(201);
  });

  it("a rule on configmaps/* does not see the main resource, and pods/status sees status writes only", async () => {
    const ns = await scenarioNamespace("wh-status");
    validators.set("wh-status", (r) =>
      denied(`${r.operation} ${r.resource.resource}/${r.subResource ?? ""}`),
    );
    const reply = await createConfig("Validating", "status", [
      hook("wh-status", {
        name: "status.workbook.example.com",
        resources: ["pods/status"],
        operations: ["UPDATE"],
      }),
    ]);
    expect(reply.code).toBe(201);
    const pods = `/api/v1/namespaces/${ns}/pods`;
    const pod = { metadata: { name: "p" }, spec: { containers: [{ name: "c", image: "busybox" }] } };
    expect((await raw(suite.kubeConfig, "POST", pods, JSON.stringify(pod))).code).toBe(201);
    const status = JSON.stringify({ status: { message: "hello" } });
    await active(
      async () =>
        (
          await raw(
            suite.kubeConfig,
            "PATCH",
            `${pods}/p/status?dryRun=All`,
            status,
            "application/merge-patch+json",
          )
        ).code === 403,
    );
    const refused = await raw(
      suite.kubeConfig,
      "PATCH",
      `${pods}/p/status`,
      status,
      "application/merge-patch+json",
    );
    expect(refused.body.message).toBe(
      'admission webhook "status.workbook.example.com" denied the request: UPDATE pods/status',
    );
    const main = await raw(
      suite.kubeConfig,
      "PATCH",
      `${pods}/p`,
      JSON.stringify({ metadata: { labels: { x: "y" } } }),
      "application/merge-patch+json",
    );
    expect(main.code).toBe(200);
  });

  it("DELETE sends the stored object as oldObject and no object", async () => {
    const ns = await scenarioNamespace("wh-delete");
    validators.set("wh-delete", (r) =>
      r.oldObject?.metadata?.labels?.protected === "yes" ? denied("protected") : allowed(),
    );
    const reply = await createConfig("Validating", "delete", [
      hook("wh-delete", { name: "delete.workbook.example.com", operations: ["DELETE"] }),
    ]);
    expect(reply.code).toBe(201);
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    expect(
      (await raw(suite.kubeConfig, "POST", path, configMap("kept", { labels: { protected: "yes" } }))).code,
    ).toBe(201);
    expect((await raw(suite.kubeConfig, "POST", path, configMap("gone"))).code).toBe(201);
    await active(async () => (await raw(suite.kubeConfig, "DELETE", `${path}/kept?dryRun=All`)).code === 403);
    const refused = await raw(suite.kubeConfig, "DELETE", `${path}/kept`);
    expect(statusOf(refused)).toEqual({
      httpCode: 403,
      code: 403,
      reason: "Forbidden",
      status: "Failure",
      message: 'admission webhook "delete.workbook.example.com" denied the request: protected',
    });
    expect((await raw(suite.kubeConfig, "DELETE", `${path}/gone`)).code).toBe(200);
    const seen = server.received.find((r) => r.namespace === ns && r.name === "gone" && r.dryRun === false);
    expect(seen).toMatchObject({
      operation: "DELETE",
      object: null,
      oldObject: { metadata: { name: "gone", namespace: ns } },
      options: { kind: "DeleteOptions", apiVersion: "meta.k8s.io/v1" },
    });
  });

  it("mutating webhooks run before validation: a patch can fix an invalid object, or break a valid one (422)", async () => {
    const ns = await scenarioNamespace("wh-order");
    mutators.set("wh-order", (r) => {
      const obj = structuredClone(r.object!);
      const data = { ...(obj.data as Record<string, string>) };
      delete data["bad key!"];
      if (obj.metadata?.name === "broken") data["also bad!"] = "x";
      obj.data = data;
      return patchResponseFromRaw(r.object, obj);
    });
    const reply = await createConfig("Mutating", "order", [
      hook("wh-order", { name: "order.workbook.example.com", url: server.mutateUrl }),
    ]);
    expect(reply.code).toBe(201);
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    const fixable = (name: string) =>
      JSON.stringify({ metadata: { name }, data: { "bad key!": "x", ok: "1" } });
    await active(
      async () => (await raw(suite.kubeConfig, "POST", `${path}?dryRun=All`, fixable("probe"))).code === 201,
    );
    const fixed = await raw(suite.kubeConfig, "POST", path, fixable("fixed"));
    expect([fixed.code, fixed.body.data]).toEqual([201, { ok: "1" }]);
    const broken = await raw(suite.kubeConfig, "POST", path, fixable("broken"));
    expect([
      broken.code,
      broken.body.reason,
      broken.body.details?.causes?.map((c: { field: string }) => c.field),
    ]).toEqual([422, "Invalid", ["data[also bad!]"]]);
  });

  it("a webhook answering garbage or another request's uid fails the write with 500 (failurePolicy Fail)", async () => {
    const ns = await scenarioNamespace("wh-garbage");
    const certs = await generateServingCertificates({ ipAddresses: ["127.0.0.1"] });
    const bad = createServer({ key: certs.keyPem, cert: certs.certPem }, (req, res) => {
      req.resume();
      req.on("end", () => {
        res.setHeader("content-type", "application/json");
        res.end(
          req.url?.startsWith("/uid")
            ? JSON.stringify({
                apiVersion: "admission.k8s.io/v1",
                kind: "AdmissionReview",
                response: { uid: "other", allowed: true },
              })
            : "<html>",
        );
      });
    });
    await new Promise<void>((r) => bad.listen(0, "127.0.0.1", r));
    const url = `https://127.0.0.1:${(bad.address() as AddressInfo).port}`;
    const caBundle = Buffer.from(certs.caPem).toString("base64");
    try {
      const reply = await createConfig("Validating", "garbage", [
        {
          ...hook("wh-garbage", {
            name: "html.workbook.example.com",
            objectSelector: { matchLabels: { answer: "html" } },
          }),
          clientConfig: { url: `${url}/html`, caBundle },
        },
        {
          ...hook("wh-garbage", {
            name: "uid.workbook.example.com",
            objectSelector: { matchLabels: { answer: "uid" } },
          }),
          clientConfig: { url: `${url}/uid`, caBundle },
        },
      ]);
      expect(reply.code).toBe(201);
      const path = `/api/v1/namespaces/${ns}/configmaps`;
      const html = configMap("html", { labels: { answer: "html" } });
      const uid = configMap("uid", { labels: { answer: "uid" } });
      await active(async () => (await raw(suite.kubeConfig, "POST", `${path}?dryRun=All`, uid)).code === 500);
      const garbage = await raw(suite.kubeConfig, "POST", path, html);
      expect([garbage.code, garbage.body.reason]).toEqual([500, "InternalError"]);
      expect(garbage.body.message).toMatch(
        /^Internal error occurred: failed calling webhook "html.workbook.example.com": failed to call webhook: /,
      );
      const wrongUid = await raw(suite.kubeConfig, "POST", path, uid);
      expect([wrongUid.code, wrongUid.body.reason]).toEqual([500, "InternalError"]);
      expect(wrongUid.body.message).toMatch(
        /^Internal error occurred: failed calling webhook "uid.workbook.example.com": received invalid webhook response: expected response.uid="[0-9a-f-]{36}", got "other"$/,
      );
      expect((await raw(suite.kubeConfig, "GET", `${path}/uid`)).code).toBe(404);
    } finally {
      await new Promise<void>((r) => {
        bad.close(() => r());
        bad.closeAllConnections();
      });
    }
  });
});
