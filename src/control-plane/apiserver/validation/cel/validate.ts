/**
 * Evaluating a CRD version's `x-kubernetes-validations` rules against a custom object, as apiextensions-apiserver's
 * `cel.Validator` (`pkg/apiserver/schema/cel/validation.go`, v1.34) does on create, update and `/status` writes:
 *
 * - every rule on a schema node runs with `self` bound to the value there; a null or absent value is not checked;
 * - a rule that reads `oldSelf` (a transition rule) runs only on update, where an old value exists at that path:
 *   object properties correlate by name, items of an `x-kubernetes-list-type: map` list by their map keys, other
 *   list items never;
 * - a rule that does not hold reports at the node's path (or its `fieldPath` below it) with its `reason`:
 *   `Invalid value: "<schema type>": <message>` by default, where the message is `messageExpression`'s value, else
 *   `message`, else `failed rule: <rule>`;
 * - an evaluation error reports `<error> evaluating rule: <rule>`; a runtime overload error and the cost limit have
 *   their own wording; running out of cost stops all further rules of the object;
 * - ratcheting (CRDValidationRatcheting, on by default): on update, a rule without `oldSelf` whose node (or nearest
 *   correlatable ancestor) equals its old value does not fail the write; its failure becomes a warning.
 *
 * A rule's failure is a 422 cause, never a thrown exception: the evaluation's errors are values.
 */
import { isCelError } from "@bufbuild/cel";
import { isJsonObject, jsonEqual } from "../../json.js";
import { FieldErrors } from "../field-errors.js";
import type { SchemaProps } from "../openapi-schema.js";
import { type CompiledRule, compileRule, OLD_SELF, SELF } from "./compile.js";
import { CostMeter, PER_CALL_LIMIT, RUNTIME_BUDGET } from "./cost.js";
import { rulesOf } from "./crd-rules.js";
import { normalizeFieldPath } from "./field-path.js";
import { toCelValue } from "./values.js";

/** kube-apiserver's largest evaluated messageExpression (`MaxEvaluatedMessageExpressionSizeBytes`). */
const MAX_MESSAGE_BYTES = 5 * 1024;

/** An old value correlated with a new one, for ratcheting (`common.CorrelatedObject`). */
interface Correlation {
  value: unknown;
  old: unknown;
  equal?: boolean;
}

/** Ratcheting state at a node: its own correlation, or the nearest correlatable ancestor's. */
interface Ratchet {
  current: Correlation | undefined;
  parent: Correlation | undefined;
}

function deepEqual(c: Correlation | undefined): boolean {
  if (!c) return false;
  c.equal ??= jsonEqual(c.value, c.old);
  return c.equal;
}

/** Whether a rule's failure at this node is ratcheted away (`shouldRatchetError`). */
function ratcheted(r: Ratchet): boolean {
  return r.current ? deepEqual(r.current) : deepEqual(r.parent);
}

function ratchetKey(r: Ratchet, key: string, schema: SchemaProps | undefined): Ratchet {
  if (!r.current) return r;
  const c = r.current;
  if (!isJsonObject(c.value) || !isJsonObject(c.old)) return { current: undefined, parent: c };
  if (!Object.hasOwn(c.value, key) || !Object.hasOwn(c.old, key) || !schema)
    return { current: undefined, parent: c };
  return { current: { value: c.value[key], old: c.old[key] }, parent: c };
}

function ratchetIndex(r: Ratchet, i: number, old: unknown, listSchema: SchemaProps): Ratchet {
  if (!r.current) return r;
  const c = r.current;
  if (!Array.isArray(c.value) || !Array.isArray(c.old) || old === undefined || !listSchema.items) {
    return { current: undefined, parent: c };
  }
  return { current: { value: c.value[i], old }, parent: c };
}

/** The old item a new one of an `x-kubernetes-list-type: map` list correlates with (same map keys). */
function correlatedItem(schema: SchemaProps, item: unknown, oldItems: unknown): unknown {
  if (schema["x-kubernetes-list-type"] !== "map" || !Array.isArray(oldItems) || !isJsonObject(item))
    return undefined;
  const keys = schema["x-kubernetes-list-map-keys"] ?? [];
  return oldItems.find((o) => isJsonObject(o) && keys.every((k) => jsonEqual(o[k], item[k])));
}

/** How the rules of one object are evaluated: budget left, and whether to stop. */
class Run {
  budget = RUNTIME_BUDGET;
  stopped = false;
  readonly meter = new CostMeter(PER_CALL_LIMIT);

  constructor(
    readonly errs: FieldErrors,
    readonly warnings: string[] | undefined,
  ) {}
}

/** cel-go's wording for the errors `@bufbuild/cel` raises (`no such key`, `division by zero`, ...). */
export function celGoError(message: string): string {
  const field = /^field not found: (.*)$/.exec(message);
  if (field) return `no such key: ${field[1]}`;
  if (/divide by zero$/.test(message)) return "division by zero";
  if (/modulus by zero$/.test(message)) return "modulus by zero";
  if (/^u?int overflow/.test(message)) return "integer overflow";
  return message;
}

function isOverloadError(message: string): boolean {
  return message.startsWith("found no matching overload") || message.startsWith("no such overload");
}

/** The message of a rule when it fails without a messageExpression (`ruleMessageOrDefault`). */
function ruleMessage(rule: { rule?: string; message?: string }): string {
  return rule.message ? rule.message.trim() : `failed rule: ${(rule.rule ?? "").trim()}`;
}

/** How an evaluation error names its rule (`ruleErrorString`). */
function ruleName(rule: { rule?: string; message?: string }): string {
  return rule.message ? rule.message.trim() : (rule.rule ?? "").trim();
}

/** The compiled rules of one CRD version, ready to validate objects of it. */
export class RuleValidator {
  private readonly compiled = new Map<SchemaProps, CompiledRule[]>();

  constructor(private readonly schema: SchemaProps) {
    this.compileAll(schema, true, 0);
  }

  /** Whether a schema declares any rule (only then is a validator worth building: `hasXValidations`). */
  static needed(schema: SchemaProps | undefined, depth = 0): boolean {
    if (!schema || depth > 200) return false;
    if (rulesOf(schema).length > 0) return true;
    if (RuleValidator.needed(schema.items, depth + 1)) return true;
    if (isJsonObject(schema.additionalProperties)) {
      if (RuleValidator.needed(schema.additionalProperties as SchemaProps, depth + 1)) return true;
    }
    return Object.values(schema.properties ?? {}).some((p) => RuleValidator.needed(p, depth + 1));
  }

  private compileAll(schema: SchemaProps, root: boolean, depth: number): void {
    if (depth > 200) return;
    const rules = rulesOf(schema);
    if (rules.length > 0)
      this.compiled.set(
        schema,
        rules.map((r) => compileRule(r, schema, root)),
      );
    for (const p of Object.values(schema.properties ?? {})) this.compileAll(p, false, depth + 1);
    if (schema.items) this.compileAll(schema.items, false, depth + 1);
    if (isJsonObject(schema.additionalProperties)) {
      this.compileAll(schema.additionalProperties as SchemaProps, false, depth + 1);
    }
  }

  /**
   * Validates `obj` (and, on update, against `old`), adding a 422 cause per failed rule; a ratcheted failure goes
   * to `warnings` instead (`<field>: <message>`, as kube-apiserver's `Warning` header carries it).
   */
  validate(obj: unknown, old: unknown, errs: FieldErrors, warnings?: string[]): void {
    const run = new Run(errs, warnings);
    const ratchet: Ratchet = {
      current: old === undefined ? undefined : { value: obj, old },
      parent: undefined,
    };
    this.walk(run, obj, old, this.schema, "", ratchet, true, 0);
  }

  private walk(
    run: Run,
    value: unknown,
    old: unknown,
    schema: SchemaProps,
    path: string,
    ratchet: Ratchet,
    root: boolean,
    depth: number,
  ): void {
    if (value === null || value === undefined || run.stopped || depth > 1000) return;
    const rules = this.compiled.get(schema);
    if (rules) this.evaluate(run, rules, value, old ?? undefined, schema, path, ratchet, root);
    if (run.stopped) return;
    if (isJsonObject(value)) {
      const extra = isJsonObject(schema.additionalProperties)
        ? (schema.additionalProperties as SchemaProps)
        : undefined;
      const oldObj = isJsonObject(old) ? old : undefined;
      for (const [k, v] of Object.entries(value)) {
        const prop =
          schema.properties && Object.hasOwn(schema.properties, k) ? schema.properties[k] : undefined;
        const sub = prop ?? extra;
        if (!sub) continue;
        const childPath = prop ? (path ? `${path}.${k}` : k) : `${path}[${k}]`;
        const oldV = oldObj && Object.hasOwn(oldObj, k) ? oldObj[k] : undefined;
        this.walk(run, v, oldV, sub, childPath, ratchetKey(ratchet, k, sub), false, depth + 1);
        if (run.stopped) return;
      }
    } else if (Array.isArray(value) && schema.items) {
      value.forEach((item, i) => {
        const oldItem = correlatedItem(schema, item, old);
        const r = ratchetIndex(ratchet, i, oldItem, schema);
        this.walk(run, item, oldItem, schema.items as SchemaProps, `${path}[${i}]`, r, false, depth + 1);
      });
    }
  }

  private evaluate(
    run: Run,
    rules: CompiledRule[],
    value: unknown,
    old: unknown,
    schema: SchemaProps,
    path: string,
    ratchet: Ratchet,
    root: boolean,
  ): void {
    const errs = run.errs;
    const at = path === "" ? "<nil>" : path;
    const type = schema.type ?? "";
    if (run.budget <= 0) {
      errs.invalid(
        at,
        type,
        "validation failed due to running out of cost budget, no further validation rules will be run",
      );
      run.stopped = true;
      return;
    }
    const meter = run.meter;
    const list = (items: unknown[]) => meter.metered(items);
    const bindings: Record<string, unknown> = { [SELF]: toCelValue(value, schema, root, list) };
    if (old !== undefined) bindings[OLD_SELF] = toCelValue(old, schema, root, list);
    for (const compiled of rules) {
      const rule = compiled.rule;
      if (compiled.error !== undefined) {
        errs.invalid(at, type, `rule compile error: ${compiled.error}`);
        continue;
      }
      if (!compiled.program) continue;
      if (compiled.usesOldSelf && old === undefined) continue;
      meter.reset(compiled.iterationCost);
      const result = evalSafely(compiled.program, bindings);
      if (meter.exceeded) {
        errs.invalid(
          at,
          type,
          `'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleName(rule)}`,
        );
        run.stopped = true;
        return;
      }
      run.budget -= meter.spent;
      if (run.budget < 0) {
        errs.invalid(
          at,
          type,
          "validation failed due to running out of cost budget, no further validation rules will be run",
        );
        run.stopped = true;
        return;
      }
      if (isCelError(result) || result instanceof Error) {
        const message = (result as Error).message;
        if (isOverloadError(message)) {
          errs.invalid(
            at,
            type,
            `'no such overload': call arguments did not match a supported operator, function or macro signature for rule: ${ruleName(rule)}`,
          );
        } else errs.invalid(at, type, `${celGoError(message)} evaluating rule: ${ruleName(rule)}`);
        continue;
      }
      if (result === true) continue;
      const fieldPath = rule.fieldPath ? normalizeFieldPath(rule.fieldPath, schema) : undefined;
      const where =
        fieldPath === undefined
          ? at
          : path === ""
            ? fieldPath
            : fieldPath.startsWith("[")
              ? `${path}${fieldPath}`
              : `${path}.${fieldPath}`;
      const message = compiled.messageProgram
        ? evaluateMessage(compiled.messageProgram, bindings, meter)
        : undefined;
      if (!compiled.usesOldSelf && ratcheted(ratchet)) {
        const warned = new FieldErrors();
        reportFailure(warned, where, type, message ?? ruleMessage(rule), rule.reason);
        for (const c of warned.causes) run.warnings?.push(`${c.field}: ${c.message}`);
      } else reportFailure(errs, where, type, message ?? ruleMessage(rule), rule.reason);
    }
  }
}

/** Runs a program; an exception (the cost meter's, or a library's) comes back as an Error value. */
export function evalSafely(
  program: (b: Record<string, unknown>) => unknown,
  bindings: Record<string, unknown>,
): unknown {
  try {
    return program(bindings);
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

/** A messageExpression's message, or `undefined` when it fails (then the rule's message is used). */
export function evaluateMessage(
  program: (b: Record<string, unknown>) => unknown,
  bindings: Record<string, unknown>,
  meter: CostMeter,
): string | undefined {
  meter.reset(1);
  const result = evalSafely(program, bindings);
  if (typeof result !== "string") return undefined;
  const trimmed = result.trim();
  if (trimmed === "" || trimmed.length > MAX_MESSAGE_BYTES || /\n/.test(trimmed)) return undefined;
  return trimmed;
}

/** The field error of a failed rule by its `reason` (`fieldErrorForReason`). */
function reportFailure(
  errs: FieldErrors,
  at: string,
  type: string,
  detail: string,
  reason: string | undefined,
): void {
  switch (reason) {
    case "FieldValueForbidden":
      errs.forbidden(at, detail);
      break;
    case "FieldValueRequired":
      errs.required(at, detail);
      break;
    case "FieldValueDuplicate":
      errs.duplicate(at, type);
      break;
    default:
      errs.invalid(at, type, detail);
  }
}
