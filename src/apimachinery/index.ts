/**
 * The floor every other folder stands on, in apimachinery's role: object and metadata types, cache keys,
 * label and field selectors, name validation, `Status` errors, lifecycle helpers and the `wait` module
 * (abortable waits, jitter, backoff, seeded random). The one O(1) ring buffer (`ring-buffer.ts`) is internal:
 * the workqueue and the informer import it by path.
 *
 * Imports run downward only: this folder imports nothing of the workbook but the clock. The embedded server
 * (`src/control-plane/apiserver`) and the machinery (`client/`, `cache/`, `workqueue/`, `controller/`, `leaderelection/`,
 * `meta/`) both stand on it and never on each other; `test/docs/layers.test.ts` keeps it that way.
 */
export * from "./errors.js";
export * from "./keys.js";
export * from "./lifecycle.js";
export * from "./object.js";
export * from "./selectors/field-selector.js";
export * from "./selectors/label-selector.js";
export * from "./validation/names.js";
export * from "./wait/index.js";
