import { type Clock, realClock } from "../../clock/clock.js";
import { jitter } from "./jitter.js";
import type { RandomSource } from "./random.js";

/** Parameters of {@link ExponentialBackoffManager}; the defaults are the Reflector's. */
export interface BackoffOptions {
  /** First delay before jitter (default 800 ms). */
  initialMs?: number;
  /** Largest base delay (default 30 s). */
  capMs?: number;
  /** Growth per step (default 2). */
  factor?: number;
  /** Each delay d becomes d + U[0,1) * jitter * d, i.e. [d, 2d) with the default 1.0. */
  jitter?: number;
  /** When more than this has passed since the previous delay was handed out, start over (default 2 min). */
  resetMs?: number;
  clock?: Clock;
  /** Source of U[0,1) for the jitter (default Math.random; pass a seeded one for reproducible runs). */
  random?: RandomSource;
}

/**
 * The Reflector's retry delay: exponential with jitter and a quiet-time reset. Mirrors apimachinery's
 * `wait.NewExponentialBackoffManager(800ms, 30s, 2min, 2.0, 1.0)` used by client-go 1.27-1.35 (1.36 moved to
 * `wait.Backoff{...}.DelayWithReset`, same numbers). With the defaults, successive delays lie in [0.8,1.6),
 * [1.6,3.2), ..., [25.6,51.2) s, then [30,60) s forever: about 0.22 requests per second against a sick server.
 *
 * Invariant: the base delay only grows (by `factor`, up to `capMs`) until a gap longer than `resetMs` between two
 * `next()` calls resets it to `initialMs`, so a watch that stayed healthy for over 2 minutes starts again at 0.8 s.
 */
export class ExponentialBackoffManager {
  private readonly initialMs: number;
  private readonly capMs: number;
  private readonly factor: number;
  private readonly jitterFactor: number;
  private readonly resetMs: number;
  private readonly clock: Clock;
  private readonly random: RandomSource;
  private baseMs: number;
  private lastRequest: number | undefined;

  constructor(options: BackoffOptions = {}) {
    this.initialMs = options.initialMs ?? 800;
    this.capMs = options.capMs ?? 30_000;
    this.factor = options.factor ?? 2;
    this.jitterFactor = options.jitter ?? 1;
    this.resetMs = options.resetMs ?? 120_000;
    this.clock = options.clock ?? realClock;
    this.random = options.random ?? Math.random;
    for (const [name, v] of Object.entries({
      initialMs: this.initialMs,
      capMs: this.capMs,
      factor: this.factor,
      jitter: this.jitterFactor,
      resetMs: this.resetMs,
    })) {
      if (!Number.isFinite(v) || v < 0)
        throw new Error(`backoff ${name} must be a finite number >= 0, got ${v}`);
    }
    this.baseMs = this.initialMs;
  }

  /** The next delay in milliseconds (jittered), advancing the curve. */
  next(): number {
    const now = this.clock.now();
    if (this.lastRequest !== undefined && now - this.lastRequest > this.resetMs) this.baseMs = this.initialMs;
    this.lastRequest = now;
    const base = this.baseMs;
    this.baseMs = Math.min(this.baseMs * this.factor, this.capMs);
    return this.jitterFactor > 0 ? jitter(base, this.jitterFactor, this.random) : base;
  }

  /** Starts the curve over at `initialMs`. */
  reset(): void {
    this.baseMs = this.initialMs;
    this.lastRequest = undefined;
  }
}
