/** Hand-built bodies for every field family the schema table covers decode to the expected JSON. */
import { describe, expect, it } from "vitest";
import { decodeKubernetesProtobuf } from "../../../src/control-plane/apiserver/serializer/protobuf/index.js";
import { bfield, entry, envelope, fields, sfield, vfield } from "../../support/proto-encoder.js";

const decode = decodeKubernetesProtobuf;
/** metav1.Time / MicroTime message. */
const timestamp = (seconds: number, nanos = 0) => fields(vfield(1, seconds), vfield(2, nanos));
/** intstr.IntOrString message. */
const intOrStr = (v: number | string) =>
  typeof v === "number"
    ? fields(vfield(1, 0), vfield(2, v), sfield(3, ""))
    : fields(vfield(1, 1), vfield(2, 0), sfield(3, v));

describe("ObjectMeta", () => {
  it("decodes names, labels, annotations, ownerReferences, finalizers and timestamps", () => {
    const meta = fields(
      sfield(1, ""),
      sfield(2, "job-"),
      sfield(3, "team-a"),
      vfield(7, 3),
      bfield(8, timestamp(1_700_000_000)),
      entry(11, "app", "web"),
      entry(11, "tier", "front"),
      entry(12, "note", "a: b"),
      bfield(
        13,
        fields(
          sfield(1, "Deployment"),
          sfield(3, "web"),
          sfield(4, "u-1"),
          sfield(5, "apps/v1"),
          vfield(6, true),
          vfield(7, false),
        ),
      ),
      sfield(14, "example.com/guard"),
      sfield(14, "example.com/other"),
    );
    expect(decode(envelope("v1", "ConfigMap", bfield(1, meta)))).toStrictEqual({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: {
        generateName: "job-",
        namespace: "team-a",
        generation: 3,
        creationTimestamp: "2023-11-14T22:13:20Z",
        labels: { app: "web", tier: "front" },
        annotations: { note: "a: b" },
        ownerReferences: [
          {
            kind: "Deployment",
            name: "web",
            uid: "u-1",
            apiVersion: "apps/v1",
            controller: true,
            blockOwnerDeletion: false,
          },
        ],
        finalizers: ["example.com/guard", "example.com/other"],
      },
    });
  });

  it("keeps a `__proto__` label as plain data", () => {
    const out = decode(envelope("v1", "ConfigMap", bfield(1, entry(11, "__proto__", "x"))));
    const labels = (out.metadata as { labels: Record<string, string> }).labels;
    expect(Object.getPrototypeOf(labels)).toBe(Object.prototype);
    expect(Object.keys(labels)).toEqual(["__proto__"]);
    expect(JSON.parse(JSON.stringify(out)).metadata.labels).toEqual(JSON.parse('{"__proto__":"x"}'));
  });

  it("merges a repeated singular message and lets the last scalar win, as protobuf specifies", () => {
    const raw = fields(
      bfield(1, sfield(1, "first")),
      bfield(1, sfield(3, "ns")),
      bfield(1, sfield(1, "last")),
    );
    expect(decode(envelope("v1", "Namespace", raw)).metadata).toStrictEqual({
      name: "last",
      namespace: "ns",
    });
  });
});

describe("ConfigMap and Secret", () => {
  it("ConfigMap binaryData is base64 and immutable=false is kept (a pointer field)", () => {
    const raw = fields(
      bfield(1, sfield(1, "c")),
      entry(2, "k", ""),
      entry(3, "bin", Uint8Array.of(0, 255)),
      vfield(4, false),
    );
    expect(decode(envelope("v1", "ConfigMap", raw))).toStrictEqual({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "c" },
      data: { k: "" },
      binaryData: { bin: "AP8=" },
      immutable: false,
    });
  });

  it("Secret data bytes, stringData, type and immutable", () => {
    const raw = fields(
      bfield(1, sfield(1, "s")),
      entry(2, "key", Uint8Array.from(Buffer.from("pa$$"))),
      sfield(3, "kubernetes.io/basic-auth"),
      entry(4, "user", "admin"),
      vfield(5, true),
    );
    expect(decode(envelope("v1", "Secret", raw))).toStrictEqual({
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "s" },
      data: { key: Buffer.from("pa$$").toString("base64") },
      type: "kubernetes.io/basic-auth",
      stringData: { user: "admin" },
      immutable: true,
    });
  });

  it("Namespace spec.finalizers", () => {
    const raw = fields(bfield(1, sfield(1, "n")), bfield(2, sfield(1, "kubernetes")));
    expect(decode(envelope("v1", "Namespace", raw)).spec).toStrictEqual({ finalizers: ["kubernetes"] });
  });
});

describe("Service", () => {
  it("ports with nodePort, clusterIP, type and selector", () => {
    const port = fields(
      sfield(1, "http"),
      sfield(2, "TCP"),
      vfield(3, 80),
      bfield(4, intOrStr("web")),
      vfield(5, 30080),
    );
    const spec = fields(
      bfield(1, port),
      entry(2, "app", "api"),
      sfield(3, "None"),
      sfield(4, "NodePort"),
      sfield(18, "None"),
    );
    const out = decode(envelope("v1", "Service", fields(bfield(1, sfield(1, "api")), bfield(2, spec))));
    expect(out.spec).toStrictEqual({
      ports: [{ name: "http", protocol: "TCP", port: 80, targetPort: "web", nodePort: 30080 }],
      selector: { app: "api" },
      clusterIP: "None",
      type: "NodePort",
      clusterIPs: ["None"],
    });
  });
});

describe("Pod", () => {
  it("containers with command, args, env, resources (Quantity maps) and pod-level fields", () => {
    const resources = fields(
      bfield(1, fields(sfield(1, "cpu"), bfield(2, sfield(1, "500m")))),
      bfield(2, fields(sfield(1, "memory"), bfield(2, sfield(1, "64Mi")))),
    );
    const container = fields(
      sfield(1, "app"),
      sfield(2, "busybox:1.36"),
      sfield(3, "sh"),
      sfield(4, "-c"),
      sfield(4, "sleep 1"),
      bfield(6, fields(sfield(1, "http"), vfield(3, 8080), sfield(4, "TCP"))),
      bfield(7, fields(sfield(1, "MODE"), sfield(2, "demo"))),
      bfield(8, resources),
      sfield(13, "/dev/termination-log"),
      sfield(14, "IfNotPresent"),
      sfield(20, "File"),
    );
    const spec = fields(
      bfield(2, container),
      sfield(3, "Never"),
      vfield(4, 0),
      sfield(6, "ClusterFirst"),
      bfield(14, new Uint8Array(0)),
      sfield(19, "default-scheduler"),
      vfield(25, -5),
    );
    const out = decode(
      envelope(
        "v1",
        "Pod",
        fields(bfield(1, sfield(1, "p")), bfield(2, spec), bfield(3, sfield(1, "Pending"))),
      ),
    );
    expect(out).toStrictEqual({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "p" },
      spec: {
        containers: [
          {
            name: "app",
            image: "busybox:1.36",
            command: ["sh"],
            args: ["-c", "sleep 1"],
            ports: [{ name: "http", containerPort: 8080, protocol: "TCP" }],
            env: [{ name: "MODE", value: "demo" }],
            resources: { limits: { cpu: "500m" }, requests: { memory: "64Mi" } },
            terminationMessagePath: "/dev/termination-log",
            imagePullPolicy: "IfNotPresent",
            terminationMessagePolicy: "File",
          },
        ],
        restartPolicy: "Never",
        terminationGracePeriodSeconds: 0,
        dnsPolicy: "ClusterFirst",
        securityContext: {},
        schedulerName: "default-scheduler",
        priority: -5,
      },
      status: { phase: "Pending" },
    });
  });
});

describe("Deployment, ReplicaSet and Lease", () => {
  it("Deployment strategy with IntOrString maxSurge/maxUnavailable and matchExpressions; an absent template is Go's zero struct", () => {
    const selector = fields(
      entry(1, "app", "w"),
      bfield(2, fields(sfield(1, "tier"), sfield(2, "In"), sfield(3, "a"), sfield(3, "b"))),
    );
    const strategy = fields(
      sfield(1, "RollingUpdate"),
      bfield(2, fields(bfield(1, intOrStr(0)), bfield(2, intOrStr("25%")))),
    );
    const spec = fields(
      vfield(1, 0),
      bfield(2, selector),
      bfield(4, strategy),
      vfield(6, 10),
      vfield(9, 600),
    );
    expect(
      decode(envelope("apps/v1", "Deployment", fields(bfield(1, sfield(1, "w")), bfield(2, spec)))).spec,
    ).toStrictEqual({
      replicas: 0,
      selector: {
        matchLabels: { app: "w" },
        matchExpressions: [{ key: "tier", operator: "In", values: ["a", "b"] }],
      },
      // PodTemplateSpec is a struct (never omitted); PodSpec.containers has no omitempty: a nil slice is null.
      template: { metadata: {}, spec: { containers: null } },
      strategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: 0, maxSurge: "25%" } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    });
  });

  it("ReplicaSet spec", () => {
    const spec = fields(vfield(1, 2), bfield(2, entry(1, "app", "r")), vfield(4, 5));
    expect(decode(envelope("apps/v1", "ReplicaSet", bfield(2, spec))).spec).toStrictEqual({
      replicas: 2,
      selector: { matchLabels: { app: "r" } },
      template: { metadata: {}, spec: { containers: null } },
      minReadySeconds: 5,
    });
  });

  it("Lease with MicroTime acquire/renew times", () => {
    const spec = fields(
      sfield(1, "pod-a"),
      vfield(2, 15),
      bfield(3, timestamp(1_700_000_000, 123_456_789)),
      bfield(4, timestamp(1_700_000_001)),
      vfield(5, 0),
    );
    const out = decode(
      envelope("coordination.k8s.io/v1", "Lease", fields(bfield(1, sfield(1, "lock")), bfield(2, spec))),
    );
    expect(out).toStrictEqual({
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { name: "lock" },
      spec: {
        holderIdentity: "pod-a",
        leaseDurationSeconds: 15,
        acquireTime: "2023-11-14T22:13:20.123456Z",
        renewTime: "2023-11-14T22:13:21.000000Z",
        leaseTransitions: 0,
      },
    });
  });
});

describe("Event", () => {
  it("involvedObject, source, timestamps, count and the reporting fields", () => {
    const involved = fields(
      sfield(1, "Pod"),
      sfield(2, "team-a"),
      sfield(3, "web-1"),
      sfield(4, "u-9"),
      sfield(5, "v1"),
      sfield(7, "spec.containers{app}"),
    );
    const raw = fields(
      bfield(1, fields(sfield(1, "web-1.abc"), sfield(3, "team-a"))),
      bfield(2, involved),
      sfield(3, "Pulled"),
      sfield(4, "image pulled"),
      bfield(5, sfield(1, "kubelet")),
      bfield(6, timestamp(1_700_000_000)),
      bfield(7, timestamp(1_700_000_060)),
      vfield(8, 2),
      sfield(9, "Normal"),
      bfield(10, new Uint8Array(0)),
      sfield(14, "kubelet"),
      sfield(15, "node-1"),
    );
    expect(decode(envelope("v1", "Event", raw))).toStrictEqual({
      apiVersion: "v1",
      kind: "Event",
      metadata: { name: "web-1.abc", namespace: "team-a" },
      involvedObject: {
        kind: "Pod",
        namespace: "team-a",
        name: "web-1",
        uid: "u-9",
        apiVersion: "v1",
        fieldPath: "spec.containers{app}",
      },
      reason: "Pulled",
      message: "image pulled",
      source: { component: "kubelet" },
      firstTimestamp: "2023-11-14T22:13:20Z",
      lastTimestamp: "2023-11-14T22:14:20Z",
      count: 2,
      type: "Normal",
      eventTime: null,
      reportingComponent: "kubelet",
      reportingInstance: "node-1",
    });
  });
});
