/** Small pure helpers over object metadata: finalizers (and the finalizer protocol) and owner references. */
export * from "./finalizers.js";
export * from "./owner-references.js";
