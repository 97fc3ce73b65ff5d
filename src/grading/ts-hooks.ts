/**
 * Node module hooks that let `workbook grade` import TypeScript graders and lab code directly (Node 20 cannot
 * strip types). Registered with `module.register` by src/cli/grade.ts only; never imported by the library.
 *
 * - resolve: an ESM-style relative import `./controller.js` whose .js does not exist but whose .ts does
 *   resolves to the .ts (the project's import convention, see tsconfig's verbatimModuleSyntax);
 * - load: a `.ts` file is transpiled (not type-checked: `npm test` runs tsc) to an ES module with
 *   TypeScript's `transpileModule`.
 */
import { existsSync, readFileSync } from "node:fs";
import type { LoadHook, ResolveHook } from "node:module";
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

/** Load hook: transpiles `.ts` files to ES modules (no type checking). */
export const load: LoadHook = async (url, context, nextLoad) => {
  if (!url.startsWith("file:") || !url.endsWith(".ts")) return nextLoad(url, context);
  const ts = (await import("typescript")).default;
  const fileName = fileURLToPath(url);
  const output = ts.transpileModule(readFileSync(fileName, "utf8"), {
    fileName,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
      inlineSourceMap: true,
    },
  });
  return { format: "module", source: output.outputText, shortCircuit: true };
};
