/**
 * The wrong answers and alternatives of every lab's TypeScript track, graded: see support/wrong-answer-suite.ts.
 * The Go track's run in wrong-answers-go.test.ts, beside this file.
 */
import { wrongAnswerSuite } from "./support/wrong-answer-suite.js";

wrongAnswerSuite("typescript");
