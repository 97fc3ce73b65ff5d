/**
 * Injected randomness. Every jitter in the workbook (reflector backoff, leader-election retries) draws from a
 * {@link RandomSource}; tests and notebooks pass {@link seededRandom} so a run can be replayed exactly.
 */

/** A source of uniform random numbers in [0, 1), like `Math.random`. */
export type RandomSource = () => number;

/**
 * A seeded pseudo-random source (mulberry32): the same seed gives the same sequence, so a jittered run (an
 * election, a backoff curve) can be replayed exactly from the seed a failing test prints.
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
