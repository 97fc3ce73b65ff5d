/**
 * The fake cloud: an in-memory external API (buckets) with counted calls and injectable failures, the
 * "outside world" a finalizer cleans up. See {@link FakeCloud}.
 */
export * from "./call-log.js";
export * from "./errors.js";
export * from "./fake-cloud.js";
export * from "./faults.js";
export * from "./http-server.js";
export * from "./types.js";
