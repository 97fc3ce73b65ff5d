/**
 * The process that runs one lab's checks for `workbook grade` (started by src/tools/cli/grade-supervisor.ts with
 * `fork`): `node grade-worker.js <grader> <lab-dir> <first-check>`. It loads the grader (built JavaScript from
 * dist/workbook/graders/, or a TypeScript fixture through the grading module hooks, which also load the lab's
 * TypeScript), runs the checks from `first-check` on, and reports each over IPC. A check that
 * times out asynchronously is reported and the worker exits, so the next check starts in a clean process; a
 * check that never yields (a synchronous infinite loop) is stopped by the parent.
 */
import { register } from "node:module";
import { pathToFileURL } from "node:url";
import {
  type CheckResult,
  DEFAULT_CHECK_TIMEOUT_MS,
  type LabGrader,
  notApplicableResult,
  runWithTimeout,
  skippedForUnmetNeed,
} from "../../workbook/grading/check.js";
import { warmTranspileCache } from "../../workbook/grading/ts-hooks.js";
import type { WorkerMessage } from "./grade-protocol.js";

function send(message: WorkerMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) throw new Error("grade-worker must be started by `workbook grade` (no IPC channel)");
    process.send(message, undefined, {}, () => resolve());
  });
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

async function teardown(grader: LabGrader): Promise<void> {
  if (!grader.teardown) return;
  await runWithTimeout(() => grader.teardown?.(), 10_000).catch(() => undefined);
}

async function main(): Promise<void> {
  const [graderFile, dir, fromText] = process.argv.slice(2);
  if (!graderFile || !dir) throw new Error("usage: grade-worker <grader> <lab-dir> [first-check]");
  const from = Number(fromText ?? 0);
  for (const event of ["uncaughtException", "unhandledRejection"] as const) {
    process.on(event, (err: unknown) => {
      void send({ type: "crash", message: `${event}: ${messageOf(err)}` }).then(() => process.exit(1));
    });
  }
  register(new URL("../../workbook/grading/ts-hooks.js", import.meta.url));
  let grader: LabGrader;
  let checks: Awaited<ReturnType<LabGrader["checks"]>>;
  try {
    const mod = (await import(pathToFileURL(graderFile).href)) as { default?: LabGrader };
    if (!mod.default || typeof mod.default.checks !== "function") {
      throw new Error(`${graderFile} must \`export default defineLab({ checks })\``);
    }
    grader = mod.default;
    checks = await grader.checks(dir);
    await warmTranspileCache(dir);
  } catch (err) {
    await send({ type: "load-error", message: messageOf(err) });
    process.exit(0);
  }
  const info = checks.map((c) => {
    const item = { requirement: c.requirement, timeout: c.timeout ?? DEFAULT_CHECK_TIMEOUT_MS };
    return {
      ...item,
      ...(c.hint === undefined ? {} : { hint: c.hint }),
      ...(c.tally === undefined ? {} : { tally: c.tally }),
    };
  });
  await send(
    grader.title === undefined
      ? { type: "checks", checks: info }
      : { type: "checks", title: grader.title, checks: info },
  );
  // Results this process saw (after a restart, the checks before `from` are not known here and are not skipped).
  const seen: CheckResult[] = [];
  for (let index = from; index < checks.length; index++) {
    const check = checks[index]!;
    await send({ type: "start", index });
    const skipped = notApplicableResult(check) ?? skippedForUnmetNeed(check, seen);
    if (skipped) {
      seen.push(skipped);
      await send({ type: "result", index, restart: false, result: skipped });
      continue;
    }
    const started = Date.now();
    let restart = false;
    let result: WorkerMessage & { type: "result" };
    try {
      await runWithTimeout(() => check.run(), check.timeout ?? DEFAULT_CHECK_TIMEOUT_MS);
      result = {
        type: "result",
        index,
        restart,
        result: { requirement: check.requirement, passed: true, durationMs: Date.now() - started },
      };
    } catch (err) {
      const message = messageOf(err);
      // Whatever hung may still be running: finish this process and let the next check start clean.
      restart = /^did not finish within/.test(message);
      const failed = {
        requirement: check.requirement,
        passed: false,
        message,
        durationMs: Date.now() - started,
      };
      result = {
        type: "result",
        index,
        restart,
        result: check.hint === undefined ? failed : { ...failed, hint: check.hint },
      };
    }
    seen.push(result.result);
    await send(result);
    if (restart) {
      await teardown(grader);
      process.exit(0);
    }
  }
  await teardown(grader);
  await send({ type: "done" });
  process.exit(0);
}

main().catch(async (err: unknown) => {
  await send({ type: "crash", message: messageOf(err) }).catch(() => undefined);
  process.exit(1);
});
