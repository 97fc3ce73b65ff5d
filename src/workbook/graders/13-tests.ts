/**
 * Grader of lab 13-tests: the learner writes the tests of a given ConfigSet controller. The grader runs the
 * learner's suite against that controller, where every test must pass, also when the API server answers every
 * write late; then against mutants of it, copies of `controller.ts` with one planted bug each (text replacements
 * the learner never sees), where at least one test must fail. This is mutation testing: a suite is as good as the
 * bugs it catches, and a test that never fails on a wrong controller checks nothing.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { CoreV1Api, type KubeConfig } from "@kubernetes/client-node";
import { type Check, defineLab, runWithTimeout } from "../grading/index.js";
import { gradingCluster, importLab } from "./support/index.js";

/** What the lab's `testing.ts` promises a test gets (its `TestContext`), as the grader builds it. */
interface TestContext {
  kubeConfig: KubeConfig;
  namespace: string;
  defer(cleanup: () => unknown): void;
}

/** One learner test (the lab's `ControllerTest`). */
interface ControllerTest {
  name: string;
  run(t: TestContext): Promise<void>;
}

/** What `labs/13-tests/tests.ts` exports. */
export interface TestsModule {
  tests: ControllerTest[];
}

/** A planted bug: edits of the given `controller.ts`, and the behaviour they break (said in the requirement). */
export interface Mutant {
  name: string;
  /** What the mutant does wrong, completing "the suite catches a controller that ...". */
  breaks: string;
  /** `[search, replacement]` pairs, applied in order; each `search` must occur in controller.ts exactly once. */
  edits: ReadonlyArray<readonly [string, string]>;
  /** Names the behaviour the surviving mutant breaks (never the test to write). */
  hint: string;
}

/** The mutants, in the order they are reported. */
export const MUTANTS: readonly Mutant[] = [
  {
    name: "edge-triggered",
    breaks: "does not watch its children: a child deleted or edited by someone else stays so",
    edits: [
      [
        'children.addEventHandler(\n    enqueueRequestForOwner(controller.queue, { kind: "ConfigSet", group: "workbook.dev" }),\n  );',
        "void enqueueRequestForOwner;",
      ],
    ],
    hint: "the controller is level-triggered: it repairs a child that someone else deleted or changed, without any change to the ConfigSet. Which of your tests changes a child behind the controller's back, on a running controller?",
  },
  {
    name: "no-finalizer",
    breaks: "never adds its finalizer: the children of a deleted ConfigSet are left to a garbage collector",
    edits: [
      [
        "if (!finalizers.includes(FINALIZER)) await ctx.writes.updateFinalizers(cs, [...finalizers, FINALIZER]);",
        "",
      ],
    ],
    hint: "where a garbage collector runs (as here), the children of a deleted ConfigSet vanish with or without the finalizer: what only the controller does is put workbook.dev/children on every ConfigSet it manages, before it creates children",
  },
  {
    name: "finalizer-first",
    breaks: "removes its finalizer before it deletes the children",
    edits: [
      [
        "    await deleteChildren(ctx, namespace, ours);\n    await ctx.writes.updateFinalizers(cs, rest);",
        "    await ctx.writes.updateFinalizers(cs, rest);\n    await deleteChildren(ctx, namespace, ours);",
      ],
    ],
    hint: "deletion is ordered: the finalizer comes off only after the children are deleted (the end state is the same either way; the order of the writes is not)",
  },
  {
    name: "hot-loop",
    breaks: "writes every child on every pass, converged or not (a hot loop)",
    // It stamps the time, as a "last reconciled" annotation would: a write that changes nothing is no event (the
    // API server keeps the resourceVersion), a stamped one is, and wakes the controller again: a hot loop.
    edits: [
      ["if (adopted && dataMatches) continue; // nothing to write", ""],
      [
        "const next: Child = { ...child, metadata: { ...child.metadata }, data: { ...want } };",
        'const next: Child = { ...child, metadata: { ...child.metadata, annotations: { "workbook.dev/reconciled-at": new Date().toISOString() } }, data: { ...want } };',
      ],
    ],
    hint: "a converged controller writes nothing: every write wakes it again. The end state cannot show this; the writes it sends can",
  },
  {
    name: "no-adoption",
    breaks: "ignores a labelled ConfigMap without a controller instead of adopting it",
    edits: [
      [
        "getControllerOf(cm)?.uid === cs.metadata.uid || !getControllerOf(cm)",
        "getControllerOf(cm)?.uid === cs.metadata.uid",
      ],
    ],
    hint: "a ConfigMap labelled with the ConfigSet's name and controlled by nobody (an orphan) is adopted: it gets the controller reference and the data, and no child is created beside it",
  },
  {
    name: "duplicate-children",
    breaks: "names its children at random: a cache that has not yet seen its own creates makes them twice",
    edits: [
      [
        `const childName = \`\${name}-\${i}\`;`,
        `const childName = \`\${name}-\${Math.random().toString(36).slice(2, 8)}\`;`,
      ],
    ],
    hint: "the cache lags behind the controller's own writes: a second pass that does not yet see the children it created must not end with more children than spec.replicas",
  },
  {
    name: "swallows-409",
    breaks: "treats a 409 Conflict on an update as done",
    edits: [
      [
        "await ctx.writes.updateConfigMap(namespace, next); // a 409 goes back to the queue",
        "await ctx.writes.updateConfigMap(namespace, next).catch((err) => { if (err?.code !== 409) throw err; });",
      ],
    ],
    hint: "a 409 Conflict is normal (the cache was behind) and must go back to the queue as an error, so the key is retried: the real API server rarely answers 409 to a lone writer, so make one happen",
  },
  {
    name: "ignores-spec-edits",
    breaks: "copies spec.data only into the children it creates or adopts, never into existing ones",
    edits: [["const dataMatches = sameData(child.data, want);", "const dataMatches = true;"]],
    hint: "an edit of spec.data reaches the children that already exist",
  },
];

/** Applies `mutant` to the text of controller.ts; throws when a search string is missing (controller.ts changed). */
export function mutate(source: string, mutant: Mutant): string {
  let text = source;
  for (const [search, replacement] of mutant.edits) {
    const at = text.indexOf(search);
    if (at < 0 || text.indexOf(search, at + 1) >= 0)
      throw new Error(
        `controller.ts is not the one the lab gives (the grader cannot plant the bug "${mutant.name}" in it): restore it with git checkout -- labs/13-tests/controller.ts`,
      );
    text = text.slice(0, at) + replacement + text.slice(at + search.length);
  }
  return text;
}

/** One cluster for the worker: the embedded backend, whose fault instruments slow the API server down. */
const cluster = gradingCluster({ prefix: "lab13", workbookApi: true }, { backend: "embedded" });

/** How late the API server answers every write in the second run of requirement 1. */
const LATE_MS = 300;
/** A test that runs longer than this fails. */
const TEST_TIMEOUT_MS = 60_000;

/** The first failing test of a suite, or undefined when all passed. */
interface Failure {
  test: string;
  message: string;
}

/** The first line of what a test threw, kept short. */
function describeError(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const line = text.split("\n")[0] ?? "";
  return line.length > 300 ? `${line.slice(0, 300)}...` : line;
}

/** The learner's tests from `dir`, checked for shape. */
async function loadTests(dir: string): Promise<ControllerTest[]> {
  const mod = await importLab<Partial<TestsModule>>(dir, "tests.js");
  if (!Array.isArray(mod.tests)) throw new Error("tests.ts does not export `tests`, an array of tests");
  for (const [i, test] of mod.tests.entries())
    if (typeof test?.name !== "string" || typeof test.run !== "function")
      throw new Error(`tests[${i}] is not { name, run }: every test needs a name and an async run(t)`);
  return mod.tests;
}

/**
 * Runs `tests` in order, each in a fresh namespace, and stops at the first failure (like `go test -failfast`).
 * Cleanups registered with `t.defer` run after each test, last first (their errors are ignored); then the
 * test's namespace is deleted.
 */
async function runSuite(tests: ControllerTest[], label: string): Promise<Failure | undefined> {
  const c = await cluster.get();
  const core = c.kubeConfig.makeApiClient(CoreV1Api);
  for (const test of tests) {
    const namespace = await cluster.newNamespace(label);
    const cleanups: (() => unknown)[] = [];
    const t: TestContext = { kubeConfig: c.kubeConfig, namespace, defer: (fn) => cleanups.push(fn) };
    let failure: Failure | undefined;
    try {
      await runWithTimeout(() => test.run(t), TEST_TIMEOUT_MS);
    } catch (err) {
      failure = { test: test.name, message: describeError(err) };
    } finally {
      for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => {});
      // What a test left running (a controller it did not stop) finds its objects gone, and goes quiet.
      // Not awaited: under the late API server the answer takes its time, and nothing waits for it.
      void core.deleteNamespace({ name: namespace }).catch(() => {});
    }
    if (failure) return failure;
  }
  return undefined;
}

/** How many copies of each mutant this process made (a module path is imported once per process). */
const copies = new Map<string, number>();

/** Copies the lab folder `dir` into `<dir>/.mutants/<name>/` with controller.ts mutated; returns the copy. */
function plant(dir: string, mutant: Mutant): string {
  const source = readFileSync(join(dir, "controller.ts"), "utf8");
  const mutated = mutate(source, mutant);
  const n = (copies.get(mutant.name) ?? 0) + 1;
  copies.set(mutant.name, n);
  const target = join(dir, ".mutants", n === 1 ? mutant.name : `${mutant.name}-${n}`);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  for (const entry of readdirSync(dir))
    if (entry !== ".mutants") cpSync(join(dir, entry), join(target, entry), { recursive: true });
  writeFileSync(join(target, "controller.ts"), mutated);
  return target;
}

/** Removes a copy made by {@link plant}, and `.mutants` when it is empty. */
function unplant(dir: string, copy: string): void {
  rmSync(copy, { recursive: true, force: true });
  const parent = join(dir, ".mutants");
  if (existsSync(parent) && readdirSync(parent).length === 0) rmdirSync(parent);
}

/** The requirement every mutant check builds on. */
const PASSES =
  "the suite has at least one test and every test passes on the given controller, also when the API server answers every write late";

/** The requirement of `mutant`. */
const catches = (mutant: Mutant) => `the suite catches a controller that ${mutant.breaks}`;

/** Grader of labs/13-tests: the learner's tests, run against the given controller and against its mutants. */
export default defineLab({
  title: "test a controller: your tests pass on it and fail on each of its mutants",
  async checks(dir) {
    const checks: Check[] = [
      {
        requirement: PASSES,
        hint: "the given controller is correct: a test that fails on it expects something the controller does not do (its header lists what it does), or looks too early. Poll for an outcome with eventually instead of sleeping a fixed time, and stop what a test starts with t.defer",
        timeout: 300_000,
        run: async () => {
          const tests = await loadTests(dir);
          if (tests.length === 0) throw new Error("tests.ts exports no test: the list is empty");
          const normal = await runSuite(tests, "pass");
          if (normal)
            throw new Error(`test "${normal.test}" failed on the given controller: ${normal.message}`);
          const c = await cluster.get();
          const faults = c.instruments?.faults;
          if (!faults) throw new Error("the grading cluster has no fault instruments");
          for (const verb of ["create", "update", "patch", "delete"] as const) faults.latency(LATE_MS, verb);
          try {
            const late = await runSuite(tests, "late");
            if (late)
              throw new Error(
                `test "${late.test}" failed on the given controller while the API server answered every write ${LATE_MS} ms late: ${late.message}`,
              );
          } finally {
            faults.clear();
          }
        },
      },
    ];
    for (const mutant of MUTANTS)
      checks.push({
        requirement: catches(mutant),
        hint: mutant.hint,
        needs: [PASSES],
        tally: "mutants caught",
        timeout: 300_000,
        run: async () => {
          const copy = plant(dir, mutant);
          try {
            const failure = await runSuite(await loadTests(copy), mutant.name);
            if (!failure)
              throw new Error(
                `every test passed on a controller that ${mutant.breaks}: no test looks at that behaviour`,
              );
          } finally {
            unplant(dir, copy);
          }
        },
      });
    return checks;
  },
  teardown: () => cluster.stop(),
});
