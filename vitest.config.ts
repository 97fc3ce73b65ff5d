import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // "default" for people; the summary reporter ends the run with "N passed, N failed, N skipped" for CI.
    reporters: ["default", "./test/support/summary-reporter.ts"],
  },
});
