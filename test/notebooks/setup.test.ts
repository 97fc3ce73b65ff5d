import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { labArgs } from "../../src/tools/cli/lab.js";
import { notebookEnv, notebookProblems } from "../../src/tools/cli/notebook-env.js";
import { listNotebooks, parseNotebooksArgs } from "../../src/tools/cli/notebooks.js";
import {
  findPython,
  kernelSpec,
  linkPackage,
  markVenvCommonJs,
  requirementsFingerprint,
  writeKernelSpec,
} from "../../src/tools/cli/setup.js";
import { workbookPaths } from "../../src/tools/cli/workbook-paths.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "workbook-setup-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("linkPackage", () => {
  it("creates node_modules/<pkg> -> .., then leaves it, and repoints a wrong link", () => {
    const link = join(dir, "node_modules", "kube-controller-workbook");
    expect(linkPackage(link)).toBe("created");
    expect(readlinkSync(link)).toBe("..");
    expect(realpathSync(link)).toBe(realpathSync(dir));
    expect(linkPackage(link)).toBe("present");
    rmSync(link);
    symlinkSync("/elsewhere", link);
    expect(linkPackage(link)).toBe("replaced");
    expect(readlinkSync(link)).toBe("..");
  });

  it("leaves a real directory alone and says so", () => {
    const link = join(dir, "node_modules", "kube-controller-workbook");
    mkdirSync(link, { recursive: true });
    expect(linkPackage(link)).toEqual({ skipped: expect.stringContaining("is not a symlink") });
  });
});

describe("findPython", () => {
  it("explains what to install when there is no Python", () => {
    const probe = findPython([join(dir, "no-such-python")]);
    expect(probe).toEqual({ missing: expect.stringContaining("install python3 and python3-venv") });
  });

  it("names the missing venv module when python3 lacks ensurepip (Debian without python3-venv)", () => {
    const fake = join(dir, "python3");
    writeFileSync(fake, "#!/bin/sh\necho \"ModuleNotFoundError: No module named 'ensurepip'\" >&2\nexit 1\n");
    chmodSync(fake, 0o755);
    expect(findPython([fake])).toEqual({ missing: expect.stringContaining("apt-get install python3-venv") });
  });

  it("rejects a Python older than 3.9 and accepts a newer one", () => {
    const old = join(dir, "python-old");
    writeFileSync(old, "#!/bin/sh\necho 3.8\n");
    chmodSync(old, 0o755);
    const good = join(dir, "python-good");
    writeFileSync(good, "#!/bin/sh\necho 3.12\n");
    chmodSync(good, 0o755);
    expect("missing" in findPython([old])).toBe(true);
    expect(findPython([old, good])).toEqual({ command: good, version: "3.12" });
  });
});

describe("kernelspec and venv files", () => {
  it("starts this project's tslab with this node, and is rewritten only when it changes", () => {
    const paths = workbookPaths(dir);
    expect(kernelSpec(paths, "/opt/node")).toMatchObject({
      argv: ["/opt/node", paths.tslabBin, "kernel", "--config-path", "{connection_file}"],
      language: "typescript",
    });
    expect(writeKernelSpec(paths)).toBe(true);
    expect(writeKernelSpec(paths)).toBe(false);
    const json = JSON.parse(readFileSync(join(paths.kernelDir, "kernel.json"), "utf8")) as { argv: string[] };
    expect(json.argv[0]).toBe(process.execPath);
  });

  it("marks the venv as CommonJS so JupyterLab's bundled .js files load under a type=module package", () => {
    markVenvCommonJs(dir);
    expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))).toMatchObject({ type: "commonjs" });
  });

  it("fingerprints requirements and the Python version", () => {
    const a = requirementsFingerprint("jupyterlab==4.6.6\n", "3.11");
    expect(requirementsFingerprint("jupyterlab==4.6.6\n", "3.11")).toBe(a);
    expect(requirementsFingerprint("jupyterlab==4.6.7\n", "3.11")).not.toBe(a);
    expect(requirementsFingerprint("jupyterlab==4.6.6\n", "3.12")).not.toBe(a);
  });
});

describe("notebook commands' preconditions and arguments", () => {
  it("lists every missing piece with its fix", () => {
    const problems = notebookProblems(workbookPaths(dir));
    expect(problems.join("\n")).toMatch(/\.venv is missing.*npm run setup/);
    expect(problems.join("\n")).toMatch(/tslab is not installed/);
    expect(problems.join("\n")).toMatch(/npm run build/);
    expect(problems.join("\n")).toMatch(/node_modules\/kube-controller-workbook is missing/);
  });

  it("defaults WORKBOOK_CLUSTER to embedded, keeps a chosen one, and puts the venv kernels first", () => {
    const paths = workbookPaths(dir);
    expect(notebookEnv(paths, {}).WORKBOOK_CLUSTER).toBe("embedded");
    const env = notebookEnv(paths, { WORKBOOK_CLUSTER: "kind", JUPYTER_PATH: "/mine" });
    expect(env.WORKBOOK_CLUSTER).toBe("kind");
    expect(env.JUPYTER_PATH).toBe(`${join(dir, ".venv", "share", "jupyter")}:/mine`);
  });

  it("parses runner arguments and rejects bad ones", () => {
    const paths = workbookPaths(dir);
    mkdirSync(paths.notebooks);
    for (const f of ["10-b.ipynb", "00-a.ipynb", "notes.md"]) writeFileSync(join(paths.notebooks, f), "{}");
    expect(listNotebooks(paths.notebooks)).toEqual([
      join(paths.notebooks, "00-a.ipynb"),
      join(paths.notebooks, "10-b.ipynb"),
    ]);
    expect(parseNotebooksArgs(["--timeout", "9"], paths)).toMatchObject({
      timeoutSeconds: 9,
      notebooks: listNotebooks(paths.notebooks),
    });
    expect(() => parseNotebooksArgs(["--timeout", "soon"], paths)).toThrow(/positive whole number/);
    expect(() => parseNotebooksArgs(["--verbose"], paths)).toThrow(/unknown option --verbose/);
  });

  it("roots JupyterLab at notebooks/ and allows root only as root", () => {
    const paths = workbookPaths(dir);
    expect(labArgs(paths, ["--no-browser"], false)).toEqual([
      "lab",
      `--ServerApp.root_dir=${paths.notebooks}`,
      "--ServerApp.port_retries=0",
      "--no-browser",
    ]);
    expect(labArgs(paths, [], true)).toContain("--allow-root");
    expect(labArgs(paths, ["--port-retries=5"], false)).not.toContain("--ServerApp.port_retries=0");
    expect(labArgs(paths, ["--ServerApp.root_dir=/elsewhere"], false)).toEqual([
      "lab",
      "--ServerApp.port_retries=0",
      "--ServerApp.root_dir=/elsewhere",
    ]);
  });
});
