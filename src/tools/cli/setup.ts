/**
 * `workbook setup`: everything a notebook needs beyond `npm install`, run by package.json's `prepare` script.
 *
 * Steps, each idempotent and skipped when already done:
 *  1. link `node_modules/kube-controller-workbook -> ..` so notebooks import the package BY NAME. tslab compiles
 *     cells with `rootDir` = the notebook folder and Node10 module resolution, so a relative import of `src/` is
 *     impossible; through the link, `import ... from "kube-controller-workbook"` resolves to dist/index.js and
 *     dist/index.d.ts (package.json `main`/`types`). Nothing loops through the link: vitest collects only
 *     test/**, biome skips node_modules, tsc follows imports only, and Node and tslab resolve it to its real path.
 *  2. check that zeromq's prebuilt binary (tslab's transport) loads.
 *  3. create `.venv` with the pinned packages of requirements-notebooks.txt (JupyterLab, nbclient, ipykernel).
 *  4. write the tslab kernelspec into `.venv/share/jupyter/kernels/tslab`, pointing at this node and this
 *     project's tslab, and the Jupyter defaults of jupyter-defaults.ts (tslab is the default kernel for new
 *     notebooks; no news pop-up): nothing outside the checkout is touched.
 *
 * Invariant: setup never fails `npm install`. Without Python it says what to install and exits 0, so the
 * library, tests and benchmarks still work; the notebook commands then explain what is missing.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { writeJupyterDefaults } from "./jupyter-defaults.js";
import { type WorkbookPaths, workbookPaths } from "./workbook-paths.js";

/** Where setup writes its progress lines. */
export type SetupLog = (line: string) => void;

const defaultLog: SetupLog = (line) => process.stdout.write(`workbook setup: ${line}\n`);

/** What became of the package link: created, already there, or left alone (with why). */
export type LinkOutcome = "created" | "present" | "replaced" | { skipped: string };

/**
 * Makes `link` a symlink to `..` (the package root as seen from node_modules). A relative target keeps the
 * checkout relocatable. A real directory at that path is left alone (someone installed the package there).
 */
export function linkPackage(link: string): LinkOutcome {
  let existing: ReturnType<typeof lstatSync> | undefined;
  try {
    existing = lstatSync(link);
  } catch {
    existing = undefined;
  }
  if (existing?.isSymbolicLink()) {
    if (readlinkSync(link) === "..") return "present";
    rmSync(link);
    symlinkSync("..", link, "junction");
    return "replaced";
  }
  if (existing) return { skipped: `${link} exists and is not a symlink; leaving it` };
  mkdirSync(join(link, ".."), { recursive: true });
  symlinkSync("..", link, "junction");
  return "created";
}

/** A usable Python 3 (with venv and ensurepip), or why none was found. */
export type PythonProbe = { command: string; version: string } | { missing: string };

const PROBE = "import sys, venv, ensurepip; print('%d.%d' % sys.version_info[:2])";

/**
 * Finds a Python 3.9+ that can create virtual environments: `WORKBOOK_PYTHON`, then `python3`, then `python`.
 * Debian's python3 without python3-venv lacks ensurepip; that case gets its own message.
 */
export function findPython(candidates: string[] = defaultPythonCandidates()): PythonProbe {
  let incomplete: string | undefined;
  for (const command of candidates) {
    const probe = spawnSync(command, ["-c", PROBE], { encoding: "utf8" });
    if (probe.error) continue;
    const version = probe.stdout.trim();
    const [major, minor] = version.split(".").map(Number);
    if (probe.status === 0 && major === 3 && (minor ?? 0) >= 9) return { command, version };
    if (probe.status !== 0 && /ensurepip|venv/.test(probe.stderr)) incomplete = command;
  }
  if (incomplete) {
    return {
      missing: `${incomplete} cannot create virtual environments: install the venv module (Debian/Ubuntu: apt-get install python3-venv)`,
    };
  }
  return {
    missing:
      "no Python 3.9+ found: install python3 and python3-venv (Debian/Ubuntu: apt-get install python3 python3-venv; macOS: brew install python)",
  };
}

function defaultPythonCandidates(): string[] {
  const chosen = process.env.WORKBOOK_PYTHON;
  return chosen ? [chosen] : ["python3", "python"];
}

/** The Jupyter kernelspec (kernel.json) that starts this project's tslab under this node binary. */
export function kernelSpec(paths: Pick<WorkbookPaths, "tslabBin">, node: string = process.execPath): object {
  return {
    argv: [node, paths.tslabBin, "kernel", "--config-path", "{connection_file}"],
    display_name: "TypeScript (workbook)",
    language: "typescript",
    metadata: { "kube-controller-workbook": true },
  };
}

/** Writes the kernelspec if it differs from what is on disk. Returns whether it wrote. */
export function writeKernelSpec(paths: Pick<WorkbookPaths, "tslabBin" | "kernelDir">): boolean {
  const file = join(paths.kernelDir, "kernel.json");
  const text = `${JSON.stringify(kernelSpec(paths), null, 2)}\n`;
  if (existsSync(file) && readFileSync(file, "utf8") === text) return false;
  mkdirSync(paths.kernelDir, { recursive: true });
  writeFileSync(file, text);
  return true;
}

/**
 * The venv sits inside this package, whose package.json says `"type": "module"`; Node would then load the
 * CommonJS .js files JupyterLab ships (its bundled yarn) as ES modules and fail. A package.json saying
 * `"type": "commonjs"` at the venv's root restores Node's default for everything below it.
 */
export function markVenvCommonJs(venv: string): void {
  const file = join(venv, "package.json");
  const text = '{ "type": "commonjs", "private": true }\n';
  if (!existsSync(file) || readFileSync(file, "utf8") !== text) writeFileSync(file, text);
}

/** Fingerprint of what the venv should hold: the pinned requirements and the Python that built it. */
export function requirementsFingerprint(requirementsText: string, pythonVersion: string): string {
  return createHash("sha256").update(pythonVersion).update("\0").update(requirementsText).digest("hex");
}

function readStamp(file: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(file, "utf8")) as { fingerprint?: string }).fingerprint;
  } catch {
    return undefined;
  }
}

function runStep(command: string, args: string[], log: SetupLog): boolean {
  const result = spawnSync(command, args, { stdio: ["ignore", "inherit", "inherit"] });
  if (result.error) log(`could not run ${command}: ${result.error.message}`);
  return result.status === 0;
}

/** Steps 3 and 4: the venv with pinned packages, then the kernelspec. Returns false (after saying why) on failure. */
export function setupPython(paths: WorkbookPaths, log: SetupLog, force = false): boolean {
  const python = findPython();
  if ("missing" in python) {
    log(`${python.missing}.`);
    log(
      "the library, tests and benchmarks work without it; notebooks (npm start, npm run notebooks) need it.",
    );
    return false;
  }
  const requirements = readFileSync(paths.requirements, "utf8");
  const fingerprint = requirementsFingerprint(requirements, python.version);
  const ready = existsSync(paths.venvPython) && readStamp(paths.setupStamp) === fingerprint;
  if (ready && !force) {
    log("Python environment .venv is up to date");
  } else {
    if (force || !existsSync(paths.venvPython)) {
      log(`creating .venv with ${python.command} (Python ${python.version})`);
      if (force) rmSync(paths.venv, { recursive: true, force: true });
      // A .venv without a working python (its interpreter was removed or upgraded) is rebuilt in place.
      const clear = existsSync(paths.venv) ? ["--clear"] : [];
      if (!runStep(python.command, ["-m", "venv", ...clear, paths.venv], log)) {
        log("creating the venv failed: is python3-venv installed?");
        return false;
      }
    }
    log("installing requirements-notebooks.txt into .venv (JupyterLab, nbclient, ipykernel)");
    const pip = ["-m", "pip", "install", "--disable-pip-version-check", "-q", "-r", paths.requirements];
    if (!runStep(paths.venvPython, pip, log)) {
      log("pip install failed; run `npm run setup` to retry");
      return false;
    }
    writeFileSync(paths.setupStamp, `${JSON.stringify({ fingerprint, python: python.version }, null, 2)}\n`);
  }
  markVenvCommonJs(paths.venv);
  if (writeKernelSpec(paths)) log(`registered the tslab kernel in ${paths.kernelDir}`);
  if (writeJupyterDefaults(paths)) log("made tslab (TypeScript) the default kernel for new notebooks");
  return true;
}

/** Step 2: tslab talks to Jupyter over zeromq, whose binary comes prebuilt; say so early if it cannot load. */
export function checkZeromq(root: string): string | undefined {
  try {
    createRequire(join(root, "package.json"))("zeromq");
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** `workbook setup [--force]`. `WORKBOOK_SKIP_PYTHON=1` skips the Python steps. Always exits 0. */
export async function run(args: string[]): Promise<number> {
  const log = defaultLog;
  try {
    setup(args, log);
  } catch (err) {
    // Keep the invariant: report, never fail `npm install`.
    log(`failed: ${err instanceof Error ? err.message : String(err)}; run \`npm run setup\` to retry`);
  }
  return 0;
}

function setup(args: string[], log: SetupLog): void {
  const paths = workbookPaths();
  const link = linkPackage(paths.packageLink);
  if (typeof link === "object") log(link.skipped);
  else if (link !== "present") log(`linked node_modules/kube-controller-workbook -> .. (${link})`);
  if (!existsSync(join(paths.root, "dist", "index.js"))) log("dist/ is missing: run `npm run build`");
  const zmq = checkZeromq(paths.root);
  if (zmq) log(`tslab's zeromq binary does not load (${zmq}); try \`npm rebuild zeromq\``);
  if (process.env.WORKBOOK_SKIP_PYTHON === "1") {
    log("WORKBOOK_SKIP_PYTHON=1: skipping the Python environment");
    return;
  }
  setupPython(paths, log, args.includes("--force"));
}
