import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { notebookSkipReason, paths } from "./notebook-support.js";

const skipReason = notebookSkipReason();

/** Waits until `pattern` appears in the child's output (or the child exits first). */
function waitFor(child: ReturnType<typeof spawn>, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match) resolve(match);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("close", (code) => reject(new Error(`exited (${code}) before printing ${pattern}:\n${output}`)));
  });
}

describe.skipIf(skipReason !== undefined)("npm start (workbook lab)", () => {
  it("serves notebooks/ with tslab as the default kernel, starts that kernel, and stops on SIGTERM", async () => {
    const child = spawn(
      process.execPath,
      [
        join(paths.root, "dist", "tools", "cli", "main.js"),
        "lab",
        "--no-browser",
        "--ServerApp.port=0",
        "--ServerApp.ip=127.0.0.1",
      ],
      { cwd: paths.root, env: process.env, stdio: ["ignore", "pipe", "pipe"] },
    );
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    try {
      const [, base, token] = await waitFor(child, /(http:\/\/127\.0\.0\.1:\d+)\/lab\?token=([0-9a-f]+)/);
      const headers = { Authorization: `token ${token}` };
      const specs = (await (await fetch(`${base}/api/kernelspecs`, { headers })).json()) as {
        default: string;
        kernelspecs: Record<string, { spec: { argv: string[]; display_name: string } }>;
      };
      // File > New > Notebook opens a TypeScript notebook, not the venv's python3.
      expect(specs.default).toBe("tslab");
      expect(specs.kernelspecs.tslab?.spec.display_name).toBe("TypeScript (workbook)");
      expect(specs.kernelspecs.tslab?.spec.argv.slice(0, 3)).toEqual([
        process.execPath,
        paths.tslabBin,
        "kernel",
      ]);
      const contents = (await (await fetch(`${base}/api/contents`, { headers })).json()) as { path: string };
      expect(contents.path).toBe("");
      const started = await fetch(`${base}/api/kernels`, {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify({ name: "tslab" }),
      });
      expect(started.status).toBe(201);
      const kernel = (await started.json()) as { id: string; name: string };
      expect(kernel.name).toBe("tslab");
      const deleted = await fetch(`${base}/api/kernels/${kernel.id}`, { method: "DELETE", headers });
      expect(deleted.status).toBe(204);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  }, 120_000);
});
