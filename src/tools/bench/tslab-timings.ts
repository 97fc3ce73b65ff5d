/**
 * A preload for the tslab kernel that times its TypeScript compile, for the learner's-wait family
 * (families/learners-wait.ts). tslab runs a cell in two steps: its converter type-checks the cell against every
 * earlier cell's declarations and emits JavaScript (`convert`), then the executor runs that JavaScript. Wall time
 * per cell (from the notebook runner) minus the compile recorded here is the time the learner's code itself ran.
 *
 * Loaded with `NODE_OPTIONS=--import=<this file>` into the kernel's process and active only when
 * `WORKBOOK_TSLAB_TIMINGS` names a file: it then wraps tslab's `createConverter` and appends one JSON line per
 * converter created (the kernel warms one at start) and per `convert` call, in call order. Every other process
 * that inherits NODE_OPTIONS (none is tslab) is left alone.
 */
import { appendFileSync } from "node:fs";
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";

/** One line of the timings file. */
export type TslabTiming =
  | { kind: "converter"; ms: number }
  | { kind: "convert"; ms: number; firstLine: string; bytes: number; diagnostics: number };

interface Converter {
  convert(prevDecl: string, src: string): { diagnostics: unknown[] };
}
type ConverterModule = { createConverter: (...args: unknown[]) => Converter };

/** The first non-blank line of a cell's source, as the notebook runner names cells. */
export function firstLineOf(src: string): string {
  return (
    src
      .split("\n")
      .find((line) => line.trim() !== "")
      ?.trim()
      .slice(0, 100) ?? "(empty cell)"
  );
}

function install(file: string, tslabBin: string): void {
  const requireFromTslab = createRequire(tslabBin);
  const mod = requireFromTslab("../dist/converter.js") as ConverterModule;
  const record = (timing: TslabTiming) => appendFileSync(file, `${JSON.stringify(timing)}\n`);
  const create = mod.createConverter;
  mod.createConverter = (...args: unknown[]) => {
    const started = performance.now();
    const converter = create(...args);
    record({ kind: "converter", ms: performance.now() - started });
    const convert = converter.convert.bind(converter);
    converter.convert = (prevDecl: string, src: string) => {
      const t0 = performance.now();
      const out = convert(prevDecl, src);
      const ms = performance.now() - t0;
      record({
        kind: "convert",
        ms,
        firstLine: firstLineOf(src),
        bytes: src.length,
        diagnostics: out.diagnostics.length,
      });
      return out;
    };
    return converter;
  };
}

const file = process.env.WORKBOOK_TSLAB_TIMINGS;
const bin = process.argv[1] ?? "";
if (file && /[\\/]tslab[\\/]bin[\\/]tslab$/.test(bin)) install(file, bin);
