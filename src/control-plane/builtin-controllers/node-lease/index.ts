export * from "./node-lease-monitor.js";
export * from "./simulated-nodes.js";
