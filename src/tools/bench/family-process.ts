/**
 * One benchmark family in a fresh Node process. A family run after others in one process inherits their heap
 * (old space already grown and fragmented, code already optimised for other shapes) and measures that history:
 * the 100k informer sync read 2,084 ms late in a full run and 1,184 ms as the only family. A controller's first
 * sync happens in a fresh process, so each family gets one: this module forks itself with `--bench-family <i>`,
 * the child runs family `i` of {@link FAMILY_MODULES} (progress lines on the shared stdout) and posts its result
 * back over IPC, then exits.
 */
import { fork } from "node:child_process";
import { findClientGoPeer, type PeerLookup } from "./peers/client-go.js";
import { FAMILY_MODULES } from "./registry.js";
import type { BenchContext, BenchResult } from "./types.js";

/** What a family's process answers: its result or its error, and the client-go version it measured, if any. */
export type FamilyOutcome = (
  | { result: BenchResult; error?: undefined }
  | { error: string; result?: undefined }
) & {
  clientGoVersion?: string;
};

/**
 * Runs family `index` in a child process and resolves with its outcome; a child that dies without answering is
 * an error naming its exit code or signal, never a hang.
 */
export function runFamilyInFreshProcess(index: number, tiny: boolean): Promise<FamilyOutcome> {
  const child = fork(
    new URL(import.meta.url),
    ["--bench-family", String(index), ...(tiny ? ["--tiny"] : [])],
    {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    },
  );
  return new Promise((resolve) => {
    let outcome: FamilyOutcome | undefined;
    child.on("message", (m: FamilyOutcome) => {
      outcome = m;
    });
    child.once("error", (err) => resolve({ error: `family process: ${err.message}` }));
    child.once("exit", (code, signal) =>
      resolve(outcome ?? { error: `family process exited (${signal ?? `code ${code}`}) without a result` }),
    );
  });
}

/** The child's side: run one family, post the outcome, exit (whatever the family left running). */
async function runChild(index: number, tiny: boolean): Promise<void> {
  const log = (line: string) => process.stdout.write(`${line}\n`);
  let peer: Promise<PeerLookup> | undefined;
  const ctx: BenchContext = {
    tiny,
    log,
    clientGo: () => {
      peer ??= findClientGoPeer({ build: true, log });
      return peer;
    },
  };
  let outcome: FamilyOutcome;
  try {
    const load = FAMILY_MODULES[index];
    if (!load) throw new Error(`no benchmark family ${index}`);
    outcome = { result: await (await load()).benchmark.run(ctx) };
  } catch (err) {
    outcome = { error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
  const version = peer ? (await peer).peer?.clientGoVersion : undefined;
  if (version) outcome.clientGoVersion = version;
  process.send?.(outcome, () => process.exit(0));
}

const flag = process.argv.indexOf("--bench-family");
if (flag >= 0 && process.send) void runChild(Number(process.argv[flag + 1]), process.argv.includes("--tiny"));
