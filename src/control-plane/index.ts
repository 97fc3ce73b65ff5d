/**
 * The control plane, the `kube-controller-workbook/control-plane` entry point: the built-in controllers
 * (kube-controller-manager's role: garbage collector, namespace controller, node lease monitor, the controller
 * manager that runs them under leader election, simulated nodes) and every cluster backend (`startCluster()`
 * embedded, kind, envtest, kubeconfig), and a small admission webhook server (`startWebhookServer`). The
 * embedded API server has its own entry point, `/apiserver`.
 */
export * from "./admission/webhook-server.js";
export * from "./builtin-controllers/index.js";
export * from "./cluster/index.js";
