import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FakeClock } from "../../../src/clock/index.js";
import { ControlPlaneProcess } from "../../../src/control-plane/cluster/envtest/process.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "proc-test-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function alive(pid: number | undefined): boolean {
  try {
    process.kill(pid ?? -1, 0);
    return true;
  } catch {
    return false;
  }
}

const node = process.execPath;

describe("ControlPlaneProcess", () => {
  it("logs output to its file and stops with SIGTERM; stop() is idempotent", async () => {
    const proc = await ControlPlaneProcess.start({
      name: "talker",
      command: node,
      args: ["-e", "console.log('hello from child'); setInterval(() => {}, 1000)"],
      logFile: join(dir, "talker.log"),
    });
    expect(proc.running).toBe(true);
    expect(alive(proc.pid)).toBe(true);
    for (let i = 0; i < 100 && !proc.logTail().includes("hello"); i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(proc.logTail()).toContain("hello from child");
    await Promise.all([proc.stop(), proc.stop()]);
    expect(proc.running).toBe(false);
    expect(alive(proc.pid)).toBe(false);
    expect(await proc.exited).toEqual({ code: null, signal: "SIGTERM" });
  });

  it("escalates to SIGKILL when the process ignores SIGTERM for the grace period (fake clock)", async () => {
    const clock = new FakeClock();
    const proc = await ControlPlaneProcess.start({
      name: "stubborn",
      command: node,
      args: [
        "-e",
        "process.on('SIGTERM', () => console.log('ignored')); console.log('ready'); setInterval(() => {}, 1000)",
      ],
      logFile: join(dir, "stubborn.log"),
      stopTimeoutMs: 5_000,
      clock,
    });
    for (let i = 0; i < 200 && !proc.logTail().includes("ready"); i++)
      await new Promise((r) => setTimeout(r, 20));
    const stopping = proc.stop();
    for (let i = 0; i < 200 && !proc.logTail().includes("ignored"); i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(proc.running).toBe(true);
    await clock.advance(5_000);
    await stopping;
    expect(await proc.exited).toEqual({ code: null, signal: "SIGKILL" });
  });

  it("reports a binary that does not exist with a clear error", async () => {
    await expect(
      ControlPlaneProcess.start({
        name: "ghost",
        command: join(dir, "nope"),
        args: [],
        logFile: join(dir, "g.log"),
      }),
    ).rejects.toThrow(/Could not start ghost/);
  });
});
