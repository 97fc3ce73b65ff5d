/**
 * The webhooks of the stored ValidatingWebhookConfigurations and MutatingWebhookConfigurations, read live from
 * storage on every write (kube-apiserver reads them through an informer, `configuration/*_manager.go`): the
 * configurations in name order, each one's webhooks in their listed order, as the dispatchers call them.
 * The objects were defaulted and validated when they were written, so every field read here has its value.
 */
import type { KubeObject } from "../../../../apimachinery/object.js";
import {
  type LabelOperator,
  type LabelRequirement,
  LabelSelector,
} from "../../../../apimachinery/selectors/label-selector.js";
import { isJsonObject, type JsonObject } from "../../json.js";
import type { MvccStore } from "../../storage/mvcc-store.js";

/** One rule of a webhook (`RuleWithOperations`). */
export interface WebhookRule {
  operations: string[];
  apiGroups: string[];
  apiVersions: string[];
  resources: string[];
  scope: string;
}

/** A webhook of either kind, as the dispatchers use it. */
export interface Webhook {
  /** The webhook's name (`webhooks[].name`). */
  name: string;
  /** Its configuration's name (webhooks are unique per configuration, not across them). */
  configuration: string;
  /** A key unique across configurations (kube's `WebhookAccessor.GetUID`). */
  uid: string;
  rules: WebhookRule[];
  failurePolicy: "Fail" | "Ignore";
  matchPolicy: "Equivalent" | "Exact";
  namespaceSelector: JsonObject;
  objectSelector: JsonObject;
  sideEffects: string;
  timeoutSeconds: number;
  /** `clientConfig.url`, when set. */
  url?: string;
  /** `clientConfig.service`, when set (the embedded server cannot resolve it). */
  service?: JsonObject;
  /** PEM bundle from `clientConfig.caBundle` (base64 in the object), or undefined for the system roots. */
  caBundle?: string;
  /** Mutating webhooks only: `Never` or `IfNeeded`. */
  reinvocationPolicy: "Never" | "IfNeeded";
}

const GROUP = "admissionregistration.k8s.io";

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : [];
}

/** The webhooks of one stored configuration. */
export function webhooksOf(config: KubeObject): Webhook[] {
  const configuration = config.metadata?.name ?? "";
  const hooks = Array.isArray(config.webhooks) ? config.webhooks : [];
  return hooks.filter(isJsonObject).map((h, i) => {
    const cc = isJsonObject(h.clientConfig) ? h.clientConfig : {};
    const hook: Webhook = {
      name: typeof h.name === "string" ? h.name : "",
      configuration,
      uid: `${configuration}/${typeof h.name === "string" ? h.name : ""}/${i}`,
      rules: (Array.isArray(h.rules) ? h.rules : []).filter(isJsonObject).map((r) => ({
        operations: strings(r.operations),
        apiGroups: strings(r.apiGroups),
        apiVersions: strings(r.apiVersions),
        resources: strings(r.resources),
        scope: typeof r.scope === "string" ? r.scope : "*",
      })),
      failurePolicy: h.failurePolicy === "Ignore" ? "Ignore" : "Fail",
      matchPolicy: h.matchPolicy === "Exact" ? "Exact" : "Equivalent",
      namespaceSelector: isJsonObject(h.namespaceSelector) ? h.namespaceSelector : {},
      objectSelector: isJsonObject(h.objectSelector) ? h.objectSelector : {},
      sideEffects: typeof h.sideEffects === "string" ? h.sideEffects : "",
      timeoutSeconds: typeof h.timeoutSeconds === "number" ? h.timeoutSeconds : 10,
      reinvocationPolicy: h.reinvocationPolicy === "IfNeeded" ? "IfNeeded" : "Never",
    };
    if (typeof cc.url === "string") hook.url = cc.url;
    if (isJsonObject(cc.service)) hook.service = cc.service;
    if (typeof cc.caBundle === "string" && cc.caBundle !== "") {
      hook.caBundle = Buffer.from(cc.caBundle, "base64").toString("utf8");
    }
    return hook;
  });
}

/** Every webhook of one kind: configurations in name order, webhooks in their order. */
export function storedWebhooks(store: MvccStore, mutating: boolean): Webhook[] {
  const resource = mutating ? "mutatingwebhookconfigurations" : "validatingwebhookconfigurations";
  const rs = store.resource(`${GROUP}/${resource}`);
  const out: Webhook[] = [];
  for (const key of rs.sortedKeys()) {
    const v = rs.current(key);
    if (v) out.push(...webhooksOf(v.object()));
  }
  return out;
}

const OPERATORS: Record<string, LabelOperator> = {
  In: "in",
  NotIn: "notin",
  Exists: "exists",
  DoesNotExist: "!",
};

/**
 * A `metav1.LabelSelector` (matchLabels ANDed with matchExpressions) as a {@link LabelSelector}
 * (`metav1.LabelSelectorAsSelector`). The empty selector matches everything.
 */
export function selectorOf(spec: JsonObject): LabelSelector {
  const reqs: LabelRequirement[] = [];
  const labels = isJsonObject(spec.matchLabels) ? spec.matchLabels : {};
  for (const [key, value] of Object.entries(labels))
    reqs.push({ key, operator: "=", values: [String(value)] });
  const exprs = Array.isArray(spec.matchExpressions) ? spec.matchExpressions : [];
  for (const e of exprs) {
    if (!isJsonObject(e) || typeof e.key !== "string") continue;
    const operator = OPERATORS[String(e.operator)];
    // Validation refuses unknown operators; one that got through matches nothing rather than everything.
    if (!operator) reqs.push({ key: e.key, operator: "in", values: [] });
    else reqs.push({ key: e.key, operator, values: strings(e.values) });
  }
  return new LabelSelector(reqs);
}
