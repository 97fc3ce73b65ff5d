/**
 * `npm run generate:protobuf`: regenerates src/control-plane/apiserver/schema/generated/kubernetes-schemas.ts from the
 * Kubernetes API modules at the envtest version. The modules come through the Go module proxy (`go mod download`,
 * into the shared module cache), so Go must be installed; `--check` only compares and exits 1 when the
 * checked-in file is stale.
 */
import { execFile } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { API_PACKAGES, buildSchemaTable, type PackageSources, renderSchemaModule } from "./generate.js";

const exec = promisify(execFile);

/** The Kubernetes release whose API the embedded server matches (envtest's kube-apiserver). */
export const SCHEMA_KUBERNETES_VERSION = "v0.34.4";

/** Where the generated module is checked in, relative to the repository root. */
export const GENERATED_SCHEMA_PATH = "src/control-plane/apiserver/schema/generated/kubernetes-schemas.ts";

/** Downloads (or finds in the module cache) each module and returns its folder. */
export async function moduleDirs(
  go = "go",
  version = SCHEMA_KUBERNETES_VERSION,
): Promise<Map<string, string>> {
  const modules = [...new Set(API_PACKAGES.map((p) => p.module))];
  const { stdout } = await exec(go, ["mod", "download", "-json", ...modules.map((m) => `${m}@${version}`)], {
    maxBuffer: 16 * 1024 * 1024,
    timeout: 10 * 60_000,
  });
  const dirs = new Map<string, string>();
  // `go mod download -json` prints one JSON object per module, concatenated.
  for (const chunk of stdout.split(/\n(?=\{)/)) {
    const info = JSON.parse(chunk) as { Path: string; Dir?: string; Error?: string };
    if (info.Error || !info.Dir) throw new Error(`go mod download ${info.Path}: ${info.Error ?? "no Dir"}`);
    dirs.set(info.Path, info.Dir);
  }
  return dirs;
}

/** Reads every package's generated.proto, Go type files and register.go. */
export async function readSources(dirs: ReadonlyMap<string, string>): Promise<PackageSources[]> {
  const out: PackageSources[] = [];
  for (const pkg of API_PACKAGES) {
    const root = dirs.get(pkg.module);
    if (!root) throw new Error(`no folder for module ${pkg.module}`);
    const dir = join(root, pkg.dir);
    const names = (await readdir(dir)).filter(
      (n) =>
        n.endsWith(".go") &&
        !n.endsWith("_test.go") &&
        !n.startsWith("zz_generated") &&
        n !== "generated.pb.go",
    );
    const goFiles = await Promise.all(names.sort().map((n) => readFile(join(dir, n), "utf8")));
    const register = names.includes("register.go")
      ? await readFile(join(dir, "register.go"), "utf8")
      : undefined;
    out.push({
      pkg,
      proto: await readFile(join(dir, "generated.proto"), "utf8"),
      goFiles,
      ...(register !== undefined ? { register } : {}),
    });
  }
  return out;
}

/** Generates the module's text from the modules at `version`. */
export async function generateSchemaModule(go = "go", version = SCHEMA_KUBERNETES_VERSION): Promise<string> {
  const dirs = await moduleDirs(go, version);
  const table = buildSchemaTable(await readSources(dirs));
  const versions = Object.fromEntries([...dirs.keys()].map((m) => [m, version]));
  return renderSchemaModule(table, versions);
}

async function main(): Promise<number> {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../..");
  const target = join(root, GENERATED_SCHEMA_PATH);
  const text = await generateSchemaModule(process.env.GO ?? "go");
  if (process.argv.includes("--check")) {
    const current = await readFile(target, "utf8").catch(() => "");
    if (current === text) return 0;
    process.stderr.write(`${GENERATED_SCHEMA_PATH} is stale: run npm run generate:protobuf\n`);
    return 1;
  }
  await writeFile(target, text);
  process.stdout.write(`wrote ${GENERATED_SCHEMA_PATH}\n`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`generate:protobuf: ${(err as Error).message}\n`);
      process.exit(1);
    },
  );
}
