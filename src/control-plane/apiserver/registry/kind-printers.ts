/**
 * `kubectl get` columns of the common kinds served from data, between Name and Age, as kube-apiserver's printers
 * (`pkg/printers/internalversion/printers.go`) compute them; only the default columns (`-o wide` ones are left
 * out). Keyed by `group/resource`.
 */
import type { KubeObject } from "../../../apimachinery/object.js";
import { isJsonObject } from "../json.js";
import { column, field, num, type Printer } from "./printer.js";

const text = (name: string, description: string, cell: (o: KubeObject) => unknown): Printer => ({
  column: column(name, "string", description),
  cell,
});
const integer = (name: string, description: string, cell: (o: KubeObject) => unknown): Printer => ({
  column: column(name, "integer", description),
  cell,
});

/** A label map as `k=v,k2=v2` (sorted), or `<none>`. */
function labels(v: unknown): string {
  if (!isJsonObject(v) || Object.keys(v).length === 0) return "<none>";
  return Object.keys(v)
    .sort()
    .map((k) => `${k}=${String(v[k])}`)
    .join(",");
}

/** An IntOrString budget, or `N/A` when unset. */
const budget = (v: unknown): string => (v === undefined || v === null ? "N/A" : String(v));

const roleRef = (o: KubeObject) =>
  `${String(field(o, "roleRef", "kind") ?? "")}/${String(field(o, "roleRef", "name") ?? "")}`;

let printers: Readonly<Record<string, Printer[]>> | undefined;

/**
 * The printers of a kind served from data that kube-apiserver shows more than Name and Age for (`group/resource`),
 * or none. Built on first use.
 */
export function commonKindPrinters(key: string): Printer[] {
  printers ??= build();
  return printers[key] ?? [];
}

function build(): Record<string, Printer[]> {
  return {
    "/serviceaccounts": [
      integer("Secrets", "Number of secrets the service account lists.", (o) =>
        Array.isArray(o.secrets) ? o.secrets.length : 0,
      ),
    ],
    "apps/statefulsets": [
      text(
        "Ready",
        "Ready replicas out of desired replicas.",
        (o) => `${num(field(o, "status", "readyReplicas"))}/${num(field(o, "spec", "replicas"))}`,
      ),
    ],
    "apps/daemonsets": [
      integer("Desired", "Nodes that should run the daemon pod.", (o) =>
        num(field(o, "status", "desiredNumberScheduled")),
      ),
      integer("Current", "Nodes running the daemon pod.", (o) =>
        num(field(o, "status", "currentNumberScheduled")),
      ),
      integer("Ready", "Nodes with a ready daemon pod.", (o) => num(field(o, "status", "numberReady"))),
      integer("Up-to-date", "Nodes running the current template.", (o) =>
        num(field(o, "status", "updatedNumberScheduled")),
      ),
      integer("Available", "Nodes with an available daemon pod.", (o) =>
        num(field(o, "status", "numberAvailable")),
      ),
      text("Node Selector", "The pod template's node selector.", (o) =>
        labels(field(o, "spec", "template", "spec", "nodeSelector")),
      ),
    ],
    "rbac.authorization.k8s.io/rolebindings": [text("Role", "The bound role (kind/name).", roleRef)],
    "rbac.authorization.k8s.io/clusterrolebindings": [text("Role", "The bound role (kind/name).", roleRef)],
    "storage.k8s.io/storageclasses": [
      text("Provisioner", "The volume provisioner.", (o) => o.provisioner ?? ""),
      text("ReclaimPolicy", "What happens to released volumes.", (o) => o.reclaimPolicy ?? ""),
      text("VolumeBindingMode", "When volumes are bound.", (o) => o.volumeBindingMode ?? ""),
      text("AllowVolumeExpansion", "Whether claims may grow.", (o) => o.allowVolumeExpansion === true),
    ],
    "policy/poddisruptionbudgets": [
      text("Min Available", "Pods that must stay available.", (o) =>
        budget(field(o, "spec", "minAvailable")),
      ),
      text("Max Unavailable", "Pods that may be unavailable.", (o) =>
        budget(field(o, "spec", "maxUnavailable")),
      ),
      integer("Allowed Disruptions", "Evictions allowed now.", (o) =>
        num(field(o, "status", "disruptionsAllowed")),
      ),
    ],
  };
}
