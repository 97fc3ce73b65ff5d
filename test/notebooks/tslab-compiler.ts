import { createRequire } from "node:module";
import { join } from "node:path";
import type * as TS from "typescript";
import { paths } from "./notebook-support.js";

/** tslab's own TypeScript (a 5.0.4 fork), loaded from the tslab dependency tree. */
const ts = createRequire(paths.tslabBin)("@tslab/typescript-for-tslab") as typeof TS;

/** The TypeScript version tslab compiles cells with. */
export const tslabTypeScriptVersion = ts.version;

/**
 * Type-checks `source` as a notebook cell in `dir`, with the compiler options tslab uses (ESNext modules,
 * Node10 resolution, ES2022, esModuleInterop, skipLibCheck, rootDir = the notebook folder), and returns
 * the diagnostics as `file: message` lines; empty when a notebook could run it.
 */
export function tslabDiagnostics(source: string, dir: string): string[] {
  const cell = join(dir, "__cell__.ts");
  const options: TS.CompilerOptions = {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    target: ts.ScriptTarget.ES2022,
    esModuleInterop: true,
    skipLibCheck: true,
    strict: true,
    rootDir: dir,
    noEmit: true,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.getSourceFile = (file, language, ...rest) =>
    file === cell ? ts.createSourceFile(file, source, language) : getSourceFile(file, language, ...rest);
  host.fileExists = (file) => file === cell || fileExists(file);
  const program = ts.createProgram([cell], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? "(options)"}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
}
