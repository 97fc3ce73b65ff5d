export * from "./keys.js";
