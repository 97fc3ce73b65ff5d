import type { KubeObject } from "../../../apimachinery/object.js";
import { dns1035LabelErrors } from "../../../apimachinery/validation/names.js";
import { isJsonObject, type JsonObject } from "../json.js";
import type { FieldErrors } from "../validation/field-errors.js";
import { defaultServiceSpec } from "./defaults.js";
import { BasicStrategy } from "./strategy.js";

/** First address handed out from the service CIDR (10.96.0.0/12, kubeadm's default). */
const FIRST_CLUSTER_IP = (10 << 24) | (96 << 16) | 10;

function ipString(n: number): string {
  return [24, 16, 8, 0].map((s) => (n >>> s) & 255).join(".");
}

/**
 * Service (core/v1): DNS-1035 names, spec defaults, and a ClusterIP allocated from 10.96.0.0/12 on create
 * (unless `clusterIP: None`, a headless service); `spec.clusterIP` is immutable afterwards. ClusterIP
 * services need at least one port. No endpoints, no kube-proxy: the address routes nowhere.
 */
export class ServiceStrategy extends BasicStrategy {
  private next = FIRST_CLUSTER_IP;

  constructor() {
    super({ nameErrors: dns1035LabelErrors, hasStatus: true });
  }

  override decode(obj: KubeObject): void {
    if (!isJsonObject(obj.spec)) obj.spec = {};
    defaultServiceSpec(obj.spec as JsonObject);
  }

  override prepareForCreate(obj: KubeObject): void {
    const spec = obj.spec as JsonObject;
    if (spec.type !== "ExternalName" && spec.clusterIP === undefined) {
      spec.clusterIP = ipString(this.next++);
    }
    if (spec.clusterIP !== undefined && spec.clusterIPs === undefined) spec.clusterIPs = [spec.clusterIP];
    if (spec.type !== "ExternalName") {
      if (spec.ipFamilies === undefined) spec.ipFamilies = ["IPv4"];
      if (spec.ipFamilyPolicy === undefined) spec.ipFamilyPolicy = "SingleStack";
    }
    obj.status = { loadBalancer: {} };
  }

  override prepareForUpdate(obj: KubeObject, old: KubeObject): void {
    super.prepareForUpdate(obj, old);
    const spec = obj.spec as JsonObject;
    const oldSpec = (isJsonObject(old.spec) ? old.spec : {}) as JsonObject;
    for (const f of ["clusterIP", "clusterIPs", "ipFamilies", "ipFamilyPolicy"]) {
      if (spec[f] === undefined && oldSpec[f] !== undefined) spec[f] = oldSpec[f];
    }
  }

  override validate(obj: KubeObject, errs: FieldErrors, old: KubeObject | undefined): void {
    const spec = obj.spec as JsonObject;
    const ports = spec.ports;
    if (
      spec.type === "ClusterIP" &&
      spec.clusterIP !== "None" &&
      (!Array.isArray(ports) || ports.length === 0)
    ) {
      errs.required("spec.ports");
    }
    if (
      old &&
      isJsonObject(old.spec) &&
      old.spec.clusterIP !== spec.clusterIP &&
      old.spec.type === spec.type
    ) {
      errs.invalid("spec.clusterIP", spec.clusterIP, "field is immutable");
    }
  }
}
