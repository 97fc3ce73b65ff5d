/**
 * Compiling one `x-kubernetes-validations` rule, as apiextensions-apiserver's `cel.Compile`
 * (`pkg/apiserver/schema/cel/compilation.go`) does when a CRD is written: the rule is parsed, checked against the
 * schema of the node it sits on, and planned once; the program is kept for every later request.
 *
 * `@bufbuild/cel` parses and evaluates but does not type-check, so the checks kube-apiserver's type checker makes
 * that matter most for rule authors are made here, on the parsed expression, with cel-go's wording:
 * - an identifier other than `self`, `oldSelf` or a macro variable: `undeclared reference to 'x' (in container '')`;
 * - a function no library declares: `undeclared reference to 'f' (in container '')`;
 * - a field the schema does not declare, along a path from `self`/`oldSelf`: `undefined field 'x'` (on a scalar:
 *   `type 'string' does not support field selection`);
 * - an arithmetic or ordering operator on known scalar types no overload takes:
 *   `found no matching overload for '_+_' applied to '(int, string)'`;
 * - a rule whose type is known and not bool: `cel expression must evaluate to a bool` (a messageExpression
 *   likewise must be a string).
 * What the schema cannot tell (through `dyn` values) fails at run time instead, as kube-apiserver's does.
 * Errors read as cel-go's `Issues.String()`: `ERROR: <input>:1:6: msg` with the source line and a caret.
 */
import { celEnv, parse, plan } from "@bufbuild/cel";
import type { Expr, ParsedExpr } from "@bufbuild/cel-spec/cel/expr/syntax_pb.js";
import { isJsonObject } from "../../json.js";
import type { SchemaProps, ValidationRule } from "../openapi-schema.js";
import { kubernetesFunctionNames, kubernetesFunctions } from "./libraries.js";
import { escapeProperty } from "./values.js";

/** The variable a rule's value is bound to (`ScopedVarName`). */
export const SELF = "self";
/** The variable bound to the value before an update (`OldScopedVarName`). */
export const OLD_SELF = "oldSelf";

/** A planned CEL program: bindings in, a value or an error out (never throws for a bad value). */
export type Program = (bindings: Record<string, unknown>) => unknown;

/** A compiled rule: its programs, or the error a CRD write reports (`CompilationResult`). */
export interface CompiledRule {
  readonly rule: ValidationRule;
  readonly program?: Program;
  readonly messageProgram?: Program;
  /** Whether the rule reads `oldSelf` (a transition rule: evaluated only on update with an old value). */
  readonly usesOldSelf: boolean;
  /** Static weight of one loop iteration, for the runtime cost meter (`cost.ts`). */
  readonly iterationCost: number;
  /** `compilation failed: ...` and friends, as a CRD write reports them at `.rule`. */
  readonly error?: string;
  /** `messageExpression compilation failed: ...`, reported at `.messageExpression`. */
  readonly messageError?: string;
}

/** CEL's standard functions and macros (cel-go's stdlib), by name. */
const STANDARD_FUNCTIONS = new Set([
  "size",
  "matches",
  "contains",
  "startsWith",
  "endsWith",
  "int",
  "uint",
  "double",
  "string",
  "bytes",
  "bool",
  "dyn",
  "type",
  "duration",
  "timestamp",
  "has",
  "all",
  "exists",
  "exists_one",
  "map",
  "filter",
  "getFullYear",
  "getMonth",
  "getDayOfYear",
  "getDayOfMonth",
  "getDate",
  "getDayOfWeek",
  "getHours",
  "getMinutes",
  "getSeconds",
  "getMilliseconds",
]);

/** CEL's type identifiers (`type(self) == int`). */
const TYPE_NAMES = [
  "int",
  "uint",
  "double",
  "string",
  "bool",
  "bytes",
  "list",
  "map",
  "null_type",
  "type",
  "dyn",
];

/** The environment every rule is planned in: self, oldSelf, CEL's standard library and Kubernetes' libraries. */
const env = celEnv({ funcs: kubernetesFunctions });

/** What a static check knows about an expression's value: its schema, or its CEL type name, or nothing. */
interface Known {
  schema?: SchemaProps;
  /** The resource root (apiVersion, kind and metadata are declared too). */
  root?: boolean;
  type?: string;
}

const DYN: Known = {};

/** One error the checker found: where (an expression id; a call's is its `(`) and what. */
interface Issue {
  exprId: bigint;
  message: string;
  /** A function call: cel-go places the error at its opening parenthesis. */
  call?: boolean;
  /** An operator: cel-go places the error at its token (`==`). */
  token?: string;
}

/** cel-go's `Issues.String()` for one error at an offset of the source. */
function formatIssue(source: string, offset: number, message: string): string {
  const before = source.slice(0, Math.max(0, offset));
  const line = before.split("\n").length;
  const lineStart = before.lastIndexOf("\n") + 1;
  const column = offset - lineStart + 1;
  const text = source.split("\n")[line - 1] ?? "";
  return `ERROR: <input>:${line}:${column}: ${message}\n | ${text}\n | ${".".repeat(column - 1)}^`;
}

/** The CEL type a schema gives its values (see `values.ts`). */
function schemaType(schema: SchemaProps | undefined): string | undefined {
  if (!schema || schema["x-kubernetes-int-or-string"] || schema["x-kubernetes-preserve-unknown-fields"]) {
    return schema?.type === "object" && !schema["x-kubernetes-int-or-string"] ? "map" : undefined;
  }
  switch (schema.type) {
    case "integer":
      return "int";
    case "number":
      return "double";
    case "boolean":
      return "bool";
    case "string":
      return schema.format === "date-time"
        ? "timestamp"
        : schema.format === "duration"
          ? "duration"
          : "string";
    case "array":
      return "list";
    case "object":
      return "map";
    default:
      return undefined;
  }
}

const BOOL_CALLS = new Set([
  "_==_",
  "_!=_",
  "_<_",
  "_<=_",
  "_>_",
  "_>=_",
  "_&&_",
  "_||_",
  "!_",
  "@in",
  "matches",
  "contains",
  "startsWith",
  "endsWith",
  "isSorted",
  "@not_strictly_false",
]);

/** Scalar types an operator check knows, as cel-go prints them in an overload error. */
const CEL_GO_TYPE_NAMES: Record<string, string> = {
  int: "int",
  uint: "uint",
  double: "double",
  string: "string",
  bool: "bool",
  bytes: "bytes",
  null: "null_type",
  timestamp: "google.protobuf.Timestamp",
  duration: "google.protobuf.Duration",
};

const NUMERIC = new Set(["int", "uint", "double"]);

/** `a op b` overloads beyond "same numeric type": `[op, left, right, result]` (cel-go's standard declarations). */
const MIXED_OVERLOADS: ReadonlyArray<readonly [string, string, string, string]> = [
  ["_+_", "string", "string", "string"],
  ["_+_", "bytes", "bytes", "bytes"],
  ["_+_", "timestamp", "duration", "timestamp"],
  ["_+_", "duration", "timestamp", "timestamp"],
  ["_+_", "duration", "duration", "duration"],
  ["_-_", "timestamp", "timestamp", "duration"],
  ["_-_", "timestamp", "duration", "timestamp"],
  ["_-_", "duration", "duration", "duration"],
];

/**
 * The result of an arithmetic or ordering operator on operands of known scalar types; `null` when no overload
 * takes them (a compile error, as cel-go's checker reports it); `undefined` when the call is not such an operator
 * or an operand's type is not known statically (then evaluation decides).
 */
function operatorResult(name: string, args: Known[]): Known | null | undefined {
  const types = args.map((a) => a.type);
  if (types.some((t) => t === undefined || !(t in CEL_GO_TYPE_NAMES))) return undefined;
  const [l = "", r = ""] = types as string[];
  switch (name) {
    case "_+_":
    case "_-_":
    case "_*_":
    case "_/_":
    case "_%_": {
      if (l === r && NUMERIC.has(l) && (name !== "_%_" || l !== "double")) return { type: l };
      const mixed = MIXED_OVERLOADS.find(([op, a, b]) => op === name && a === l && b === r);
      return mixed ? { type: mixed[3] } : null;
    }
    case "_<_":
    case "_<=_":
    case "_>_":
    case "_>=_": {
      const ordered = (l === r && l !== "null") || (NUMERIC.has(l) && NUMERIC.has(r));
      return ordered ? { type: "bool" } : null;
    }
    case "_==_":
    case "_!=_":
      // Equality takes two values of one type (`1 == 1.0` does not type-check); null is left to evaluation.
      return l === r || l === "null" || r === "null" ? { type: "bool" } : null;
    case "-_":
      return l === "int" || l === "double" || l === "duration" ? { type: l } : null;
    default:
      return undefined;
  }
}

/** The static checker: walks the parsed expression with what each identifier is known to be. */
class Checker {
  usesOldSelf = false;
  nodes = 0;

  constructor(
    private readonly scope: Map<string, Known>,
    readonly issues: Issue[] = [],
  ) {}

  /** Records an error and goes on (cel-go reports every error of an expression), typing the node dyn. */
  private report(issue: Issue): Known {
    this.issues.push(issue);
    return DYN;
  }

  check(e: Expr | undefined): Known {
    if (!e) return DYN;
    this.nodes++;
    const k = e.exprKind;
    switch (k.case) {
      case "constExpr":
        return { type: constType(k.value.constantKind.case) };
      case "identExpr": {
        const known = this.scope.get(k.value.name);
        if (!known) {
          return this.report({
            exprId: e.id,
            message: `undeclared reference to '${k.value.name}' (in container '')`,
          });
        }
        if (k.value.name === OLD_SELF) this.usesOldSelf = true;
        return known;
      }
      case "selectExpr": {
        const operand = this.check(k.value.operand);
        const field = fieldOf(operand, k.value.field);
        if (field === undefined) {
          const scalar = operand.type !== undefined && operand.type in CEL_GO_TYPE_NAMES;
          const message = scalar
            ? `type '${CEL_GO_TYPE_NAMES[operand.type ?? ""]}' does not support field selection`
            : `undefined field '${k.value.field}'`;
          // has() is a macro: cel-go places its error at the macro's parenthesis, like a call's.
          return this.report({ exprId: e.id, message, call: k.value.testOnly });
        }
        return k.value.testOnly ? { type: "bool" } : field;
      }
      case "callExpr": {
        const name = k.value.function;
        if (k.value.target) this.check(k.value.target);
        const args = k.value.args.map((a) => this.check(a));
        if (/^[a-zA-Z]/.test(name) && !STANDARD_FUNCTIONS.has(name) && !kubernetesFunctionNames.has(name)) {
          return this.report({
            exprId: e.id,
            message: `undeclared reference to '${name}' (in container '')`,
            call: true,
          });
        }
        const operator = operatorResult(name, args);
        if (operator === null) {
          const shown = args.map((a) => CEL_GO_TYPE_NAMES[a.type ?? ""] ?? a.type).join(", ");
          return this.report({
            exprId: e.id,
            message: `found no matching overload for '${name}' applied to '(${shown})'`,
            token: name.replaceAll("_", ""),
          });
        }
        if (operator !== undefined) return operator;
        if (BOOL_CALLS.has(name)) return { type: "bool" };
        if (name === "size") return { type: "int" };
        if (name === "_[_]") return elementOf(args[0] ?? DYN);
        if (["int", "uint", "double", "string", "bytes", "bool", "duration", "timestamp"].includes(name)) {
          return { type: name };
        }
        if (
          ["lowerAscii", "upperAscii", "replace", "trim", "substring", "join", "find", "charAt"].includes(
            name,
          )
        ) {
          return { type: "string" };
        }
        if (name === "_?_:_") {
          const [, a, b] = args;
          return a?.type !== undefined && a.type === b?.type ? { type: a.type } : DYN;
        }
        return DYN;
      }
      case "listExpr":
        for (const x of k.value.elements) this.check(x);
        return { type: "list" };
      case "structExpr":
        for (const entry of k.value.entries) {
          if (entry.keyKind.case === "mapKey") this.check(entry.keyKind.value);
          this.check(entry.value);
        }
        return { type: k.value.messageName ? "object" : "map" };
      case "comprehensionExpr": {
        const c = k.value;
        const range = this.check(c.iterRange);
        const init = this.check(c.accuInit);
        const inner = new Checker(new Map(this.scope), this.issues);
        inner.scope.set(c.iterVar, iterationOf(range));
        inner.scope.set(c.accuVar, init);
        inner.check(c.loopCondition);
        inner.check(c.loopStep);
        inner.check(c.result);
        this.usesOldSelf ||= inner.usesOldSelf;
        // A loop body runs once per element: its nodes weigh in each iteration.
        this.nodes += inner.nodes;
        return init.type === "bool" ? { type: "bool" } : init.type === "list" ? { type: "list" } : DYN;
      }
      default:
        return DYN;
    }
  }
}

function constType(kind: string | undefined): string | undefined {
  switch (kind) {
    case "boolValue":
      return "bool";
    case "int64Value":
      return "int";
    case "uint64Value":
      return "uint";
    case "doubleValue":
      return "double";
    case "stringValue":
      return "string";
    case "bytesValue":
      return "bytes";
    case "nullValue":
      return "null";
    default:
      return undefined;
  }
}

/** What `operand.field` is, or `undefined` when the schema declares no such field. */
function fieldOf(operand: Known, field: string): Known | undefined {
  const s = operand.schema;
  if (operand.root && (field === "apiVersion" || field === "kind")) return { type: "string" };
  if (operand.root && field === "metadata") {
    return {
      schema: { type: "object", properties: { name: { type: "string" }, generateName: { type: "string" } } },
    };
  }
  if (!s) return operand.type === undefined || operand.type === "map" ? DYN : undefined;
  if (s.type !== "object" || s["x-kubernetes-int-or-string"]) return s.type === undefined ? DYN : undefined;
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    if (escapeProperty(name) === field) return known(prop);
  }
  if (isJsonObject(s.additionalProperties)) return known(s.additionalProperties as SchemaProps);
  if (s["x-kubernetes-preserve-unknown-fields"] || s.additionalProperties === true) return DYN;
  return undefined;
}

function known(schema: SchemaProps): Known {
  const type = schemaType(schema);
  return type === undefined ? { schema } : { schema, type };
}

/** The value of `x[i]` (a list's item or a map's value). */
function elementOf(container: Known): Known {
  const s = container.schema;
  if (s?.type === "array" && s.items) return known(s.items);
  if (s?.type === "object" && isJsonObject(s.additionalProperties)) {
    return known(s.additionalProperties as SchemaProps);
  }
  return DYN;
}

/** What a macro's variable is: a list's item, or a map's key (a string). */
function iterationOf(range: Known): Known {
  if (range.schema?.type === "array" && range.schema.items) return known(range.schema.items);
  if (range.schema?.type === "object") return { type: "string" };
  return DYN;
}

function planParsed(parsed: ParsedExpr): Program {
  const planned = plan(env, parsed) as (ctx: Record<string, unknown>) => unknown;
  return (bindings) => planned(bindings);
}

/**
 * An expression planned in the rules' environment (CEL's standard library and the Kubernetes libraries) without
 * the schema checks: for running CEL's own conformance cases against that environment. Throws when it does not
 * parse.
 */
export function planExpression(source: string): Program {
  return planParsed(parse(source));
}

/**
 * Where cel-go reports an issue: a call's opening parenthesis, an operator's token (`@bufbuild/cel` may place an
 * operator inside a macro on the blank before it), else the expression's own offset.
 */
function issueOffset(source: string, at: number, issue: Issue): number {
  if (issue.call) {
    const paren = source.indexOf("(", at);
    return paren >= 0 ? paren : at;
  }
  if (issue.token) {
    const token = source.indexOf(issue.token, at);
    if (token >= 0 && source.slice(at, token).trim() === "") return token;
  }
  return at;
}

/** The offset of an expression in its source, for an error's caret. */
function offsetOf(parsed: ParsedExpr, id: bigint): number {
  return parsed.sourceInfo?.positions[id.toString()] ?? 0;
}

interface Checked {
  program: Program;
  result: Known;
  usesOldSelf: boolean;
  nodes: number;
}

/** Parses, checks and plans one expression; throws the cel-go-style issue text. */
function compileExpression(source: string, scope: Map<string, Known>): Checked {
  let parsed: ParsedExpr;
  try {
    parsed = parse(source);
  } catch (e) {
    const message = (e as Error).message;
    const m = /^<input>:(\d+):(\d+): (.*)$/s.exec(message);
    if (!m) throw new Error(formatIssue(source, 0, `Syntax error: ${message}`));
    const lines = source.split("\n");
    const offset = lines.slice(0, Number(m[1]) - 1).reduce((n, l) => n + l.length + 1, 0) + Number(m[2]) - 1;
    throw new Error(formatIssue(source, offset, `Syntax error: ${m[3]}`));
  }
  const checker = new Checker(scope);
  const result = checker.check(parsed.expr);
  if (checker.issues.length > 0) {
    const located = checker.issues.map((issue) => {
      return { offset: issueOffset(source, offsetOf(parsed, issue.exprId), issue), message: issue.message };
    });
    located.sort((a, b) => a.offset - b.offset);
    throw new Error(located.map((i) => formatIssue(source, i.offset, i.message)).join("\n"));
  }
  return {
    program: planParsed(parsed),
    result,
    usesOldSelf: checker.usesOldSelf,
    nodes: checker.nodes,
  };
}

/**
 * Compiles a rule on the node `schema` (the resource root when `root`): the rule, then its messageExpression,
 * each with kube-apiserver's error wording when it does not compile.
 */
export function compileRule(rule: ValidationRule, schema: SchemaProps, root: boolean): CompiledRule {
  const self: Known = { ...known(schema), ...(root ? { root: true } : {}) };
  const scope = new Map<string, Known>([
    ...TYPE_NAMES.map((t): [string, Known] => [t, { type: "type" }]),
    [SELF, self],
    [OLD_SELF, self],
  ]);
  const source = rule.rule ?? "";
  let compiled: Checked | undefined;
  let error: string | undefined;
  try {
    compiled = compileExpression(source, scope);
    const type = compiled.result.type;
    if (type !== undefined && type !== "bool") error = "cel expression must evaluate to a bool";
  } catch (e) {
    error = `compilation failed: ${(e as Error).message}`;
  }
  let messageProgram: Program | undefined;
  let messageError: string | undefined;
  if (rule.messageExpression !== undefined && rule.messageExpression.trim() !== "") {
    try {
      const m = compileExpression(rule.messageExpression, scope);
      const type = m.result.type;
      if (type !== undefined && type !== "string")
        messageError = "messageExpression must evaluate to a string";
      else messageProgram = m.program;
    } catch (e) {
      messageError = `messageExpression compilation failed: ${(e as Error).message}`;
    }
  }
  return {
    rule,
    ...(compiled && !error ? { program: compiled.program } : {}),
    ...(messageProgram ? { messageProgram } : {}),
    usesOldSelf: compiled?.usesOldSelf ?? false,
    iterationCost: Math.max(1, compiled?.nodes ?? 1),
    ...(error ? { error } : {}),
    ...(messageError ? { messageError } : {}),
  };
}

/** An admission policy's expression compiled (`plugin/cel.CompilationResult`): its program, or the error. */
export interface CompiledExpression {
  readonly program?: Program;
  /** Static weight of one loop iteration, for the runtime cost meter. */
  readonly iterationCost: number;
  /** `compilation failed: ERROR: ...`, or `must evaluate to bool but got int` when the result's type is known and wrong. */
  readonly error?: string;
}

/**
 * Compiles an admission policy expression (k8s.io/apiserver `plugin/cel.compiler.CompileCELExpression`) in the
 * same environment as CRD rules, with `variables` declared as `dyn` (the request's objects are unstructured
 * there: their fields are only known at run time) and the result required to be `returns` when it is known
 * (`any`: a policy variable, whose type is free). `composed` names the policy's `spec.variables` visible to the
 * expression: `variables.<name>` of another name is `undefined field` (the composited compiler's check).
 */
export function compileAdmissionExpression(
  source: string,
  variables: readonly string[],
  returns: "bool" | "string" | "any",
  composed: readonly string[] = [],
): CompiledExpression {
  const composition: Known = {
    schema: { type: "object", properties: Object.fromEntries(composed.map((n) => [n, {}])) },
  };
  const scope = new Map<string, Known>([
    ...TYPE_NAMES.map((t): [string, Known] => [t, { type: "type" }]),
    ...variables.map((v): [string, Known] => [v, v === "variables" ? composition : DYN]),
  ]);
  try {
    const compiled = compileExpression(source, scope);
    const iterationCost = Math.max(1, compiled.nodes);
    const type = compiled.result.type;
    if (returns !== "any" && type !== undefined && type !== returns) {
      const got = CEL_GO_TYPE_NAMES[type] ?? type;
      return { iterationCost, error: `must evaluate to ${returns} but got ${got}` };
    }
    return { program: compiled.program, iterationCost };
  } catch (e) {
    return { iterationCost: 1, error: `compilation failed: ${(e as Error).message}` };
  }
}
