export * from "./cluster.js";
