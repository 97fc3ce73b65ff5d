/**
 * The shape of the question bank: interview-style questions, each tied to the notebook section that
 * demonstrates its answer. Notebooks show them (with the answer folded away), `workbook quiz` asks them, and the
 * mock interview compares a typed answer with each question's key points.
 */

/** The topics of the learning path, one per idea of the controller pattern plus the API basics around it. */
export const TOPICS = {
  "api-basics": "the Kubernetes API: objects, resourceVersion, Status errors, backends",
  watch: "watch, don't poll: one LIST, then a stream of changes",
  cache: "the local cache: reflector, store, indexer, lister",
  informer: "one shared informer per resource: one watch, many handlers",
  workqueue: "keys on a deduplicating, rate-limited queue",
  reconcile: "level-triggered, idempotent reconcile; resync as a safety net",
  deletion: "deletion as a protocol: finalizers, owner references, garbage collection",
  "leader-election": "only one replica acts: Leases and optimistic concurrency",
  operators: "putting it together: status, conditions, events, metrics",
  debugging: "the failures met in a first operator and how to diagnose them",
  testing: "testing controllers: fake clients, envtest, real clusters",
} as const;

/** A topic key of {@link TOPICS}. */
export type Topic = keyof typeof TOPICS;

/** How hard a question is in an interview: recall, explain a trade-off, or reason about a failure. */
export type Difficulty = "basic" | "intermediate" | "advanced";

/** The difficulties in increasing order. */
export const DIFFICULTIES: readonly Difficulty[] = ["basic", "intermediate", "advanced"];

/**
 * One thing a good answer says. The mock interview counts it as covered when the typed answer contains any of
 * `terms` (case-insensitive), so list the words people actually use for it ("opaque", "don't compare").
 */
export interface KeyPoint {
  /** The point, as a reviewer would note it: "resourceVersions are compared only for equality". */
  point: string;
  /** Words or short phrases that show the point was made; at least one. */
  terms: string[];
}

/** One question of the bank. */
export interface Question {
  /** Unique and stable: the notebook's number, a dash, a slug (`00-resource-version`). Progress files use it. */
  id: string;
  /** The question as an interviewer would ask it. */
  question: string;
  /**
   * The model answer, markdown: explains why, names the trade-off, and points back to the notebook section
   * that shows it.
   */
  answer: string;
  /** What the answer must contain, for the mock interview's comparison. */
  keyPoints: KeyPoint[];
  topic: Topic;
  /** The notebook that demonstrates the answer, by file name without `.ipynb`: `00-cluster`. */
  notebook: string;
  /** The section of that notebook, as titled there: "2. Create and list objects". */
  section: string;
  difficulty: Difficulty;
}

/** Declares a notebook's questions with type checking (the bank files use it). */
export function defineQuestions(questions: Question[]): Question[] {
  return questions;
}
