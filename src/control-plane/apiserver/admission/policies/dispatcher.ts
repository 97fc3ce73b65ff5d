/**
 * The ValidatingAdmissionPolicy admission step (k8s.io/apiserver `plugin/policy/validating`: `dispatcher.go`,
 * `validator.go`), run after mutating admission and the object's own validation, before the validating webhooks:
 *
 * 1. a policy applies when its `matchConstraints` match the request (namespace and object selectors, resource
 *    rules with their resourceNames, minus the excluded rules) and then each of its bindings whose
 *    `matchResources` (when set) match too; requests on the policy kinds themselves are exempt (webhook
 *    configurations are not);
 * 2. its `matchConditions` must all be true; then each `validations[]` expression runs with `object`,
 *    `oldObject`, `request`, `namespaceObject` and `params`, once per parameter object of the binding
 *    (`params.ts`; once with `params` null when there is no paramKind or paramRef);
 * 3. a false expression is a failure with the messageExpression's value, else the message, else
 *    `failed expression: <expression>`; an expression that errors is a failure under failurePolicy `Fail` and
 *    ignored under `Ignore`;
 * 4. each failure goes where the binding's validationActions send it: `Deny` fails the request (the first one:
 *    `<resource> "<name>" is forbidden: ValidatingAdmissionPolicy '<policy>' with binding '<binding>' denied
 *    request: <message>`, with the validation's reason, Invalid 422 by default); `Warn` adds a `Warning` header
 *    (`Validation failed for ValidatingAdmissionPolicy '<policy>' with binding '<binding>': <message>`); `Audit`
 *    writes an audit annotation in kube-apiserver, which the client never sees (the embedded server keeps no
 *    audit log, so nothing happens).
 */
import { failure, type StatusError } from "../../../../apimachinery/errors.js";
import type { KubeObject } from "../../../../apimachinery/object.js";
import type { JsonObject } from "../../json.js";
import { CostMeter, PER_CALL_LIMIT, RUNTIME_BUDGET } from "../../validation/cel/cost.js";
import { celGoError, evalSafely, evaluateMessage } from "../../validation/cel/validate.js";
import { toCelValue } from "../../validation/cel/values.js";
import { admissionReview } from "../webhooks/call.js";
import {
  type AdmissionAttributes,
  type NamespaceLabels,
  namespaceSelectorMatches,
  objectSelectorMatches,
  ruleMatches,
} from "../webhooks/matching.js";
import { collectParams, ParamConfigError, type ParamSource } from "./params.js";
import type {
  CompiledPolicy,
  MatchResources,
  NamedRule,
  PolicyBinding,
  PolicyHook,
} from "./policy-source.js";

/** What a policy dispatch needs from the server besides the request. */
export interface PolicyContext {
  namespaceLabels: NamespaceLabels;
  /** The stored Namespace of that name, for `namespaceObject`. */
  namespaceObject: (name: string) => KubeObject | undefined;
  /** The objects of a paramKind (for bindings with a paramRef). */
  params: ParamSource;
  /** Collects the `Warn` texts (as the response's Warning headers). */
  warnings: string[];
}

/** One failed validation (`PolicyDecision` with action deny). */
interface Failure {
  message: string;
  reason: string;
}

function namedRuleMatches(rule: NamedRule, a: AdmissionAttributes): boolean {
  if (!ruleMatches(rule, a)) return false;
  return rule.resourceNames.length === 0 || rule.resourceNames.includes(a.name);
}

/** `matching.Matcher.Matches`: selectors, excluded rules, then the rules (none: everything). */
function matches(m: MatchResources, a: AdmissionAttributes, labelsOf: NamespaceLabels): boolean {
  if (!objectSelectorMatches(m.objectSelector, a)) return false;
  if (m.excludeResourceRules.some((r) => namedRuleMatches(r, a))) return false;
  if (m.resourceRules.length > 0 && !m.resourceRules.some((r) => namedRuleMatches(r, a))) return false;
  return namespaceSelectorMatches(m.namespaceSelector, a, labelsOf);
}

/** `cel.CreateNamespaceObject`: the metadata a policy may read, with spec and status. */
function namespaceView(ns: KubeObject | undefined): JsonObject | null {
  if (ns === undefined) return null;
  const meta: JsonObject = {};
  const m = (ns.metadata ?? {}) as JsonObject;
  for (const k of [
    "name",
    "generateName",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "labels",
    "annotations",
    "finalizers",
  ]) {
    if (m[k] !== undefined) meta[k] = m[k];
  }
  return { metadata: meta, spec: ns.spec ?? {}, status: ns.status ?? {} };
}

/** The CEL bindings of one request (`cel.OptionalVariableBindings` and the admission request). */
function bindingsOf(
  a: AdmissionAttributes,
  ctx: PolicyContext,
  params: JsonObject | null,
  meter: CostMeter,
): Record<string, unknown> {
  const { object: _o, oldObject: _old, ...request } = admissionReview(a).review.request as JsonObject;
  const list = (items: unknown[]) => meter.metered(items);
  const isNamespace = a.group === "" && a.resource === "namespaces";
  const ns = a.namespace !== "" && !isNamespace ? ctx.namespaceObject(a.namespace) : undefined;
  return {
    object: toCelValue(a.object ?? null, undefined, false, list),
    oldObject: toCelValue(a.oldObject ?? null, undefined, false, list),
    request: toCelValue(request, undefined, false, list),
    namespaceObject: toCelValue(namespaceView(ns), undefined, false, list),
    params: toCelValue(params, undefined, false, list),
  };
}

/** Runs one expression under the per-call limit and the policy's budget; an Error value when it fails. */
class Evaluation {
  private budget = RUNTIME_BUDGET;
  private readonly meter = new CostMeter(PER_CALL_LIMIT);
  readonly bindings: Record<string, unknown>;

  constructor(policy: CompiledPolicy, a: AdmissionAttributes, ctx: PolicyContext, params: JsonObject | null) {
    this.bindings = bindingsOf(a, ctx, params, this.meter);
    if (policy.variables.length > 0) {
      // Each variable is evaluated once, in order; one that fails is absent, so reading it fails the expression.
      const values = new Map<string, unknown>();
      this.bindings.variables = values;
      for (const v of policy.variables) {
        if (!v.check.program) continue;
        const value = this.run(v.check.program, v.check.iterationCost, v.expression);
        if (!(value instanceof Error)) values.set(v.name, value);
      }
    }
  }

  run(program: (b: Record<string, unknown>) => unknown, weight: number, source: string): unknown {
    if (this.budget < 0) {
      return new Error(
        "validation failed due to running out of cost budget, no further validation rules will be run",
      );
    }
    this.meter.reset(weight);
    const result = evalSafely(program, this.bindings);
    this.budget -= this.meter.spent;
    if (result instanceof Error) {
      return new Error(`expression '${source}' resulted in error: ${celGoError(result.message)}`);
    }
    return result;
  }

  message(program: (b: Record<string, unknown>) => unknown): string | undefined {
    return evaluateMessage(program, this.bindings, this.meter);
  }
}

/** `validator.Validate`: the failures of one policy for one request (empty when it admits). */
function validate(
  policy: CompiledPolicy,
  a: AdmissionAttributes,
  ctx: PolicyContext,
  params: JsonObject | null,
): Failure[] {
  const evaluation = new Evaluation(policy, a, ctx, params);
  const onError = (message: string): Failure[] =>
    policy.failurePolicy === "Ignore" ? [] : [{ message, reason: "" }];
  for (const { expression, check } of policy.matchConditions) {
    if (!check.program) return onError(check.error ?? "matchCondition did not compile");
    const result = evaluation.run(check.program, check.iterationCost, expression);
    if (result instanceof Error) return onError(result.message);
    if (result !== true) return [];
  }
  const failures: Failure[] = [];
  for (const v of policy.validations) {
    if (!v.check.program) {
      failures.push(...onError(v.check.error ?? "expression did not compile"));
      continue;
    }
    const result = evaluation.run(v.check.program, v.check.iterationCost, v.expression);
    if (result instanceof Error) {
      failures.push(...onError(result.message));
      continue;
    }
    if (result === true) continue;
    const fromExpression = v.messageCheck?.program ? evaluation.message(v.messageCheck.program) : undefined;
    const message = fromExpression ?? (v.message.trim() || `failed expression: ${v.expression.trim()}`);
    failures.push({ message, reason: v.reason });
  }
  return failures;
}

/** `reasonToCode`: the HTTP code of a validation's reason (Invalid 422 for anything else). */
function codeOf(reason: string): number {
  switch (reason) {
    case "Forbidden":
      return 403;
    case "Unauthorized":
      return 401;
    case "RequestEntityTooLarge":
      return 413;
    default:
      return 422;
  }
}

/** `admission.NewForbidden` with the denial's reason and code, and the message as its one cause. */
function denial(a: AdmissionAttributes, policy: string, binding: string, f: Failure): StatusError {
  const why = `ValidatingAdmissionPolicy '${policy}' with binding '${binding}' denied request: ${f.message}`;
  const name = a.name || (a.object?.metadata?.name ?? "");
  const resource = a.group ? `${a.resource}.${a.group}` : a.resource;
  const message =
    name === "" ? `${resource} is forbidden: ${why}` : `${resource} "${name}" is forbidden: ${why}`;
  const reason = f.reason || "Invalid";
  return failure(codeOf(reason), reason, message, {
    ...(name ? { name } : {}),
    ...(a.group ? { group: a.group } : {}),
    kind: a.resource,
    causes: [{ message: why }],
  });
}

/**
 * The failures of a policy through one binding: one evaluation per parameter object, or the binding's
 * configuration error (`failed to configure binding: ...`) under failurePolicy Fail.
 */
function failuresOf(
  policy: CompiledPolicy,
  binding: PolicyBinding,
  a: AdmissionAttributes,
  ctx: PolicyContext,
): Failure[] {
  let params: Array<JsonObject | null>;
  try {
    params = collectParams(policy.paramKind, binding.paramRef, a.namespace, ctx.params);
  } catch (e) {
    if (!(e instanceof ParamConfigError)) throw e;
    return policy.failurePolicy === "Ignore"
      ? []
      : [{ message: `failed to configure binding: ${e.message}`, reason: "" }];
  }
  return params.flatMap((p) => validate(policy, a, ctx, p));
}

/** The admission policy kinds, which no policy sees (`isPolicyResource`); webhook configurations are not exempt. */
const POLICY_RESOURCES = [
  "validatingadmissionpolicies",
  "validatingadmissionpolicybindings",
  "mutatingadmissionpolicies",
  "mutatingadmissionpolicybindings",
];

function isPolicyResource(a: AdmissionAttributes): boolean {
  return a.group === "admissionregistration.k8s.io" && POLICY_RESOURCES.includes(a.resource);
}

/** Runs the bound policies on one request; throws the first denial, records warnings. */
export function dispatchPolicies(
  hooks: readonly PolicyHook[],
  a: AdmissionAttributes,
  ctx: PolicyContext,
): void {
  if (hooks.length === 0 || isPolicyResource(a)) return;
  let denied: StatusError | undefined;
  for (const { policy, bindings } of hooks) {
    if (!matches(policy.matchConstraints, a, ctx.namespaceLabels)) continue;
    for (const binding of bindings) {
      if (binding.matchResources && !matches(binding.matchResources, a, ctx.namespaceLabels)) continue;
      for (const f of failuresOf(policy, binding, a, ctx)) {
        for (const action of binding.validationActions) {
          if (action === "Deny") denied ??= denial(a, policy.name, binding.name, f);
          else if (action === "Warn") {
            const text = `Validation failed for ValidatingAdmissionPolicy '${policy.name}' with binding '${binding.name}': ${f.message}`;
            if (!ctx.warnings.includes(text)) ctx.warnings.push(text);
          }
        }
      }
    }
  }
  if (denied) throw denied;
}
