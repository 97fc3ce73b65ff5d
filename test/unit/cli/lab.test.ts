import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { jupyterDefaultsFiles, writeJupyterDefaults } from "../../../src/tools/cli/jupyter-defaults.js";
import { labAddress, labProblems, portMessage, runLab } from "../../../src/tools/cli/lab.js";
import { checkPort } from "../../../src/tools/cli/port-check.js";
import { workbookPaths } from "../../../src/tools/cli/workbook-paths.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "workbook-lab-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A checkout in `dir` where everything lab checks for exists (as empty files). */
function readyCheckout() {
  const paths = workbookPaths(dir);
  const files = [
    paths.venvPython,
    paths.venvJupyter,
    join(paths.kernelDir, "kernel.json"),
    paths.tslabBin,
    join(dir, "dist", "index.js"),
    join(paths.packageLink, "package.json"),
  ];
  for (const file of files) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, "");
  }
  mkdirSync(paths.notebooks, { recursive: true });
  return paths;
}

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, output: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) } };
}

function listen(port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
}

describe("where JupyterLab listens", () => {
  it("reads --port and --ip the way Jupyter does, defaulting to localhost:8888", () => {
    expect(labAddress([], {})).toEqual({ host: "127.0.0.1", port: 8888 });
    expect(labAddress(["--port=9000"], {})).toEqual({ host: "127.0.0.1", port: 9000 });
    expect(labAddress(["--port", "9001", "--ip", "0.0.0.0"], {})).toEqual({ host: "0.0.0.0", port: 9001 });
    expect(labAddress(["--ServerApp.port=0", "--ServerApp.ip=127.0.0.2"], {})).toEqual({
      host: "127.0.0.2",
      port: 0,
    });
    expect(labAddress([], { JUPYTER_PORT: "8999" }).port).toBe(8999);
    expect(labAddress(["--port=9002"], { JUPYTER_PORT: "8999" }).port).toBe(9002);
    expect(() => labAddress(["--port=eighty"], {})).toThrow(/whole number from 0 to 65535/);
  });

  it("tells a taken port from a free one", async () => {
    const server = await listen(0, "127.0.0.1");
    const port = (server.address() as { port: number }).port;
    try {
      expect(await checkPort(port, "127.0.0.1")).toEqual({ free: false, code: "EADDRINUSE" });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(await checkPort(port, "127.0.0.1")).toEqual({ free: true });
  });

  it("says what to do about a taken port, and about other refusals", () => {
    const taken = portMessage("127.0.0.1", 8888, "EADDRINUSE");
    expect(taken).toMatch(/port 8888 on 127\.0\.0\.1 is already in use/);
    expect(taken).toMatch(/open http:\/\/127\.0\.0\.1:8888\/lab/);
    expect(taken).toMatch(/npm start -- --port 8889/);
    expect(portMessage("127.0.0.1", 80, "EACCES")).toMatch(/no permission to listen on port 80/);
    expect(portMessage("10.9.9.9", 8888, "EADDRNOTAVAIL")).toMatch(/cannot listen on 10\.9\.9\.9:8888/);
  });
});

describe("what lab checks before starting", () => {
  it("says Python itself is missing when there is no .venv and no Python", () => {
    const problems = labProblems(workbookPaths(dir), () => ({
      missing: "no Python 3.9+ found: install python3",
    }));
    expect(problems[0]).toMatch(/\.venv is missing, and Python cannot make one: no Python 3\.9\+ found/);
    expect(problems[0]).toMatch(/npm run setup/);
  });

  it("says to run setup when Python is there but .venv is not", () => {
    const problems = labProblems(workbookPaths(dir), () => ({ command: "python3", version: "3.11" }));
    expect(problems[0]).toMatch(
      /\.venv is missing\. Run `npm run setup` \(it creates \.venv with python3 3\.11/,
    );
  });

  it("notices a .venv without JupyterLab, and is content with a complete checkout", () => {
    const paths = readyCheckout();
    expect(labProblems(paths)).toEqual([]);
    rmSync(paths.venvJupyter);
    expect(labProblems(paths)).toEqual([expect.stringMatching(/JupyterLab is not installed in \.venv/)]);
  });

  it("exits 1 with the problems, no stack trace, and starts nothing", async () => {
    const { err, output } = capture();
    const previous = process.env.WORKBOOK_PYTHON;
    process.env.WORKBOOK_PYTHON = join(dir, "no-such-python");
    try {
      expect(await runLab([], workbookPaths(dir), output)).toBe(1);
    } finally {
      if (previous === undefined) delete process.env.WORKBOOK_PYTHON;
      else process.env.WORKBOOK_PYTHON = previous;
    }
    const text = err.join("");
    expect(text).toMatch(
      /^workbook lab: JupyterLab cannot start yet:\n {2}The Python environment \.venv is missing/,
    );
    expect(text).toMatch(/install python3 and python3-venv/);
    expect(text).not.toMatch(/\n\s+at /);
  });

  it("exits 1 with one clear sentence when the port is taken", async () => {
    const paths = readyCheckout();
    const server = await listen(0, "127.0.0.1");
    const port = (server.address() as { port: number }).port;
    const { out, err, output } = capture();
    try {
      expect(await runLab(["--no-browser", `--port=${port}`, "--ip=127.0.0.1"], paths, output)).toBe(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(err.join("")).toBe(portMessage("127.0.0.1", port, "EADDRINUSE"));
    expect(out).toEqual([]);
  });
});

describe("the project's Jupyter defaults", () => {
  it("makes tslab the default kernel and turns the news pop-up off, rewriting only on change", () => {
    expect(writeJupyterDefaults({ venv: dir })).toBe(true);
    expect(writeJupyterDefaults({ venv: dir })).toBe(false);
    const files = jupyterDefaultsFiles(dir);
    expect(JSON.parse(readFileSync(files.serverConfig, "utf8"))).toEqual({
      MappingKernelManager: { default_kernel_name: "tslab" },
    });
    expect(files.serverConfig).toBe(join(dir, "etc", "jupyter", "jupyter_server_config.json"));
    const overrides = JSON.parse(readFileSync(files.labOverrides, "utf8"));
    expect(overrides["@jupyterlab/apputils-extension:notification"]).toEqual({
      fetchNews: "false",
      checkForUpdates: false,
    });
    writeFileSync(files.labOverrides, "{}");
    expect(writeJupyterDefaults({ venv: dir })).toBe(true);
    expect(existsSync(files.labOverrides)).toBe(true);
  });
});
