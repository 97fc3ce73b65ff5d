/**
 * The checks a conversion webhook's answer goes through (`webhookConverter.Convert`), against a test HTTPS
 * server that answers whatever the scenario says, and the rounds a write takes when its body must be converted.
 */
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StatusError } from "../../../src/apimachinery/errors.js";
import type { KubeObject } from "../../../src/apimachinery/object.js";
import { startWebhookServer } from "../../../src/control-plane/admission/webhook-server.js";
import { WebhookConversion } from "../../../src/control-plane/apiserver/registry/crd-conversion-webhook.js";
import { generateServingCertificates } from "../../../src/control-plane/apiserver/tls.js";
import type { SchemaProps } from "../../../src/control-plane/apiserver/validation/openapi-schema.js";

type Review = { request: { uid: string; desiredAPIVersion: string; objects: KubeObject[] } };

/** What the test server answers to a review (its `response`), or the raw body when a string. */
let answer: (review: Review) => unknown = () => ({});
let server: Server;
let url = "";
let caBundle = "";
const reviews: Review[] = [];

beforeAll(async () => {
  const certs = await generateServingCertificates({ dnsNames: ["localhost"], ipAddresses: ["127.0.0.1"] });
  caBundle = Buffer.from(certs.caPem).toString("base64");
  server = createServer({ key: certs.keyPem, cert: certs.certPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const review = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Review;
      reviews.push(review);
      const body = answer(review);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(typeof body === "string" ? body : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/convert`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const stored: KubeObject = {
  apiVersion: "example.com/v1",
  kind: "Widget",
  metadata: { name: "w", namespace: "default", uid: "u-1", resourceVersion: "7", labels: { a: "1" } },
  spec: { size: 2 },
};

function conversion(): WebhookConversion {
  const schema = (props: Record<string, SchemaProps>): SchemaProps => ({
    type: "object",
    properties: { spec: { type: "object", properties: props } },
  });
  return new WebhookConversion(
    "example.com",
    "Widget",
    { url, caBundle },
    new Map([
      ["example.com/v1alpha1", schema({ count: { type: "string" } })],
      ["example.com/v1", schema({ size: { type: "integer" } })],
    ]),
  );
}

/** A well-formed answer converting every object with `change`. */
function ok(change: (o: KubeObject, desired: string) => KubeObject) {
  return (review: Review) => ({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "ConversionReview",
    response: {
      uid: review.request.uid,
      result: { status: "Success" },
      convertedObjects: review.request.objects.map((o) => change(o, review.request.desiredAPIVersion)),
    },
  });
}

async function failureOf(p: Promise<unknown>): Promise<StatusError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error("expected the conversion to fail");
}

const toAlpha = (o: KubeObject, desired: string): KubeObject => ({
  ...o,
  apiVersion: desired,
  spec: { count: String((o.spec as { size: number }).size), extra: "pruned" },
});

describe("conversion webhook answers", () => {
  it("sends a ConversionReview v1 and keeps the original metadata but the answer's labels and annotations", async () => {
    reviews.length = 0;
    answer = ok((o, d) => ({
      ...toAlpha(o, d),
      metadata: { ...o.metadata, resourceVersion: "999", labels: { b: "2" }, annotations: { n: "x" } },
    }));
    const out = await conversion().run("example.com/v1alpha1", true, () => stored);
    expect(reviews).toHaveLength(1);
    expect(reviews[0]).toMatchObject({
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "ConversionReview",
      request: { desiredAPIVersion: "example.com/v1alpha1", objects: [stored] },
    });
    // Pruned to v1alpha1's schema; resourceVersion is the stored one, labels and annotations the answer's.
    expect(out).toEqual({
      apiVersion: "example.com/v1alpha1",
      kind: "Widget",
      metadata: { ...stored.metadata, labels: { b: "2" }, annotations: { n: "x" } },
      spec: { count: "2" },
    });
    // A list's items are converted one by one; an item already in the target version is not sent.
    reviews.length = 0;
    const list = await conversion().run("example.com/v1alpha1", true, () => ({
      items: [stored, { ...stored, apiVersion: "example.com/v1alpha1", spec: { count: "9" } }],
    }));
    expect(list.items.map((o) => o.spec)).toEqual([{ count: "2" }, { count: "9" }]);
    expect(reviews).toHaveLength(1);
  });

  it("refuses a wrong answer with kube-apiserver's words, as a 500 without reason", async () => {
    const cases: Array<[(r: Review) => unknown, string]> = [
      [
        (r) => ({ ...(ok(toAlpha)(r) as object), response: { uid: "other", result: { status: "Success" } } }),
        `failed: expected response.uid="`,
      ],
      [
        (r) => ({ ...(ok(toAlpha)(r) as object), apiVersion: "apiextensions.k8s.io/v1beta1" }),
        "failed: expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1beta1, Kind=ConversionReview",
      ],
      [
        (r) => ({
          apiVersion: "apiextensions.k8s.io/v1",
          kind: "ConversionReview",
          response: { uid: r.request.uid, result: { status: "Failure", message: "cannot convert" } },
        }),
        "failed: cannot convert",
      ],
      [
        (r) => ({
          apiVersion: "apiextensions.k8s.io/v1",
          kind: "ConversionReview",
          response: { uid: r.request.uid, result: { status: "Failure" } },
        }),
        "failed: response.result.status was 'Failure', not 'Success'",
      ],
      [
        ok(() => stored),
        "returned invalid object at index 0: invalid groupVersion (expected example.com/v1alpha1, received example.com/v1)",
      ],
      [
        (r) => ({
          ...(ok(toAlpha)(r) as { response: object }),
          response: { uid: r.request.uid, result: { status: "Success" }, convertedObjects: [] },
        }),
        "returned 0 objects, expected 1",
      ],
      [
        ok((o, d) => ({ ...toAlpha(o, d), metadata: { ...o.metadata, uid: "u-2" } })),
        "returned invalid object: must have the same UID: u-1 != u-2",
      ],
      [() => "not json", "failed: couldn't get version/kind; json parse error: "],
    ];
    for (const [reply, words] of cases) {
      answer = reply;
      const err = await failureOf(conversion().run("example.com/v1alpha1", true, () => stored));
      expect([err.code, err.status.reason]).toEqual([500, undefined]);
      expect(err.status.message).toContain(`conversion webhook for example.com/v1, Kind=Widget ${words}`);
    }
  });

  it("refuses an answer nested past the body limit instead of walking it", async () => {
    // 5,000 levels, written as text (the test's own JSON.stringify would recurse as deep).
    const levels = 5_000;
    const deep = `${'{"d":'.repeat(levels)}"leaf"${"}".repeat(levels)}`;
    answer = (review) => {
      const text = JSON.stringify(ok(toAlpha)(review));
      return text.replace('"extra":"pruned"', `"extra":"pruned","deep":${deep}`);
    };
    const err = await failureOf(conversion().run("example.com/v1alpha1", true, () => stored));
    expect(err.code).toBe(500);
    expect(err.status.message).toContain("returned invalid object: nested deeper than 1000 levels");
  });

  it("a write whose body needs converting runs again with the webhook's answer, writing once", async () => {
    reviews.length = 0;
    answer = ok((o, d) => ({
      ...o,
      apiVersion: d,
      spec: { size: Number((o.spec as { count: string }).count) },
    }));
    const conv = conversion();
    const toStorage = conv.writeConverter("example.com/v1alpha1", "example.com/v1");
    const written: KubeObject[] = [];
    const body: KubeObject = {
      apiVersion: "example.com/v1alpha1",
      kind: "Widget",
      metadata: { name: "n" },
      spec: { count: "4" },
    };
    let rounds = 0;
    const result = await conv.run("example.com/v1", false, () => {
      rounds++;
      const obj = toStorage(body);
      written.push(obj);
      return obj;
    });
    expect(rounds).toBe(2);
    expect(written).toEqual([
      { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "n" }, spec: { size: 4 } },
    ]);
    expect(result.spec).toEqual({ size: 4 });
    expect(reviews.map((r) => r.request.desiredAPIVersion)).toEqual(["example.com/v1"]);
    // Outside a request (the in-process verbs) no webhook can be called: a 500, nothing written.
    expect(() => toStorage(body)).toThrow(/not called in-process/);
  });

  it("a webhook that cannot be reached fails with Go's words for the dial", async () => {
    const conv = new WebhookConversion(
      "example.com",
      "Widget",
      { url: "https://127.0.0.1:1/convert", caBundle },
      new Map(),
    );
    const err = await failureOf(conv.run("example.com/v1alpha1", true, () => stored));
    expect(err.status.message).toBe(
      'conversion webhook for example.com/v1, Kind=Widget failed: Post "https://127.0.0.1:1/convert?timeout=30s": dial tcp 127.0.0.1:1: connect: connection refused',
    );
  });

  it("startWebhookServer's convert handler answers reviews, and a handler that throws answers Failure", async () => {
    const learner = await startWebhookServer({
      convert: (obj, desired) => {
        if ((obj.spec as { size: number }).size < 0) throw new Error("size must not be negative");
        return { ...obj, apiVersion: desired, spec: { count: String((obj.spec as { size: number }).size) } };
      },
    });
    try {
      const conv = new WebhookConversion(
        "example.com",
        "Widget",
        { url: learner.convertUrl, caBundle: learner.caBundle },
        new Map(),
      );
      const out = await conv.run("example.com/v1alpha1", true, () => stored);
      expect([out.apiVersion, out.spec]).toEqual(["example.com/v1alpha1", { count: "2" }]);
      const err = await failureOf(
        conv.run("example.com/v1alpha1", true, () => ({ ...stored, spec: { size: -1 } })),
      );
      expect(err.status.message).toBe(
        "conversion webhook for example.com/v1, Kind=Widget failed: size must not be negative",
      );
      expect(learner.conversions.map((r) => [r.desiredAPIVersion, r.objects.length])).toEqual([
        ["example.com/v1alpha1", 1],
        ["example.com/v1alpha1", 1],
      ]);
    } finally {
      await learner.stop();
    }
  });
});
