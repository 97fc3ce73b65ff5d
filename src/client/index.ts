export * from "./errors.js";
export * from "./list-watch.js";
export * from "./object.js";
export * from "./resource-descriptor.js";
