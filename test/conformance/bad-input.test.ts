/**
 * Bad input answered as kube-apiserver answers it: field validation (`?fieldValidation=Strict|Warn|Ignore`:
 * unknown and duplicate fields of built-in kinds and custom resources), a POST to a named object's path, and an
 * unsupported `resourceVersionMatch`. Raw HTTPS, so the exact code, reason and Warning headers are visible.
 */
import { describe, expect, it } from "vitest";
import { raw, useSuiteCluster } from "./support.js";

const suite = useSuiteCluster();
const cmPath = (ns: string, name = "") => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ""}`;

/** The Warning header values of a reply, as one string. */
const warnings = (headers: Record<string, string | string[] | undefined>) =>
  [headers.warning ?? []].flat().join(", ");

describe("field validation of built-in kinds", () => {
  it("Strict: an unknown or duplicate field is 400 strict decoding error, and nothing is stored", async () => {
    const ns = await suite.namespace("fv-strict");
    const body =
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"s","bogus":1},"extra":{"x":1},"data":{"a":"1"},"data":{"b":"2"}}';
    const res = await raw(suite.kubeConfig, "POST", `${cmPath(ns)}?fieldValidation=Strict`, body);
    expect([res.code, res.body.reason]).toEqual([400, "BadRequest"]);
    expect(res.body.message).toContain(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error:',
    );
    for (const finding of [
      'unknown field "metadata.bogus"',
      'unknown field "extra"',
      'duplicate field "data"',
    ]) {
      expect(res.body.message).toContain(finding);
    }
    expect((await raw(suite.kubeConfig, "GET", cmPath(ns, "s"))).code).toBe(404);
  });

  it("Strict names nested unknown fields by their path", async () => {
    const ns = await suite.namespace("fv-nested");
    const deployment = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "d" },
      spec: {
        selector: { matchLabels: { a: "b" } },
        template: {
          metadata: { labels: { a: "b" } },
          spec: { containers: [{ name: "c", image: "i", bogus: true }] },
        },
        foo: 1,
      },
    };
    const path = `/apis/apps/v1/namespaces/${ns}/deployments?fieldValidation=Strict`;
    const res = await raw(suite.kubeConfig, "POST", path, JSON.stringify(deployment));
    expect(res.code).toBe(400);
    expect(res.body.message).toContain('unknown field "spec.template.spec.containers[0].bogus"');
    expect(res.body.message).toContain('unknown field "spec.foo"');
  });

  it("Warn (the default) drops unknown fields, merges a duplicate object, and says so in Warning headers", async () => {
    const ns = await suite.namespace("fv-warn");
    const body =
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"w"},"extra":1,"data":{"a":"1"},"data":{"b":"2"}}';
    const res = await raw(suite.kubeConfig, "POST", cmPath(ns), body);
    expect(res.code).toBe(201);
    expect(res.body.extra).toBeUndefined();
    expect(res.body.data).toEqual({ a: "1", b: "2" });
    expect(warnings(res.headers)).toContain('299 - "unknown field \\"extra\\""');
    expect(warnings(res.headers)).toContain('299 - "duplicate field \\"data\\""');
    const got = await raw(suite.kubeConfig, "GET", cmPath(ns, "w"));
    expect(got.body.extra).toBeUndefined();
  });

  it("Ignore drops unknown fields without a warning", async () => {
    const ns = await suite.namespace("fv-ignore");
    const body = JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "i" }, extra: 1 });
    const res = await raw(suite.kubeConfig, "POST", `${cmPath(ns)}?fieldValidation=Ignore`, body);
    expect([res.code, res.body.extra, warnings(res.headers)]).toEqual([201, undefined, ""]);
  });

  it("a Strict patch that adds an unknown field is 422 Invalid on the field patch; Warn stores without it", async () => {
    const ns = await suite.namespace("fv-patch");
    await raw(
      suite.kubeConfig,
      "POST",
      cmPath(ns),
      JSON.stringify({ metadata: { name: "p" }, data: { a: "1" } }),
    );
    const patch = '{"data":{"z":"1"},"bogus":{"x":1}}';
    const strict = await raw(
      suite.kubeConfig,
      "PATCH",
      `${cmPath(ns, "p")}?fieldValidation=Strict`,
      patch,
      "application/merge-patch+json",
    );
    expect([strict.code, strict.body.reason]).toEqual([422, "Invalid"]);
    expect(strict.body.details.causes[0].field).toBe("patch");
    expect(strict.body.message).toContain('strict decoding error: unknown field "bogus"');
    const warned = await raw(
      suite.kubeConfig,
      "PATCH",
      cmPath(ns, "p"),
      patch,
      "application/merge-patch+json",
    );
    expect([warned.code, warned.body.bogus, warned.body.data]).toEqual([200, undefined, { a: "1", z: "1" }]);
    expect(warnings(warned.headers)).toContain('unknown field \\"bogus\\"');
  });

  it("an unsupported fieldValidation value is 422 Invalid CreateOptions", async () => {
    const ns = await suite.namespace("fv-value");
    const body = JSON.stringify({ metadata: { name: "v" } });
    const res = await raw(suite.kubeConfig, "POST", `${cmPath(ns)}?fieldValidation=Nope`, body);
    expect([res.code, res.body.reason, res.body.details?.kind]).toEqual([422, "Invalid", "CreateOptions"]);
    expect(res.body.message).toBe(
      'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Nope": supported values: "", "Ignore", "Strict", "Warn"',
    );
  });
});

describe("field validation of custom resources (structural pruning)", () => {
  it("fields outside the CRD's schema are pruned with a warning, refused under Strict", async () => {
    const group = `fv${Date.now().toString(36)}.example.com`;
    const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    const crd = {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: `things.${group}` },
      spec: {
        group,
        scope: "Namespaced",
        names: { plural: "things", singular: "thing", kind: "Thing", listKind: "ThingList" },
        versions: [
          {
            name: "v1",
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: "object",
                properties: {
                  spec: {
                    type: "object",
                    properties: {
                      size: { type: "integer" },
                      free: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
                    },
                  },
                },
              },
            },
          },
        ],
      },
    };
    expect((await raw(suite.kubeConfig, "POST", crdPath, JSON.stringify(crd))).code).toBe(201);
    try {
      const ns = await suite.namespace("fv-cr");
      const path = `/apis/${group}/v1/namespaces/${ns}/things`;
      const thing = (name: string) => ({
        apiVersion: `${group}/v1`,
        kind: "Thing",
        metadata: { name },
        spec: { size: 1, color: "red", free: { anything: true } },
        top: 1,
      });
      let created = await raw(suite.kubeConfig, "POST", path, JSON.stringify(thing("a")));
      for (let i = 0; i < 50 && created.code === 404; i++) {
        await new Promise((r) => setTimeout(r, 100));
        created = await raw(suite.kubeConfig, "POST", path, JSON.stringify(thing("a")));
      }
      expect(created.code, JSON.stringify(created.body)).toBe(201);
      expect(created.body.spec).toEqual({ size: 1, free: { anything: true } });
      expect(created.body.top).toBeUndefined();
      expect(warnings(created.headers)).toContain('unknown field \\"spec.color\\"');
      const strict = await raw(
        suite.kubeConfig,
        "POST",
        `${path}?fieldValidation=Strict`,
        JSON.stringify(thing("b")),
      );
      expect(strict.code).toBe(400);
      expect(strict.body.message).toContain('unknown field "spec.color"');
    } finally {
      await raw(suite.kubeConfig, "DELETE", `${crdPath}/things.${group}`);
    }
  });
});

describe("requests kube-apiserver does not route or accept", () => {
  it("a POST to a named object's path is 405 MethodNotAllowed", async () => {
    const ns = await suite.namespace("post-named");
    const body = JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "n" } });
    const res = await raw(suite.kubeConfig, "POST", cmPath(ns, "n"), body);
    expect(res.code).toBe(405);
    expect(res.body).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "the server does not allow this method on the requested resource",
      reason: "MethodNotAllowed",
      details: {},
      code: 405,
    });
    expect((await raw(suite.kubeConfig, "GET", cmPath(ns, "n"))).code).toBe(404);
  });

  it("an unsupported resourceVersionMatch is 422 Invalid ListOptions", async () => {
    const ns = await suite.namespace("rvm");
    const res = await raw(
      suite.kubeConfig,
      "GET",
      `${cmPath(ns)}?resourceVersionMatch=Bogus&resourceVersion=1`,
    );
    expect([res.code, res.body.reason]).toEqual([422, "Invalid"]);
    expect(res.body.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""',
    );
    const both = await raw(suite.kubeConfig, "GET", `${cmPath(ns)}?resourceVersionMatch=Bogus`);
    expect(both.body.details.causes.map((c: { reason: string }) => c.reason)).toEqual([
      "FieldValueForbidden",
      "FieldValueNotSupported",
    ]);
  });
});

describe("bodies nested past the JSON decoder's 10,000 levels", () => {
  /** An object whose `extra` field opens 10,000 arrays: 10,001 levels with the object itself. */
  const deep = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;

  it("are 400 BadRequest on create, update and every patch type, in the decoder's words, and nothing is stored", async () => {
    const ns = await suite.namespace("deep");
    const object = (name: string) =>
      `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"},"data":{"a":"1"},"extra":${deep}}`;
    const made = await raw(
      suite.kubeConfig,
      "POST",
      cmPath(ns),
      object("live").replace(`,"extra":${deep}`, ""),
    );
    expect(made.code).toBe(201);
    const before = await raw(suite.kubeConfig, "GET", cmPath(ns, "live"));
    const decodeError = `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character '[' exceeded max depth ({"apiVersion":"v1","kind":"Con ...)`;
    const cases: Array<[string, string, string, string, string]> = [
      ["create", "POST", cmPath(ns), object("new"), decodeError],
      ["update", "PUT", cmPath(ns, "live"), object("live"), decodeError],
      [
        "application/merge-patch+json",
        "PATCH",
        cmPath(ns, "live"),
        `{"extra":${deep}}`,
        "error decoding patch: invalid character '[' exceeded max depth",
      ],
      [
        "application/strategic-merge-patch+json",
        "PATCH",
        cmPath(ns, "live"),
        `{"extra":${deep}}`,
        "invalid character '[' exceeded max depth",
      ],
      [
        "application/json-patch+json",
        "PATCH",
        cmPath(ns, "live"),
        `[{"op":"add","path":"/extra","value":${deep.slice(1, -1)}}]`,
        "error decoding patch: invalid character '[' exceeded max depth",
      ],
      [
        "application/apply-patch+yaml",
        "PATCH",
        `${cmPath(ns, "live")}?fieldManager=deep`,
        object("live"),
        "error decoding YAML: error converting YAML to JSON: yaml: exceeded max depth of 10000",
      ],
    ];
    for (const [verb, method, path, body, message] of cases) {
      const type = verb.startsWith("application/") ? verb : "application/json";
      const res = await raw(suite.kubeConfig, method, path, body, type);
      expect([verb, res.code, res.body]).toEqual([
        verb,
        400,
        {
          kind: "Status",
          apiVersion: "v1",
          metadata: {},
          status: "Failure",
          message,
          reason: "BadRequest",
          code: 400,
        },
      ]);
    }
    expect((await raw(suite.kubeConfig, "GET", cmPath(ns, "new"))).code).toBe(404);
    expect((await raw(suite.kubeConfig, "GET", cmPath(ns, "live"))).body).toEqual(before.body);
    expect((await raw(suite.kubeConfig, "GET", "/healthz")).body).toBe("ok");
  });
});
