/**
 * Admission webhooks in the embedded server: rule and selector matching (`ShouldCallHook`), the answers a
 * webhook can give (`VerifyAdmissionResponse`, `ToStatusErr`), the JSON Patch helper, and whole writes through
 * `Backend.webhookWrites` against webhooks that misbehave: the write fails with kube's Status (or goes through
 * under failurePolicy Ignore) and the store is left as it was.
 */
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StatusError } from "../../../src/apimachinery/errors.js";
import {
  allowed,
  createJsonPatch,
  denied,
  patchResponseFromRaw,
  startWebhookServer,
  type WebhookServer,
} from "../../../src/control-plane/admission/webhook-server.js";
import {
  rejectionError,
  verifyResponse,
} from "../../../src/control-plane/apiserver/admission/webhooks/call.js";
import { webhooksOf } from "../../../src/control-plane/apiserver/admission/webhooks/configuration.js";
import {
  type AdmissionAttributes,
  ruleMatches,
  shouldCallHook,
} from "../../../src/control-plane/apiserver/admission/webhooks/matching.js";
import { createBackend } from "../../../src/control-plane/apiserver/backend.js";
import { applyJsonPatch } from "../../../src/control-plane/apiserver/patch/json-patch.js";
import { generateServingCertificates } from "../../../src/control-plane/apiserver/tls.js";
import type { ResourceType } from "../../../src/control-plane/apiserver/types.js";
import { apiError } from "./helpers.js";

function attrs(over: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return {
    operation: "CREATE",
    group: "",
    version: "v1",
    resource: "configmaps",
    kind: "ConfigMap",
    subresource: "",
    namespace: "ns",
    name: "x",
    object: { metadata: { name: "x", labels: { app: "a" } } },
    oldObject: undefined,
    dryRun: false,
    options: {},
    ...over,
  };
}

const rule = (resources: string[], scope = "*", operations = ["*"]) => ({
  operations,
  apiGroups: ["*"],
  apiVersions: ["*"],
  resources,
  scope,
});

describe("rules (rules.Matcher)", () => {
  it("matches resources, subresources and wildcards as kube does", () => {
    expect(ruleMatches(rule(["configmaps"]), attrs())).toBe(true);
    expect(ruleMatches(rule(["*"]), attrs())).toBe(true);
    expect(ruleMatches(rule(["*"]), attrs({ subresource: "status" }))).toBe(false);
    expect(ruleMatches(rule(["*/status"]), attrs({ subresource: "status" }))).toBe(true);
    expect(ruleMatches(rule(["configmaps/*"]), attrs({ subresource: "status" }))).toBe(true);
    // `configmaps/*` also matches the main resource (its subresource "" is any subresource to rules.go).
    expect(ruleMatches(rule(["configmaps/*"]), attrs())).toBe(true);
    expect(ruleMatches(rule(["*/*"]), attrs())).toBe(true);
    expect(ruleMatches(rule(["pods/status"]), attrs({ resource: "pods", subresource: "status" }))).toBe(true);
    expect(ruleMatches(rule(["pods"]), attrs({ resource: "pods", subresource: "status" }))).toBe(false);
  });

  it("checks operations and scope (a Namespace is cluster-scoped)", () => {
    expect(ruleMatches(rule(["*"], "*", ["UPDATE"]), attrs())).toBe(false);
    expect(ruleMatches(rule(["*"], "*", ["CREATE", "UPDATE"]), attrs())).toBe(true);
    expect(ruleMatches(rule(["*"], "Namespaced"), attrs())).toBe(true);
    expect(ruleMatches(rule(["*"], "Cluster"), attrs())).toBe(false);
    const ns = attrs({ resource: "namespaces", kind: "Namespace", namespace: "x" });
    expect([ruleMatches(rule(["*"], "Cluster"), ns), ruleMatches(rule(["*"], "Namespaced"), ns)]).toEqual([
      true,
      false,
    ]);
    const node = attrs({ resource: "nodes", kind: "Node", namespace: "" });
    expect([ruleMatches(rule(["*"], "Cluster"), node), ruleMatches(rule(["*"], "Namespaced"), node)]).toEqual(
      [true, false],
    );
  });
});

describe("selectors (namespace and object matchers)", () => {
  const [hook] = webhooksOf({
    metadata: { name: "c" },
    webhooks: [
      {
        name: "a.b.c",
        rules: [rule(["*"])],
        namespaceSelector: { matchExpressions: [{ key: "env", operator: "In", values: ["prod"] }] },
        objectSelector: { matchLabels: { app: "a" } },
      },
    ],
  });
  const labels = (n: string) => ({ prod: { env: "prod" }, dev: { env: "dev" } })[n];

  it("uses the namespace's labels, and a Namespace's own labels on its create", () => {
    expect(shouldCallHook(hook!, attrs({ namespace: "prod" }), labels)).toBe(true);
    expect(shouldCallHook(hook!, attrs({ namespace: "dev" }), labels)).toBe(false);
    const nsCreate = attrs({
      resource: "namespaces",
      kind: "Namespace",
      namespace: "new",
      object: { metadata: { name: "new", labels: { env: "prod", app: "a" } } },
    });
    expect(shouldCallHook(hook!, nsCreate, labels)).toBe(true);
  });

  it("lets cluster-scoped objects through the namespaceSelector", () => {
    expect(shouldCallHook(hook!, attrs({ resource: "nodes", kind: "Node", namespace: "" }), labels)).toBe(
      true,
    );
  });

  it("is 404 for a gone namespace only when the webhook would be called", () => {
    const err = (() => {
      try {
        shouldCallHook(hook!, attrs({ namespace: "gone" }), labels);
      } catch (e) {
        return e as StatusError;
      }
    })();
    expect([err?.code, err?.message]).toEqual([404, 'namespaces "gone" not found']);
    expect(
      shouldCallHook(hook!, attrs({ namespace: "gone", object: { metadata: { name: "x" } } }), labels),
    ).toBe(false);
  });

  it("matches the objectSelector on the new or the old object", () => {
    const upd = attrs({
      namespace: "prod",
      operation: "UPDATE",
      object: { metadata: {} },
      oldObject: { metadata: { labels: { app: "a" } } },
    });
    expect(shouldCallHook(hook!, upd, labels)).toBe(true);
    const del = attrs({
      namespace: "prod",
      operation: "DELETE",
      object: undefined,
      oldObject: { metadata: {} },
    });
    expect(shouldCallHook(hook!, del, labels)).toBe(false);
  });

  it("never sends the webhook configurations themselves", () => {
    const cfg = attrs({
      group: "admissionregistration.k8s.io",
      resource: "validatingwebhookconfigurations",
      kind: "ValidatingWebhookConfiguration",
      namespace: "",
    });
    expect(shouldCallHook(hook!, { ...cfg, object: { metadata: { labels: { app: "a" } } } }, labels)).toBe(
      false,
    );
  });
});

describe("answers (VerifyAdmissionResponse, ToStatusErr)", () => {
  const review = (response: Record<string, unknown>) => ({
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    response,
  });

  it("refuses a wrong uid, a missing response, a patch without its type and a validating patch", () => {
    const message = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(message(() => verifyResponse("w", "u1", false, review({ uid: "u2", allowed: true })))).toBe(
      'failed calling webhook "w": received invalid webhook response: expected response.uid="u1", got "u2"',
    );
    expect(message(() => verifyResponse("w", "u1", false, { kind: "AdmissionReview" }))).toBe(
      'failed calling webhook "w": received invalid webhook response: webhook response was absent',
    );
    expect(
      message(() => verifyResponse("w", "u", true, review({ uid: "u", allowed: true, patch: "W10=" }))),
    ).toBe(
      'failed calling webhook "w": received invalid webhook response: webhook returned response.patch but not response.patchType',
    );
    expect(
      message(() =>
        verifyResponse(
          "w",
          "u",
          false,
          review({ uid: "u", allowed: true, patch: "W10=", patchType: "JSONPatch" }),
        ),
      ),
    ).toBe(
      'failed calling webhook "w": received invalid webhook response: validating webhook may not return response.patch',
    );
  });

  it("words a denial as kube-apiserver does, never below 400", () => {
    expect(rejectionError("w", { code: 200, message: "no" }).status).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: 'admission webhook "w" denied the request: no',
      code: 400,
    });
    expect(rejectionError("w", { reason: "Gone" }).message).toBe(
      'admission webhook "w" denied the request: Gone',
    );
    expect(rejectionError("w", undefined).message).toBe(
      'admission webhook "w" denied the request without explanation',
    );
  });
});

describe("createJsonPatch (PatchResponseFromRaw)", () => {
  it("turns the original into the mutated copy", () => {
    const before = { metadata: { name: "a", labels: { "x/y": "1", gone: "2" } }, data: { k: [1, 2] } };
    const after = {
      metadata: { name: "a", labels: { "x/y": "3", added: "4" } },
      data: { k: [1, 2, 3] },
      extra: true,
    };
    const patch = createJsonPatch(before, after);
    expect(applyJsonPatch(before, patch)).toEqual(after);
    expect(patch).toContainEqual({ op: "replace", path: "/metadata/labels/x~1y", value: "3" });
    expect(patchResponseFromRaw(before, structuredClone(before))).toEqual({ allowed: true });
    expect(denied("no").status).toEqual({ code: 403, reason: "Forbidden", message: "no" });
  });
});

describe("writes through webhooks (Backend.webhookWrites)", () => {
  let good: WebhookServer;
  let garbage: { url: string; caBundle: string; stop(): Promise<void> };
  beforeAll(async () => {
    good = await startWebhookServer({
      validate: (r) =>
        (r.object ?? r.oldObject)?.metadata?.labels?.ok === "no" ? denied("not ok") : allowed("seen"),
      mutate: (r) => {
        if (r.operation === "DELETE") return { allowed: true, patch: [{ op: "add", path: "/x", value: 1 }] };
        const obj = structuredClone(r.object!);
        obj.metadata = { ...obj.metadata, labels: { ...obj.metadata?.labels, mutated: "yes" } };
        return patchResponseFromRaw(r.object, obj);
      },
    });
    const certs = await generateServingCertificates({ ipAddresses: ["127.0.0.1"] });
    const server = createServer({ key: certs.keyPem, cert: certs.certPem }, (req, res) => {
      req.resume();
      req.on("end", () =>
        res.end(
          req.url?.startsWith("/json")
            ? '{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"nope","allowed":true}}'
            : "<html>",
        ),
      );
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    garbage = {
      url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
      caBundle: Buffer.from(certs.caPem).toString("base64"),
      stop: () =>
        new Promise<void>((r) => {
          server.close(() => r());
          server.closeAllConnections();
        }),
    };
  });
  afterAll(async () => {
    await good?.stop();
    await garbage?.stop();
  });

  function setupBackend() {
    const backend = createBackend();
    const cm = backend.findResource("", "v1", "configmaps") as ResourceType;
    const vwc = backend.findResource(
      "admissionregistration.k8s.io",
      "v1",
      "validatingwebhookconfigurations",
    ) as ResourceType;
    const mwc = backend.findResource(
      "admissionregistration.k8s.io",
      "v1",
      "mutatingwebhookconfigurations",
    ) as ResourceType;
    const webhook = (name: string, url: string, caBundle: string, extra: Record<string, unknown> = {}) => ({
      name,
      clientConfig: { url, caBundle },
      rules: [{ operations: ["*"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"] }],
      sideEffects: "None",
      admissionReviewVersions: ["v1"],
      ...extra,
    });
    return { backend, cm, vwc, mwc, webhook, w: backend.webhookWrites };
  }

  it("defaults and validates configurations", () => {
    const { backend, vwc, mwc, webhook } = setupBackend();
    const v = backend.create(vwc, undefined, {
      metadata: { name: "v" },
      webhooks: [webhook("a.b.c", "https://h/x", "")],
    });
    expect((v.webhooks as Record<string, unknown>[])[0]).toMatchObject({
      failurePolicy: "Fail",
      timeoutSeconds: 10,
      matchPolicy: "Equivalent",
    });
    const m = backend.create(mwc, undefined, {
      metadata: { name: "m" },
      webhooks: [webhook("a.b.c", "https://h/x", "")],
    });
    expect((m.webhooks as Record<string, unknown>[])[0]?.reinvocationPolicy).toBe("Never");
    const bad = apiError(() =>
      backend.create(vwc, undefined, {
        metadata: { name: "bad" },
        webhooks: [webhook("a.b.c", "https://h/x?q=1#f", "", { timeoutSeconds: 0 })],
      }),
    );
    expect([bad.code, bad.status.details?.causes?.map((c) => c.field)]).toEqual([
      422,
      ["webhooks[0].timeoutSeconds", "webhooks[0].clientConfig.url", "webhooks[0].clientConfig.url"],
    ]);
  });

  it("mutates, validates, warns and denies", async () => {
    const { backend, cm, vwc, mwc, webhook, w } = setupBackend();
    backend.create(mwc, undefined, {
      metadata: { name: "m" },
      webhooks: [webhook("m.b.c", good.mutateUrl, good.caBundle)],
    });
    backend.create(vwc, undefined, {
      metadata: { name: "v" },
      webhooks: [webhook("v.b.c", good.validateUrl, good.caBundle)],
    });
    const opts = { warnings: [] as string[] };
    const created = await w!.create(cm, "default", { metadata: { name: "a" } }, opts);
    expect([created.metadata?.labels, opts.warnings]).toEqual([{ mutated: "yes" }, ["seen"]]);
    const seen = good.received.filter((r) => r.name === "a");
    // The validating webhook saw the mutated object with its uid, as it is stored.
    expect(seen.at(-1)?.object?.metadata?.uid).toBe(created.metadata?.uid);
    const before = backend.currentRevision();
    const err = await w!
      .create(cm, "default", { metadata: { name: "b", labels: { ok: "no" } } })
      .catch((e) => e);
    expect([err.code, err.message]).toEqual([403, 'admission webhook "v.b.c" denied the request: not ok']);
    expect(backend.currentRevision()).toBe(before);
    // A mutating webhook may not patch a DELETE.
    const del = await w!.delete(cm, "default", "a").catch((e) => e);
    expect([del.code, del.message]).toEqual([
      500,
      'Internal error occurred: admission webhook "m.b.c" attempted to modify the object, which is not supported for this operation',
    ]);
    expect(backend.get(cm, "default", "a").metadata?.uid).toBe(created.metadata?.uid);
  });

  it("fails closed with 500 on garbage, a wrong uid or a service reference, and opens under Ignore", async () => {
    const { backend, cm, vwc, webhook, w } = setupBackend();
    backend.create(vwc, undefined, {
      metadata: { name: "v" },
      webhooks: [
        webhook("html.b.c", `${garbage.url}/html`, garbage.caBundle, {
          objectSelector: { matchLabels: { h: "1" } },
        }),
        webhook("uid.b.c", `${garbage.url}/json`, garbage.caBundle, {
          objectSelector: { matchLabels: { u: "1" } },
        }),
        {
          ...webhook("svc.b.c", "", "", { objectSelector: { matchLabels: { s: "1" } } }),
          clientConfig: { service: { namespace: "default", name: "hooks" } },
        },
        webhook("ignored.b.c", `${garbage.url}/html`, garbage.caBundle, { failurePolicy: "Ignore" }),
        webhook("ca.b.c", `${garbage.url}/html`, Buffer.from("not a certificate").toString("base64"), {
          objectSelector: { matchLabels: { c: "1" } },
        }),
        webhook(
          "ca-ignored.b.c",
          `${garbage.url}/html`,
          Buffer.from("not a certificate").toString("base64"),
          {
            failurePolicy: "Ignore",
          },
        ),
      ],
    });
    const fail = async (labels: Record<string, string>) => {
      const e = await w!.create(cm, "default", { metadata: { name: "x", labels } }).catch((x) => x);
      expect(e).toBeInstanceOf(StatusError);
      return [e.code, e.message];
    };
    expect(await fail({ h: "1" })).toEqual([
      500,
      expect.stringMatching(
        /^Internal error occurred: failed calling webhook "html.b.c": failed to call webhook: couldn't get version\/kind; json parse error: /,
      ),
    ]);
    expect(await fail({ u: "1" })).toEqual([
      500,
      expect.stringContaining("received invalid webhook response: expected response.uid="),
    ]);
    expect(await fail({ s: "1" })).toEqual([
      500,
      expect.stringContaining("cannot resolve service default/hooks"),
    ]);
    expect(await fail({ c: "1" })).toEqual([
      500,
      expect.stringContaining('failed calling webhook "ca.b.c": '),
    ]);
    expect(() => backend.get(cm, "default", "x")).toThrow();
    const ok = await w!.create(cm, "default", { metadata: { name: "y" } });
    expect(ok.metadata?.name).toBe("y");
  });
  it("starts a write again when the object changed while its webhooks ran", async () => {
    const { backend, cm, mwc, webhook, w } = setupBackend();
    let calls = 0;
    const racing = await startWebhookServer({
      mutate: (r) => {
        calls++;
        // The first call: someone else updates the object meanwhile.
        if (calls === 1)
          backend.patch(cm, "default", "raced", "application/merge-patch+json", { data: { other: "1" } });
        const obj = structuredClone(r.object!);
        obj.metadata = { ...obj.metadata, labels: { ...obj.metadata?.labels, call: String(calls) } };
        return patchResponseFromRaw(r.object, obj);
      },
    });
    try {
      backend.create(cm, "default", { metadata: { name: "raced" }, data: { a: "1" } });
      backend.create(mwc, undefined, {
        metadata: { name: "m" },
        webhooks: [webhook("m.b.c", racing.mutateUrl, racing.caBundle)],
      });
      const patched = await w!.patch(cm, "default", "raced", "application/merge-patch+json", {
        data: { mine: "1" },
      });
      expect([calls, patched.metadata?.labels, patched.data]).toEqual([
        2,
        { call: "2" },
        { a: "1", other: "1", mine: "1" },
      ]);
    } finally {
      await racing.stop();
    }
  });

  it("deletes a collection object by object through the webhooks", async () => {
    const { backend, cm, vwc, webhook, w } = setupBackend();
    for (const name of ["a", "b", "c"]) {
      backend.create(cm, "default", {
        metadata: { name, labels: name === "b" ? { ok: "no" } : { set: "1" } },
      });
    }
    backend.create(vwc, undefined, {
      metadata: { name: "v" },
      webhooks: [
        webhook("v.b.c", good.validateUrl, good.caBundle, {
          rules: [
            { operations: ["DELETE"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"] },
          ],
        }),
      ],
    });
    const err = await w!.deleteCollection(cm, "default", {}).catch((e) => e);
    // "a" went first; "b" (its oldObject labelled ok=no) stopped the collection with the webhook's denial.
    expect([err.code, err.message]).toEqual([403, 'admission webhook "v.b.c" denied the request: not ok']);
    expect(backend.list(cm, "default", {}).items.map((i) => i.metadata?.name)).toEqual(["b", "c"]);
  });
  it("checks what kube checks before webhooks first: an immortal namespace's delete is NamespaceLifecycle's 403", async () => {
    const { backend, vwc, w } = setupBackend();
    const nsType = backend.findResource("", "v1", "namespaces") as ResourceType;
    backend.create(vwc, undefined, {
      metadata: { name: "v" },
      webhooks: [
        {
          name: "ns.b.c",
          clientConfig: { url: "https://127.0.0.1:1/never" },
          rules: [
            { operations: ["DELETE"], apiGroups: [""], apiVersions: ["v1"], resources: ["namespaces"] },
          ],
          sideEffects: "None",
          admissionReviewVersions: ["v1"],
        },
      ],
    });
    const immortal = await w!.delete(nsType, undefined, "default").catch((e) => e);
    expect([immortal.code, immortal.reason]).toEqual([403, "Forbidden"]);
    const missing = await w!.delete(nsType, undefined, "nope").catch((e) => e);
    expect(missing.code).toBe(404);
    backend.create(nsType, undefined, { metadata: { name: "other" } });
    const unreachable = await w!.delete(nsType, undefined, "other").catch((e) => e);
    expect([unreachable.code, unreachable.reason]).toEqual([500, "InternalError"]);
  });
});
