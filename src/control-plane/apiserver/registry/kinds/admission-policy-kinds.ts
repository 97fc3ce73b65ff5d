/**
 * admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding, after their
 * `SetDefaults_*` (pkg/apis/admissionregistration/v1/defaults.go) and validation
 * (pkg/apis/admissionregistration/validation/validation.go) in kube-apiserver 1.34. Both are cluster-scoped; the
 * policy admission step (`../../admission/policies/`) reads them live from storage on every write.
 *
 * Expressions compile in the CRD rules' CEL environment (`../../validation/cel/compile.ts`) with the variables a
 * policy sees: `object`, `oldObject`, `request`, `namespaceObject`, and `params` when the policy has a `paramKind`.
 */
import type { KubeObject } from "../../../../apimachinery/object.js";
import { dns1123SubdomainErrors, qualifiedNameErrors } from "../../../../apimachinery/validation/names.js";
import { isJsonObject, type JsonObject } from "../../json.js";
import { compileAdmissionExpression } from "../../validation/cel/compile.js";
import type { FieldErrors } from "../../validation/field-errors.js";
import { setIfAbsent } from "../defaults.js";
import type { KindSpec } from "../kind-spec.js";
import { validateRule } from "./admission-kinds.js";

/** The variables every policy expression may read (`plugin/cel.OptionalVariableDeclarations` without params). */
export const POLICY_VARIABLES = ["object", "oldObject", "request", "namespaceObject"] as const;

/**
 * The variables of a policy's expressions: {@link POLICY_VARIABLES}, `params` with a `paramKind`, and `variables`
 * when the policy declares `spec.variables` (kube-apiserver's composited compiler).
 */
export function policyVariables(hasParams: boolean, hasComposition = false): string[] {
  return [...POLICY_VARIABLES, ...(hasParams ? ["params"] : []), ...(hasComposition ? ["variables"] : [])];
}

/** `isCELIdentifier`: `[_a-zA-Z][_a-zA-Z0-9]*`, not a reserved word. */
const CEL_RESERVED = new Set(
  "true false null in as break const continue else for function if import let loop package namespace return var void while".split(
    " ",
  ),
);

function isCelIdentifier(name: string): boolean {
  return /^[_a-zA-Z][_a-zA-Z0-9]*$/.test(name) && !CEL_RESERVED.has(name);
}

/** `validateVariable`: a CEL identifier as name, an expression that compiles (of any type). */
function validateVariable(
  v: JsonObject,
  variables: string[],
  earlier: string[],
  path: string,
  errs: FieldErrors,
): void {
  const name = typeof v.name === "string" ? v.name : "";
  if (name.trim() === "") errs.required(`${path}.name`, "name is not specified");
  else if (!isCelIdentifier(name)) errs.invalid(`${path}.name`, name, "must be a valid CEL identifier");
  const expression = typeof v.expression === "string" ? v.expression : "";
  if (expression.trim() === "") errs.required(`${path}.expression`, "expression is not specified");
  else checkExpression(expression, variables, "any", `${path}.expression`, errs, earlier);
}

/** `SetDefaults_MatchResources` and `SetDefaults_Rule` on each of its rules. */
function defaultMatchResources(m: unknown): void {
  if (!isJsonObject(m)) return;
  setIfAbsent(m, "matchPolicy", "Equivalent");
  setIfAbsent(m, "namespaceSelector", {});
  setIfAbsent(m, "objectSelector", {});
  for (const list of [m.resourceRules, m.excludeResourceRules]) {
    if (!Array.isArray(list)) continue;
    for (const rule of list) if (isJsonObject(rule)) setIfAbsent(rule, "scope", "*");
  }
}

/** `SetDefaults_ValidatingAdmissionPolicySpec` (failurePolicy Fail) and the match resources' defaults. */
function defaultPolicy(policy: KubeObject): void {
  if (!isJsonObject(policy.spec)) return;
  setIfAbsent(policy.spec, "failurePolicy", "Fail");
  defaultMatchResources(policy.spec.matchConstraints);
}

/** The binding's `matchResources`, when set, defaults as a policy's `matchConstraints` do. */
function defaultBinding(binding: KubeObject): void {
  if (isJsonObject(binding.spec)) defaultMatchResources(binding.spec.matchResources);
}

const FAILURE_POLICIES = ["Fail", "Ignore"];
const MATCH_POLICIES = ["Equivalent", "Exact"];
/** `supportedValidationPolicyReason` as kube-apiserver 1.34 lists it (Unauthorized is not among them). */
const REASONS = ["Forbidden", "Invalid", "RequestEntityTooLarge"];
/** `validValidationActions`, sorted. */
const ACTIONS = ["Audit", "Deny", "Warn"];

/** `metav1validation.ValidateLabelSelector`: the operators and their values. */
function validateLabelSelector(selector: JsonObject, path: string, errs: FieldErrors): void {
  const exprs = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  exprs.forEach((e, i) => {
    if (!isJsonObject(e)) return;
    const at = `${path}.matchExpressions[${i}]`;
    const values = Array.isArray(e.values) ? e.values : [];
    if (e.operator === "In" || e.operator === "NotIn") {
      if (values.length === 0) {
        errs.required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'");
      }
    } else if (e.operator === "Exists" || e.operator === "DoesNotExist") {
      if (values.length > 0) {
        errs.forbidden(`${at}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
      }
    } else {
      errs.invalid(`${at}.operator`, e.operator, `not a valid selector operator`);
    }
    for (const msg of qualifiedNameErrors(typeof e.key === "string" ? e.key : "")) {
      errs.invalid(`${at}.key`, e.key, msg);
    }
  });
}

/** `path.ValidatePathSegmentName`: a resource name may not be `.`/`..` nor contain `/` or `%`. */
function pathSegmentErrors(name: string): string[] {
  if (name === "." || name === "..") return [`may not be '${name}'`];
  return ["/", "%"].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
}

/** `validateNamedRuleWithOperations`: resourceNames, then the rule as webhooks' rules are checked. */
function validateNamedRule(rule: JsonObject, path: string, errs: FieldErrors): void {
  const names = Array.isArray(rule.resourceNames) ? rule.resourceNames.map(String) : [];
  const seen = new Set<string>();
  names.forEach((n, i) => {
    for (const msg of pathSegmentErrors(n)) errs.invalid(`${path}.resourceNames[${i}]`, n, msg);
    if (seen.has(n)) errs.duplicate(`${path}.resourceNames[${i}]`, n);
    seen.add(n);
  });
  validateRule(rule, path, errs);
}

/** `validateMatchResources` (nothing to check when the field is absent). */
function validateMatchResources(m: unknown, path: string, errs: FieldErrors): void {
  if (!isJsonObject(m)) return;
  if (typeof m.matchPolicy !== "string") errs.required(`${path}.matchPolicy`);
  else if (!MATCH_POLICIES.includes(m.matchPolicy))
    errs.notSupported(`${path}.matchPolicy`, m.matchPolicy, MATCH_POLICIES);
  for (const sel of ["namespaceSelector", "objectSelector"] as const) {
    const s = m[sel];
    if (!isJsonObject(s)) errs.required(`${path}.${sel}`);
    else validateLabelSelector(s, `${path}.${sel}`, errs);
  }
  for (const list of ["resourceRules", "excludeResourceRules"] as const) {
    const rules = Array.isArray(m[list]) ? (m[list] as unknown[]) : [];
    rules.forEach((r, i) => {
      validateNamedRule(isJsonObject(r) ? r : {}, `${path}.${list}[${i}]`, errs);
    });
  }
}

/** A compile error as `convertCELErrorToValidationError` reports it: Invalid, with the expression as the value. */
function checkExpression(
  source: string,
  variables: string[],
  returns: "bool" | "string" | "any",
  path: string,
  errs: FieldErrors,
  composed: string[] = [],
): void {
  const compiled = compileAdmissionExpression(source, variables, returns, composed);
  if (compiled.error !== undefined) errs.invalid(path, source, compiled.error);
}

/** `validateMatchConditions`: at most 64, each named (a qualified name, no duplicates) with a bool expression. */
function validateMatchConditions(
  conditions: unknown,
  variables: string[],
  path: string,
  errs: FieldErrors,
): void {
  if (!Array.isArray(conditions)) return;
  if (conditions.length > 64) errs.invalid(path, conditions.length, "must have at most 64 items");
  const names = new Set<string>();
  conditions.forEach((c, i) => {
    const cond = isJsonObject(c) ? c : {};
    const at = `${path}[${i}]`;
    const expression = typeof cond.expression === "string" ? cond.expression.trim() : "";
    if (expression === "") errs.required(`${at}.expression`);
    else checkExpression(expression, variables, "bool", `${at}.expression`, errs);
    const name = typeof cond.name === "string" ? cond.name : "";
    if (name === "") errs.required(`${at}.name`);
    else for (const msg of qualifiedNameErrors(name)) errs.invalid(`${at}.name`, name, msg);
    if (name !== "") {
      if (names.has(name)) errs.duplicate(`${at}.name`, name);
      names.add(name);
    }
  });
}

/** `validateValidation`: expression, messageExpression, message and reason. */
function validateValidation(
  v: JsonObject,
  variables: string[],
  composed: string[],
  path: string,
  errs: FieldErrors,
): void {
  const expression = typeof v.expression === "string" ? v.expression : "";
  if (expression.trim() === "") errs.required(`${path}.expression`, "expression is not specified");
  else checkExpression(expression, variables, "bool", `${path}.expression`, errs, composed);
  const messageExpression = typeof v.messageExpression === "string" ? v.messageExpression : "";
  if (messageExpression.length > 0 && messageExpression.trim() === "") {
    errs.invalid(`${path}.messageExpression`, messageExpression, "must be non-empty if specified");
  } else if (messageExpression.trim() !== "") {
    checkExpression(messageExpression, variables, "string", `${path}.messageExpression`, errs, composed);
  }
  const message = typeof v.message === "string" ? v.message : "";
  if (message.length > 0 && message.trim() === "") {
    errs.invalid(`${path}.message`, message, "must be non-empty if specified");
  } else if (/[\n\r]/.test(message.trim())) {
    errs.invalid(`${path}.message`, message, "message must not contain line breaks");
  }
  if (v.reason !== undefined && v.reason !== null && !REASONS.includes(String(v.reason))) {
    errs.notSupported(`${path}.reason`, v.reason, REASONS);
  }
}

/** `validateValidatingAdmissionPolicySpec`, for the fields the embedded server evaluates. */
function validatePolicy(policy: KubeObject, errs: FieldErrors): void {
  const spec = isJsonObject(policy.spec) ? policy.spec : {};
  const at = "spec";
  if (typeof spec.failurePolicy !== "string") errs.required(`${at}.failurePolicy`);
  else if (!FAILURE_POLICIES.includes(spec.failurePolicy)) {
    errs.notSupported(`${at}.failurePolicy`, spec.failurePolicy, FAILURE_POLICIES);
  }
  const hasParams = isJsonObject(spec.paramKind);
  const composed = Array.isArray(spec.variables) ? spec.variables : [];
  const variables = policyVariables(hasParams, composed.length > 0);
  if (!isJsonObject(spec.matchConstraints)) errs.required(`${at}.matchConstraints`);
  else {
    validateMatchResources(spec.matchConstraints, `${at}.matchConstraints`, errs);
    const rules = spec.matchConstraints.resourceRules;
    if (!Array.isArray(rules) || rules.length === 0) errs.required(`${at}.matchConstraints.resourceRules`);
  }
  // matchConditions compile without composition (`validateMatchConditionsExpression`).
  validateMatchConditions(spec.matchConditions, policyVariables(hasParams), `${at}.matchConditions`, errs);
  const names = composed.map((v) => (isJsonObject(v) && typeof v.name === "string" ? v.name : ""));
  composed.forEach((v, i) => {
    const path = `${at}.variables[${i}]`;
    validateVariable(isJsonObject(v) ? v : {}, variables, names.slice(0, i), path, errs);
  });
  const validations = Array.isArray(spec.validations) ? spec.validations : [];
  const audits = Array.isArray(spec.auditAnnotations) ? spec.auditAnnotations : [];
  if (validations.length === 0 && audits.length === 0) {
    const why = "validations or auditAnnotations must contain at least one item";
    errs.required(`${at}.validations`, why);
    errs.required(`${at}.auditAnnotations`, why);
  }
  validations.forEach((v, i) => {
    validateValidation(isJsonObject(v) ? v : {}, variables, names, `${at}.validations[${i}]`, errs);
  });
}

/** `validateValidationActions`: known, no duplicates, not Deny with Warn, at least one. */
function validateActions(actions: unknown, path: string, errs: FieldErrors): void {
  const list = Array.isArray(actions) ? actions.map(String) : [];
  const seen = new Set<string>();
  list.forEach((a, i) => {
    if (!ACTIONS.includes(a)) errs.notSupported(`${path}[${i}]`, a, ACTIONS);
    if (seen.has(a)) errs.duplicate(`${path}[${i}]`, a);
    seen.add(a);
  });
  if (seen.has("Deny") && seen.has("Warn")) {
    errs.invalid(
      path,
      list,
      "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)",
    );
  }
  if (seen.size === 0) errs.required(path, "at least one validation action is required");
}

/** `validateParamRef`: a name or a selector (not both), and a parameterNotFoundAction. */
function validateParamRef(ref: unknown, path: string, errs: FieldErrors): void {
  if (!isJsonObject(ref)) return;
  const name = typeof ref.name === "string" ? ref.name : "";
  const hasSelector = isJsonObject(ref.selector);
  if (name !== "") {
    for (const msg of pathSegmentErrors(name)) errs.invalid(`${path}.name`, name, msg);
    if (hasSelector) errs.forbidden(`${path}.name`, "name and selector are mutually exclusive");
  }
  if (hasSelector) {
    validateLabelSelector(ref.selector as JsonObject, `${path}.selector`, errs);
    if (name !== "") errs.forbidden(`${path}.selector`, "name and selector are mutually exclusive");
  }
  if (name === "" && !hasSelector) errs.required(path, "one of name or selector must be specified");
  const action = ref.parameterNotFoundAction;
  if (typeof action !== "string" || action === "") errs.required(`${path}.parameterNotFoundAction`);
  else if (action !== "Deny" && action !== "Allow") {
    errs.notSupported(`${path}.parameterNotFoundAction`, action, ["Deny", "Allow"]);
  }
}

/** `validateValidatingAdmissionPolicyBindingSpec`. */
function validateBinding(binding: KubeObject, errs: FieldErrors): void {
  const spec = isJsonObject(binding.spec) ? binding.spec : {};
  const policyName = typeof spec.policyName === "string" ? spec.policyName : "";
  if (policyName === "") errs.required("spec.policyName");
  else for (const msg of dns1123SubdomainErrors(policyName)) errs.invalid("spec.policyName", policyName, msg);
  validateParamRef(spec.paramRef, "spec.paramRef", errs);
  validateMatchResources(spec.matchResources, "spec.matchResources", errs);
  validateActions(spec.validationActions, "spec.validationActions", errs);
}

/** The two admission policy kinds, served from data. */
export const ADMISSION_POLICY_KINDS: readonly KindSpec[] = [
  {
    group: "admissionregistration.k8s.io",
    version: "v1",
    resource: "validatingadmissionpolicies",
    kind: "ValidatingAdmissionPolicy",
    namespaced: false,
    status: true,
    generation: "spec",
    defaults: defaultPolicy,
    validate: (p, errs) => validatePolicy(p, errs),
  },
  {
    group: "admissionregistration.k8s.io",
    version: "v1",
    resource: "validatingadmissionpolicybindings",
    kind: "ValidatingAdmissionPolicyBinding",
    namespaced: false,
    generation: "spec",
    defaults: defaultBinding,
    validate: (b, errs) => validateBinding(b, errs),
  },
];
