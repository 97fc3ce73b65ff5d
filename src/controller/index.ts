/**
 * The controller runner and its helpers: {@link Controller} (workers over a RateLimitingQueue with
 * controller-runtime's result handling), {@link Result} / {@link TerminalError}, the
 * informer-to-queue {@link enqueueHandler}, status conditions and the {@link EventRecorder}.
 */
export * from "./conditions.js";
export * from "./controller.js";
export * from "./enqueue-handler.js";
export * from "./enqueue-mapped.js";
export * from "./event-recorder.js";
export * from "./expectations.js";
export type { Predicate } from "./predicates.js";
export * as predicate from "./predicates.js";
export { withPredicates } from "./predicates.js";
export * from "./result.js";
