/**
 * Fidelity scenarios: requests whose exact answer (code, reason, message, shape) once differed between the
 * embedded server and kube-apiserver 1.34. Written against `Cluster` only, so `workbook conformance` runs them on
 * both backends; raw HTTPS (the kubeconfig's credentials) where client-node cannot express the request or hides
 * the wire shape.
 */
import { AppsV1Api, CoreV1Api, type V1ConfigMap } from "@kubernetes/client-node";
import { beforeAll, describe, expect, it } from "vitest";
import {
  failure,
  isClusterConfigMap,
  jsonPatch,
  mergePatch,
  own,
  raw,
  type Status,
  useSuiteCluster,
} from "./support.js";

const suite = useSuiteCluster();
const ns = (prefix: string) => suite.namespace(prefix);
/** The core/v1 client of the suite's cluster (made once it has started). */
let api: CoreV1Api;
beforeAll(() => {
  api = suite.kubeConfig.makeApiClient(CoreV1Api);
});

/** A one-key ConfigMap named `name`, with extra metadata (finalizers, resourceVersion...). */
const cm = (name: string, meta: V1ConfigMap["metadata"] = {}): V1ConfigMap => ({
  metadata: { ...meta, name },
  data: { k: "v" },
});

const cmPath = (namespace: string, name = "") =>
  `/api/v1/namespaces/${namespace}/configmaps${name ? `/${name}` : ""}`;

describe("namespaces", () => {
  it("a created namespace carries the label kubernetes.io/metadata.name with its name", async () => {
    const namespace = await ns("label");
    const got = await api.readNamespace({ name: namespace });
    expect(got.metadata?.labels?.["kubernetes.io/metadata.name"]).toBe(namespace);
    const selected = await api.listNamespace({ labelSelector: `kubernetes.io/metadata.name=${namespace}` });
    expect(selected.items.map((n) => n.metadata?.name)).toEqual([namespace]);
  });

  it("DELETE of a namespace answers with the Namespace, Terminating, not a Status", async () => {
    const name = `fid-del-${Date.now().toString(36)}`;
    await api.createNamespace({ body: { metadata: { name } } });
    const reply = await raw(suite.kubeConfig, "DELETE", `/api/v1/namespaces/${name}`);
    expect(reply.code).toBe(200);
    expect(reply.body.kind).toBe("Namespace");
    expect(reply.body.status.phase).toBe("Terminating");
    expect(reply.body.metadata.deletionTimestamp).toBeTruthy();
  });
});

describe("DELETE answers", () => {
  it("an immediate delete answers a bare Success Status (no code, message or reason)", async () => {
    const namespace = await ns("status");
    const made = await api.createNamespacedConfigMap({ namespace, body: cm("gone") });
    const reply = await raw(suite.kubeConfig, "DELETE", cmPath(namespace, "gone"));
    expect(reply.code).toBe(200);
    expect(reply.body).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Success",
      details: { name: "gone", kind: "configmaps", uid: made.metadata?.uid },
    });
  });

  it("preconditions that do not hold are 409 naming the Kind, in the storage layer's words", async () => {
    const namespace = await ns("precond");
    const made = await api.createNamespacedConfigMap({ namespace, body: cm("a") });
    const uid = await failure(
      api.deleteNamespacedConfigMap({ name: "a", namespace, body: { preconditions: { uid: "x" } } }),
    );
    expect(uid.code).toBe(409);
    expect(uid.status).toMatchObject({ reason: "Conflict", details: { name: "a", kind: "ConfigMap" } });
    expect(uid.status.message).toBe(
      `Operation cannot be fulfilled on ConfigMap "a": the UID in the precondition (x) does not match the UID in record (${made.metadata?.uid}). The object might have been deleted and then recreated`,
    );
    const rv = await failure(
      api.deleteNamespacedConfigMap({
        name: "a",
        namespace,
        body: { preconditions: { resourceVersion: "1" } },
      }),
    );
    expect(rv.code).toBe(409);
    expect(rv.status.message).toBe(
      `Operation cannot be fulfilled on ConfigMap "a": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${made.metadata?.resourceVersion}). The object might have been modified`,
    );
  });

  it("an unknown propagationPolicy is 422 Invalid DeleteOptions (query or body)", async () => {
    const namespace = await ns("policy");
    await api.createNamespacedConfigMap({ namespace, body: cm("a") });
    const message =
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"';
    const q = await raw(suite.kubeConfig, "DELETE", `${cmPath(namespace, "a")}?propagationPolicy=Sideways`);
    expect(q.code).toBe(422);
    expect(q.body).toMatchObject({
      reason: "Invalid",
      message,
      details: {
        kind: "DeleteOptions",
        group: "meta.k8s.io",
        causes: [{ reason: "FieldValueNotSupported", field: "propagationPolicy" }],
      },
    });
    const b = await raw(
      suite.kubeConfig,
      "DELETE",
      cmPath(namespace, "a"),
      JSON.stringify({ propagationPolicy: "Sideways" }),
    );
    expect(b.code).toBe(422);
    expect(b.body.message).toBe(message);
    await api.readNamespacedConfigMap({ name: "a", namespace });
  });

  it("removing the last finalizer of a deleting object answers with the object without that finalizer", async () => {
    const namespace = await ns("release");
    await api.createNamespacedConfigMap({
      namespace,
      body: cm("held", { finalizers: ["workbook.example.com/hold"] }),
    });
    await api.deleteNamespacedConfigMap({ name: "held", namespace });
    const released = await api.patchNamespacedConfigMap(
      { name: "held", namespace, body: { metadata: { finalizers: null } } },
      mergePatch,
    );
    expect(released.metadata?.finalizers ?? []).toEqual([]);
    expect(released.metadata?.deletionTimestamp).toBeTruthy();
    expect((await failure(api.readNamespacedConfigMap({ name: "held", namespace }))).code).toBe(404);
  });
});

describe("resourceVersion parameters", () => {
  it("create with metadata.resourceVersion set is 500 'resourceVersion should not be set on objects to be created'", async () => {
    const namespace = await ns("createrv");
    const { code, status } = await failure(
      api.createNamespacedConfigMap({ namespace, body: cm("a", { resourceVersion: "5" }) }),
    );
    expect(code).toBe(500);
    expect(status.message).toBe("resourceVersion should not be set on objects to be created");
    expect(Object.keys(status)).not.toContain("reason"); // Go omits the empty reason
    // A dry run never reaches the storage check: it succeeds and echoes the version sent.
    const dry = await api.createNamespacedConfigMap({
      namespace,
      body: cm("a", { resourceVersion: "5" }),
      dryRun: "All",
    });
    expect(dry.metadata?.resourceVersion).toBe("5");
    expect((await failure(api.readNamespacedConfigMap({ name: "a", namespace }))).code).toBe(404);
  });

  it("a malformed resourceVersion is 500 on GET and WATCH, 400 on LIST, with ParseUint's words", async () => {
    const namespace = await ns("badrv");
    await api.createNamespacedConfigMap({ namespace, body: cm("a") });
    const why = 'resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax';
    const get = await raw(suite.kubeConfig, "GET", `${cmPath(namespace, "a")}?resourceVersion=abc`);
    expect(get.code).toBe(500);
    expect(get.body.message).toBe(why);
    const watch = await raw(suite.kubeConfig, "GET", `${cmPath(namespace)}?watch=true&resourceVersion=abc`);
    expect(watch.code).toBe(500);
    expect(watch.body.message).toBe(why);
    const list = await raw(suite.kubeConfig, "GET", `${cmPath(namespace)}?resourceVersion=abc`);
    expect(list.code).toBe(400);
    expect(list.body).toMatchObject({ reason: "BadRequest", message: `invalid resource version: ${why}` });
  });

  it("GET at a resourceVersion newer than the store is 504 Timeout, cause ResourceVersionTooLarge", async () => {
    const namespace = await ns("bigrv");
    await api.createNamespacedConfigMap({ namespace, body: cm("a") });
    const r = await raw(suite.kubeConfig, "GET", `${cmPath(namespace, "a")}?resourceVersion=999999999`);
    const { code, status } = { code: r.code, status: r.body as Status };
    expect(code).toBe(504);
    expect(status).toMatchObject({
      reason: "Timeout",
      details: {
        causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }],
        retryAfterSeconds: 1,
      },
    });
    expect(status.message).toMatch(/^Timeout: Too large resource version: 999999999, current: \d+$/);
  });

  it("resourceVersionMatch without resourceVersion is 422 Invalid ListOptions", async () => {
    const namespace = await ns("rvmatch");
    const { code, status } = await failure(
      api.listNamespacedConfigMap({ namespace, resourceVersionMatch: "NotOlderThan" }),
    );
    expect(code).toBe(422);
    expect(status).toMatchObject({
      reason: "Invalid",
      message:
        'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
      details: {
        kind: "ListOptions",
        group: "meta.k8s.io",
        causes: [{ reason: "FieldValueForbidden", field: "resourceVersionMatch" }],
      },
    });
    expect(Object.keys(status.details ?? {})).not.toContain("name"); // Go omits the empty name
  });

  it('resourceVersionMatch=Exact with resourceVersion "0" is 422 Invalid ListOptions', async () => {
    const namespace = await ns("exact0");
    const { code, status } = await failure(
      api.listNamespacedConfigMap({ namespace, resourceVersion: "0", resourceVersionMatch: "Exact" }),
    );
    expect(code).toBe(422);
    expect(status.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
    );
  });

  it("a LIST at resourceVersion=0 ignores limit: every item, no continue token (the watch cache serves it)", async () => {
    const namespace = await ns("rv0");
    for (const n of ["a", "b", "c", "d", "e"])
      await api.createNamespacedConfigMap({ namespace, body: cm(n) });
    const whole = await api.listNamespacedConfigMap({ namespace, resourceVersion: "0", limit: 2 });
    expect(own(whole.items).map((i) => i.metadata?.name)).toEqual(["a", "b", "c", "d", "e"]);
    expect(whole.metadata?._continue).toBeUndefined();
    const paged = await api.listNamespacedConfigMap({ namespace, limit: 2 });
    expect(paged.items).toHaveLength(2);
    expect(paged.metadata?._continue).toBeTruthy();
  });
});

describe("wire shapes", () => {
  it("items of a built-in LIST (and DELETE collection) carry no apiVersion/kind; the list does", async () => {
    const namespace = await ns("items");
    await api.createNamespacedConfigMap({ namespace, body: cm("a") });
    const list = await raw(suite.kubeConfig, "GET", cmPath(namespace));
    expect(list.body).toMatchObject({ kind: "ConfigMapList", apiVersion: "v1" });
    const items = own(list.body.items as any[]);
    expect(items).toHaveLength(1);
    expect(items[0].apiVersion).toBeUndefined();
    expect(items[0].kind).toBeUndefined();
    expect(items[0].metadata.name).toBe("a");
    const deleted = await raw(suite.kubeConfig, "DELETE", cmPath(namespace));
    expect(deleted.body.kind).toBe("ConfigMapList");
    expect(own(deleted.body.items as any[]).map((i: any) => [i.metadata.name, i.kind, i.apiVersion])).toEqual(
      [["a", undefined, undefined]],
    );
  });
});

describe("Table output (kubectl get)", () => {
  const TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";

  it("a LIST asked as Table is a meta.k8s.io/v1 Table: Name, the kind's columns, Age; rows carry metadata", async () => {
    const namespace = await ns("table");
    await api.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: "a" }, data: { x: "1", y: "2" } },
    });
    const r = await raw(suite.kubeConfig, "GET", cmPath(namespace), undefined, undefined, TABLE);
    expect(r.code).toBe(200);
    expect(r.body).toMatchObject({ kind: "Table", apiVersion: "meta.k8s.io/v1" });
    expect(r.body.metadata.resourceVersion).toBeTruthy();
    expect(r.body.columnDefinitions.map((c: any) => c.name)).toEqual(["Name", "Data", "Age"]);
    const rows = (r.body.rows as any[]).filter((row) => !isClusterConfigMap(row.object));
    expect(rows).toHaveLength(1);
    expect(rows[0].cells.slice(0, 2)).toEqual(["a", 2]);
    expect(rows[0].cells[2]).toMatch(/^\d+s$/);
    expect(rows[0].object).toMatchObject({
      kind: "PartialObjectMetadata",
      apiVersion: "meta.k8s.io/v1",
      metadata: { name: "a", namespace },
    });
  });

  it("a WATCH asked as Table sends each object as a one-row Table (kubectl get -w)", async () => {
    const namespace = await ns("tablewatch");
    await api.createNamespacedConfigMap({ namespace, body: { metadata: { name: "a" }, data: { x: "1" } } });
    const path = `${cmPath(namespace)}?watch=true&resourceVersion=0&timeoutSeconds=1`;
    const r = await raw(suite.kubeConfig, "GET", path, undefined, undefined, TABLE);
    expect(r.code).toBe(200);
    const text = typeof r.body === "string" ? r.body : JSON.stringify(r.body);
    const first = JSON.parse(text.split("\n")[0] ?? "");
    expect(first.type).toBe("ADDED");
    expect(first.object).toMatchObject({ kind: "Table", apiVersion: "meta.k8s.io/v1" });
    expect(first.object.rows.map((row: any) => row.cells.slice(0, 2))).toEqual([["a", 1]]);
    expect(first.object.rows[0].object.metadata.name).toBe("a");
  });

  it("a GET asked as Table has one row (a namespace shows its Status)", async () => {
    const namespace = await ns("tableget");
    const r = await raw(
      suite.kubeConfig,
      "GET",
      `/api/v1/namespaces/${namespace}`,
      undefined,
      undefined,
      TABLE,
    );
    expect(r.code).toBe(200);
    expect(r.body.kind).toBe("Table");
    expect(r.body.columnDefinitions.map((c: any) => c.name)).toEqual(["Name", "Status", "Age"]);
    expect(r.body.rows.map((row: any) => row.cells.slice(0, 2))).toEqual([[namespace, "Active"]]);
  });
});

describe("validation and decoding messages", () => {
  it("a merge patch changing metadata.uid is 422 'field is immutable'", async () => {
    const namespace = await ns("uid");
    await api.createNamespacedConfigMap({ namespace, body: cm("a") });
    const { code, status } = await failure(
      api.patchNamespacedConfigMap({ name: "a", namespace, body: { metadata: { uid: "x" } } }, mergePatch),
    );
    expect(code).toBe(422);
    expect(status.message).toBe(
      'ConfigMap "a" is invalid: metadata.uid: Invalid value: "x": field is immutable',
    );
    expect(status.details?.causes?.[0]).toEqual({
      reason: "FieldValueInvalid",
      message: 'Invalid value: "x": field is immutable',
      field: "metadata.uid",
    });
  });

  it("a PUT with another uid is a 409 storage precondition; an unparsable resourceVersion a bare 500", async () => {
    const namespace = await ns("putuid");
    const made = await api.createNamespacedConfigMap({ namespace, body: cm("a") });
    const uid = await failure(
      api.replaceNamespacedConfigMap({ name: "a", namespace, body: { metadata: { name: "a", uid: "zzz" } } }),
    );
    expect(uid.code).toBe(409);
    expect(uid.status.message).toBe(
      `Operation cannot be fulfilled on configmaps "a": StorageError: invalid object, Code: 4, Key: /registry/configmaps/${namespace}/a, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: zzz, UID in object meta: ${made.metadata?.uid}`,
    );
    const rv = await failure(
      api.replaceNamespacedConfigMap({
        name: "a",
        namespace,
        body: { metadata: { name: "a", resourceVersion: "abc" } },
      }),
    );
    expect(rv.code).toBe(500);
    expect(rv.status.message).toBe('strconv.ParseUint: parsing "abc": invalid syntax');
  });

  it("PUT or PATCH on a collection is 405 MethodNotAllowed", async () => {
    const namespace = await ns("collection");
    for (const method of ["PUT", "PATCH"]) {
      const r = await raw(suite.kubeConfig, method, cmPath(namespace), "{}", "application/merge-patch+json");
      expect(r.code, method).toBe(405);
      expect(r.body).toMatchObject({
        reason: "MethodNotAllowed",
        message: "the server does not allow this method on the requested resource",
      });
    }
  });

  it("an invalid Deployment reports every cause: selector, template labels, containers", async () => {
    const namespace = await ns("deploy");
    const apps = suite.kubeConfig.makeApiClient(AppsV1Api);
    const { code, status } = await failure(
      apps.createNamespacedDeployment({
        namespace,
        body: {
          metadata: { name: "dep" },
          spec: { template: { metadata: { labels: { a: "b" } } } },
        } as never,
      }),
    );
    expect(code).toBe(422);
    expect(status.message).toBe(
      'Deployment.apps "dep" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: {"a":"b"}: `selector` does not match template `labels`, spec.template.spec.containers: Required value]',
    );
    expect(status.details?.causes?.map((c) => [c.reason, c.field])).toEqual([
      ["FieldValueRequired", "spec.selector"],
      ["FieldValueInvalid", "spec.template.metadata.labels"],
      ["FieldValueRequired", "spec.template.spec.containers"],
    ]);
  });

  it("a body of another kind or apiVersion is 400 in the decoder's words", async () => {
    const namespace = await ns("kind");
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { apiVersion: "v1", kind: "Secret" },
        'Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion',
      ],
      [
        { apiVersion: "apps/v1", kind: "ConfigMap" },
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: no kind "ConfigMap" is registered for version "apps/v1" in scheme "pkg/runtime/scheme.go:110"',
      ],
    ];
    for (const [typeMeta, message] of cases) {
      const body = JSON.stringify({ ...typeMeta, metadata: { name: "w" } });
      const r = await raw(suite.kubeConfig, "POST", cmPath(namespace), body);
      expect(r.code, body).toBe(400);
      expect(r.body.message).toBe(message);
    }
    const malformed = await raw(suite.kubeConfig, "POST", cmPath(namespace), "{not json");
    expect(malformed.code).toBe(400);
    expect(malformed.body.message).toMatch(
      /^the object provided is unrecognized \(must be of type ConfigMap\): couldn't get version\/kind; json parse error: /,
    );
  });

  it("a JSON patch that cannot apply (missing path, failed test, unknown op) is a bare 422", async () => {
    const namespace = await ns("jsonpatch");
    await api.createNamespacedConfigMap({ namespace, body: cm("a") });
    for (const op of [
      { op: "test", path: "/data/x", value: "1" },
      { op: "remove", path: "/data/x" },
      { op: "bogus", path: "/data" },
    ]) {
      const { code, status } = await failure(
        api.patchNamespacedConfigMap({ name: "a", namespace, body: [op] }, jsonPatch),
      );
      expect(code, op.op).toBe(422);
      expect(status).toMatchObject({
        reason: "Invalid",
        message: "the server rejected our request due to an error in our request",
      });
      expect(status.details?.causes).toBeUndefined();
    }
  });

  it("bad selectors, limit and continue are 400 with the parsers' messages", async () => {
    const namespace = await ns("params");
    const cases: Array<[Record<string, string>, string | RegExp]> = [
      [{ labelSelector: "a in b" }, "unable to parse requirement: found 'b' expected: '('"],
      [{ labelSelector: "a===b" }, "unable to parse requirement: found '=', expected: identifier"],
      [
        { fieldSelector: "foo=bar" },
        '"foo" is not a known field selector: only "metadata.name", "metadata.namespace"',
      ],
      [
        { fieldSelector: "metadata.name" },
        "invalid selector: 'metadata.name'; can't understand 'metadata.name'",
      ],
      [{ limit: "abc" }, 'strconv.ParseInt: parsing "abc": invalid syntax'],
      [{ continue: "garbage" }, /^invalid continue token: continue key is not valid: /],
    ];
    for (const [params, message] of cases) {
      const r = await raw(suite.kubeConfig, "GET", `${cmPath(namespace)}?${new URLSearchParams(params)}`);
      expect(r.code, JSON.stringify(params)).toBe(400);
      expect(r.body.reason).toBe("BadRequest");
      if (typeof message === "string") expect(r.body.message).toBe(message);
      else expect(r.body.message).toMatch(message);
    }
    const negative = await raw(suite.kubeConfig, "GET", `${cmPath(namespace)}?limit=-1`);
    expect(negative.code).toBe(200);
  });
});
