/**
 * The course's fixtures, the `kube-controller-workbook/workbook` entry point: the workbook's own API group
 * (the ConfigSet and Bucket CRDs, their install and typed client: what an operator project's `api/` and
 * `config/crd/` hold) and the fake cloud a finalizer cleans up. Not part of client-go; the notebooks and labs
 * use them as the "outside world" and the custom resources a controller owns. Also the capstone's harness
 * (`StaticSiteReplica`: one crashable, re-campaigning replica of notebook 10's operator) and notebook 01's
 * measuring harness (`ChangeWriter`, `sweep`: what polling and watching cost the API server).
 */
export * from "./capstone/index.js";
export * from "./fake-cloud/index.js";
export * from "./watch-vs-poll/index.js";
export * from "./workbook-api/index.js";
