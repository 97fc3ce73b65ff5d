import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** Running, not a zombie waiting to be reaped. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^\d+ \(.*\) [ZX] /.test(stat);
  } catch {
    return false;
  }
}

describe.runIf(existsSync("/proc/self/stat"))("control-plane children of a terminated test worker", () => {
  it("are killed when vitest ends a worker that never called stop()", async () => {
    const dir = mkdtempSync(join(tmpdir(), "orphan-"));
    const pidFile = join(dir, "pid");
    try {
      const result = spawnSync(
        process.execPath,
        ["node_modules/vitest/vitest.mjs", "run", "test/integration/cluster/fixtures/leaky-worker.test.ts"],
        {
          env: { ...process.env, WORKBOOK_LEAK_SELFTEST: "1", WORKBOOK_LEAK_PIDFILE: pidFile },
          encoding: "utf8",
        },
      );
      expect(result.status).toBe(0);
      const pid = Number(readFileSync(pidFile, "utf8"));
      expect(pid).toBeGreaterThan(0);
      let alive = running(pid);
      for (let i = 0; i < 100 && alive; i++) {
        await new Promise((r) => setTimeout(r, 50));
        alive = running(pid);
      }
      if (alive) process.kill(pid, "SIGKILL"); // do not leave it behind even when the test fails
      expect(alive).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
