/**
 * Reads which bank questions a notebook shows, from its source: every `showQuestions("NN-topic", { section,
 * ids })` call in a code cell, parsed with TypeScript (arguments must be literals), turned into the same
 * selection the renderer makes.
 */
import { readFileSync } from "node:fs";
import ts from "typescript";
import { type QuestionFilter, selectQuestions } from "../../../src/workbook/questions/index.js";

/** One `showQuestions` call found in a notebook, or why it could not be read. */
export interface ShowCall {
  filter?: QuestionFilter;
  problem?: string;
  source: string;
}

function literalString(node: ts.Node | undefined): string | undefined {
  return node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
    ? node.text
    : undefined;
}

function readCall(call: ts.CallExpression, file: ts.SourceFile): ShowCall {
  const source = call.getText(file);
  const notebook = literalString(call.arguments[0]);
  if (notebook === undefined) return { source, problem: "the notebook argument must be a string literal" };
  const filter: QuestionFilter = { notebook };
  const options = call.arguments[1];
  if (options !== undefined) {
    if (!ts.isObjectLiteralExpression(options))
      return { source, problem: "options must be an object literal" };
    for (const prop of options.properties) {
      if (!ts.isPropertyAssignment(prop)) continue;
      const name = prop.name.getText(file);
      if (name === "section") {
        const section = literalString(prop.initializer);
        if (section === undefined) return { source, problem: "section must be a string literal" };
        filter.section = section;
      } else if (name === "ids") {
        if (!ts.isArrayLiteralExpression(prop.initializer))
          return { source, problem: "ids must be an array literal" };
        const ids = prop.initializer.elements.map((e) => literalString(e));
        if (ids.some((id) => id === undefined)) return { source, problem: "ids must be string literals" };
        filter.ids = ids as string[];
      }
    }
  }
  return { source, filter };
}

/** Every `showQuestions(...)` call in the code cells of the notebook at `path`. */
export function showQuestionCalls(path: string): ShowCall[] {
  const nb = JSON.parse(readFileSync(path, "utf8")) as {
    cells: Array<{ cell_type: string; source: string | string[] }>;
  };
  const calls: ShowCall[] = [];
  for (const cell of nb.cells.filter((c) => c.cell_type === "code")) {
    const text = Array.isArray(cell.source) ? cell.source.join("") : cell.source;
    const file = ts.createSourceFile("cell.ts", text, ts.ScriptTarget.ES2022, true);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && node.expression.getText(file) === "showQuestions") {
        calls.push(readCall(node, file));
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return calls;
}

/** The ids a notebook's `showQuestions` calls select from the bank, in order of appearance. */
export function questionsShownBy(calls: readonly ShowCall[]): string[] {
  return calls.flatMap((c) => (c.filter ? selectQuestions(c.filter).map((q) => q.id) : []));
}

/**
 * Notebooks that review the bank rather than teach a section of it (issue 10's interview preparation): they may
 * show any notebook's questions, and need no questions of their own.
 */
export const BANK_REVIEW_NOTEBOOKS: ReadonlySet<string> = new Set(["12-interview-preparation"]);
