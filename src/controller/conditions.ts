/**
 * Status conditions, as apimachinery's `meta.SetStatusCondition` and friends (`k8s.io/apimachinery/pkg/api/meta
 * conditions.go`) manage a `[]metav1.Condition`.
 *
 * Rules:
 * - at most one condition per `type`;
 * - `lastTransitionTime` changes ONLY when `status` changes (a new reason or message is not a transition);
 * - `observedGeneration` records which `metadata.generation` the controller looked at when it set the condition,
 *   so readers can tell a stale "Ready=True" from a current one.
 *
 * Like the Go helpers these mutate the array they are given and report whether anything changed, so a
 * controller can skip a no-op status write (a common cause of hot loops).
 */
import { type Clock, realClock } from "../clock/index.js";

/** The three statuses a condition can have. */
export type ConditionStatus = "True" | "False" | "Unknown";

/**
 * A status condition: metav1.Condition (named StatusCondition here so it is not confused with a poll condition).
 * Times are RFC 3339 strings on the wire; a `Date` is accepted too.
 */
export interface StatusCondition {
  type: string;
  status: ConditionStatus;
  observedGeneration?: number;
  lastTransitionTime?: string | Date;
  reason: string;
  message?: string;
}

/** RFC 3339 with second precision, as metav1.Time serialises. */
export function formatMetaTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

function validate(c: StatusCondition): void {
  if (!c || typeof c.type !== "string" || c.type === "")
    throw new TypeError("condition.type must be a non-empty string");
  if (c.status !== "True" && c.status !== "False" && c.status !== "Unknown") {
    throw new TypeError(
      `condition ${c.type}: status must be "True", "False" or "Unknown", got ${String(c.status)}`,
    );
  }
  if (typeof c.reason !== "string" || c.reason === "") {
    throw new TypeError(`condition ${c.type}: reason must be a non-empty string`);
  }
}

/** The condition of type `type`, or undefined. */
export function findStatusCondition(
  conditions: readonly StatusCondition[] | undefined,
  type: string,
): StatusCondition | undefined {
  return conditions?.find((c) => c.type === type);
}

/**
 * Adds or updates the condition of `condition.type` in place. A new condition, or a status change, sets
 * `lastTransitionTime` (to the given one, else to the clock's now); reason, message and observedGeneration are
 * copied without touching it. Returns true if anything changed.
 */
export function setStatusCondition(
  conditions: StatusCondition[],
  condition: StatusCondition,
  clock: Clock = realClock,
): boolean {
  validate(condition);
  const existing = findStatusCondition(conditions, condition.type);
  if (!existing) {
    conditions.push({
      ...condition,
      lastTransitionTime: condition.lastTransitionTime ?? formatMetaTime(clock.now()),
    });
    return true;
  }
  let changed = false;
  if (existing.status !== condition.status) {
    existing.status = condition.status;
    existing.lastTransitionTime = condition.lastTransitionTime ?? formatMetaTime(clock.now());
    changed = true;
  }
  if (existing.reason !== condition.reason) {
    existing.reason = condition.reason;
    changed = true;
  }
  if ((existing.message ?? "") !== (condition.message ?? "")) {
    existing.message = condition.message;
    changed = true;
  }
  if (existing.observedGeneration !== condition.observedGeneration) {
    existing.observedGeneration = condition.observedGeneration;
    changed = true;
  }
  return changed;
}

/** Removes the condition of `type` in place; returns true if one was removed. */
export function removeStatusCondition(conditions: StatusCondition[], type: string): boolean {
  const i = conditions.findIndex((c) => c.type === type);
  if (i < 0) return false;
  conditions.splice(i, 1);
  return true;
}

/** True if the condition exists with status `status`. */
export function isStatusConditionPresentAndEqual(
  conditions: readonly StatusCondition[] | undefined,
  type: string,
  status: ConditionStatus,
): boolean {
  return findStatusCondition(conditions, type)?.status === status;
}

/** True if the condition exists and is "True". */
export function isStatusConditionTrue(
  conditions: readonly StatusCondition[] | undefined,
  type: string,
): boolean {
  return isStatusConditionPresentAndEqual(conditions, type, "True");
}

/** True if the condition exists and is "False". */
export function isStatusConditionFalse(
  conditions: readonly StatusCondition[] | undefined,
  type: string,
): boolean {
  return isStatusConditionPresentAndEqual(conditions, type, "False");
}
