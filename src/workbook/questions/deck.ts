/**
 * The quiz's deck: questions in random order; one marked unknown comes back in a later round, until every
 * question has been marked known. Pure logic, no I/O, so the terminal quiz and its tests share it.
 */
import type { Question } from "./question.js";

/** A source of uniform numbers in [0, 1), like `Math.random` (a seeded one makes a quiz reproducible). */
export type Random = () => number;

/** A shuffled copy of `items` (Fisher-Yates). */
export function shuffled<T>(items: readonly T[], random: Random = Math.random): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * Rounds of questions. Round 1 is every question, shuffled; each later round is the questions marked unknown in
 * the round before, shuffled again. Invariant: a question is asked again only after every other question of its
 * round has been asked, and the deck is done when a round ends with nothing unknown.
 */
export class QuizDeck {
  private current: Question[];
  private unknown: Question[] = [];
  private asked: Question | undefined;
  /** The round being asked, from 1. */
  round = 1;

  constructor(
    questions: readonly Question[],
    private readonly random: Random = Math.random,
  ) {
    this.current = shuffled(questions, random);
  }

  /** Questions still to ask in this round, including the one just handed out and not yet marked. */
  get remainingInRound(): number {
    return this.current.length + (this.asked ? 1 : 0);
  }

  /** Questions not yet known: this round's rest plus those already marked unknown in it. */
  get left(): number {
    return this.remainingInRound + this.unknown.length;
  }

  /** The next question, or undefined when every question is known. Mark it before asking for another. */
  next(): Question | undefined {
    if (this.asked) throw new Error("QuizDeck: mark the current question before taking the next one");
    if (this.current.length === 0 && this.unknown.length > 0) {
      this.current = shuffled(this.unknown, this.random);
      this.unknown = [];
      this.round++;
    }
    this.asked = this.current.shift();
    return this.asked;
  }

  /** Marks the question handed out last: known ones leave the deck, unknown ones return next round. */
  mark(known: boolean): void {
    if (!this.asked) throw new Error("QuizDeck: no question to mark");
    if (!known) this.unknown.push(this.asked);
    this.asked = undefined;
  }
}
