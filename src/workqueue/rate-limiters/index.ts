export * from "./bucket-rate-limiter.js";
export * from "./default-rate-limiters.js";
export * from "./item-exponential-failure-rate-limiter.js";
export * from "./item-fast-slow-rate-limiter.js";
export * from "./max-of-rate-limiter.js";
export type { RateLimiter } from "./rate-limiter.js";
export * from "./with-max-wait-rate-limiter.js";
