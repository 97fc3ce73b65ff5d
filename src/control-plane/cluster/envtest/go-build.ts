/**
 * `workbook envtest build`: compiles kube-apiserver, kube-controller-manager and etcd from the Kubernetes Go
 * modules into the envtest cache folder, then links kubectl next to them so the folder is a valid
 * KUBEBUILDER_ASSETS. Steps: resolve k8s.io/kubernetes through the Go module proxy → read its staging module
 * list → write go.mod and one tiny main package per binary under `<cache>/<version>/src` → `go mod tidy` →
 * `go build`. The Go build cache makes a second run take seconds.
 */
import { spawn } from "node:child_process";
import { existsSync, lstatSync } from "node:fs";
import { mkdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type Clock, realClock } from "../../../clock/index.js";
import { findOnPath } from "./assets.js";
import { BUILT_COMMANDS, renderGoMod, renderMain, stagingModulesFrom, versionLdflags } from "./go-module.js";
import { DEFAULT_ENVTEST_VERSION, envtestVersionDir, normalizeVersion } from "./version.js";

/** Options of {@link buildEnvtestBinaries}. */
export interface GoBuildOptions {
  version?: string;
  cacheRoot?: string;
  /** `go build -p`: packages compiled in parallel (default 2, to leave a shared machine usable). */
  parallelism?: number;
  /** The `go` binary (default `go` on PATH). */
  go?: string;
  /** Progress and tool output lines. */
  log?: (line: string) => void;
  /** Rebuild even when the binaries exist. */
  force?: boolean;
  /** Time source for timeouts and polling (default the real clock; tests pass a FakeClock). */
  clock?: Clock;
}

/** What a build produced and what it cost. */
export interface GoBuildResult {
  version: string;
  /** The KUBEBUILDER_ASSETS folder. */
  binDir: string;
  /** True when the binaries were already there and nothing ran. */
  cached: boolean;
  /** Wall time per step, in milliseconds. */
  timings: Record<string, number>;
  /** Size of each built binary, in bytes. */
  sizes: Record<string, number>;
}

function run(
  cmd: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  log: (l: string) => void,
): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      stderr += text;
      for (const line of text.split("\n")) if (line.trim()) log(`  ${line}`);
    });
    child.once("error", (err) => reject(new Error(`Could not run ${cmd}: ${err.message}. Is Go installed?`)));
    child.once("exit", (code) => {
      if (code === 0) resolve(stdout);
      else
        reject(new Error(`${cmd} ${args.join(" ")} failed with exit code ${code}:\n${stderr.slice(-4000)}`));
    });
  });
}

/** A regular file (a symlink to a system binary does not count as built). */
function isBuiltFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}

/** Links `target` as `<binDir>/<name>` unless something is already there. */
async function linkInto(binDir: string, name: string, target: string | undefined, log: (l: string) => void) {
  const path = join(binDir, name);
  if (existsSync(path)) return;
  if (!target) {
    log(
      `envtest build: no ${name} found to link; install it (etcd: apt-get install etcd-server) or copy it to ${path}`,
    );
    return;
  }
  await symlink(target, path);
  log(`envtest build: linked ${path} -> ${target}`);
}

/** Builds (or finds cached) envtest binaries for `version`; see the module comment for the steps. */
export async function buildEnvtestBinaries(options: GoBuildOptions = {}): Promise<GoBuildResult> {
  const version = normalizeVersion(options.version ?? DEFAULT_ENVTEST_VERSION);
  const log = options.log ?? (() => {});
  const clock = options.clock ?? realClock;
  const go = options.go ?? "go";
  const root = envtestVersionDir(version, options.cacheRoot);
  const srcDir = join(root, "src");
  const binDir = join(root, "bin");
  const timings: Record<string, number> = {};
  const timed = async <T>(step: string, fn: () => Promise<T>): Promise<T> => {
    const started = clock.now();
    log(`envtest build: ${step}...`);
    const result = await fn();
    timings[step] = clock.now() - started;
    log(`envtest build: ${step} done in ${(timings[step] / 1000).toFixed(1)} s`);
    return result;
  };
  const built = BUILT_COMMANDS.every((c) => isBuiltFile(join(binDir, c)));
  const cached = built && !options.force;

  if (!cached) {
    const env = { ...process.env, CGO_ENABLED: "0", GOFLAGS: `-p=${options.parallelism ?? 2}` };
    await mkdir(binDir, { recursive: true });
    // An earlier build may have linked a system etcd here; the build writes its own.
    for (const command of BUILT_COMMANDS) await rm(join(binDir, command), { force: true });
    const goModPath = await timed("resolve k8s.io/kubernetes", async () => {
      const out = await run(
        go,
        ["mod", "download", "-json", `k8s.io/kubernetes@v${version}`],
        root,
        env,
        log,
      );
      return (JSON.parse(out) as { GoMod: string }).GoMod;
    });
    const staging = stagingModulesFrom(await readFile(goModPath, "utf8"));
    await rm(srcDir, { recursive: true, force: true });
    for (const command of BUILT_COMMANDS) {
      await mkdir(join(srcDir, "cmd", command), { recursive: true });
      await writeFile(join(srcDir, "cmd", command, "main.go"), renderMain(command));
    }
    await writeFile(join(srcDir, "go.mod"), renderGoMod(version, staging));
    await timed("go mod tidy", () => run(go, ["mod", "tidy"], srcDir, env, log));
    const packages = BUILT_COMMANDS.map((c) => `./cmd/${c}`);
    const buildArgs = [
      "build",
      "-trimpath",
      "-ldflags",
      versionLdflags(version),
      "-o",
      `${binDir}/`,
      ...packages,
    ];
    await timed("go build", () => run(go, buildArgs, srcDir, env, log));
  }
  await linkInto(binDir, "kubectl", findOnPath("kubectl"), log);

  const sizes: Record<string, number> = {};
  for (const command of BUILT_COMMANDS) sizes[command] = (await stat(join(binDir, command))).size;
  return { version, binDir, cached, timings, sizes };
}
