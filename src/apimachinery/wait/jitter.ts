import type { RandomSource } from "./random.js";

/**
 * apimachinery's `wait.Jitter`: `duration + random * maxFactor * duration`. With the leader elector's 2 s retry
 * period and factor 1.2 the result lies in [2 s, 4.4 s). A factor of 0 or less means 1.
 */
export function jitter(duration: number, maxFactor: number, random: RandomSource = Math.random): number {
  const factor = maxFactor <= 0 ? 1 : maxFactor;
  return duration + random() * factor * duration;
}
