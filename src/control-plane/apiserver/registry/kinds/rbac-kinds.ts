/**
 * rbac.authorization.k8s.io/v1 Role, ClusterRole, RoleBinding and ClusterRoleBinding served from data, after
 * `pkg/apis/rbac/validation` and `pkg/apis/rbac/v1/defaults.go`. Stored and validated only: the embedded server
 * authorizes every request (it has no RBAC authorizer), so a binding grants nothing here.
 */
import type { KubeObject } from "../../../../apimachinery/object.js";
import { isJsonObject } from "../../json.js";
import type { FieldErrors } from "../../validation/field-errors.js";
import { objectAt, setIfAbsent } from "../defaults.js";
import type { KindSpec } from "../kind-spec.js";
import { at, isMissing, itemsAt } from "./fields.js";

const RBAC_GROUP = "rbac.authorization.k8s.io";

/**
 * `ValidateRBACName` (`path.IsValidPathSegmentName`): RBAC names may hold colons (`system:controller:x`), only
 * `.`, `..`, `/` and `%` are refused.
 */
export function pathSegmentNameErrors(name: string): string[] {
  if (name === "." || name === "..") return [`may not be '${name}'`];
  const errs: string[] = [];
  for (const c of ["/", "%"]) if (name.includes(c)) errs.push(`may not contain '${c}'`);
  return errs;
}

/** `SetDefaults_Subject` and the roleRef's group: User and Group subjects are RBAC's, ServiceAccounts core's. */
function defaultBinding(binding: KubeObject): void {
  if (isJsonObject(binding.roleRef)) setIfAbsent(binding.roleRef, "apiGroup", RBAC_GROUP);
  for (const [subject] of itemsAt(binding, "subjects")) {
    if (subject.apiGroup) continue;
    if (subject.kind === "User" || subject.kind === "Group") subject.apiGroup = RBAC_GROUP;
    else if (subject.kind === "ServiceAccount") subject.apiGroup = "";
  }
}

/** `ValidatePolicyRule`: verbs always; an API group for resource rules; no URLs in namespaced rules. */
function validateRules(role: KubeObject, errs: FieldErrors, namespaced: boolean): void {
  for (const [rule, i] of itemsAt(role, "rules")) {
    const path = `rules[${i}]`;
    if (isMissing(rule.verbs)) errs.required(`${path}.verbs`, "verbs must contain at least one value");
    const urls = !isMissing(rule.nonResourceURLs);
    if (urls && namespaced) {
      errs.invalid(
        `${path}.nonResourceURLs`,
        rule.nonResourceURLs,
        "namespaced rules cannot apply to non-resource URLs",
      );
    }
    if (urls && (!isMissing(rule.apiGroups) || !isMissing(rule.resources))) {
      errs.invalid(
        `${path}.nonResourceURLs`,
        rule.nonResourceURLs,
        "rules cannot apply to both regular resources and non-resource URLs",
      );
    }
    if (!urls && isMissing(rule.resources)) {
      errs.required(`${path}.resources`, "resource rules must supply at least one resource");
    }
    if (!urls && !isMissing(rule.resources) && isMissing(rule.apiGroups)) {
      errs.required(`${path}.apiGroups`, "resource rules must supply at least one api group");
    }
  }
}

/** `ValidateRoleBinding`/`ValidateClusterRoleBinding`: a named roleRef of an allowed kind, valid subjects. */
function validateBinding(
  binding: KubeObject,
  errs: FieldErrors,
  old: KubeObject | undefined,
  namespaced: boolean,
): void {
  const ref = objectAt({ ...binding }, "roleRef");
  const kinds = namespaced ? ["Role", "ClusterRole"] : ["ClusterRole"];
  if (ref.apiGroup !== RBAC_GROUP) errs.notSupported("roleRef.apiGroup", ref.apiGroup ?? "", [RBAC_GROUP]);
  if (!kinds.includes(String(ref.kind ?? ""))) errs.notSupported("roleRef.kind", ref.kind ?? "", kinds);
  if (isMissing(ref.name)) errs.required("roleRef.name");
  for (const [subject, i] of itemsAt(binding, "subjects")) {
    const path = `subjects[${i}]`;
    if (isMissing(subject.name)) errs.required(`${path}.name`);
    if (subject.kind === "ServiceAccount") {
      const group = subject.apiGroup ?? "";
      if (group !== "") errs.notSupported(`${path}.apiGroup`, group, [""]);
      if (!namespaced && isMissing(subject.namespace)) errs.required(`${path}.namespace`);
    } else if (subject.kind === "User" || subject.kind === "Group") {
      if (subject.apiGroup !== RBAC_GROUP)
        errs.notSupported(`${path}.apiGroup`, subject.apiGroup, [RBAC_GROUP]);
    } else {
      errs.notSupported(`${path}.kind`, subject.kind ?? "", ["ServiceAccount", "User", "Group"]);
    }
  }
  if (old && JSON.stringify(at(old, "roleRef")) !== JSON.stringify(at(binding, "roleRef"))) {
    errs.invalid(
      "roleRef",
      { APIGroup: ref.apiGroup ?? "", Kind: ref.kind ?? "", Name: ref.name ?? "" },
      "cannot change roleRef",
    );
  }
}

const rbac = (resource: string, kind: string, namespaced: boolean, rest: Partial<KindSpec>): KindSpec => ({
  group: RBAC_GROUP,
  version: "v1",
  resource,
  kind,
  namespaced,
  nameErrors: pathSegmentNameErrors,
  ...rest,
});

/** The RBAC kinds served from data. */
export const RBAC_KINDS: readonly KindSpec[] = [
  rbac("roles", "Role", true, { validate: (r, errs) => validateRules(r, errs, true) }),
  rbac("clusterroles", "ClusterRole", false, { validate: (r, errs) => validateRules(r, errs, false) }),
  rbac("rolebindings", "RoleBinding", true, {
    defaults: defaultBinding,
    validate: (b, errs, old) => validateBinding(b, errs, old, true),
  }),
  rbac("clusterrolebindings", "ClusterRoleBinding", false, {
    defaults: defaultBinding,
    validate: (b, errs, old) => validateBinding(b, errs, old, false),
  }),
];
