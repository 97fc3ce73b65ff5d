/**
 * Protobuf request bodies, as client-go's typed clients and controller-runtime send built-in kinds by default
 * (`application/vnd.kubernetes.protobuf`): objects, the `DeleteOptions` of every typed Delete, a CRD from the
 * typed apiextensions clientset. Raw HTTPS with hand-encoded bodies (test/support/proto-encoder.ts), so the same
 * bytes reach the embedded server and kube-apiserver.
 */
import { describe, expect, it } from "vitest";
import { bfield, entry, envelope, fields, sfield, vfield } from "../support/proto-encoder.js";
import { eventually, raw, useSuiteCluster } from "./support.js";

const suite = useSuiteCluster();
const PROTOBUF = "application/vnd.kubernetes.protobuf";

const cmPath = (ns: string, name = "") => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ""}`;

/** A ConfigMap message: metadata.name and one data entry. */
const configMap = (name: string, ...extra: Uint8Array[]) =>
  envelope("v1", "ConfigMap", fields(bfield(1, sfield(1, name)), entry(2, "k", "v"), ...extra));

/** A DeleteOptions message under `apiVersion`: propagationPolicy and an optional uid precondition. */
const deleteOptions = (apiVersion: string, policy: string, uid?: string) =>
  envelope(
    apiVersion,
    "DeleteOptions",
    fields(...(uid !== undefined ? [bfield(2, sfield(1, uid))] : []), sfield(4, policy)),
  );

describe("protobuf bodies", () => {
  it("a ConfigMap created in protobuf is answered and read back as JSON", async () => {
    const ns = await suite.namespace("pb-create");
    const created = await raw(suite.kubeConfig, "POST", cmPath(ns), configMap("c"), PROTOBUF);
    expect([created.code, created.body.kind, created.body.data]).toEqual([201, "ConfigMap", { k: "v" }]);
    const got = await raw(suite.kubeConfig, "GET", cmPath(ns, "c"));
    expect(got.body.data).toEqual({ k: "v" });
  });

  it("DELETE with a protobuf DeleteOptions body: a wrong uid precondition is 409, the right one deletes", async () => {
    const ns = await suite.namespace("pb-delete");
    const created = await raw(suite.kubeConfig, "POST", cmPath(ns), configMap("d"), PROTOBUF);
    const wrong = deleteOptions("v1", "Background", "00000000-0000-0000-0000-000000000000");
    const refused = await raw(suite.kubeConfig, "DELETE", cmPath(ns, "d"), wrong, PROTOBUF);
    expect([refused.code, refused.body.reason]).toEqual([409, "Conflict"]);
    const right = deleteOptions("v1", "Background", created.body.metadata.uid);
    const deleted = await raw(suite.kubeConfig, "DELETE", cmPath(ns, "d"), right, PROTOBUF);
    expect([deleted.code, deleted.body.status]).toEqual([200, "Success"]);
    expect((await raw(suite.kubeConfig, "GET", cmPath(ns, "d"))).code).toBe(404);
  });

  it("DeleteOptions come under the client's own group version (apps/v1 for a Deployment)", async () => {
    const ns = await suite.namespace("pb-apps");
    const labels = entry(11, "app", "w");
    const container = fields(sfield(1, "main"), sfield(2, "nginx"));
    const template = fields(bfield(1, labels), bfield(2, bfield(2, container)));
    const spec = fields(vfield(1, 1), bfield(2, entry(1, "app", "w")), bfield(3, template));
    const deployment = envelope("apps/v1", "Deployment", fields(bfield(1, sfield(1, "w")), bfield(2, spec)));
    const path = `/apis/apps/v1/namespaces/${ns}/deployments`;
    const created = await raw(suite.kubeConfig, "POST", path, deployment, PROTOBUF);
    expect(created.code, JSON.stringify(created.body)).toBe(201);
    expect(created.body.spec.template.spec.containers[0].image).toBe("nginx");
    const res = await raw(
      suite.kubeConfig,
      "DELETE",
      `${path}/w`,
      deleteOptions("apps/v1", "Foreground"),
      PROTOBUF,
    );
    expect(res.code).toBe(200);
  });

  it("field numbers the server does not know (a newer client's) are ignored, not refused", async () => {
    const ns = await suite.namespace("pb-unknown");
    const body = configMap("u", bfield(999, sfield(1, "from the future")));
    const created = await raw(suite.kubeConfig, "POST", cmPath(ns), body, PROTOBUF);
    expect([created.code, created.body.data]).toEqual([201, { k: "v" }]);
  });

  it("malformed protobuf is 400 BadRequest and nothing is stored", async () => {
    const ns = await suite.namespace("pb-bad");
    const bad = Uint8Array.of(0x6b, 0x38, 0x73, 0x00, 0x12, 0xff);
    const res = await raw(suite.kubeConfig, "POST", cmPath(ns), bad, PROTOBUF);
    expect([res.code, res.body.kind, res.body.reason]).toEqual([400, "Status", "BadRequest"]);
  });

  it("a CustomResourceDefinition in protobuf (the typed apiextensions clientset) is created and served", async () => {
    const group = `pb${Date.now().toString(36)}.example.com`;
    const props = fields(sfield(5, "object"), vfield(38, true));
    const version = fields(sfield(1, "v1"), vfield(2, true), vfield(3, true), bfield(4, bfield(1, props)));
    const names = fields(
      sfield(1, "gadgets"),
      sfield(2, "gadget"),
      sfield(4, "Gadget"),
      sfield(5, "GadgetList"),
    );
    const spec = fields(sfield(1, group), bfield(3, names), sfield(4, "Namespaced"), bfield(7, version));
    const name = `gadgets.${group}`;
    const crd = envelope(
      "apiextensions.k8s.io/v1",
      "CustomResourceDefinition",
      fields(bfield(1, sfield(1, name)), bfield(2, spec)),
    );
    const path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    const created = await raw(suite.kubeConfig, "POST", path, crd, PROTOBUF);
    try {
      expect(created.code, JSON.stringify(created.body)).toBe(201);
      expect(created.body.spec.versions[0].schema.openAPIV3Schema).toEqual({
        type: "object",
        "x-kubernetes-preserve-unknown-fields": true,
      });
      await eventually(async () => (await raw(suite.kubeConfig, "GET", `/apis/${group}/v1`)).code === 200);
    } finally {
      const opts = envelope("apiextensions.k8s.io/v1", "DeleteOptions", new Uint8Array(0));
      await raw(suite.kubeConfig, "DELETE", `${path}/${name}`, opts, PROTOBUF);
    }
  });
});
