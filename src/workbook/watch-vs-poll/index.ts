/**
 * Notebook 01's measuring harness (watch vs poll): a writer that plays the rest of the cluster, the latency
 * arithmetic, and the sweep over N controllers x M objects x R writes per second that reads kube-apiserver's
 * request and response-size counters. The two observers it measures (a poller and a watcher) are the lesson and
 * stay in the notebook.
 */
export * from "./latency.js";
export * from "./sweep.js";
export * from "./writer.js";
