/**
 * The wrong answers and alternatives of the labs' Go tracks (`"track": "go"` in answer.json), graded: see
 * support/wrong-answer-suite.ts. A file of its own so vitest runs it beside the TypeScript track's.
 */
import { wrongAnswerSuite } from "./support/wrong-answer-suite.js";

wrongAnswerSuite("go");
