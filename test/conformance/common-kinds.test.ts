/**
 * The common built-in kinds a tutorial meets besides ConfigMaps, Pods and Deployments: each is created from a
 * minimal body and read back with the server's defaults, its status and generation rules hold, and the mistakes a
 * learner makes first are refused with kube-apiserver's 422 causes. Raw JSON over HTTPS, so the same requests
 * reach the embedded server and envtest's kube-apiserver.
 */
import { describe, expect, it } from "vitest";
import { eventually, isWholeCluster, raw, useSuiteCluster } from "./support.js";

const suite = useSuiteCluster();
const suffix = Math.random().toString(36).slice(2, 8);

/** One kind: where it lives, a minimal body, and fields the server must have defaulted. */
interface KindCase {
  kind: string;
  /** `/api/v1` or `/apis/<group>/<version>`. */
  base: string;
  resource: string;
  namespaced: boolean;
  body: Record<string, unknown>;
  defaulted: Record<string, unknown>;
  /** Whether metadata.generation is 1 after create. */
  generation: boolean;
}

const template = (restartPolicy: string) => ({
  metadata: { labels: { app: "k" } },
  spec: { restartPolicy, containers: [{ name: "main", image: "busybox:1.36" }] },
});
const podDefaults = {
  dnsPolicy: "ClusterFirst",
  schedulerName: "default-scheduler",
  terminationGracePeriodSeconds: 30,
  securityContext: {},
};
const selector = { matchLabels: { app: "k" } };

const CASES: KindCase[] = [
  {
    kind: "ServiceAccount",
    base: "/api/v1",
    resource: "serviceaccounts",
    namespaced: true,
    body: {},
    defaulted: {},
    generation: false,
  },
  {
    kind: "PersistentVolumeClaim",
    base: "/api/v1",
    resource: "persistentvolumeclaims",
    namespaced: true,
    body: { spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } },
    defaulted: { spec: { volumeMode: "Filesystem" }, status: { phase: "Pending" } },
    generation: false,
  },
  {
    kind: "Endpoints",
    base: "/api/v1",
    resource: "endpoints",
    namespaced: true,
    body: { subsets: [{ addresses: [{ ip: "10.0.0.1" }], ports: [{ port: 80 }] }] },
    defaulted: { subsets: [{ ports: [{ port: 80, protocol: "TCP" }] }] },
    generation: false,
  },
  {
    kind: "ResourceQuota",
    base: "/api/v1",
    resource: "resourcequotas",
    namespaced: true,
    body: { spec: { hard: { pods: "10" } } },
    defaulted: { status: {} },
    generation: false,
  },
  {
    kind: "LimitRange",
    base: "/api/v1",
    resource: "limitranges",
    namespaced: true,
    body: { spec: { limits: [{ type: "Container", default: { cpu: "100m" } }] } },
    defaulted: { spec: { limits: [{ defaultRequest: { cpu: "100m" } }] } },
    generation: false,
  },
  {
    kind: "Job",
    base: "/apis/batch/v1",
    resource: "jobs",
    namespaced: true,
    body: { spec: { template: template("Never") } },
    defaulted: {
      spec: {
        backoffLimit: 6,
        completions: 1,
        parallelism: 1,
        completionMode: "NonIndexed",
        suspend: false,
        manualSelector: false,
        template: { spec: podDefaults },
      },
      status: {},
    },
    generation: true,
  },
  {
    kind: "CronJob",
    base: "/apis/batch/v1",
    resource: "cronjobs",
    namespaced: true,
    body: { spec: { schedule: "*/5 * * * *", jobTemplate: { spec: { template: template("OnFailure") } } } },
    defaulted: {
      spec: {
        concurrencyPolicy: "Allow",
        suspend: false,
        successfulJobsHistoryLimit: 3,
        failedJobsHistoryLimit: 1,
        jobTemplate: { spec: { template: { spec: podDefaults } } },
      },
    },
    generation: true,
  },
  {
    kind: "StatefulSet",
    base: "/apis/apps/v1",
    resource: "statefulsets",
    namespaced: true,
    body: { spec: { selector, template: template("Always") } },
    defaulted: {
      spec: {
        replicas: 1,
        podManagementPolicy: "OrderedReady",
        revisionHistoryLimit: 10,
        updateStrategy: { type: "RollingUpdate", rollingUpdate: { partition: 0 } },
        persistentVolumeClaimRetentionPolicy: { whenDeleted: "Retain", whenScaled: "Retain" },
      },
      status: { replicas: 0, availableReplicas: 0 },
    },
    generation: true,
  },
  {
    kind: "DaemonSet",
    base: "/apis/apps/v1",
    resource: "daemonsets",
    namespaced: true,
    body: { spec: { selector, template: template("Always") } },
    defaulted: {
      metadata: { annotations: { "deprecated.daemonset.template.generation": "1" } },
      spec: {
        revisionHistoryLimit: 10,
        updateStrategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      },
      status: { currentNumberScheduled: 0, desiredNumberScheduled: 0, numberMisscheduled: 0, numberReady: 0 },
    },
    generation: true,
  },
  {
    kind: "Role",
    base: "/apis/rbac.authorization.k8s.io/v1",
    resource: "roles",
    namespaced: true,
    body: { rules: [{ apiGroups: [""], resources: ["configmaps"], verbs: ["get"] }] },
    defaulted: {},
    generation: false,
  },
  {
    kind: "RoleBinding",
    base: "/apis/rbac.authorization.k8s.io/v1",
    resource: "rolebindings",
    namespaced: true,
    body: { roleRef: { kind: "Role", name: "reader" }, subjects: [{ kind: "User", name: "alice" }] },
    defaulted: {
      roleRef: { apiGroup: "rbac.authorization.k8s.io" },
      subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: "alice" }],
    },
    generation: false,
  },
  {
    kind: "ClusterRole",
    base: "/apis/rbac.authorization.k8s.io/v1",
    resource: "clusterroles",
    namespaced: false,
    body: { rules: [{ nonResourceURLs: ["/healthz"], verbs: ["get"] }] },
    defaulted: {},
    generation: false,
  },
  {
    kind: "ClusterRoleBinding",
    base: "/apis/rbac.authorization.k8s.io/v1",
    resource: "clusterrolebindings",
    namespaced: false,
    body: {
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "view" },
      subjects: [{ kind: "ServiceAccount", name: "robot", namespace: "default" }],
    },
    defaulted: {},
    generation: false,
  },
  {
    kind: "EndpointSlice",
    base: "/apis/discovery.k8s.io/v1",
    resource: "endpointslices",
    namespaced: true,
    body: { addressType: "IPv4", endpoints: [{ addresses: ["10.0.0.1"] }], ports: [{ port: 80 }] },
    defaulted: { endpoints: [{ conditions: {} }], ports: [{ name: "", port: 80, protocol: "TCP" }] },
    generation: true,
  },
  {
    kind: "Ingress",
    base: "/apis/networking.k8s.io/v1",
    resource: "ingresses",
    namespaced: true,
    body: {
      spec: {
        rules: [
          {
            host: "example.com",
            http: {
              paths: [
                {
                  path: "/",
                  pathType: "Prefix",
                  backend: { service: { name: "web", port: { number: 80 } } },
                },
              ],
            },
          },
        ],
      },
    },
    defaulted: { status: { loadBalancer: {} } },
    generation: true,
  },
  {
    kind: "NetworkPolicy",
    base: "/apis/networking.k8s.io/v1",
    resource: "networkpolicies",
    namespaced: true,
    body: { spec: { egress: [{ ports: [{ port: 53 }] }] } },
    defaulted: {
      spec: {
        podSelector: {},
        policyTypes: ["Ingress", "Egress"],
        egress: [{ ports: [{ protocol: "TCP" }] }],
      },
    },
    generation: true,
  },
  {
    kind: "PodDisruptionBudget",
    base: "/apis/policy/v1",
    resource: "poddisruptionbudgets",
    namespaced: true,
    body: { spec: { minAvailable: 1, selector } },
    defaulted: { status: { currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 } },
    generation: true,
  },
  {
    kind: "HorizontalPodAutoscaler",
    base: "/apis/autoscaling/v2",
    resource: "horizontalpodautoscalers",
    namespaced: true,
    body: {
      spec: { scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "web" }, maxReplicas: 3 },
    },
    defaulted: {
      spec: {
        minReplicas: 1,
        metrics: [
          {
            type: "Resource",
            resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 80 } },
          },
        ],
      },
      status: { currentMetrics: null, desiredReplicas: 0 },
    },
    generation: false,
  },
  {
    kind: "PriorityClass",
    base: "/apis/scheduling.k8s.io/v1",
    resource: "priorityclasses",
    namespaced: false,
    body: { value: 1000 },
    defaulted: { preemptionPolicy: "PreemptLowerPriority" },
    generation: true,
  },
  {
    kind: "StorageClass",
    base: "/apis/storage.k8s.io/v1",
    resource: "storageclasses",
    namespaced: false,
    body: { provisioner: "example.com/none" },
    defaulted: { reclaimPolicy: "Delete", volumeBindingMode: "Immediate" },
    generation: false,
  },
];

const apiVersionOf = (base: string) => base.replace(/^\/apis?\//, "");
const collection = (c: { base: string; resource: string; namespaced: boolean }, ns: string) =>
  `${c.base}${c.namespaced ? `/namespaces/${ns}` : ""}/${c.resource}`;
const post = (path: string, body: unknown) => raw(suite.kubeConfig, "POST", path, JSON.stringify(body));

describe("the common built-in kinds", () => {
  it.each(CASES)("$kind: created from a minimal body, read back with its defaults, deleted", async (c) => {
    const ns = await suite.namespace(`kind-${c.resource.slice(0, 10)}`);
    const name = c.namespaced ? "k" : `k-${c.resource.slice(0, 10)}-${suffix}`;
    const body = { apiVersion: apiVersionOf(c.base), kind: c.kind, metadata: { name }, ...c.body };
    const created = await post(collection(c, ns), body);
    expect(created.code, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ kind: c.kind, metadata: { name }, ...c.defaulted });
    expect(created.body.metadata.generation).toBe(c.generation ? 1 : undefined);
    const got = await raw(suite.kubeConfig, "GET", `${collection(c, ns)}/${name}`);
    if (isWholeCluster(suite.cluster)) {
      // kube-controller-manager's controllers may already have written status (and so resourceVersion), and
      // some write spec too: the PV controller binds a claim (spec.volumeName) and gives a claim without a class
      // the default StorageClass once one exists (retroactive default assignment, GA in 1.28).
      expect(got.body.metadata.uid).toBe(created.body.metadata.uid);
      expect(got.body).toMatchObject(c.body);
    } else {
      expect(got.body).toEqual(created.body);
    }
    const list = await raw(suite.kubeConfig, "GET", collection(c, ns));
    expect(list.body.kind).toBe(`${c.kind}List`);
    expect(list.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toContain(name);
    if (c.kind === "PersistentVolumeClaim") return; // its pvc-protection finalizer waits for a controller
    const background = JSON.stringify({ propagationPolicy: "Background" });
    const deleted = await raw(suite.kubeConfig, "DELETE", `${collection(c, ns)}/${name}`, background);
    expect(deleted.code).toBe(200);
    expect((await raw(suite.kubeConfig, "GET", `${collection(c, ns)}/${name}`)).code).toBe(404);
  });

  it("discovery lists each kind with its scope, short names, categories and status subresource", async () => {
    const expected: Record<string, { shortNames?: string[]; categories?: string[]; status: boolean }> = {
      "batch/v1/jobs": { categories: ["all"], status: true },
      "batch/v1/cronjobs": { shortNames: ["cj"], categories: ["all"], status: true },
      "apps/v1/statefulsets": { shortNames: ["sts"], categories: ["all"], status: true },
      "v1/serviceaccounts": { shortNames: ["sa"], status: false },
      "v1/persistentvolumeclaims": { shortNames: ["pvc"], status: true },
      "rbac.authorization.k8s.io/v1/clusterroles": { status: false },
      "policy/v1/poddisruptionbudgets": { shortNames: ["pdb"], status: true },
      "networking.k8s.io/v1/networkpolicies": { shortNames: ["netpol"], status: false },
    };
    for (const [key, want] of Object.entries(expected)) {
      const resource = key.split("/").pop() as string;
      const gv = key.slice(0, key.length - resource.length - 1);
      const doc = await raw(suite.kubeConfig, "GET", gv === "v1" ? "/api/v1" : `/apis/${gv}`);
      const names = doc.body.resources.map((r: { name: string }) => r.name);
      const entry = doc.body.resources.find((r: { name: string }) => r.name === resource);
      expect(entry, key).toBeDefined();
      expect(entry.shortNames, key).toEqual(want.shortNames);
      expect(entry.categories, key).toEqual(want.categories);
      expect(names.includes(`${resource}/status`), key).toBe(want.status);
    }
  });
});

describe("generation and status", () => {
  it("a Job deleted without a propagation policy orphans its pods: the orphan finalizer, then the collector", async () => {
    const ns = await suite.namespace("kind-job-orphan");
    const path = `/apis/batch/v1/namespaces/${ns}/jobs`;
    await post(path, { metadata: { name: "j" }, spec: { template: template("Never") } });
    const deleted = await raw(suite.kubeConfig, "DELETE", `${path}/j`);
    expect(deleted.code).toBe(200);
    expect(deleted.body.metadata.finalizers).toEqual(["orphan"]);
    expect(deleted.body.metadata.deletionTimestamp).toBeDefined();
    await eventually(
      async () => (await raw(suite.kubeConfig, "GET", `${path}/j`)).code === 404,
      20_000,
      "the garbage collector to remove the orphan finalizer",
    );
  });

  it("a Job: a generated selector and labels; a spec change bumps generation, a status write does not", async (ctx) => {
    ctx.skip(
      isWholeCluster(suite.cluster),
      "kube-controller-manager's Job controller writes the Job's status itself",
    );
    const ns = await suite.namespace("kind-job-gen");
    const path = `/apis/batch/v1/namespaces/${ns}/jobs`;
    const job = await post(path, { metadata: { name: "j" }, spec: { template: template("Never") } });
    const uid = job.body.metadata.uid;
    expect(job.body.spec.selector).toEqual({ matchLabels: { "batch.kubernetes.io/controller-uid": uid } });
    expect(job.body.spec.template.metadata.labels).toMatchObject({
      app: "k",
      "job-name": "j",
      "batch.kubernetes.io/job-name": "j",
      "controller-uid": uid,
    });
    expect(job.body.metadata.labels).toEqual(job.body.spec.template.metadata.labels);
    const patch = (sub: string, body: unknown) =>
      raw(suite.kubeConfig, "PATCH", `${path}/j${sub}`, JSON.stringify(body), "application/merge-patch+json");
    const main = await patch("", { spec: { parallelism: 2 }, status: { active: 5 } });
    expect([main.body.metadata.generation, main.body.status]).toEqual([2, {}]);
    const status = await patch("/status", { status: { active: 1 }, spec: { parallelism: 9 } });
    expect([
      status.body.metadata.generation,
      status.body.status.active,
      status.body.spec.parallelism,
    ]).toEqual([2, 1, 2]);
    const immutable = await patch("", { spec: { completions: 3 } });
    expect(immutable.code).toBe(422);
    expect(immutable.body.details.causes[0]).toMatchObject({ field: "spec.completions" });
  });

  it("a DaemonSet: a template change bumps generation and the template generation, other spec changes only generation", async () => {
    const ns = await suite.namespace("kind-ds-gen");
    const path = `/apis/apps/v1/namespaces/${ns}/daemonsets`;
    await post(path, { metadata: { name: "d" }, spec: { selector, template: template("Always") } });
    const patch = async (body: unknown) =>
      (
        await raw(
          suite.kubeConfig,
          "PATCH",
          `${path}/d`,
          JSON.stringify(body),
          "application/merge-patch+json",
        )
      ).body;
    const templated = await patch({ spec: { template: { metadata: { labels: { app: "k", v: "2" } } } } });
    const annotation = "deprecated.daemonset.template.generation";
    expect([templated.metadata.generation, templated.metadata.annotations[annotation]]).toEqual([2, "2"]);
    const other = await patch({ spec: { minReadySeconds: 5 } });
    expect([other.metadata.generation, other.metadata.annotations[annotation]]).toEqual([3, "2"]);
  });

  it("an EndpointSlice's generation follows its content and labels; a PriorityClass's never moves", async () => {
    const ns = await suite.namespace("kind-slice-gen");
    const path = `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices`;
    await post(path, { metadata: { name: "s" }, addressType: "IPv4", endpoints: [] });
    const labelled = await raw(
      suite.kubeConfig,
      "PATCH",
      `${path}/s`,
      JSON.stringify({ metadata: { labels: { a: "b" } } }),
      "application/merge-patch+json",
    );
    expect(labelled.body.metadata.generation).toBe(2);
    const pcs = "/apis/scheduling.k8s.io/v1/priorityclasses";
    const name = `gen-${suffix}`;
    await post(pcs, { metadata: { name }, value: 10 });
    const described = await raw(
      suite.kubeConfig,
      "PATCH",
      `${pcs}/${name}`,
      JSON.stringify({ description: "changed" }),
      "application/merge-patch+json",
    );
    expect([described.body.description, described.body.metadata.generation]).toEqual(["changed", 1]);
    await raw(suite.kubeConfig, "DELETE", `${pcs}/${name}`);
  });
});

/** A body a learner gets wrong, and the first 422 cause kube-apiserver reports for it. */
interface BadCase {
  what: string;
  path: string;
  body: Record<string, unknown>;
  field: string;
  message: string;
}

const BAD: BadCase[] = [
  {
    what: "a Job whose pods would restart Always",
    path: "/apis/batch/v1/namespaces/NS/jobs",
    body: { spec: { template: template("Always") } },
    field: "spec.template.spec.restartPolicy",
    message: 'Required value: valid values: "OnFailure", "Never"',
  },
  {
    what: "a CronJob with a schedule of two fields",
    path: "/apis/batch/v1/namespaces/NS/cronjobs",
    body: { spec: { schedule: "every day", jobTemplate: { spec: { template: template("OnFailure") } } } },
    field: "spec.schedule",
    message: 'Invalid value: "every day": expected exactly 5 fields, found 2: [every day]',
  },
  {
    what: "a StatefulSet without a selector",
    path: "/apis/apps/v1/namespaces/NS/statefulsets",
    body: { spec: { template: template("Always") } },
    field: "spec.selector",
    message: "Required value",
  },
  {
    what: "a Role rule without verbs",
    path: "/apis/rbac.authorization.k8s.io/v1/namespaces/NS/roles",
    body: { rules: [{ apiGroups: [""], resources: ["pods"] }] },
    field: "rules[0].verbs",
    message: "Required value: verbs must contain at least one value",
  },
  {
    what: "a RoleBinding subject of an unknown kind",
    path: "/apis/rbac.authorization.k8s.io/v1/namespaces/NS/rolebindings",
    body: { roleRef: { kind: "Role", name: "r" }, subjects: [{ kind: "Robot", name: "x" }] },
    field: "subjects[0].kind",
    message: 'Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
  },
  {
    what: "an Ingress path without a pathType",
    path: "/apis/networking.k8s.io/v1/namespaces/NS/ingresses",
    body: {
      spec: {
        rules: [
          { http: { paths: [{ path: "/", backend: { service: { name: "w", port: { number: 80 } } } }] } },
        ],
      },
    },
    field: "spec.rules[0].http.paths[0].pathType",
    message: "Required value: pathType must be specified",
  },
  {
    what: "an EndpointSlice without an addressType",
    path: "/apis/discovery.k8s.io/v1/namespaces/NS/endpointslices",
    body: { endpoints: [] },
    field: "addressType",
    message: "Required value",
  },
  {
    what: "a PersistentVolumeClaim without access modes",
    path: "/api/v1/namespaces/NS/persistentvolumeclaims",
    body: { spec: { resources: { requests: { storage: "1Gi" } } } },
    field: "spec.accessModes",
    message: "Required value: at least 1 access mode is required",
  },
  {
    what: "a StorageClass without a provisioner",
    path: "/apis/storage.k8s.io/v1/storageclasses",
    body: {},
    field: "provisioner",
    message: "Required value",
  },
];

describe("the validation a learner meets first", () => {
  it.each(BAD)("$what is 422 at $field", async (c) => {
    const ns = await suite.namespace("kind-bad");
    const res = await post(c.path.replace("NS", ns), { metadata: { name: `bad-${suffix}` }, ...c.body });
    expect(res.code, JSON.stringify(res.body)).toBe(422);
    expect(res.body.reason).toBe("Invalid");
    expect(res.body.details.causes[0]).toMatchObject({ field: c.field, message: c.message });
  });

  it("a RoleBinding's roleRef cannot change", async () => {
    const ns = await suite.namespace("kind-roleref");
    const path = `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`;
    await post(path, { metadata: { name: "b" }, roleRef: { kind: "Role", name: "one" }, subjects: [] });
    const res = await raw(
      suite.kubeConfig,
      "PATCH",
      `${path}/b`,
      JSON.stringify({ roleRef: { name: "two" } }),
      "application/merge-patch+json",
    );
    expect(res.code).toBe(422);
    expect(res.body.details.causes[0]).toMatchObject({
      field: "roleRef",
      message:
        'Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"Role","Name":"two"}: cannot change roleRef',
    });
  });

  it("RBAC names may hold colons (system:controller:x), other kinds' may not", async () => {
    const name = `system:workbook:${suffix}`;
    const ok = await post("/apis/rbac.authorization.k8s.io/v1/clusterroles", {
      metadata: { name },
      rules: [],
    });
    expect(ok.code).toBe(201);
    await raw(suite.kubeConfig, "DELETE", `/apis/rbac.authorization.k8s.io/v1/clusterroles/${name}`);
    const bad = await post("/apis/storage.k8s.io/v1/storageclasses", {
      metadata: { name },
      provisioner: "x",
    });
    expect([bad.code, bad.body.details.causes[0].field]).toEqual([422, "metadata.name"]);
  });
});

describe("kubectl get columns", () => {
  const TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";
  /** The default (priority 0) columns and the first row's cells under them, Age left out. */
  async function columns(path: string): Promise<Array<[string, unknown]>> {
    const res = await raw(suite.kubeConfig, "GET", path, undefined, undefined, TABLE);
    const defs = res.body.columnDefinitions as Array<{ name: string; priority: number }>;
    const cells = res.body.rows[0].cells as unknown[];
    return defs.flatMap(
      (d, i): Array<[string, unknown]> => (d.priority === 0 && d.name !== "Age" ? [[d.name, cells[i]]] : []),
    );
  }

  it("StatefulSet, DaemonSet, ServiceAccount, RoleBinding, PodDisruptionBudget and StorageClass show kube's columns", async () => {
    const ns = await suite.namespace("kind-columns");
    await post(`/apis/apps/v1/namespaces/${ns}/statefulsets`, {
      metadata: { name: "s" },
      spec: { replicas: 2, selector, template: template("Always") },
    });
    await post(`/apis/apps/v1/namespaces/${ns}/daemonsets`, {
      metadata: { name: "d" },
      spec: {
        selector,
        template: {
          ...template("Always"),
          spec: { ...template("Always").spec, nodeSelector: { disk: "ssd" } },
        },
      },
    });
    await post(`/api/v1/namespaces/${ns}/serviceaccounts`, {
      metadata: { name: "a" },
      secrets: [{ name: "x" }],
    });
    await post(`/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`, {
      metadata: { name: "b" },
      roleRef: { kind: "ClusterRole", name: "view" },
    });
    await post(`/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets`, {
      metadata: { name: "p" },
      spec: { maxUnavailable: "25%", selector },
    });
    const sc = `cols-${suffix}`;
    await post("/apis/storage.k8s.io/v1/storageclasses", {
      metadata: { name: sc },
      provisioner: "example.com/x",
    });
    expect(await columns(`/apis/apps/v1/namespaces/${ns}/statefulsets`)).toEqual([
      ["Name", "s"],
      ["Ready", "0/2"],
    ]);
    expect(await columns(`/apis/apps/v1/namespaces/${ns}/daemonsets`)).toEqual([
      ["Name", "d"],
      ["Desired", 0],
      ["Current", 0],
      ["Ready", 0],
      ["Up-to-date", 0],
      ["Available", 0],
      ["Node Selector", "disk=ssd"],
    ]);
    expect(await columns(`/api/v1/namespaces/${ns}/serviceaccounts`)).toEqual([
      ["Name", "a"],
      ["Secrets", 1],
    ]);
    expect(await columns(`/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`)).toEqual([
      ["Name", "b"],
      ["Role", "ClusterRole/view"],
    ]);
    expect(await columns(`/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets`)).toEqual([
      ["Name", "p"],
      ["Min Available", "N/A"],
      ["Max Unavailable", "25%"],
      ["Allowed Disruptions", 0],
    ]);
    expect(await columns(`/apis/storage.k8s.io/v1/storageclasses/${sc}`)).toEqual([
      ["Name", sc],
      ["Provisioner", "example.com/x"],
      ["ReclaimPolicy", "Delete"],
      ["VolumeBindingMode", "Immediate"],
      ["AllowVolumeExpansion", false],
    ]);
    await raw(suite.kubeConfig, "DELETE", `/apis/storage.k8s.io/v1/storageclasses/${sc}`);
  });
});
