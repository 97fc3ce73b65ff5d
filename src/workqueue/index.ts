/**
 * The workqueue family (client-go `util/workqueue`): {@link Queue} -> {@link DelayingQueue} ->
 * {@link RateLimitingQueue}, the rate limiters, and the queue metrics.
 */

export * from "./delaying-queue.js";
export * from "./metrics.js";
export * from "./queue.js";
export * from "./rate-limiters/index.js";
export * from "./rate-limiting-queue.js";
