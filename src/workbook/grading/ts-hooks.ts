/**
 * Node module hooks that let `workbook grade` import a lab's TypeScript directly, and graders kept in TypeScript
 * (the test fixtures'; the lab graders are built), since Node 20 cannot strip types. Registered with
 * `module.register` by src/tools/cli/grade-worker.ts only; never imported by the library.
 *
 * - resolve: an ESM-style relative import `./controller.js` whose .js does not exist but whose .ts does
 *   resolves to the .ts (the project's import convention, see tsconfig's verbatimModuleSyntax);
 * - load: a `.ts` file is transpiled (not type-checked: `npm test` runs tsc) to an ES module with
 *   TypeScript's `transpileModule`. Outputs are cached in `node_modules/.cache/workbook-ts/`, keyed by a hash
 *   of the file's path and text, so a grader's worker process (started again after every hung check) loads the
 *   TypeScript compiler only when something changed.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import type { LoadHook, ResolveHook } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** Resolve hook: `./x.js` falls back to `./x.ts` when only the TypeScript source exists. */
export const resolve: ResolveHook = async (specifier, context, nextResolve) => {
  try {
    return await nextResolve(specifier, context);
  } catch (err) {
    const relative =
      specifier.startsWith("./") || specifier.startsWith("../") || specifier.startsWith("file:");
    if (relative && specifier.endsWith(".js") && context.parentURL) {
      const url = new URL(`${specifier.slice(0, -3)}.ts`, context.parentURL);
      if (existsSync(fileURLToPath(url))) return { url: url.href, shortCircuit: true };
    }
    throw err;
  }
};

/** Where transpiled files are cached: the checkout's `node_modules/.cache` (three folders above this module). */
const cacheDir = fileURLToPath(new URL("../../../node_modules/.cache/workbook-ts/", import.meta.url));

/** The transpiled text of `fileName`, from the cache when its path and text are unchanged. */
async function transpiled(fileName: string, text: string): Promise<string> {
  const key = createHash("sha256").update(fileName).update("\0").update(text).digest("hex");
  const cached = join(cacheDir, `${key}.js`);
  if (existsSync(cached)) return readFileSync(cached, "utf8");
  const ts = (await import("typescript")).default;
  const output = ts.transpileModule(text, {
    fileName,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
      inlineSourceMap: true,
    },
  }).outputText;
  try {
    mkdirSync(cacheDir, { recursive: true });
    const partial = `${cached}.${process.pid}.tmp`;
    writeFileSync(partial, output);
    renameSync(partial, cached); // atomic: a concurrent reader sees the whole file or none
  } catch {
    // A read-only checkout still grades, only slower.
  }
  return output;
}

/**
 * Transpiles every `.ts` file directly in `dir` into the cache (without importing anything), so the first check
 * that imports the lab's code does not pay for loading the TypeScript compiler inside its own time limit. Called
 * by the grading worker before its first check; a file that cannot be read is left to the import to report.
 */
export async function warmTranspileCache(dir: string): Promise<void> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".ts") && !n.endsWith(".d.ts"));
  } catch {
    return;
  }
  for (const name of names) {
    const fileName = join(dir, name);
    try {
      await transpiled(fileName, readFileSync(fileName, "utf8"));
    } catch {
      // The import in the check reports it.
    }
  }
}

/** Load hook: transpiles `.ts` files to ES modules (no type checking). */
export const load: LoadHook = async (url, context, nextLoad) => {
  if (!url.startsWith("file:") || !url.endsWith(".ts")) return nextLoad(url, context);
  const fileName = fileURLToPath(url);
  const source = await transpiled(fileName, readFileSync(fileName, "utf8"));
  return { format: "module", source, shortCircuit: true };
};
