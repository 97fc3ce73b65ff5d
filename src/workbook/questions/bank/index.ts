/**
 * The whole question bank, notebook by notebook. A notebook's author adds `bank/NN-topic.ts` (questions
 * declared with `defineQuestions`) and one line here; the consistency test (test/unit/questions) then checks that
 * the notebook shows exactly these questions.
 */
import type { Question } from "../question.js";
import { cluster00 } from "./00-cluster.js";
import { watchVsPoll01 } from "./01-watch-vs-poll.js";
import { reflectorAndCache02 } from "./02-reflector-and-cache.js";
import { sharedInformer03 } from "./03-shared-informer.js";
import { workqueue04 } from "./04-workqueue.js";
import { reconcile05 } from "./05-level-triggered-reconcile.js";
import { status06 } from "./06-status-that-tells-the-truth.js";
import { finalizers07 } from "./07-finalizers.js";
import { ownersAndGc08 } from "./08-owners-and-garbage-collection.js";
import { leaderElection09 } from "./09-leader-election.js";
import { capstone10 } from "./10-capstone-operator.js";
import { debugging11 } from "./11-debugging-controllers.js";
import { interview12 } from "./12-interview-preparation.js";
import { concurrency13 } from "./13-concurrency-and-field-ownership.js";
import { events14 } from "./14-which-events-wake-a-controller.js";
import { testing15 } from "./15-testing-a-controller.js";
import { builtinControllers16 } from "./16-the-controllers-you-already-run.js";
import { admission17 } from "./17-admission-and-versions.js";

/** Every question, in notebook order. */
export const QUESTION_BANK: readonly Question[] = [
  ...cluster00,
  ...watchVsPoll01,
  ...reflectorAndCache02,
  ...sharedInformer03,
  ...workqueue04,
  ...reconcile05,
  ...status06,
  ...finalizers07,
  ...ownersAndGc08,
  ...leaderElection09,
  ...capstone10,
  ...debugging11,
  ...interview12,
  ...concurrency13,
  ...events14,
  ...testing15,
  ...builtinControllers16,
  ...admission17,
];
