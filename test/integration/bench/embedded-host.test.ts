import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type * as Host from "../../../src/tools/bench/embedded-host.js";

/**
 * The benchmark host forks its own module, so it runs from the build (dist/), as `npm run bench` runs it. Its churn
 * made one write more than planned most of the time (a timer fires up to a millisecond before
 * `performance.now()` says it is due), which the fan-out ladder read as lost deliveries.
 */
const built = resolve("dist/tools/bench/embedded-host.js");

describe.skipIf(!existsSync(built))("the benchmark host's churn", () => {
  it("makes at most the writes it planned, at the rate asked", { timeout: 60_000 }, async () => {
    const { startEmbeddedHost, churnWrites }: typeof Host = await import(pathToFileURL(built).href);
    const host = await startEmbeddedHost();
    try {
      await host.fill("churn", 5);
      const made: number[] = [];
      // 20/s for 0.5 s: the last write is due at 450 ms, 50 ms inside the window, so a busy host still makes it.
      for (let i = 0; i < 6; i++) made.push(await host.churn("churn", 5, 20, 500));
      expect(Math.max(...made)).toBeLessThanOrEqual(churnWrites(20, 500));
      // Fewer only when the host falls behind by 50 ms; most runs keep up.
      expect(made.filter((n) => n === churnWrites(20, 500)).length).toBeGreaterThanOrEqual(3);
    } finally {
      await host.stop();
    }
  });
});
