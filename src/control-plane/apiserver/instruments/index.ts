export * from "./faults.js";
export * from "./instruments.js";
export * from "./metrics.js";
