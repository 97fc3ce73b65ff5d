/**
 * The parameter objects a binding passes to its policy, after k8s.io/apiserver's `generic.CollectParams`
 * (`plugin/policy/generic/policy_dispatcher.go`):
 * - no paramKind on the policy, or no paramRef on the binding: the policy runs once with `params` null;
 * - `paramRef.name`: that object (in `paramRef.namespace`, else the request's namespace, for a namespaced kind);
 *   `paramRef.selector`: every object its labels select there; the policy runs once per object found;
 * - none found: parameterNotFoundAction `Allow` skips the binding, `Deny` is a configuration error;
 * - a namespace on a cluster-scoped kind, or a namespaced kind without a namespace for a cluster-scoped request,
 *   an unknown kind: configuration errors, which the policy's failurePolicy turns into a denial or skips.
 * Objects are read from storage at the moment of the request (kube-apiserver reads them through an informer).
 */
import type { KubeObject } from "../../../../apimachinery/object.js";
import type { JsonObject } from "../../json.js";
import { selectorOf } from "../webhooks/configuration.js";
import type { ParamKind, ParamRef } from "./policy-source.js";

/** The objects of one kind, as the server stores them (`informers.GenericInformer` for a paramKind). */
export interface ParamObjects {
  namespaced: boolean;
  get(namespace: string | undefined, name: string): KubeObject | undefined;
  list(namespace: string | undefined): KubeObject[];
}

/** Finds the objects of a paramKind, or undefined when no served resource has that kind. */
export type ParamSource = (apiVersion: string, kind: string) => ParamObjects | undefined;

/** A binding's parameters could not be collected (`addConfigError`): `failed to configure binding: <message>`. */
export class ParamConfigError extends Error {}

/** `ParamKind.String()` as Go's generated code prints it. */
function kindString(k: ParamKind): string {
  return `&ParamKind{APIVersion:${k.apiVersion},Kind:${k.kind},}`;
}

/** `params` with the paramKind's apiVersion and kind set, as kube-apiserver's `wrappedParam` shows them. */
function typed(obj: KubeObject, kind: ParamKind): JsonObject {
  return { ...(obj as JsonObject), apiVersion: kind.apiVersion, kind: kind.kind };
}

/**
 * `CollectParams`: the values `params` takes, one evaluation each (`[null]` without parameters, `[]` to skip the
 * binding); throws {@link ParamConfigError}.
 */
export function collectParams(
  kind: ParamKind | undefined,
  ref: ParamRef | undefined,
  requestNamespace: string,
  source: ParamSource,
): Array<JsonObject | null> {
  if (kind === undefined || ref === undefined) return [null];
  const objects = source(kind.apiVersion, kind.kind);
  if (objects === undefined) throw new ParamConfigError(`paramKind kind \`${kindString(kind)}\` not known`);
  let namespace: string | undefined;
  if (objects.namespaced) {
    namespace = ref.namespace || requestNamespace;
    if (namespace === "") {
      throw new ParamConfigError(
        "cannot use namespaced paramRef in policy binding that matches cluster-scoped resources",
      );
    }
  } else if (ref.namespace !== "") {
    throw new ParamConfigError("paramRef.namespace must not be provided for a cluster-scoped `paramKind`");
  }
  let found: KubeObject[];
  if (ref.name !== "") {
    const obj = objects.get(namespace, ref.name);
    found = obj ? [obj] : [];
  } else {
    const selector = selectorOf(ref.selector ?? {});
    found = objects.list(namespace).filter((o) => selector.matches(o.metadata?.labels ?? {}));
  }
  if (found.length === 0 && ref.parameterNotFoundAction === "Deny") {
    throw new ParamConfigError("no params found for policy binding with `Deny` parameterNotFoundAction");
  }
  return found.map((o) => typed(o, kind));
}
