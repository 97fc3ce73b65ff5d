import { configDefaults, defineConfig } from "vitest/config";
import { FULL_ONLY } from "./test/tiers.js";

// Two tiers (test/tiers.ts): the project "fast" is `npm test`; "fast" + "full" is `npm run test:all`.
// `npx vitest run <file>` runs a file of either tier.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two cores: one worker per core (more workers only queue for the CPU and each pays its own imports).
    maxWorkers: 2,
    // "default" for people; the summary reporter ends the run with the slowest files and
    // "N passed, N failed, N skipped" for CI.
    reporters: ["default", "./test/support/summary-reporter.ts"],
    // Transformed modules are kept on disk between runs (node_modules/.experimental-vitest-cache): a second
    // `npm test` skips most of the TypeScript transforms.
    experimental: { fsModuleCache: true },
    projects: [
      {
        extends: true,
        test: {
          name: "fast",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...FULL_ONLY],
        },
      },
      { extends: true, test: { name: "full", include: [...FULL_ONLY] } },
    ],
  },
});
