/**
 * The graders (src/workbook/graders/) are built with the package, so they cannot take the type of a lab's module
 * from solutions/: each one states the module it grades as a contract type (`WatcherModule`, `ControllerModule`...).
 * These checks are for `tsc` (npm test runs it over test/): the shipped skeleton in labs/ and the reference solution
 * must both fit the contract, so a grader, a skeleton and a solution cannot drift apart. The runtime part only
 * keeps vitest's count honest; the type assertions are what fails.
 */
import { readFileSync } from "node:fs";
import { describe, expect, expectTypeOf, it } from "vitest";
import type * as lab01 from "../../../labs/01-watch/watcher.js";
import type * as lab02 from "../../../labs/02-reflector/store.js";
import type * as lab03 from "../../../labs/03-informer/fan-out.js";
import type * as lab04 from "../../../labs/04-workqueue/workqueue.js";
import type * as lab05 from "../../../labs/05-reconcile/controller.js";
import type * as lab06 from "../../../labs/06-status/controller.js";
import type * as lab07 from "../../../labs/07-finalizers/controller.js";
import type * as lab08 from "../../../labs/08-garbage-collection/collector.js";
import type * as lab09 from "../../../labs/09-leader-election/lease-candidate.js";
import type * as lab10 from "../../../labs/10-operator/operator.js";
import type * as lab11 from "../../../labs/11-apply/controller.js";
import type * as lab12 from "../../../labs/12-watches/controller.js";
import type * as lab12watches from "../../../labs/12-watches/watches.js";
import type * as lab13 from "../../../labs/13-tests/tests.js";
import type * as lab14 from "../../../labs/14-webhook/webhook.js";
import type * as solution01 from "../../../solutions/01-watch/watcher.js";
import type * as solution02 from "../../../solutions/02-reflector/store.js";
import type * as solution03 from "../../../solutions/03-informer/fan-out.js";
import type * as solution04 from "../../../solutions/04-workqueue/workqueue.js";
import type * as solution05 from "../../../solutions/05-reconcile/controller.js";
import type * as solution06 from "../../../solutions/06-status/controller.js";
import type * as solution07 from "../../../solutions/07-finalizers/controller.js";
import type * as solution08 from "../../../solutions/08-garbage-collection/collector.js";
import type * as solution09 from "../../../solutions/09-leader-election/lease-candidate.js";
import type * as solution10 from "../../../solutions/10-operator/operator.js";
import type * as solution11 from "../../../solutions/11-apply/controller.js";
import type * as solution12 from "../../../solutions/12-watches/controller.js";
import type * as solution12watches from "../../../solutions/12-watches/watches.js";
import type * as solution13 from "../../../solutions/13-tests/tests.js";
import type * as solution14 from "../../../solutions/14-webhook/webhook.js";
import type { WatcherModule as Contract01 } from "../../../src/workbook/graders/01-watch.js";
import type { StoreModule as Contract02 } from "../../../src/workbook/graders/02-reflector.js";
import type { FanOutModule as Contract03 } from "../../../src/workbook/graders/03-informer.js";
import type { QueueModule as Contract04 } from "../../../src/workbook/graders/04-workqueue.js";
import type { ControllerModule as Contract05 } from "../../../src/workbook/graders/05-reconcile.js";
import type { ControllerModule as Contract06 } from "../../../src/workbook/graders/06-status.js";
import type { ControllerModule as Contract07 } from "../../../src/workbook/graders/07-finalizers.js";
import type { CollectorModule as Contract08 } from "../../../src/workbook/graders/08-garbage-collection.js";
import type { CandidateModule as Contract09 } from "../../../src/workbook/graders/09-leader-election.js";
import type { OperatorModule as Contract10 } from "../../../src/workbook/graders/10-operator.js";
import type { ControllerModule as Contract11 } from "../../../src/workbook/graders/11-apply.js";
import type {
  ControllerModule as Contract12,
  WatchesModule as Contract12Watches,
} from "../../../src/workbook/graders/12-watches.js";
import { type TestsModule as Contract13, MUTANTS, mutate } from "../../../src/workbook/graders/13-tests.js";
import type { WebhookModule as Contract14 } from "../../../src/workbook/graders/14-webhook.js";

describe("grader contracts", () => {
  it("01-watch: the skeleton and the solution export what the grader drives", () => {
    expectTypeOf<typeof lab01>().toExtend<Contract01>();
    expectTypeOf<typeof solution01>().toExtend<Contract01>();
  });
  it("02-reflector: the skeleton and the solution export what the grader drives", () => {
    expectTypeOf<typeof lab02>().toExtend<Contract02>();
    expectTypeOf<typeof solution02>().toExtend<Contract02>();
  });
  it("03-informer: the skeleton and the solution export what the grader drives", () => {
    expectTypeOf<typeof lab03>().toExtend<Contract03>();
    expectTypeOf<typeof solution03>().toExtend<Contract03>();
  });
  it("04-workqueue: the skeleton and the solution export what the grader drives", () => {
    expectTypeOf<typeof lab04>().toExtend<Contract04>();
    expectTypeOf<typeof solution04>().toExtend<Contract04>();
  });
  it("05-reconcile: the skeleton and the solution export what the grader drives", () => {
    expectTypeOf<typeof lab05>().toExtend<Contract05>();
    expectTypeOf<typeof solution05>().toExtend<Contract05>();
  });
  it("06-status: the skeleton and the solution export what the grader drives", () => {
    expectTypeOf<typeof lab06>().toExtend<Contract06>();
    expectTypeOf<typeof solution06>().toExtend<Contract06>();
  });
  it("07-finalizers: the skeleton and the solution export what the grader drives", () => {
    expectTypeOf<typeof lab07>().toExtend<Contract07>();
    expectTypeOf<typeof solution07>().toExtend<Contract07>();
  });
  it("08-garbage-collection: the skeleton and the solution export what the grader drives", () => {
    expectTypeOf<typeof lab08>().toExtend<Contract08>();
    expectTypeOf<typeof solution08>().toExtend<Contract08>();
  });
  it("09-leader-election: the skeleton and the solution export what the grader drives", () => {
    expectTypeOf<typeof lab09>().toExtend<Contract09>();
    expectTypeOf<typeof solution09>().toExtend<Contract09>();
  });
  it("10-operator: the skeleton and the solution export what the grader drives", () => {
    expectTypeOf<typeof lab10>().toExtend<Contract10>();
    expectTypeOf<typeof solution10>().toExtend<Contract10>();
  });
  it("11-apply: the skeleton and the solution export what the grader drives", () => {
    expectTypeOf<typeof lab11>().toExtend<Contract11>();
    expectTypeOf<typeof solution11>().toExtend<Contract11>();
  });
  it("12-watches: the skeleton and the solution export what the grader drives", () => {
    expectTypeOf<typeof lab12>().toExtend<Contract12>();
    expectTypeOf<typeof solution12>().toExtend<Contract12>();
    expectTypeOf<typeof lab12watches>().toExtend<Contract12Watches>();
    expectTypeOf<typeof solution12watches>().toExtend<Contract12Watches>();
  });
  it("13-tests: the skeleton and the solution export what the grader drives", () => {
    expectTypeOf<typeof lab13>().toExtend<Contract13>();
    expectTypeOf<typeof solution13>().toExtend<Contract13>();
  });
  it("13-tests: the given files are the same in labs/ and solutions/, and every mutant applies to controller.ts", () => {
    const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), "utf8");
    for (const file of ["controller.ts", "testing.ts"])
      expect(read(`solutions/13-tests/${file}`), file).toBe(read(`labs/13-tests/${file}`));
    const source = read("labs/13-tests/controller.ts");
    for (const mutant of MUTANTS) expect(mutate(source, mutant), mutant.name).not.toBe(source);
    expect(new Set(MUTANTS.map((m) => m.name)).size).toBe(MUTANTS.length);
  });
  it("14-webhook: the skeleton and the solution export what the grader drives, and webhook.ts is given", () => {
    expectTypeOf<typeof lab14>().toExtend<Contract14>();
    expectTypeOf<typeof solution14>().toExtend<Contract14>();
    const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), "utf8");
    expect(read("solutions/14-webhook/webhook.ts")).toBe(read("labs/14-webhook/webhook.ts"));
  });
});
