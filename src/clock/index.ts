export * from "./clock.js";
export * from "./fake-clock.js";
