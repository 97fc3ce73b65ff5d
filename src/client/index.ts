/** The client layer: ListWatch and resource descriptors on top of @kubernetes/client-node. */
export * from "./list-watch.js";
export * from "./resource-descriptor.js";
