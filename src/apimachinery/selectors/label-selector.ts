import { isQualifiedName, isValidLabelValue } from "../validation/names.js";

/** The operators of a label requirement (apimachinery `selection.Operator`). */
export type LabelOperator = "=" | "!=" | "in" | "notin" | "exists" | "!" | "gt" | "lt";

/** One requirement of a label selector: `key op values`. */
export interface LabelRequirement {
  key: string;
  operator: LabelOperator;
  values: string[];
}

/**
 * A parsed label selector: requirements ANDed together, like `labels.Selector` in apimachinery. The empty
 * selector matches everything.
 */
export class LabelSelector {
  constructor(readonly requirements: readonly LabelRequirement[]) {}

  /** True when there is nothing to check. */
  get empty(): boolean {
    return this.requirements.length === 0;
  }

  /** Whether a label set satisfies every requirement. */
  matches(labels: Readonly<Record<string, string>> | undefined): boolean {
    const l = labels ?? {};
    return this.requirements.every((r) =>
      requirementMatches(r, Object.hasOwn(l, r.key) ? l[r.key] : undefined),
    );
  }
}

function requirementMatches(r: LabelRequirement, value: string | undefined): boolean {
  switch (r.operator) {
    case "=":
    case "in":
      return value !== undefined && r.values.includes(value);
    case "!=":
    case "notin":
      return value === undefined || !r.values.includes(value);
    case "exists":
      return value !== undefined;
    case "!":
      return value === undefined;
    case "gt":
    case "lt": {
      if (value === undefined || !/^-?[0-9]+$/.test(value)) return false;
      const n = Number(value);
      const bound = Number(r.values[0]);
      return r.operator === "gt" ? n > bound : n < bound;
    }
  }
}

/** Thrown for a selector that does not parse; the backend turns it into 400 BadRequest. */
export class SelectorParseError extends Error {
  override name = "SelectorParseError";
}

const TOKEN = /\s*(!=|==|=|!|\(|\)|,|>|<|[^\s!=(),<>]+)/y;

function tokenize(input: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < input.length) {
    const m = TOKEN.exec(input);
    if (m === null) break;
    tokens.push(m[1]!);
  }
  if (TOKEN.lastIndex < input.length && input.slice(TOKEN.lastIndex).trim() !== "") {
    throw new SelectorParseError(`unable to parse requirement: unexpected input at ${TOKEN.lastIndex}`);
  }
  return tokens;
}

/**
 * Parses the label selector syntax of `?labelSelector=`: `k=v`, `k==v`, `k!=v`, `k in (a,b)`,
 * `k notin (a,b)`, `k`, `!k`, `k>1`, `k<1`, separated by commas. Keys must be qualified names and values valid
 * label values, as apimachinery's `labels.Parse` requires.
 */
export function parseLabelSelector(input: string | undefined): LabelSelector {
  if (input === undefined || input.trim() === "") return new LabelSelector([]);
  const tokens = tokenize(input);
  const reqs: LabelRequirement[] = [];
  let i = 0;
  const peek = () => tokens[i];
  const next = () => tokens[i++];
  const fail = (msg: string): never => {
    throw new SelectorParseError(`unable to parse requirement: ${msg}`);
  };
  const checkKey = (key: string | undefined): string => {
    if (!key || !isQualifiedName(key)) fail(`invalid label key "${key ?? ""}"`);
    return key!;
  };
  const checkValue = (v: string): string => {
    if (!isValidLabelValue(v)) fail(`invalid label value: "${v}"`);
    return v;
  };
  for (;;) {
    let req: LabelRequirement;
    if (peek() === "!") {
      next();
      req = { key: checkKey(next()), operator: "!", values: [] };
    } else {
      const key = checkKey(next());
      const op = peek();
      if (op === undefined || op === ",") req = { key, operator: "exists", values: [] };
      else if (op === "=" || op === "==" || op === "!=") {
        next();
        const v = peek() === undefined || peek() === "," ? "" : next()!;
        // Like the Go lexer, an operator token where a value belongs is not a value.
        if (/^(!=|==|=|!|\(|\)|>|<)$/.test(v)) fail(`found '${v}', expected: identifier`);
        req = { key, operator: op === "!=" ? "!=" : "=", values: [checkValue(v)] };
      } else if (op === ">" || op === "<") {
        next();
        const v = next();
        if (v === undefined || !/^-?[0-9]+$/.test(v))
          fail(`for 'Gt', 'Lt' operators, the value must be an integer`);
        req = { key, operator: op === ">" ? "gt" : "lt", values: [v!] };
      } else if (op === "in" || op === "notin") {
        next();
        if (next() !== "(") fail(`found '${tokens[i - 1] ?? ""}' expected: '('`);
        const values: string[] = [];
        for (;;) {
          const t = next();
          if (t === ")") break;
          if (t === undefined) fail("found end of string, expected: ')'");
          if (t === ",") continue;
          values.push(checkValue(t!));
        }
        if (values.length === 0) fail(`for '${op}' operator, values set can't be empty`);
        req = { key, operator: op, values };
      } else {
        return fail(`found '${op}', expected: '=', '!=', '==', 'in', notin'`);
      }
    }
    reqs.push(req);
    const sep = next();
    if (sep === undefined) break;
    if (sep !== ",") fail(`found '${sep}', expected: ','`);
  }
  return new LabelSelector(reqs);
}
