export * from "./finalizer.js";
export * from "./finalizers.js";
export * from "./keys.js";
export * from "./owner-references.js";
