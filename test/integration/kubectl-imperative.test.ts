/**
 * kubectl's imperative commands (`create namespace | configmap | secret | deployment | service`, `run`)
 * against the embedded cluster. kubectl's typed clients send these bodies as application/vnd.kubernetes.protobuf;
 * the objects are read back with client-node and compared field by field, so a decoder that drops or
 * misreads a field fails here. Skipped, with the reason, when kubectl is not installed.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { AppsV1Api, CoreV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Cluster, startCluster } from "../../src/control-plane/cluster/index.js";
import { KUBECTL, NEEDS_OPENAPI_V3 } from "../support/kubectl.js";

const NS = "imperative";

const runKubectl = promisify(execFile);

describe.skipIf(!KUBECTL)(
  `kubectl imperative commands${KUBECTL ? "" : " (skipped: kubectl not found in /usr/bin or /usr/local/bin)"}`,
  () => {
    let cluster: Cluster;
    let dir: string;
    let core: CoreV1Api;
    let apps: AppsV1Api;

    /** Runs kubectl and returns stdout; a non-zero exit fails the test with kubectl's stderr. */
    const ok = async (...args: string[]): Promise<string> => {
      const env = { ...process.env, KUBECONFIG: cluster.kubeconfigPath };
      try {
        const argv = ["--cache-dir", join(dir, "cache"), ...args];
        return (await runKubectl(KUBECTL as string, argv, { env, timeout: 20_000 })).stdout;
      } catch (err) {
        throw new Error(`kubectl ${args.join(" ")} failed: ${(err as { stderr?: string }).stderr ?? err}`);
      }
    };

    beforeAll(async () => {
      cluster = await startCluster({ backend: "embedded" });
      dir = await mkdtemp(join(tmpdir(), "workbook-imperative-"));
      core = cluster.kubeConfig.makeApiClient(CoreV1Api);
      apps = cluster.kubeConfig.makeApiClient(AppsV1Api);
    });
    afterAll(async () => {
      await cluster?.stop();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it("kubectl create namespace", async () => {
      expect(await ok("create", "namespace", NS)).toBe(`namespace/${NS} created\n`);
      const ns = await core.readNamespace({ name: NS });
      expect(ns.metadata?.name).toBe(NS);
      expect(ns.status?.phase).toBe("Active");
    });

    it("kubectl create configmap with literals and a binary file", async () => {
      const bin = join(dir, "blob.bin");
      await writeFile(bin, Buffer.from([0xff, 0x00, 0x80, 0x0a]));
      const out = await ok(
        "create",
        "configmap",
        "settings",
        "-n",
        NS,
        "--from-literal=greeting=hello",
        "--from-literal=empty=",
        `--from-file=blob=${bin}`,
      );
      expect(out).toBe("configmap/settings created\n");
      const cm = await core.readNamespacedConfigMap({ name: "settings", namespace: NS });
      expect(cm.data).toEqual({ greeting: "hello", empty: "" });
      expect(cm.binaryData).toEqual({ blob: Buffer.from([0xff, 0x00, 0x80, 0x0a]).toString("base64") });
    });

    it("kubectl create --save-config carries the last-applied annotation (metadata.annotations)", async () => {
      await ok("create", "configmap", "saved", "-n", NS, "--from-literal=a=1", "--save-config");
      const cm = await core.readNamespacedConfigMap({ name: "saved", namespace: NS });
      const applied = cm.metadata?.annotations?.["kubectl.kubernetes.io/last-applied-configuration"] ?? "{}";
      expect(JSON.parse(applied)).toMatchObject({
        kind: "ConfigMap",
        data: { a: "1" },
        metadata: { name: "saved" },
      });
    });

    it("kubectl create secret generic keeps bytes and the type", async () => {
      await ok(
        "create",
        "secret",
        "generic",
        "creds",
        "-n",
        NS,
        "--from-literal=user=admin",
        "--type=example.com/basic",
      );
      const secret = await core.readNamespacedSecret({ name: "creds", namespace: NS });
      expect(secret.type).toBe("example.com/basic");
      expect(secret.data).toEqual({ user: Buffer.from("admin").toString("base64") });
    });

    it("kubectl create deployment: selector, template labels, image, port, replicas", async () => {
      await ok("create", "deployment", "web", "-n", NS, "--image=nginx:1.27", "--replicas=3", "--port=8080");
      const d = await apps.readNamespacedDeployment({ name: "web", namespace: NS });
      expect(d.metadata?.labels).toEqual({ app: "web" });
      expect(d.spec?.replicas).toBe(3);
      expect(d.spec?.selector.matchLabels).toEqual({ app: "web" });
      expect(d.spec?.template.metadata?.labels).toEqual({ app: "web" });
      const c = d.spec?.template.spec?.containers[0];
      expect(c?.name).toBe("nginx");
      expect(c?.image).toBe("nginx:1.27");
      expect(c?.ports?.[0]?.containerPort).toBe(8080);
    });

    it("kubectl create deployment --replicas=0 keeps the zero (a pointer field)", async () => {
      await ok(
        "create",
        "deployment",
        "idle",
        "-n",
        NS,
        "--image=busybox",
        "--replicas=0",
        "--",
        "sleep",
        "3600",
      );
      const d = await apps.readNamespacedDeployment({ name: "idle", namespace: NS });
      expect(d.spec?.replicas).toBe(0);
      expect(d.spec?.template.spec?.containers[0]?.command).toEqual(["sleep", "3600"]);
    });

    it("kubectl create service clusterip and nodeport: ports, targetPort, selector, type", async () => {
      await ok("create", "service", "clusterip", "api", "-n", NS, "--tcp=80:8080", "--tcp=443:web");
      const s = await core.readNamespacedService({ name: "api", namespace: NS });
      expect(s.spec?.type).toBe("ClusterIP");
      expect(s.spec?.selector).toEqual({ app: "api" });
      expect(s.spec?.ports?.map((p) => [p.name, p.port, p.targetPort, p.protocol])).toEqual([
        ["80-8080", 80, 8080, "TCP"],
        ["443-web", 443, "web", "TCP"],
      ]);
      await ok("create", "service", "nodeport", "edge", "-n", NS, "--tcp=80:8080", "--node-port=30080");
      const np = await core.readNamespacedService({ name: "edge", namespace: NS });
      expect(np.spec?.type).toBe("NodePort");
      expect(np.spec?.ports?.[0]?.nodePort).toBe(30080);
    });

    it("the other imperative variants: multi-image deployment, loadbalancer/externalname services, docker-registry secret, env-file configmap", async () => {
      await ok("create", "deployment", "duo", "-n", NS, "--image=nginx", "--image=redis:7");
      const duo = await apps.readNamespacedDeployment({ name: "duo", namespace: NS });
      expect(duo.spec?.template.spec?.containers.map((c) => [c.name, c.image])).toEqual([
        ["nginx", "nginx"],
        ["redis", "redis:7"],
      ]);
      await ok("create", "service", "loadbalancer", "lb", "-n", NS, "--tcp=443:8443");
      expect((await core.readNamespacedService({ name: "lb", namespace: NS })).spec?.type).toBe(
        "LoadBalancer",
      );
      await ok("create", "service", "externalname", "ext", "-n", NS, "--external-name=db.example.com");
      const ext = await core.readNamespacedService({ name: "ext", namespace: NS });
      expect([ext.spec?.type, ext.spec?.externalName]).toEqual(["ExternalName", "db.example.com"]);
      await ok(
        "create",
        "secret",
        "docker-registry",
        "pull",
        "-n",
        NS,
        "--docker-server=r.example.com",
        "--docker-username=u",
        "--docker-password=p",
      );
      const pull = await core.readNamespacedSecret({ name: "pull", namespace: NS });
      expect(pull.type).toBe("kubernetes.io/dockerconfigjson");
      const config = JSON.parse(
        Buffer.from(pull.data?.[".dockerconfigjson"] ?? "", "base64").toString("utf8"),
      );
      expect(config.auths["r.example.com"].username).toBe("u");
      const envFile = join(dir, "app.env");
      await writeFile(envFile, "LEVEL=debug\nCOLOR=blue\n");
      await ok("create", "configmap", "envcm", "-n", NS, `--from-env-file=${envFile}`);
      expect((await core.readNamespacedConfigMap({ name: "envcm", namespace: NS })).data).toEqual({
        LEVEL: "debug",
        COLOR: "blue",
      });
    });

    it("kubectl expose deployment (after create deployment) selects the deployment's pods", async () => {
      await ok("create", "deployment", "shop", "-n", NS, "--image=nginx", "--port=80");
      expect(await ok("expose", "deployment", "shop", "-n", NS, "--port=8080", "--target-port=80")).toBe(
        "service/shop exposed\n",
      );
      const svc = await core.readNamespacedService({ name: "shop", namespace: NS });
      expect(svc.spec?.selector).toEqual({ app: "shop" });
      expect(svc.spec?.ports?.[0]?.port).toBe(8080);
      expect(svc.spec?.ports?.[0]?.targetPort).toBe(80);
    });

    it("a protobuf create stores exactly what the JSON path (`--dry-run=client -o json | create -f`) stores", async () => {
      const commands: [string, string[]][] = [
        ["namespace", ["create", "namespace", "NAME"]],
        ["configmap", ["create", "configmap", "NAME", "--from-literal=a=1", "--from-literal=b="]],
        ["secret", ["create", "secret", "generic", "NAME", "--from-literal=k=v", "--type=example.com/t"]],
        ["deployment", ["create", "deployment", "NAME", "--image=nginx:1.27", "--replicas=2", "--port=80"]],
        ["service", ["create", "service", "nodeport", "NAME", "--tcp=80:http", "--node-port=30099"]],
      ];
      for (const [kind, template] of commands) {
        const args = (name: string) => [...template.map((a) => (a === "NAME" ? name : a)), "-n", NS];
        await ok(...args(`${kind}-pb`));
        const manifest = join(dir, `${kind}.json`);
        await writeFile(manifest, await ok(...args(`${kind}-js`), "--dry-run=client", "-o", "json"));
        await ok("create", "-f", manifest, "-n", NS); // kubectl before 1.2x leaves the namespace out of -o json
        const stored = async (name: string) => {
          const obj = JSON.parse(await ok("get", kind, name, "-n", NS, "-o", "json"));
          const { uid, resourceVersion, creationTimestamp, generation, ...meta } = obj.metadata;
          const spec = { ...obj.spec };
          if (kind === "service") {
            delete spec.clusterIP; // allocated per Service
            delete spec.clusterIPs;
          }
          return JSON.stringify({ ...obj, metadata: meta, spec, status: undefined }).replaceAll(name, "NAME");
        };
        expect(await stored(`${kind}-pb`), kind).toBe(await stored(`${kind}-js`));
      }
    });

    it.skipIf(NEEDS_OPENAPI_V3 !== "")(
      `kubectl create --dry-run=server decodes and validates the body but stores nothing${NEEDS_OPENAPI_V3}`,
      async () => {
        const printed = JSON.parse(
          await ok(
            "create",
            "configmap",
            "dry",
            "-n",
            NS,
            "--from-literal=a=1",
            "--dry-run=server",
            "-o",
            "json",
          ),
        );
        expect(printed.data).toEqual({ a: "1" });
        const r = await ok("get", "configmaps", "-n", NS, "-o", "name");
        expect(r).not.toContain("configmap/dry");
      },
    );

    it("kubectl run (sent as JSON) still works beside the protobuf path", async () => {
      await ok("run", "pod1", "-n", NS, "--image=nginx", "--labels=app=pod1,tier=web", "--env=MODE=demo");
      const pod = await core.readNamespacedPod({ name: "pod1", namespace: NS });
      expect(pod.metadata?.labels).toEqual({ app: "pod1", tier: "web" });
      expect(pod.spec?.containers[0]?.env).toEqual([{ name: "MODE", value: "demo" }]);
    });

    it("kubectl prints the server's JSON answer to a protobuf create (-o json)", async () => {
      const printed = JSON.parse(
        await ok("create", "configmap", "echo", "-n", NS, "--from-literal=k=v", "-o", "json"),
      );
      expect(printed.kind).toBe("ConfigMap");
      expect(printed.data).toEqual({ k: "v" });
      expect(printed.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
      expect(printed.metadata.resourceVersion).toMatch(/^\d+$/);
    });
  },
);
