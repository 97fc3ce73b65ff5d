/**
 * The control plane's own controllers, written with the workbook's machinery as kube-controller-manager is
 * written with client-go: the {@link GarbageCollector} (ownerReferences, propagation policies) and the
 * {@link NamespaceController} (empties a Terminating namespace, then finalizes it). The embedded cluster runs
 * them; `startCluster({ embedded: { controllers: { garbageCollector: false } } })` switches one off so a lab can
 * run its own. The {@link ControllerManager} runs them under the Lease `kube-system/kube-controller-manager`;
 * {@link SimulatedNodes} renew node Leases in `kube-node-lease` as kubelets do. Their parts (the owner graph, the graph builder, discovery) are read by path, not exported here.
 */
export * from "./control-plane.js";
export * from "./controller-manager.js";
export * from "./garbage-collector/garbage-collector.js";
export {
  DEFAULT_IGNORED_RESOURCES,
  FOREGROUND_FINALIZER,
  ORPHAN_FINALIZER,
} from "./garbage-collector/graph-builder.js";
export * from "./namespace/namespace-controller.js";
export * from "./node-lease/index.js";
