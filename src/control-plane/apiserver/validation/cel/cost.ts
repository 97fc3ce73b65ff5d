/**
 * The runtime cost limits of CRD validation rules (k8s.io/apiserver/pkg/apis/cel/config.go): one rule may cost
 * at most {@link PER_CALL_LIMIT} (`PerCallLimit`), all rules of one object together {@link RUNTIME_BUDGET}
 * (`RuntimeCELCostBudget`). cel-go counts a cost unit per evaluation step; `@bufbuild/cel` counts nothing, so
 * this meter charges each element a rule reads from a list (the loops of `all`, `exists`, `map`, `filter`,
 * `sum`, `indexOf` ...) with the rule's static weight per iteration (its expression nodes). Nested loops over the
 * object's lists multiply as cel-go's costs do, and a runaway rule stops at the limit instead of hanging the
 * server: the meter throws from inside the evaluation.
 *
 * Invariant: a meter is used by one evaluation at a time (evaluation is synchronous).
 */

/** `PerCallLimit`: the most one rule's evaluation may cost. */
export const PER_CALL_LIMIT = 1_000_000;

/** `RuntimeCELCostBudget`: the most all rules of one object may cost together. */
export const RUNTIME_BUDGET = 10_000_000;

/** Thrown by the meter once a rule has spent its limit. */
class CostLimitExceeded extends Error {
  constructor() {
    super("operation cancelled: actual cost limit exceeded");
  }
}

/** The cost meter of one rule evaluation. */
export class CostMeter {
  spent = 0;
  exceeded = false;
  /** The weight of one element read (set per rule before it runs). */
  weight = 1;

  constructor(private readonly limit: number) {}

  /** Starts a rule's evaluation: nothing spent yet. */
  reset(weight: number): void {
    this.spent = 0;
    this.exceeded = false;
    this.weight = weight;
  }

  /** Charges one element read; throws once the limit is passed. */
  charge(): void {
    this.spent += this.weight;
    if (this.spent > this.limit) {
      this.exceeded = true;
      throw new CostLimitExceeded();
    }
  }

  /** A list whose element reads are charged to this meter (what a rule iterates over). */
  metered<T>(items: T[]): T[] {
    return new Proxy(items, {
      get: (target, prop, receiver) => {
        if (
          typeof prop === "string" &&
          prop.length > 0 &&
          prop.charCodeAt(0) >= 48 &&
          prop.charCodeAt(0) <= 57
        ) {
          this.charge();
        }
        return Reflect.get(target, prop, receiver);
      },
    });
  }
}
