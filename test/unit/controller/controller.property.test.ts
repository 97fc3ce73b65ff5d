/**
 * Property test of the runner: random enqueues, clock advances and reconcile outcomes (success, error,
 * requeueAfter, slow) with several workers. Whatever the interleaving, a key is never reconciled by two workers
 * at once, and every enqueued key is reconciled after its last enqueue. fast-check prints seed and counterexample.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../src/clock/index.js";
import { Controller, Result } from "../../../src/controller/index.js";
import { ItemExponentialFailureRateLimiter, RateLimitingQueue } from "../../../src/workqueue/index.js";

type Outcome = "ok" | "fail" | "requeueAfter" | "slow";
type Step = { t: "enqueue"; key: string } | { t: "advance"; ms: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ t: fc.constant("enqueue" as const), key: fc.constantFrom("a", "b", "c", "d") }),
  fc.record({ t: fc.constant("advance" as const), ms: fc.integer({ min: 0, max: 40 }) }),
);

describe("Controller properties (fast-check)", () => {
  it("never reconciles a key concurrently and never loses an enqueue", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 60 }),
        fc.array(fc.constantFrom<Outcome>("ok", "fail", "requeueAfter", "slow"), { maxLength: 40 }),
        fc.integer({ min: 1, max: 4 }),
        async (steps, outcomes, workers) => {
          const clock = new FakeClock(0);
          let seq = 0;
          const active = new Set<string>();
          const lastEnqueue = new Map<string, number>();
          const lastStart = new Map<string, number>();
          let concurrent = "";
          let next = 0;
          const queue = new RateLimitingQueue<string>({
            clock,
            rateLimiter: new ItemExponentialFailureRateLimiter<string>(1, 64),
          });
          const c = new Controller({
            name: "prop",
            clock,
            queue,
            workers,
            onError: () => undefined,
            reconcile: async (key) => {
              if (active.has(key)) concurrent = key;
              active.add(key);
              lastStart.set(key, ++seq);
              const outcome = outcomes[next++] ?? "ok";
              try {
                if (outcome === "slow") await clock.sleep(25);
                if (outcome === "fail") throw new Error("fail");
                if (outcome === "requeueAfter") return Result.requeueAfter(30);
                return undefined;
              } finally {
                active.delete(key);
              }
            },
          });
          c.start();
          for (const s of steps) {
            if (s.t === "enqueue") {
              lastEnqueue.set(s.key, ++seq);
              c.enqueue(s.key);
            } else {
              await clock.advance(s.ms);
            }
          }
          // Outcomes run out (then everything succeeds); let retries and requeues play out.
          const busy = () => queue.len() > 0 || queue.waitingLen() > 0 || queue.state().processing.length > 0;
          for (let i = 0; i < 200 && busy(); i++) await clock.advance(100);
          expect(busy()).toBe(false);
          expect(concurrent).toBe("");
          for (const [key, at] of lastEnqueue) {
            expect(lastStart.get(key) ?? -1, `${key} enqueued at ${at}`).toBeGreaterThan(at);
          }
          await c.stop();
          expect(clock.pendingTimers()).toBe(0);
        },
      ),
      { numRuns: 100 },
    );
  });
});
