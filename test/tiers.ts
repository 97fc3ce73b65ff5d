/**
 * The two test tiers, in one place (read by vitest.config.ts and checked by test/docs/test-tiers.test.ts).
 *
 * - `npm test` runs the **fast** tier: every `test/**\/*.test.ts` except {@link FULL_ONLY}. It must stay within
 *   5 minutes on 2 cores, so it holds one notebook and one lab graded both ways as smoke tests (test/smoke/).
 * - `npm run test:all` runs both tiers: the fast one and {@link FULL_ONLY}.
 *
 * The rule for a new test: if it runs notebooks or gradings, drives a browser, runs chaos or bench trials, or
 * needs a real cluster (envtest, kind), it belongs to the full tier: name it `*.full.test.ts`, or put it in one
 * of the full-only folders below. The fast tier's closing report lists its slowest files, so a slow file that
 * lands there anyway shows up on the next `npm test`.
 */

/** The smoke notebook of the fast tier: the smallest that still starts the kernel and talks to a cluster. */
export const SMOKE_NOTEBOOK = "00-cluster";

/** The smoke lab of the fast tier, graded both ways: the fastest lab to grade. */
export const SMOKE_LAB = "04-workqueue";

/** Globs (from the repository root) of the tests that only `npm run test:all` runs. */
export const FULL_ONLY = [
  // Any file named so, anywhere.
  "test/**/*.full.test.ts",
  // Whole folders: browser end-to-end, chaos trials, every lab graded (both ways, wrong answers, grade CLI runs).
  "test/e2e/**/*.test.ts",
  "test/chaos/**/*.test.ts",
  "test/labs/**/*.test.ts",
  // Every notebook headless, and the runner's own fixtures (each one a kernel start).
  "test/notebooks/notebooks.test.ts",
  // The tiny benchmark (a real bench run per family).
  "test/integration/bench/tiny.test.ts",
  // Real client-go and controller-runtime: a Go build of test/real-clients (minutes cold), then a run.
  "test/real-clients/**/*.test.ts",
  // The notebooks' Go sections: a Go build of test/go-snippets (minutes cold), then each program run.
  "test/go-snippets/**/*.test.ts",
  // Real clusters: a real kube-apiserver (envtest) or a whole node (kind), when present.
  "test/integration/cluster/envtest.test.ts",
  "test/integration/cluster/kind.test.ts",
  "test/integration/cluster/kind-wait-ready.test.ts",
] as const;
