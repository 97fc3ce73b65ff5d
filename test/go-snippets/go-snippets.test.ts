/**
 * "The same in Go": every notebook 01-11 and 13-17 ends with a Go section whose code block is a file (or a marked region
 * of a file) of the Go module in this folder, and notebooks/GLOSSARY.md maps the package's names to client-go's
 * and controller-runtime's. Checked here: the blocks match the files, the glossary covers every name a notebook
 * imports and names only Go identifiers this module uses, the module builds and passes `go vet` against the
 * pinned client-go v0.37 / controller-runtime v0.25, and the programs do what their notebook says when run
 * against the cluster (01-04 with client-go; the operator of 05-08, 10 and 11; leader election of 09). Without
 * Go 1.26+ the build and run part is skipped with one line saying what to install.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import * as k8s from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Cluster, startCluster } from "../../src/control-plane/cluster/index.js";
import { bucketClient, configSetClient } from "../../src/workbook/workbook-api/client.js";
import { installWorkbookApi } from "../../src/workbook/workbook-api/install.js";
import { cleanupNamespaces, freshNamespace } from "../conformance/support.js";
import { goUnavailableReason } from "../real-clients/build.js";
import { buildGoSnippets, GO_SNIPPETS_SOURCE, goFiles } from "./build.js";

const ROOT = join(GO_SNIPPETS_SOURCE, "..", "..");
const NOTEBOOKS = join(ROOT, "notebooks");
const GO_SECTION = "## The same in Go";

interface Cell {
  cell_type: string;
  source: string[] | string;
}

function cells(file: string): { text: string; type: string }[] {
  const nb = JSON.parse(readFileSync(join(NOTEBOOKS, file), "utf8")) as { cells: Cell[] };
  return nb.cells.map((c) => ({
    type: c.cell_type,
    text: Array.isArray(c.source) ? c.source.join("") : c.source,
  }));
}

const notebookFiles = readdirSync(NOTEBOOKS)
  .filter((f) => /^\d\d-.*\.ipynb$/.test(f))
  .sort();
/** Every notebook but 00 (the cluster itself) and 12 (interview preparation, which builds nothing). */
const withGo = notebookFiles.filter((f) => !["00", "12"].includes(f.slice(0, 2)));

/** The text a notebook's block must equal: the region tagged with the notebook's number, else the whole file. */
function expectedBlock(path: string, notebook: string): string {
  const text = readFileSync(join(GO_SNIPPETS_SOURCE, path), "utf8");
  const region = new RegExp(
    `// snippet:begin ${notebook}\\n([\\s\\S]*?)\\n// snippet:end ${notebook}\\n`,
  ).exec(text);
  if (text.includes("// snippet:begin") && !region) throw new Error(`${path} has no region ${notebook}`);
  return (region ? region[1] : text).replace(/^\n+|\n+$/g, "");
}

describe("notebooks 01-11 and 13-17 end with 'The same in Go'", () => {
  it("covers notebooks 01 to 11 and 13 to 17", () => {
    expect(withGo.map((f) => f.slice(0, 2))).toEqual([
      ...Array.from({ length: 11 }, (_, i) => String(i + 1).padStart(2, "0")),
      "13",
      "14",
      "15",
      "16",
      "17",
    ]);
  });

  it.each(withGo)(
    "%s: one folded Go section, just before the clean-up, equal to its file in the module",
    (file) => {
      const all = cells(file);
      const at = all.flatMap((c, i) => (c.type === "markdown" && c.text.startsWith(GO_SECTION) ? [i] : []));
      expect(at, "exactly one markdown cell titled 'The same in Go'").toHaveLength(1);
      const cell = all[at[0]].text;
      expect(all[at[0] + 1]?.text, "the next cell is the clean-up section").toMatch(/^## (\d+\. )?Clean up/);
      expect(cell).toContain("<details>");
      expect(cell).toContain("</details>");
      expect(cell).toContain("](GLOSSARY.md)");
      expect(cell.indexOf("<details>")).toBeLessThan(cell.indexOf("```go"));
      const link = /\]\(\.\.\/test\/go-snippets\/([^)]+\.go)\)/.exec(cell);
      expect(link, "links the Go file it shows").not.toBeNull();
      const block = /```go\n([\s\S]*?)\n```/.exec(cell);
      expect(block, "has a ```go block").not.toBeNull();
      expect(block?.[1]).toBe(expectedBlock(link?.[1] as string, file.slice(0, 2)));
      // A section that shows more than one file: each ```go block equals the file linked just before it.
      for (const [, path, shown] of cell.matchAll(
        /\]\(\.\.\/test\/go-snippets\/([^)]+\.go)\)[\s\S]*?```go\n([\s\S]*?)\n```/g,
      )) {
        expect(shown, path).toBe(expectedBlock(path, file.slice(0, 2)));
      }
      expect(cell, "a table of names side by side").toMatch(/\| In this workbook \| In Go \|/);
    },
  );

  it("every marked region of the module is shown by its notebook", async () => {
    const shown = new Set(withGo.map((f) => f.slice(0, 2)));
    for (const path of await goFiles()) {
      const text = readFileSync(join(GO_SNIPPETS_SOURCE, path), "utf8");
      for (const m of text.matchAll(/\/\/ snippet:begin (\d\d)/g)) {
        expect(shown, `${path} region ${m[1]}`).toContain(m[1]);
        const nb = withGo.find((f) => f.startsWith(m[1])) as string;
        const cell = cells(nb).find((c) => c.text.startsWith(GO_SECTION))?.text ?? "";
        expect(cell, `${nb} shows ${path}`).toContain(`../test/go-snippets/${path}`);
      }
    }
  });
});

const GLOSSARY = readFileSync(join(NOTEBOOKS, "GLOSSARY.md"), "utf8");

/** Names imported from the package's root entry point in a notebook's code cells. */
function rootImports(file: string): string[] {
  const names: string[] = [];
  for (const c of cells(file)) {
    if (c.type !== "code") continue;
    for (const m of c.text.matchAll(
      /import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*"kube-controller-workbook"/g,
    )) {
      for (const part of m[1].split(",")) {
        const name = part
          .replace(/^\s*type\s+/, "")
          .split(/\s+as\s+/)[0]
          .trim();
        if (name) names.push(name);
      }
    }
  }
  return names;
}

/** The package names of the glossary: backticked words in the first column of the first table's rows. */
function glossaryPackageNames(): Set<string> {
  const names = new Set<string>();
  const firstTable = GLOSSARY.split("\n## ")[0];
  for (const line of firstTable.split("\n")) {
    if (!line.startsWith("| `")) continue;
    for (const m of line.split("|")[1].matchAll(/`([^`]+)`/g)) names.add(m[1]);
  }
  return names;
}

describe("notebooks/GLOSSARY.md", () => {
  it.each(notebookFiles)("%s: every name it imports from the package is in the glossary", (file) => {
    const names = glossaryPackageNames();
    const missing = rootImports(file).filter((n) => !names.has(n));
    expect(missing, `add a row to notebooks/GLOSSARY.md for: ${missing.join(", ")}`).toEqual([]);
  });

  it("every Go name in it is used in the Go module (which the compiler checks)", async () => {
    const goNames = [...GLOSSARY.matchAll(/`([a-z][A-Za-z0-9]*\.[A-Z][A-Za-z0-9]*)`/g)].map((m) => m[1]);
    expect(goNames.length).toBeGreaterThan(50);
    const source = (await goFiles()).map((p) => readFileSync(join(GO_SNIPPETS_SOURCE, p), "utf8")).join("\n");
    const absent = [...new Set(goNames)].filter(
      (n) => !new RegExp(`(^|[^A-Za-z0-9_])${n.replace(".", "\\.")}\\b`).test(source),
    );
    expect(absent, "Go names in the glossary that no file of test/go-snippets uses").toEqual([]);
  });

  it("its notebook links point at notebooks that exist", () => {
    for (const m of GLOSSARY.matchAll(/\]\(([0-9][^)]*\.ipynb)\)/g)) expect(notebookFiles).toContain(m[1]);
  });

  it("is linked from every notebook and from the README", () => {
    for (const file of notebookFiles) {
      expect(
        cells(file).some((c) => c.type === "markdown" && c.text.includes("](GLOSSARY.md)")),
        file,
      ).toBe(true);
    }
    expect(readFileSync(join(ROOT, "README.md"), "utf8")).toContain("](notebooks/GLOSSARY.md)");
  });
});

/** A Go program of the module, run as a process: its stdout lines, and stop(). */
class Program {
  readonly lines: string[] = [];
  private readonly child: ChildProcess;
  private readonly exited: Promise<number | null>;
  private stderr = "";

  constructor(binary: string, args: string[], kubeconfig: string) {
    this.child = spawn(binary, args, { env: { ...process.env, KUBECONFIG: kubeconfig } });
    let partial = "";
    this.child.stdout?.on("data", (chunk: Buffer) => {
      const parts = (partial + chunk.toString()).split("\n");
      partial = parts.pop() ?? "";
      this.lines.push(...parts);
    });
    this.child.stderr?.on("data", (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-4000);
    });
    this.exited = new Promise((resolve) => this.child.on("exit", (code) => resolve(code)));
  }

  /** Waits until a line matches, and returns it (fails with what was printed instead). */
  async line(pattern: RegExp, timeoutMs = 60_000): Promise<string> {
    const found = await until(() => this.lines.find((l) => pattern.test(l)), timeoutMs);
    if (found === undefined) {
      throw new Error(
        `no line matched ${pattern}; stdout:\n${this.lines.join("\n")}\nstderr:\n${this.stderr}`,
      );
    }
    return found;
  }

  /** SIGTERM, as a pod's container gets; SIGKILL if it has not exited after 15 s. Returns the exit code. */
  async stop(): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 15_000);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }
}

/** Polls `probe` every 50 ms until it returns a value other than undefined/false, or the time is up. */
async function until<T>(probe: () => T | Promise<T>, timeoutMs = 60_000): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const skipReason = await goUnavailableReason();
const skipLine = skipReason
  ? ` (skipped: ${skipReason}; install Go 1.26 or newer from https://go.dev/dl/)`
  : "";

describe.skipIf(skipReason !== undefined)(`the Go module builds, vets and runs${skipLine}`, () => {
  let binDir = "";
  let cluster: Cluster | undefined;
  let core: k8s.CoreV1Api;
  const created: string[] = [];
  const running: Program[] = [];

  const run = (name: string, args: string[]) => {
    const program = new Program(join(binDir, name), args, cluster?.kubeconfigPath as string);
    running.push(program);
    return program;
  };
  const configMap = (namespace: string, name: string, data: Record<string, string> = {}) =>
    core.createNamespacedConfigMap({ namespace, body: { metadata: { name }, data } });

  beforeAll(async () => {
    ({ binDir } = await buildGoSnippets()); // `go build ./...` and `go vet ./...`, cached by source hash
    cluster = await startCluster({});
    core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    await installWorkbookApi(cluster.kubeConfig);
  }, 30 * 60_000);

  afterAll(async () => {
    for (const program of running) await program.stop();
    if (!cluster) return;
    await cleanupNamespaces(cluster.kubeConfig, created);
    await cluster.stop();
  });

  it("01-watch: lists, then sees ADDED, MODIFIED and DELETED in order", async () => {
    const ns = await freshNamespace(cluster?.kubeConfig as k8s.KubeConfig, "go01", created);
    const program = run("01-watch", ["-namespace", ns]);
    await program.line(/^listed 0 at resourceVersion \d+$/);
    await configMap(ns, "a");
    await core.patchNamespacedConfigMap(
      { namespace: ns, name: "a", body: { data: { x: "1" } } },
      k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.MergePatch),
    );
    await core.deleteNamespacedConfigMap({ namespace: ns, name: "a" });
    await program.line(/^DELETED a /);
    const events = program.lines.filter((l) => / a resourceVersion=/.test(l)).map((l) => l.split(" ")[0]);
    expect(events).toEqual(["ADDED", "MODIFIED", "DELETED"]);
    await program.stop();
  });

  it("02-reflector: the cache holds what was there before it started", async () => {
    const ns = await freshNamespace(cluster?.kubeConfig as k8s.KubeConfig, "go02", created);
    await configMap(ns, "x");
    await configMap(ns, "y");
    const program = run("02-reflector", ["-namespace", ns]);
    const line = await program.line(/^synced at resourceVersion \d+: /);
    expect(line).toMatch(/: 2 in the cache, keys \[/);
    expect(line).toContain(`${ns}/x`);
    expect(line).toContain(`${ns}/y`);
    await program.stop();
  });

  it("03-informer: add for the initial list, synced, then update and delete from the watch", async () => {
    const ns = await freshNamespace(cluster?.kubeConfig as k8s.KubeConfig, "go03", created);
    await configMap(ns, "before");
    const program = run("03-informer", ["-namespace", ns]);
    await program.line(/^synced: 1 in the cache$/);
    expect(program.lines).toContain("add before");
    await core.replaceNamespacedConfigMap({
      namespace: ns,
      name: "before",
      body: { metadata: { name: "before" }, data: { v: "2" } },
    });
    await program.line(/^update before$/);
    await core.deleteNamespacedConfigMap({ namespace: ns, name: "before" });
    await program.line(new RegExp(`^delete ${ns}/before$`));
    await program.stop();
  });

  it("04-workqueue: a worker reconciles the key, then finds it gone after the delete", async () => {
    const ns = await freshNamespace(cluster?.kubeConfig as k8s.KubeConfig, "go04", created);
    const program = run("04-workqueue", ["-namespace", ns]);
    await configMap(ns, "q");
    await program.line(new RegExp(`^reconcile ${ns}/q resourceVersion \\d+$`));
    await core.deleteNamespacedConfigMap({ namespace: ns, name: "q" });
    await program.line(new RegExp(`^reconcile ${ns}/q gone$`));
    await program.stop();
  });

  describe("10-operator (the reconcilers of 05-08, the metrics of 11)", () => {
    let ns = "";
    let metricsPort = 0;
    let operator: Program;

    beforeAll(async () => {
      ns = await freshNamespace(cluster?.kubeConfig as k8s.KubeConfig, "go10", created);
      metricsPort = await freePort();
      operator = run("10-operator", ["-namespace", ns, "-metrics-bind-address", `127.0.0.1:${metricsPort}`]);
    });

    const children = async () =>
      (await core.listNamespacedConfigMap({ namespace: ns, labelSelector: "workbook.dev/configset=web" }))
        .items;

    it("05/06/08: a ConfigSet gets its ConfigMaps, owned by it, and a status that says so", async () => {
      const sets = configSetClient(cluster?.kubeConfig as k8s.KubeConfig);
      const set = await sets.create({
        metadata: { name: "web", namespace: ns },
        spec: { replicas: 3, data: { greeting: "hi" } },
      });
      const three = await until(async () => {
        const items = await children();
        return items.length === 3 ? items : undefined;
      });
      expect(three?.map((c) => c.metadata?.name).sort()).toEqual(["web-0", "web-1", "web-2"]);
      for (const child of three ?? []) {
        expect(child.data).toEqual({ greeting: "hi" });
        const owner = child.metadata?.ownerReferences?.[0];
        expect(owner).toMatchObject({
          kind: "ConfigSet",
          name: "web",
          uid: set.metadata.uid,
          controller: true,
        });
        expect(owner?.blockOwnerDeletion).toBe(true);
      }
      const status = await until(async () => {
        const s = (await sets.get(ns, "web")).status;
        return s?.readyReplicas === 3 ? s : undefined;
      });
      expect(status?.observedGeneration).toBe(set.metadata.generation);
      expect(status?.conditions?.find((c) => c.type === "Ready")).toMatchObject({
        status: "True",
        reason: "AllReplicasReady",
      });

      await sets.patch(ns, "web", { spec: { replicas: 1 } });
      const one = await until(async () => {
        const items = await children();
        return items.length === 1 ? items : undefined;
      });
      expect(one?.map((c) => c.metadata?.name)).toEqual(["web-0"]);
    });

    it("05: Owns() brings back a ConfigMap deleted by hand", async () => {
      const before = (await children()).find((c) => c.metadata?.name === "web-0");
      expect(before).toBeDefined();
      await core.deleteNamespacedConfigMap({ namespace: ns, name: "web-0" });
      const again = await until(async () => {
        const now = (await children()).find((c) => c.metadata?.name === "web-0");
        return now && now.metadata?.uid !== before?.metadata?.uid ? now : undefined;
      });
      expect(again, "web-0 recreated with a new uid").toBeDefined();
    });

    it("07: a Bucket gets the finalizer before its cloud bucket, and is released on delete", async () => {
      const buckets = bucketClient(cluster?.kubeConfig as k8s.KubeConfig);
      await buckets.create({ metadata: { name: "b1", namespace: ns }, spec: { region: "eu" } });
      const ready = await until(async () => {
        const b = await buckets.get(ns, "b1");
        return b.status?.bucketId ? b : undefined;
      });
      expect(ready?.metadata.finalizers).toEqual(["workbook.dev/bucket-cleanup"]);
      expect(ready?.status?.bucketId).toMatch(/^bkt-\d+$/);
      await buckets.delete(ns, "b1");
      const gone = await until(() =>
        buckets.get(ns, "b1").then(
          () => false,
          (err: { code?: number }) => err.code === 404,
        ),
      );
      expect(gone, "the Bucket is gone once the finalizer is removed").toBe(true);
    });

    it("11: the manager's /metrics has the reconcile counters, the workqueue and our own gauge", async () => {
      // Each scrape is bounded, and the wait ends inside the test's limit, so a failure says what was seen.
      const scrape = async () =>
        (
          await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { signal: AbortSignal.timeout(5000) })
        ).text();
      let last = "";
      const body = await until(async () => {
        last = await scrape().catch((err: Error) => `scrape failed: ${err.message}`);
        return /workbook_cloud_buckets 0/.test(last) ? last : undefined;
      }, 45_000);
      expect(
        body,
        `workbook_cloud_buckets back to 0 after the Bucket's delete; last scrape: ${last.match(/^workbook_cloud_buckets.*$|^scrape failed.*$/m)?.[0] ?? "no such line"}`,
      ).toBeDefined();
      const success =
        /controller_runtime_reconcile_total\{controller="configset",result="success"\} (\d+)/.exec(
          body ?? "",
        );
      expect(Number(success?.[1])).toBeGreaterThan(0);
      expect(body).toMatch(/workqueue_depth\{controller="configset",name="configset"/);
      expect(body).toMatch(/rest_client_requests_total\{code="201",host="[^"]+",method="POST"\} \d+/);
    }, 60_000);

    it("10: SIGTERM stops the manager cleanly (exit 0)", async () => {
      expect(await operator.stop()).toBe(0);
    });
  });

  it("09-leader-election: one of two replicas leads; when it stops, the other takes over", async () => {
    const ns = await freshNamespace(cluster?.kubeConfig as k8s.KubeConfig, "go09", created);
    const a = run("09-leader-election", ["-namespace", ns, "-id", "a"]);
    await a.line(/^a leading/);
    const b = run("09-leader-election", ["-namespace", ns, "-id", "b"]);
    await b.line(/^leader is a$/);
    expect(b.lines.some((l) => l.startsWith("b leading"))).toBe(false);
    expect(await a.stop()).toBe(0); // ReleaseOnCancel: the Lease is released on the way out
    await b.line(/^b leading/);
    await b.stop();
  });
});
