/**
 * kube-controller-workbook: the Kubernetes controller machinery, client-go's concepts in TypeScript idiom.
 * This root entry point is what a learner meets first: the floor (`src/apimachinery`), the clock, the client,
 * the cache, the workqueue, the controller runner, leader election, the metadata helpers, the built-in
 * controllers, `startCluster()`, the fake cloud (an external API for finalizer notebooks and labs) and the
 * workbook's own API (`installWorkbookApi`, ConfigSet, Bucket).
 *
 * The rest lives behind its own entry point:
 * - `kube-controller-workbook/apiserver`: the embedded Kubernetes API server and its instruments;
 * - `kube-controller-workbook/viz`: pictures from live state for the notebooks;
 * - `kube-controller-workbook/grading`: lab and notebook checks;
 * - `kube-controller-workbook/questions`: the question bank and quiz logic.
 */
export * from "./apimachinery/index.js";
export * from "./cache/index.js";
export * from "./client/index.js";
export * from "./clock/index.js";
export * from "./control-plane/builtin-controllers/index.js";
export * from "./control-plane/cluster/index.js";
export * from "./controller/index.js";
export * from "./leaderelection/index.js";
export * from "./meta/index.js";
export * from "./workbook/fake-cloud/index.js";
export * from "./workbook/workbook-api/index.js";
export * from "./workqueue/index.js";
