/**
 * The client-side cache: client-go's `tools/cache` (Reflector, DeltaFIFO, Indexer, SharedIndexInformer) plus its
 * informer factory and listers.
 */
export * from "./delta-fifo.js";
export * from "./factory.js";
export * from "./field-indexer.js";
export * from "./filtering-resource-event-handler.js";
export * from "./index-funcs.js";
export * from "./indexer.js";
export * from "./lister.js";
export * from "./processor-listener.js";
export * from "./reflector.js";
export * from "./shared-index-informer.js";
export * from "./store.js";
export * from "./tombstone.js";
export * from "./wait-for-cache-sync.js";
