/**
 * The stored ValidatingAdmissionPolicies with their bindings, compiled, as k8s.io/apiserver's policy source
 * (`plugin/policy/generic/policy_source.go`) hands them to the dispatcher: each policy in name order with the
 * bindings whose `spec.policyName` names it. A policy no binding names is left out: it does nothing.
 *
 * kube-apiserver fills its source from informers, so a new policy takes effect a moment after it is written;
 * here it is read from storage on every write (in effect at once). A policy's expressions are compiled once per
 * stored version of it (its resourceVersion) and kept.
 */
import type { KubeObject } from "../../../../apimachinery/object.js";
import { isJsonObject, type JsonObject } from "../../json.js";
import { policyVariables } from "../../registry/kinds/admission-policy-kinds.js";
import type { MvccStore } from "../../storage/mvcc-store.js";
import { type CompiledExpression, compileAdmissionExpression } from "../../validation/cel/compile.js";
import type { WebhookRule } from "../webhooks/configuration.js";

const GROUP = "admissionregistration.k8s.io";

/** A `NamedRuleWithOperations`: a webhook rule, optionally narrowed to some object names. */
export interface NamedRule extends WebhookRule {
  resourceNames: string[];
}

/** `MatchResources` of a policy (`matchConstraints`) or a binding (`matchResources`), defaulted. */
export interface MatchResources {
  namespaceSelector: JsonObject;
  objectSelector: JsonObject;
  resourceRules: NamedRule[];
  excludeResourceRules: NamedRule[];
}

/** One `validations[]` entry, compiled. */
export interface CompiledValidation {
  expression: string;
  message: string;
  reason: string;
  check: CompiledExpression;
  messageCheck?: CompiledExpression;
}

/** A policy's `paramKind`: the kind of the objects its bindings pass as `params`. */
export interface ParamKind {
  apiVersion: string;
  kind: string;
}

/** A binding's `paramRef`: which objects of the paramKind it passes, and what to do when there is none. */
export interface ParamRef {
  name: string;
  namespace: string;
  selector?: JsonObject;
  parameterNotFoundAction: string;
}

/** A policy, compiled (`validating.Policy` with its evaluator). */
export interface CompiledPolicy {
  name: string;
  paramKind?: ParamKind;
  failurePolicy: "Fail" | "Ignore";
  matchConstraints: MatchResources;
  matchConditions: Array<{ expression: string; check: CompiledExpression }>;
  /** `spec.variables` in order, each compiled with the ones before it visible as `variables.<name>`. */
  variables: Array<{ name: string; expression: string; check: CompiledExpression }>;
  validations: CompiledValidation[];
}

/** A binding, as the dispatcher uses it. */
export interface PolicyBinding {
  name: string;
  validationActions: string[];
  /** Undefined: the binding matches whatever its policy matches. */
  matchResources?: MatchResources;
  paramRef?: ParamRef;
}

/** A policy with its bindings (`generic.PolicyHook`). */
export interface PolicyHook {
  policy: CompiledPolicy;
  bindings: PolicyBinding[];
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : [];
}

function rulesOf(v: unknown): NamedRule[] {
  return (Array.isArray(v) ? v : []).filter(isJsonObject).map((r) => ({
    operations: strings(r.operations),
    apiGroups: strings(r.apiGroups),
    apiVersions: strings(r.apiVersions),
    resources: strings(r.resources),
    scope: typeof r.scope === "string" ? r.scope : "*",
    resourceNames: strings(r.resourceNames),
  }));
}

function matchResourcesOf(m: JsonObject): MatchResources {
  return {
    namespaceSelector: isJsonObject(m.namespaceSelector) ? m.namespaceSelector : {},
    objectSelector: isJsonObject(m.objectSelector) ? m.objectSelector : {},
    resourceRules: rulesOf(m.resourceRules),
    excludeResourceRules: rulesOf(m.excludeResourceRules),
  };
}

/** Compiles a stored (so already validated) policy. */
export function compilePolicy(obj: KubeObject): CompiledPolicy {
  const spec = isJsonObject(obj.spec) ? obj.spec : {};
  const composed = Array.isArray(spec.variables) ? spec.variables.filter(isJsonObject) : [];
  const variables = policyVariables(isJsonObject(spec.paramKind), composed.length > 0);
  const plain = policyVariables(isJsonObject(spec.paramKind));
  const names = composed.map((v) => String(v.name ?? ""));
  const conditions = Array.isArray(spec.matchConditions) ? spec.matchConditions.filter(isJsonObject) : [];
  const validations = Array.isArray(spec.validations) ? spec.validations.filter(isJsonObject) : [];
  const paramKind = isJsonObject(spec.paramKind)
    ? { apiVersion: String(spec.paramKind.apiVersion ?? ""), kind: String(spec.paramKind.kind ?? "") }
    : undefined;
  return {
    name: obj.metadata?.name ?? "",
    ...(paramKind ? { paramKind } : {}),
    failurePolicy: spec.failurePolicy === "Ignore" ? "Ignore" : "Fail",
    matchConstraints: matchResourcesOf(isJsonObject(spec.matchConstraints) ? spec.matchConstraints : {}),
    matchConditions: conditions.map((c) => {
      const expression = String(c.expression ?? "");
      return { expression, check: compileAdmissionExpression(expression, plain, "bool") };
    }),
    variables: composed.map((v, i) => {
      const expression = String(v.expression ?? "");
      return {
        name: names[i] ?? "",
        expression,
        check: compileAdmissionExpression(expression, variables, "any", names.slice(0, i)),
      };
    }),
    validations: validations.map((v) => {
      const expression = String(v.expression ?? "");
      const messageExpression = typeof v.messageExpression === "string" ? v.messageExpression : "";
      return {
        expression,
        message: typeof v.message === "string" ? v.message : "",
        reason: typeof v.reason === "string" ? v.reason : "",
        check: compileAdmissionExpression(expression, variables, "bool", names),
        ...(messageExpression.trim() !== ""
          ? { messageCheck: compileAdmissionExpression(messageExpression, variables, "string", names) }
          : {}),
      };
    }),
  };
}

function bindingOf(obj: KubeObject): PolicyBinding {
  const spec = isJsonObject(obj.spec) ? obj.spec : {};
  const binding: PolicyBinding = {
    name: obj.metadata?.name ?? "",
    validationActions: strings(spec.validationActions),
  };
  if (isJsonObject(spec.matchResources)) binding.matchResources = matchResourcesOf(spec.matchResources);
  const ref = spec.paramRef;
  if (isJsonObject(ref)) {
    binding.paramRef = {
      name: typeof ref.name === "string" ? ref.name : "",
      namespace: typeof ref.namespace === "string" ? ref.namespace : "",
      ...(isJsonObject(ref.selector) ? { selector: ref.selector } : {}),
      parameterNotFoundAction: String(ref.parameterNotFoundAction ?? ""),
    };
  }
  return binding;
}

/** The stored policies and their bindings, compiled policies cached by resourceVersion. */
export class PolicySource {
  private readonly compiled = new Map<string, { resourceVersion: string; policy: CompiledPolicy }>();

  constructor(private readonly store: MvccStore) {}

  /** Every policy some binding names, in name order, with those bindings in name order. */
  hooks(): PolicyHook[] {
    const bindings = new Map<string, PolicyBinding[]>();
    for (const obj of this.objects("validatingadmissionpolicybindings")) {
      const name = isJsonObject(obj.spec) ? String(obj.spec.policyName ?? "") : "";
      const list = bindings.get(name) ?? [];
      list.push(bindingOf(obj));
      bindings.set(name, list);
    }
    if (bindings.size === 0) return [];
    const hooks: PolicyHook[] = [];
    const seen = new Set<string>();
    for (const obj of this.objects("validatingadmissionpolicies")) {
      const name = obj.metadata?.name ?? "";
      seen.add(name);
      const bound = bindings.get(name);
      if (bound === undefined) continue;
      hooks.push({ policy: this.compile(obj), bindings: bound });
    }
    for (const name of this.compiled.keys()) if (!seen.has(name)) this.compiled.delete(name);
    return hooks;
  }

  private compile(obj: KubeObject): CompiledPolicy {
    const name = obj.metadata?.name ?? "";
    const rv = obj.metadata?.resourceVersion ?? "";
    const cached = this.compiled.get(name);
    if (cached?.resourceVersion === rv) return cached.policy;
    const policy = compilePolicy(obj);
    this.compiled.set(name, { resourceVersion: rv, policy });
    return policy;
  }

  private objects(resource: string): KubeObject[] {
    const rs = this.store.resource(`${GROUP}/${resource}`);
    const out: KubeObject[] = [];
    for (const key of rs.sortedKeys()) {
      const v = rs.current(key);
      if (v) out.push(v.object());
    }
    return out;
  }
}
