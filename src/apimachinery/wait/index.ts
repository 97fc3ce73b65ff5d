/**
 * apimachinery's `wait` package, the TypeScript way: abortable waits ({@link untilAborted}, {@link Wakeup}),
 * {@link jitter}, the reflector's {@link ExponentialBackoffManager}, and an injectable, seedable
 * {@link RandomSource}. Time always comes from an injected `Clock`.
 */
export * from "./backoff.js";
export * from "./jitter.js";
export * from "./random.js";
export * from "./until-aborted.js";
