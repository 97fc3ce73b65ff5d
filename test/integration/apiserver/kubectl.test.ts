/**
 * Smoke test with the real kubectl against the kubeconfig the embedded server writes (TLS verified, bearer
 * token). Skipped, with the reason, when kubectl is not installed.
 */
import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedApiServer } from "../../../src/control-plane/apiserver/server.js";
import { KUBECTL, NEEDS_OPENAPI_V3 } from "../../support/kubectl.js";
import { startServer } from "./helpers.js";

const cmYaml = (name: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\n`;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe.skipIf(!KUBECTL)(
  `kubectl smoke test${KUBECTL ? "" : " (skipped: kubectl not found in /usr/bin or /usr/local/bin)"}`,
  () => {
    let server: EmbeddedApiServer;
    let dir: string;

    const env = () => ({ ...process.env, KUBECONFIG: server.kubeconfigPath });
    const kubectl = (...args: string[]): Promise<Run> =>
      new Promise((resolve) => {
        execFile(
          KUBECTL as string,
          ["--cache-dir", join(dir, "cache"), ...args],
          { env: env(), timeout: 20_000 },
          (err, stdout, stderr) => {
            resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
          },
        );
      });
    const ok = async (...args: string[]): Promise<string> => {
      const r = await kubectl(...args);
      expect(r.stderr, `kubectl ${args.join(" ")}`).not.toMatch(/error/i);
      expect(r.code, `kubectl ${args.join(" ")}: ${r.stderr}`).toBe(0);
      return r.stdout;
    };
    const file = async (name: string, text: string) => {
      const path = join(dir, name);
      await writeFile(path, text);
      return path;
    };

    beforeAll(async () => {
      server = await startServer();
      dir = await mkdtemp(join(tmpdir(), "workbook-kubectl-"));
    });
    afterAll(async () => {
      await server?.stop();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it("get, create -f, apply -f, label and patch a ConfigMap", async () => {
      expect(await ok("get", "namespaces", "-o", "name")).toContain("namespace/default\n");
      const manifest = await file(
        "cm.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: smoke\n  namespace: default\ndata:\n  a: '1'\n",
      );
      expect(await ok("create", "-f", manifest)).toContain("configmap/smoke created");
      const applied = await file(
        "cm2.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: smoke\n  namespace: default\ndata:\n  a: '2'\n",
      );
      const r = await kubectl("apply", "-f", applied);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("configmap/smoke configured");
      expect(await ok("label", "configmap", "smoke", "tier=web")).toContain("labeled");
      expect(await ok("patch", "configmap", "smoke", "-p", '{"data":{"b":"3"}}')).toContain("patched");
      const obj = JSON.parse(await ok("get", "configmap", "smoke", "-o", "json"));
      expect(obj.data).toEqual({ a: "2", b: "3" });
      expect(obj.metadata.labels).toEqual({ tier: "web" });
      expect(obj.metadata.annotations["kubectl.kubernetes.io/last-applied-configuration"]).toContain(
        '"a":"2"',
      );
      expect(await ok("get", "cm", "-l", "tier=web", "-o", "name")).toBe("configmap/smoke\n");
    });

    it("apply -f creates, and a second apply of the same file is unchanged", async () => {
      const manifest = await file(
        "applied.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n  namespace: default\ndata:\n  k: v\n",
      );
      expect(await ok("apply", "-f", manifest)).toContain("configmap/applied created");
      expect(await ok("apply", "-f", manifest)).toContain("configmap/applied unchanged");
    });

    it("delete --cascade=orphan marks the object with the orphan finalizer", async () => {
      await ok("create", "-f", await file("orphaned.yaml", cmYaml("orphaned")));
      expect(await ok("delete", "configmap", "orphaned", "--cascade=orphan", "--wait=false")).toContain(
        "deleted",
      );
      const r = await kubectl("get", "configmap", "orphaned", "-o", "json");
      if (r.code === 0) {
        // Without a garbage collector running, the orphan finalizer keeps the object, marked for deletion.
        const obj = JSON.parse(r.stdout);
        expect(obj.metadata.deletionTimestamp).toBeTruthy();
        expect(obj.metadata.finalizers).toContain("orphan");
      } else {
        expect(r.stderr).toMatch(/NotFound/);
      }
    });

    it("imperative create (protobuf body) is decoded (more in test/integration/kubectl-imperative.test.ts)", async () => {
      const r = await kubectl("create", "configmap", "imperative", "--from-literal=k=v");
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain("configmap/imperative created");
    });

    it("resolves a CRD's kind, plural and short name", async () => {
      const crd = await file(
        "crd.yaml",
        [
          "apiVersion: apiextensions.k8s.io/v1",
          "kind: CustomResourceDefinition",
          "metadata: {name: gadgets.smoke.workbook.example.com}",
          "spec:",
          "  group: smoke.workbook.example.com",
          "  scope: Namespaced",
          "  names: {plural: gadgets, singular: gadget, kind: Gadget, shortNames: [gdg]}",
          "  versions:",
          "  - name: v1",
          "    served: true",
          "    storage: true",
          "    schema:",
          "      openAPIV3Schema:",
          "        type: object",
          "        properties:",
          "          spec:",
          "            type: object",
          "            description: What the gadget should be.",
          "            properties:",
          "              size: {type: integer, description: How many sprockets the gadget has.}",
          "",
        ].join("\n"),
      );
      await ok("apply", "-f", crd);
      const cr = await file(
        "cr.yaml",
        "apiVersion: smoke.workbook.example.com/v1\nkind: Gadget\nmetadata:\n  name: g1\n  namespace: default\nspec:\n  size: 3\n",
      );
      expect(await ok("apply", "-f", cr)).toContain("gadget.smoke.workbook.example.com/g1 created");
      expect(await ok("get", "gdg", "-o", "name")).toBe("gadget.smoke.workbook.example.com/g1\n");
      expect(await ok("get", "gadgets.smoke.workbook.example.com", "g1", "-o", "jsonpath={.spec.size}")).toBe(
        "3",
      );
    });

    it.skipIf(NEEDS_OPENAPI_V3 !== "")(
      `explain reads a CRD's own schema from /openapi/v3${NEEDS_OPENAPI_V3}`,
      async () => {
        // Runs after the CRD test above, which created gadgets.smoke.workbook.example.com.
        expect(await ok("explain", "gadget")).toMatch(/KIND:\s+Gadget/);
        const field = await ok("explain", "gadget.spec.size");
        expect(field).toMatch(/FIELD:\s+size <integer>/);
        expect(field).toContain("How many sprockets the gadget has.");
      },
    );

    it("get -w streams changes until --request-timeout ends it", async () => {
      const child = spawn(
        KUBECTL as string,
        ["--cache-dir", join(dir, "cache"), "get", "configmaps", "-w", "--request-timeout=3s", "-o", "name"],
        {
          env: env(),
        },
      );
      let out = "";
      child.stdout.on("data", (c: Buffer) => {
        out += c.toString();
      });
      const exited = new Promise<number | null>((r) => child.on("exit", (c) => r(c)));
      await new Promise((r) => setTimeout(r, 1000));
      await ok("create", "-f", await file("watched.yaml", cmYaml("watched")));
      const code = await exited;
      expect(out).toContain("configmap/watched");
      expect(code).not.toBeNull();
    });
  },
);
