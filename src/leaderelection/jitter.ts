/** A source of uniform random numbers in [0, 1), like `Math.random`. */
export type RandomSource = () => number;

/**
 * A seeded pseudo-random source (mulberry32): the same seed gives the same sequence, so a jittered election
 * can be replayed exactly from the seed a failing test prints.
 */
export function seededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * apimachinery's `wait.Jitter`: `duration + random * maxFactor * duration`. With the elector's 2 s retry
 * period and factor 1.2 the result lies in [2 s, 4.4 s). A factor of 0 or less means 1.
 */
export function jitter(duration: number, maxFactor: number, random: RandomSource = Math.random): number {
  const factor = maxFactor <= 0 ? 1 : maxFactor;
  return duration + random() * factor * duration;
}
